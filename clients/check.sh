#!/usr/bin/env bash
# The client libraries' own checks (no server needed): the TypeScript client's vector test, and
# for Python its tests (shared vectors, drift of the generated modules), mypy --strict, and the
# wheel and sdist installed into a fresh environment; for Go vet, staticcheck and go test -race; for
# PHP `php -l` on every file, `composer validate` and PHPUnit (vectors, drift of the generated files).
#   clients/check.sh [typescript] [python] [go] [php]     (default: all)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
clients=("$@")
[[ ${#clients[@]} -gt 0 ]] || clients=(typescript python go php)

# One document for every drift test, written once.
export INNKEEP_OPENAPI="${INNKEEP_OPENAPI:-$(mktemp -d)/openapi.json}"
[[ -s "$INNKEEP_OPENAPI" ]] || (cd "$root" && LOG_LEVEL=silent npm run --silent openapi -- "$INNKEEP_OPENAPI" >/dev/null 2>&1)

check_typescript() {
  (cd "$root" && npx vitest run --project unit tests/unit/client-vectors.test.ts)
}

check_python() {
  local dir="$here/python"
  if [[ ! -x "$dir/.venv/bin/pytest" ]]; then
    python3 -m venv "$dir/.venv"
    "$dir/.venv/bin/pip" install -q -r "$dir/requirements-dev.txt" -e "$dir"
  fi
  (cd "$dir" && .venv/bin/pytest -q -p no:cacheprovider && .venv/bin/mypy --strict src tests examples && scripts/check-build.sh)
}

check_go() {
  (cd "$here/go" && go vet ./... && go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./... && go test -race -count=1 ./...)
}

check_php() {
  local dir="$here/php" file
  while IFS= read -r -d '' file; do
    php -l "$file" >/dev/null || { php -l "$file"; return 1; }
  done < <(find "$dir" -name '*.php' -not -path '*/vendor/*' -print0)
  (cd "$dir" && composer validate --strict --no-check-publish --no-interaction -q && phpunit --testsuite unit)
}

status=0
for client in "${clients[@]}"; do
  echo "== checks: $client"
  "check_$client" || status=1
done
exit $status
