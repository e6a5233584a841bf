#!/usr/bin/env bash
# Runs every client library's live suite against a running production Innkeep server.
#
#   clients/live-tests.sh [typescript] [python] [go] [php]           # against the server named by the variables below
#   clients/live-tests.sh --start [typescript] [python] [go] [php]   # starts one itself (clients/live-server.mjs; needs
#                                                 # `npm run build` and PostgreSQL), runs, stops it
#
# Variables (written by clients/live-server.mjs): INNKEEP_LIVE_URL, INNKEEP_LIVE_API_KEY (every
# scope), INNKEEP_LIVE_LIMITED_KEY (rooms:read only), INNKEEP_LIVE_SLOW_KEY (one request a second).
# The server must deliver webhooks to 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE_NETWORKS=1): each suite
# starts its own receiver. Without client names, every client runs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  [[ -n "${env_dir:-}" ]] && rm -rf "$env_dir"
}
trap cleanup EXIT

if [[ "${1:-}" == "--start" ]]; then
  shift
  env_dir="$(mktemp -d)"
  node "$here/live-server.mjs" "$env_dir/live.env" &
  server_pid=$!
  for _ in $(seq 1 600); do
    [[ -s "$env_dir/live.env" ]] && break
    kill -0 "$server_pid" 2>/dev/null || { echo "live-tests: the server did not start" >&2; exit 1; }
    sleep 0.25
  done
  [[ -s "$env_dir/live.env" ]] || { echo "live-tests: the server was not ready in time" >&2; exit 1; }
  set -a
  # shellcheck disable=SC1091
  source "$env_dir/live.env"
  set +a
fi

for name in INNKEEP_LIVE_URL INNKEEP_LIVE_API_KEY INNKEEP_LIVE_LIMITED_KEY INNKEEP_LIVE_SLOW_KEY; do
  [[ -n "${!name:-}" ]] || { echo "live-tests: $name is not set (or pass --start)" >&2; exit 2; }
done

clients=("$@")
[[ ${#clients[@]} -gt 0 ]] || clients=(typescript python go php)

run_typescript() {
  # @innkeep/node from its sources (the repository's tsconfig paths), with Node's test runner.
  (cd "$here/.." && npx tsx --test tests/live/client-typescript.ts)
}

run_python() {
  local dir="$here/python"
  if [[ ! -x "$dir/.venv/bin/pytest" ]]; then
    python3 -m venv "$dir/.venv"
    "$dir/.venv/bin/pip" install -q -r "$dir/requirements-dev.txt" -e "$dir"
  fi
  (cd "$dir" && .venv/bin/pytest -q -m live -p no:cacheprovider tests/test_live.py)
}

run_go() {
  local dir="$here/go"
  [[ -f "$dir/go.mod" ]] || { echo "live-tests: no Go client yet, skipped" >&2; return 0; }
  (cd "$dir" && go test -count=1 -v -run Live . | grep -E "^(=== RUN|--- |ok|FAIL|PASS|    )"; exit "${PIPESTATUS[0]}")
}

run_php() {
  (cd "$here/php" && phpunit --testsuite live --testdox)
}

status=0
for client in "${clients[@]}"; do
  echo "== live suite: $client"
  "run_$client" || status=1
done
exit $status
