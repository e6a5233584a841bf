#!/usr/bin/env bash
# Prints the path of the pinned stripe-mock (Stripe's mock of its API, a Go program), installing
# it first with `go install` where it is missing: the test run and .ci/run both call this, so every
# machine runs the same version from the same place.
#   scripts/stripe-mock.sh            → /root/.cache/innkeep/stripe-mock-v0.203.0/stripe-mock
# STRIPE_MOCK_GOBIN names another folder for the binary.
set -euo pipefail
version=v0.203.0
gobin="${STRIPE_MOCK_GOBIN:-${XDG_CACHE_HOME:-$HOME/.cache}/innkeep/stripe-mock-$version}"
binary="$gobin/stripe-mock"
if [[ ! -x "$binary" ]]; then
  command -v go >/dev/null 2>&1 || { echo "stripe-mock $version is not installed and Go is missing: install Go, or set STRIPE_MOCK_URL to a running stripe-mock." >&2; exit 1; }
  mkdir -p "$gobin"
  echo "installing stripe-mock $version into $gobin (go install, about a minute)" >&2
  # Outside the repository: go install of a versioned path needs no module here.
  (cd "$gobin" && GOBIN="$gobin" GOFLAGS=-mod=mod go install "github.com/stripe/stripe-mock@$version") >&2
fi
echo "$binary"
