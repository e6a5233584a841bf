#!/usr/bin/env bash
# Builds the wheel and the sdist, installs each into a fresh virtual environment and imports it
# there (outside the source tree), so that a missing file or dependency fails here, not for a user.
# Usage: clients/python/scripts/check-build.sh   (uses clients/python/.venv for `build`)
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf dist
.venv/bin/python -m build --outdir dist . >/dev/null
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for artifact in dist/*.whl dist/*.tar.gz; do
  python3 -m venv "$scratch/env"
  "$scratch/env/bin/pip" install -q "$artifact"
  (cd "$scratch" && env/bin/python - <<'PY'
import innkeep, innkeep.models
from innkeep import AsyncInnkeep, Innkeep, Webhook
client = Innkeep(api_key="hk_x", base_url="http://localhost:1")
assert client.reservations.create and client.room_types.list and AsyncInnkeep
header = Webhook.generate_test_header(b"{}", "whsec_x", timestamp=1)
Webhook.verify_header(b"{}", header, "whsec_x", tolerance=0)
import importlib.resources
assert importlib.resources.files("innkeep").joinpath("py.typed").is_file()
print("installed and imported", innkeep.__version__, "from", innkeep.__file__)
PY
  )
  rm -rf "$scratch/env"
  echo "ok: $artifact"
done
