"""The shipped closure against pip: a venv with flower installed holds exactly what we say.

flower and every distribution our table says it brings are pinned to the versions the table was
read from, and pip installs them with dependency resolution on: anything pip adds beyond the
pins is a requirement the table misses, and a pin pip did not need would be one it invents.
Then the import names: every module the venv installs is one the closure provides, imports
there, and a module outside the closure (pandas) is absent.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from dagroute_lint.catalog.data_files import read_table
from dagroute_lint.catalog.distributions import brought_by, import_need
from tests.conformance.airflow_env import _locked, cache_root
from tests.real_venv import ensure_wheels, make_venv

ROOT = "flower"

# What the venv has that no requirement brings: nothing but the venv itself.
VENV_OWN = frozenset({"pip", "setuptools", "wheel"})

LISTING = """
import importlib.metadata as m, json, re
found = {}
for d in m.distributions():
    name = re.sub(r"[-_.]+", "-", d.metadata["Name"]).lower()
    tops = set()
    for f in d.files or ():
        part = f.parts[0]
        if part.endswith((".dist-info", ".data")) or part in ("..", "__pycache__", "bin"):
            continue
        top = part[:-3] if part.endswith(".py") else part
        if top.isidentifier():
            tops.add(top)
    found[name] = sorted(tops)
print(json.dumps(found))
"""


def pins() -> list[str]:
    versions = {
        name: version
        for name, version, _ in read_table(
            "package_dependencies.tsv", ("distribution", "version", "dependency")
        )
        if name is not None and version is not None
    }
    wanted = {ROOT, *brought_by({ROOT})}
    return sorted(f"{name}=={versions[name]}" for name in wanted)


@pytest.fixture(scope="module")
def flower_venv() -> Path:
    """flower and what the table says it brings, installed by pip with dependencies; kept in
    the cache between runs, one venv per set of pins (a finished build leaves a marker)."""
    requirements = pins()
    key = hashlib.sha256("\n".join(requirements).encode()).hexdigest()[:12]
    root = cache_root() / f"flower-closure-{key}"
    marker = root / ".complete"
    with _locked(cache_root() / ".flower-closure.lock"):
        if not marker.exists():
            shutil.rmtree(root, ignore_errors=True)
            ensure_wheels(requirements, with_dependencies=True)
            make_venv(root, requirements, no_deps=False)
            marker.write_text("\n".join(requirements) + "\n", encoding="utf-8")
    return root / "bin" / "python"


def installed(python: Path) -> dict[str, list[str]]:
    completed = subprocess.run(
        [str(python), "-c", LISTING], capture_output=True, text=True, check=True
    )
    listing: dict[str, list[str]] = json.loads(completed.stdout)
    return listing


def test_pip_installs_exactly_the_closure(flower_venv: Path) -> None:
    have = set(installed(flower_venv)) - VENV_OWN
    assert "humanize" in have and "tornado" in have
    assert have == {ROOT, *brought_by({ROOT})}


def test_every_module_flower_brings_is_provided_by_the_closure_and_imports(
    flower_venv: Path,
) -> None:
    closure = {ROOT, *brought_by({ROOT})}
    modules = sorted(
        top
        for name, tops in installed(flower_venv).items()
        if name not in VENV_OWN
        for top in tops
        if not top.startswith("_")
    )
    assert "humanize" in modules
    for module in modules:
        need = import_need(module)
        assert need is not None and need.met_by(closure), module
    for module in ("humanize", "tornado", "prometheus_client", "celery", "kombu"):
        command = [str(flower_venv), "-c", f"import {module}"]
        assert subprocess.run(command, capture_output=True, check=False).returncode == 0, module


def test_what_the_closure_does_not_bring_is_absent(flower_venv: Path) -> None:
    closure = {ROOT, *brought_by({ROOT})}
    for module in ("pandas", "numpy", "boto3"):
        need = import_need(module)
        assert need is not None and not need.met_by(closure)
        command = [str(flower_venv), "-c", f"import {module}"]
        assert subprocess.run(command, capture_output=True, check=False).returncode != 0, module
