"""The generated modules are what the served document makes today, and match the TypeScript client."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from innkeep import models
from innkeep._operations import OPERATIONS
from innkeep._table import RESOURCES

HERE = Path(__file__).resolve().parents[1]
REPO = HERE.parents[1]
GENERATED = ("models.py", "_operations.py", "_resources.py", "_params.py")


@pytest.fixture(scope="module")
def document(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The served document: INNKEEP_OPENAPI when set, else written by the repository's `npm run openapi`."""
    given = os.environ.get("INNKEEP_OPENAPI")
    if given:
        return Path(given)
    target = tmp_path_factory.mktemp("doc") / "openapi.json"
    subprocess.run(["npm", "run", "--silent", "openapi", "--", str(target)], cwd=REPO, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return target


def test_generated_modules_match_the_served_document(document: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, str(HERE / "scripts" / "generate.py"), str(document), "--out", folder], check=True, stderr=subprocess.DEVNULL)
        for name in GENERATED:
            fresh = (Path(folder) / name).read_text()
            kept = (HERE / "src" / "innkeep" / name).read_text()
            assert fresh == kept, f"src/innkeep/{name} is out of date: run `python scripts/generate.py` in clients/python"


def test_every_schema_is_the_model_of_its_own_name(document: Path) -> None:
    # A model named after a component must be that component (not an inline object that took its name).
    for name, schema in json.loads(document.read_text())["components"]["schemas"].items():
        model = getattr(models, name)
        assert issubclass(model, BaseModel)
        fields = {f.alias or key for key, f in model.model_fields.items()}
        assert set(schema.get("properties", {})) <= fields, name


def _ts_table() -> dict[str, dict[str, str]]:
    source = (REPO / "clients" / "typescript" / "src" / "resources.ts").read_text()
    body = source[source.index("export const resourceTable = {") : source.index("} as const satisfies")]
    table: dict[str, dict[str, str]] = {}
    for resource, methods in re.findall(r"(\w+): \{(.*?)\}", body, re.S):
        table[resource] = dict(re.findall(r"(\w+): \"(\w+)\"", methods))
    return table


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def test_the_resources_are_the_typescript_clients_in_snake_case() -> None:
    renamed = {"del": "delete"}  # `del` is a Python keyword
    expected: dict[str, Any] = {
        _snake(resource): {renamed.get(m, _snake(m)): op for m, op in methods.items()} for resource, methods in _ts_table().items()
    }
    assert RESOURCES == expected
    assert all(op in OPERATIONS for methods in RESOURCES.values() for op in methods.values())
