"""The parse-boundary rules against Airflow's own DagBag: the fixture repositories of DRL206, and
those of DRL201/DRL205 whose missing module the pinned Airflow venv lacks too.

Each case's ``dags/`` folder is loaded by DagBag in the pinned venv, with the folder on
``sys.path`` as the DAG processor puts it there. The files DagBag records an import error for must
be exactly the files the rule reports, and each report must name what Airflow could not import.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from airflow_env import airflow_home, ensure_airflow_venv

from dagroute_lint.deployment.toml import toml
from tests.rules.test_fixtures import CASES, Case

pytestmark = pytest.mark.conformance

# Cases whose outcome does not depend on what the venv has installed beyond Airflow: DRL206
# (the repository's own modules), and repository-module cases whose provider or package the
# pinned venv does not install (amazon, opensearch-py). A package inside a virtual environment
# of the repository is an installed one, not the repository's: whether it loads is the runtime's.
INSTALLED_PACKAGE_CASES = frozenset({"module_inside_a_virtualenv"})
CHECKED = [
    case
    for case in CASES
    if case.source.is_dir()
    and (case.code == "DRL206" or case.name == "through_a_repository_module")
    and case.name not in INSTALLED_PACKAGE_CASES
]

DAGBAG = """
import json, sys
sys.path.append(sys.argv[1])
from airflow.dag_processing.dagbag import DagBag
bag = DagBag(sys.argv[1])
errors = {path: text.strip().splitlines()[-1] for path, text in bag.import_errors.items()}
print(json.dumps(errors))
"""

NO_MODULE = re.compile(r"No module named '([^']+)'")


def _airflow_errors(dags: Path, home: Path) -> dict[str, str]:
    """The files DagBag rejects, with a ``plugins/`` the case's settings list among its roots
    deployed as Airflow's plugins folder (which Airflow puts on ``sys.path``)."""
    env = ensure_airflow_venv()
    plugins = dags.parent / "plugins"
    settings = dags.parent / "pyproject.toml"
    roots = []
    if settings.is_file():
        table = toml.loads(settings.read_text(encoding="utf-8")).get("tool", {})
        roots = table.get("dagroute-lint", {}).get("roots", [])
    deployed = {"AIRFLOW__CORE__PLUGINS_FOLDER": str(plugins)} if "plugins" in roots else {}
    result = subprocess.run(
        [str(env.python), "-c", DAGBAG, str(dags)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
        env={
            **airflow_home(home),
            "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
            "AIRFLOW__CORE__DAGS_FOLDER": str(dags),
            "PATH": "/usr/bin:/bin",
            **deployed,
        },
    )
    errors = json.loads(result.stdout.strip().splitlines()[-1])
    return {Path(path).relative_to(dags.parent).as_posix(): line for path, line in errors.items()}


@pytest.mark.parametrize("case", CHECKED, ids=lambda c: f"{c.id}-{c.kind}")
def test_reported_files_are_the_files_airflow_rejects(case: Case, tmp_path: Path) -> None:
    # DagBag imports the files it loads, writing bytecode beside them: it loads a copy.
    copy = tmp_path / case.name
    shutil.copytree(case.source, copy, ignore=shutil.ignore_patterns("__pycache__"))
    airflow = _airflow_errors(copy / "dags", tmp_path / "home")
    ours: dict[str, str] = {}
    for line in case.output().splitlines():
        path, _, message = line.partition(":")
        ours.setdefault(path, message)
    assert set(ours) == set(airflow), f"Airflow: {airflow}\nours: {ours}"
    for path, error in airflow.items():
        missing = NO_MODULE.search(error)
        if missing is not None:
            # Airflow names the first missing package of the dotted path; we name the path.
            named = re.compile("'" + re.escape(missing.group(1)) + "['.]")
            assert named.search(ours[path]), (error, ours[path])
        else:
            assert "relative import" in error and "relative import" in ours[path], (error, ours)
