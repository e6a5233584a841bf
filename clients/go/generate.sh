#!/usr/bin/env bash
# Regenerates types.gen.go and resources.gen.go from the served OpenAPI document:
#   clients/go/generate.sh [openapi.json] [out dir]
# Without a document it writes one with the repository's `npm run openapi`. The types come from
# oapi-codegen (pinned below; fetched from the Go module proxy, never a dependency of the
# module), made standard-library only by ./internal/gen, which also writes the resources from
# its table. The drift test (generated_test.go) runs this into a temporary folder and compares.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
oapi_codegen="github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
document="${1:-}"
if [[ -z "$document" ]]; then
  document="$scratch/openapi.json"
  (cd "$here/../.." && npm run --silent openapi -- "$document" >/dev/null 2>&1)
fi
out="${2:-$here}"
mkdir -p "$out"
(cd "$here" && go run "$oapi_codegen" -config oapi-codegen.yaml -o "$scratch/types.gen.go" "$document")
(cd "$here" && go run ./internal/gen "$document" "$scratch/types.gen.go" "$out")
