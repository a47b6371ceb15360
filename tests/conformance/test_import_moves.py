"""DRL204 and ``--fix`` against a real Airflow 3.3.2: gone fails, moved and written imports work.

Over Airflow 2.10.5's example DAGs, every ``from airflow... import name`` that DRL204 reports as
gone must fail in the pinned Airflow 3.3.2 venv, every one it reports as moved must still import
(through the shim), and every import statement that ``--fix`` wrote must import. Only Airflow's
own modules are imported, in the Airflow venv; the DAG files themselves never are.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
from pathlib import Path

import pytest
from airflow_env import _locked, cache_root, download_wheel, ensure_airflow_venv, extract_folder

from dagroute_lint.config import Settings
from dagroute_lint.deployment.inventory import load_inventory
from dagroute_lint.fix import fix_files
from dagroute_lint.pipeline.runner import run
from tests.helpers import CELERY_K8S

pytestmark = pytest.mark.conformance

# Runs ``from module import name`` for each pair on stdin; prints the error of each, or null.
PROBE = """
import json, sys, warnings
warnings.simplefilter("ignore")
result = {}
for module, name in json.load(sys.stdin):
    try:
        exec(f"from {module} import {name}", {})
        result[f"{module}:{name}"] = None
    except Exception as error:
        result[f"{module}:{name}"] = f"{type(error).__name__}: {error}"
print(json.dumps(result))
"""


def absolute_imports(source: bytes) -> set[tuple[str, str]]:
    return {
        (node.module, alias.name)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
        if node.module.split(".")[0] == "airflow"
        for alias in node.names
        if alias.name != "*"
    }


def probe(python: Path, pairs: set[tuple[str, str]], home: Path) -> dict[str, str | None]:
    env = {**os.environ, "AIRFLOW_HOME": str(home)}
    completed = subprocess.run(
        [str(python), "-c", PROBE],
        input=json.dumps(sorted(pairs)),
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    result: dict[str, str | None] = json.loads(completed.stdout.splitlines()[-1])
    return result


def test_gone_moved_and_fixed_imports_behave_as_said_in_airflow_3(tmp_path: Path) -> None:
    airflow = ensure_airflow_venv()
    with _locked(cache_root() / ".wheels.lock"):
        wheel = download_wheel("apache-airflow==2.10.5", airflow.python)
    dags = tmp_path / "dags"
    extract_folder(wheel, "airflow/example_dags/", dags)
    (tmp_path / "dagroute.toml").write_text(CELERY_K8S)
    inventory = load_inventory(tmp_path / "dagroute.toml")
    settings = Settings(root=tmp_path, select=("DRL204",))
    report = run([str(dags)], settings, inventory)

    gone: set[tuple[str, str]] = set()
    moved: set[tuple[str, str]] = set()
    for diagnostic in report.diagnostics:
        path, _, rest = diagnostic.message[1:].partition("' ")
        module, _, name = path.rpartition(".")
        (gone if "is gone in Airflow 3" in rest else moved).add((module, name))
    before = {path: path.read_bytes() for path in dags.rglob("*.py")}
    fix_files(report.diagnostics, write=True)
    written: set[tuple[str, str]] = set()
    for path, old in before.items():
        written |= absolute_imports(path.read_bytes()) - absolute_imports(old)

    assert len(gone) >= 5 and len(moved) >= 30 and len(written) >= 30, (gone, moved, written)
    print(
        f"\nDRL204 against Airflow 3.3.2: {len(gone)} gone, {len(moved)} moved, "
        f"{len(written)} written"
    )
    results = probe(airflow.python, gone | moved | written, tmp_path / "airflow-home")
    assert [p for p in sorted(gone) if results[":".join(p)] is None] == []
    assert {p: results[":".join(p)] for p in moved | written if results[":".join(p)]} == {}
