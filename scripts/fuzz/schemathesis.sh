#!/usr/bin/env bash
# Fuzzes the REST API with schemathesis against the production server on a throwaway PostgreSQL
# database (started and dropped by clients/live-server.mjs; `npm run build` must have run): every
# phase (examples, coverage, fuzzing, stateful), a fixed seed, a bounded number of examples per
# operation (FUZZ_MAX_EXAMPLES, default 10; FUZZ_SEED, default 26), and the checks for server errors, response schema and
# content-type conformance and negative data rejection. Exceptions live in schemathesis.toml.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
version=4.32.5
venv="$root/.venv-fuzz"

installed=$("$venv/bin/pip" show schemathesis 2>/dev/null | awk '/^Version:/ {print $2}' || true)
if [[ "$installed" != "$version" ]]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "schemathesis==$version"
fi

# Connecting a payment processor checks the key against Stripe: with stripe-mock configured (as
# .ci/run does), the server under fuzz asks it instead of Stripe's API, which this machine cannot
# reach; otherwise every valid-looking key would honestly answer 503.
if [[ -n "${STRIPE_MOCK_URL:-}" ]]; then export STRIPE_API_URL="$STRIPE_MOCK_URL"; fi

env_dir="$(mktemp -d)"
node "$root/clients/live-server.mjs" "$env_dir/live.env" &
server_pid=$!
trap 'kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; rm -rf "$env_dir"' EXIT
for _ in $(seq 1 600); do
  [[ -s "$env_dir/live.env" ]] && break
  kill -0 "$server_pid" 2>/dev/null || { echo "fuzz: the server did not start" >&2; exit 1; }
  sleep 0.25
done
[[ -s "$env_dir/live.env" ]] || { echo "fuzz: the server was not ready in time" >&2; exit 1; }
set -a
# shellcheck disable=SC1091
source "$env_dir/live.env"
set +a

"$venv/bin/st" --config-file "$here/schemathesis.toml" run "$INNKEEP_LIVE_URL/v1/openapi.json" \
  -H "Authorization: Bearer $INNKEEP_LIVE_API_KEY" \
  --phases examples,coverage,fuzzing,stateful \
  --checks not_a_server_error,response_schema_conformance,content_type_conformance,negative_data_rejection \
  --seed "${FUZZ_SEED:-26}" --max-examples "${FUZZ_MAX_EXAMPLES:-10}" --workers 1
