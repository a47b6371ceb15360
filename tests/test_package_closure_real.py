"""The shipped closure against pip: what ``pip install flower`` really installs.

The table holds the ``Requires-Dist`` of each distribution's newest wheel; pip may resolve an
older release of a dependency (celery pins ``python-dateutil==2.9.0.post0``, whose requirements
differ from 4.0's). So the comparison is exact where the versions agree: every installed
distribution at the table's version has the table's requirements, and walking the venv's real
metadata through those distributions reaches exactly what the table's closure reaches through
them. Then the import names: what flower brings imports there and the closure provides it, and
what it does not bring (pandas) is absent.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass

import pytest
from packaging.requirements import Requirement

from dagroute_lint.catalog.data_files import read_table
from dagroute_lint.catalog.distributions import brought_by, import_need
from tests.conformance.airflow_env import _locked, cache_root
from tests.real_venv import ensure_wheels, make_venv

pytestmark = pytest.mark.installs

ROOT = "flower"
VENV_OWN = frozenset({"pip", "setuptools", "wheel"})  # the venv's, not a requirement's
# The markers of the table (scripts/generate_package_dependencies.py), for the venv's metadata.
ENVIRONMENT = {
    "implementation_name": "cpython",
    "os_name": "posix",
    "platform_machine": "x86_64",
    "platform_python_implementation": "CPython",
    "platform_system": "Linux",
    "python_full_version": "3.11.0",
    "python_version": "3.11",
    "sys_platform": "linux",
    "extra": "",
}

LISTING = """
import importlib.metadata as m, json, re
found = {}
for d in m.distributions():
    name = re.sub(r"[-_.]+", "-", d.metadata["Name"]).lower()
    tops = set()
    for f in d.files or ():
        part = f.parts[0]
        top = part[:-3] if part.endswith(".py") else part
        if top.isidentifier() and not top.startswith("_"):
            tops.add(top)
    found[name] = {"version": d.version, "requires": d.requires or [], "modules": sorted(tops)}
print(json.dumps(found))
"""

Row = tuple[str, tuple[str, ...]]


def table() -> dict[str, Row]:
    """Distribution -> (version, requirements) as the shipped table has them."""
    rows: dict[str, tuple[str, list[str]]] = {}
    columns = ("distribution", "version", "dependency")
    for name, version, dependency in read_table("package_dependencies.tsv", columns):
        assert name is not None and version is not None
        listed = rows.setdefault(name, (version, []))[1]
        if dependency is not None:
            listed.append(dependency)
    return {name: (version, tuple(sorted(deps))) for name, (version, deps) in rows.items()}


def canonical(name: str) -> str:
    return name.replace("_", "-").replace(".", "-").lower()


def requirements(requires: list[str]) -> tuple[str, ...]:
    names = set()
    for text in requires:
        requirement = Requirement(text)
        if requirement.marker is None or requirement.marker.evaluate(ENVIRONMENT):
            names.add(canonical(requirement.name))
    return tuple(sorted(names))


@dataclass(frozen=True)
class Venv:
    """A real venv: its interpreter, and each installed distribution's version, requirements
    (markers evaluated) and top-level modules."""

    python: str
    rows: dict[str, Row]
    modules: dict[str, list[str]]


@pytest.fixture(scope="module")
def venv() -> Venv:
    """What ``pip install flower==<the table's version>`` installs (pip resolves the rest),
    listed from the venv's metadata. The venv is cached, keyed by the requirement."""
    requirement = f"{ROOT}=={table()[ROOT][0]}"
    key = hashlib.sha256(requirement.encode()).hexdigest()[:12]
    root = cache_root() / f"package-closure-{key}"
    marker = root / ".complete"
    with _locked(cache_root() / ".package-closure.lock"):
        if not marker.exists():
            shutil.rmtree(root, ignore_errors=True)
            ensure_wheels([requirement], with_dependencies=True)
            make_venv(root, [requirement], no_deps=False)
            marker.write_text(requirement + "\n", encoding="utf-8")
    python = root / "bin" / "python"
    completed = subprocess.run(
        [str(python), "-c", LISTING], capture_output=True, text=True, check=True
    )
    listing = json.loads(completed.stdout)
    own = {name: item for name, item in listing.items() if name not in VENV_OWN}
    return Venv(
        str(python),
        {name: (item["version"], requirements(item["requires"])) for name, item in own.items()},
        {name: item["modules"] for name, item in own.items()},
    )


def walk(graph: Mapping[str, Row], same: frozenset[str]) -> frozenset[str]:
    """What ``flower`` reaches in ``graph``, going on only through distributions in ``same``."""
    found = {ROOT}
    pending = [ROOT]
    while pending:
        name = pending.pop()
        if name not in same:
            continue
        for dependency in graph.get(name, ("", ()))[1]:
            if dependency not in found:
                found.add(dependency)
                pending.append(dependency)
    return frozenset(found)


def same_versions(venv: Venv) -> frozenset[str]:
    shipped = table()
    return frozenset(
        name
        for name, (version, _) in venv.rows.items()
        if name in shipped and shipped[name][0] == version
    )


def test_the_table_has_the_real_requirements_where_versions_agree(
    venv: Venv,
) -> None:
    same = same_versions(venv)
    # flower and the heart of what it brings are at the table's versions: the check has teeth.
    assert {"flower", "celery", "kombu", "humanize", "tornado", "prometheus-client"} <= same
    shipped = table()
    for name, (_, needs) in venv.rows.items():
        if name in same:
            assert shipped[name][1] == needs, name


def test_pip_installs_what_the_closure_says_through_agreeing_versions(
    venv: Venv,
) -> None:
    same = same_versions(venv)
    real = walk(venv.rows, same)
    ours = walk(table(), same)
    assert real == ours
    assert {"humanize", "tornado", "celery", "amqp"} <= ours
    # and the linter's own closure (providers' and packages' tables together) agrees
    assert ours - {ROOT} <= brought_by({ROOT})
    # everything pip installed is in the venv's own closure: no stray distribution
    assert walk(venv.rows, frozenset(venv.rows)) == set(venv.rows)


def test_what_flower_brings_imports_there_and_the_closure_provides_it(
    venv: Venv,
) -> None:
    python = venv.python
    closure = {ROOT, *brought_by({ROOT})}
    same = same_versions(venv)
    reached = walk(table(), same) & set(venv.rows)
    modules = sorted(str(module) for name in reached for module in venv.modules[name])
    assert "humanize" in modules and "tornado" in modules
    for module in modules:
        need = import_need(module)
        assert need is not None and need.met_by(closure), module
    script = "; ".join(f"import {module}" for module in ("humanize", "tornado", "celery"))
    assert subprocess.run([python, "-c", script], capture_output=True, check=False).returncode == 0


def test_what_the_closure_does_not_bring_is_absent(venv: Venv) -> None:
    python = venv.python
    closure = {ROOT, *brought_by({ROOT})}
    for module in ("pandas", "numpy", "boto3"):
        need = import_need(module)
        assert need is not None and not need.met_by(closure), module
        completed = subprocess.run(
            [python, "-c", f"import {module}"], check=False, capture_output=True
        )
        assert completed.returncode != 0, module
