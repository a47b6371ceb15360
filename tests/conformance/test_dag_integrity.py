"""DRL002-DRL012 against Airflow's own DagBag, in Airflow 2.10.5 and 3.3.2.

Every fixture case of these rules is loaded by DagBag in both pinned venvs (one process per
version, a fresh DagBag per case, the case's ``dags/`` folder on ``sys.path``). A bad case of a rule
that predicts a rejected file (DRL003-DRL009) must make DagBag record an import error for exactly
the files the rule reports, each naming what the rule names; a good case must load with no error.
DRL002 predicts differently: two files of one ``dag_id`` make DagBag reject all but one of them
(which one depends on the folder's walk order), and two DAGs of one id in one file load without an
error, DagBag keeping one of them (either: the choice changes from run to run). Good cases that
read the environment (``os.environ``, whose value is unknown on purpose) are not loaded.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from airflow_env import AIRFLOW_2, AIRFLOW_3, Oracle, airflow_home, ensure_airflow_venv
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.deployment.toml import toml
from tests.rules.test_fixtures import CASES, Case

pytestmark = pytest.mark.conformance


def _data(case: Case) -> list[bytes]:
    return [data if isinstance(data, bytes) else data.encode() for data in case.files().values()]


CODES = (
    *("DRL002", "DRL003", "DRL004", "DRL005", "DRL006", "DRL007", "DRL008", "DRL009"),
    *("DRL010", "DRL011", "DRL012"),
)
CHECKED = [
    case
    for case in CASES
    if case.code in CODES
    and not (case.kind == "good" and any(b"os.environ" in data for data in _data(case)))
]
ORACLES = (AIRFLOW_2, AIRFLOW_3)

LOAD = """
import json, sys
from pathlib import Path
import airflow
major = int(airflow.__version__.split(".")[0])
result = {}
for folder in sys.argv[2:]:
    for name, module in list(sys.modules.items()):  # a previous case's helpers, common...
        if "dag-integrity" in (getattr(module, "__file__", None) or ""):
            del sys.modules[name]
    sys.path.append(folder)
    if major >= 3:
        from airflow.dag_processing.dagbag import BundleDagBag
        bag = BundleDagBag(dag_folder=folder, bundle_path=Path(folder), bundle_name="c",
                           load_op_links=False)
    else:
        from airflow.models.dagbag import DagBag
        bag = DagBag(folder, include_examples=False, load_op_links=False)
    parent = Path(folder).parent
    result[folder] = {
        "errors": {str((Path(folder) / p).relative_to(parent)): t.strip().splitlines()[-1]
                   for p, t in bag.import_errors.items()},
        "dags": {d: sorted(bag.dags[d].task_dict) for d in bag.dags},
    }
    sys.path.remove(folder)
Path(sys.argv[1]).write_text(json.dumps(result))
"""

# What DagBag's last error line says, for the rules that predict a rejected file.
ERRORS = {
    "DRL003": re.compile(r"DuplicateTaskIdFound"),
    "DRL004": re.compile(r"\*\*kwargs: \{|Use keyword arguments when initializing operators"),
    "DRL005": re.compile(r"got multiple values for keyword argument"),
    "DRL006": re.compile(r"The key .*has to be"),
    "DRL007": re.compile(r"pool_slots|not supported between instances"),
    "DRL008": re.compile(r"(setup|teardown)_task\(\) got an unexpected keyword argument"),
    "DRL009": re.compile(r"cannot import name .* from partially initialized module"),
    "DRL010": re.compile(
        r"cannot import name '\w+' from '[\w.]+' \(.*python3\.\d+/|No module named"
    ),
    "DRL011": re.compile(
        r"expects <|has an invalid type|must be timedelta|type must be int|trigger_rule must be "
        r"one of|only accepts integers|timedelta seconds component|utcoffset"
    ),
    "DRL012": re.compile(
        r"unexpected keyword argument|has an invalid type|must be <|tag cannot be longer|"
        r"AirflowTimetableInvalid|utcoffset|endswith|not supported between"
    ),
}
# The name a message quotes, that the error must quote too.
NAMED = {
    "DRL004": re.compile(r"takes no argument '([^']+)'"),
    "DRL005": re.compile(r"given '([^']+)' twice"),
    "DRL008": re.compile(r"is given '([^']+)'"),
    "DRL009": re.compile(r"import ([A-Za-z_]\w*)' while"),
    "DRL010": re.compile(
        r"\((?:ImportError: cannot import name|ModuleNotFoundError: No module named) '([^']+)'"
    ),
}


def _lay_out(case: Case, root: Path) -> Path:
    folder = root / case.code / case.kind / case.name
    for name, data in case.files().items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data if isinstance(data, bytes) else data.encode())
    return folder / "dags"


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Any]:
    """``(version, case id) -> {"errors": {file: last line}, "dags": {dag_id: task ids}}``."""
    root = tmp_path_factory.mktemp("dag-integrity")
    folders = {case.id + case.kind: _lay_out(case, root) for case in CHECKED}
    found: dict[tuple[str, str], Any] = {}
    for oracle in ORACLES:
        found.update(_load(oracle, folders, root))
    shutil.rmtree(root / "home", ignore_errors=True)
    return found


def _load(oracle: Oracle, folders: dict[str, Path], root: Path) -> dict[tuple[str, str], Any]:
    env = ensure_airflow_venv(oracle=oracle)
    home = root / "home" / oracle.version
    out = root / f"{oracle.version}.json"
    done = subprocess.run(
        [str(env.python), "-c", LOAD, str(out), *map(str, folders.values())],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={
            **airflow_home(home),
            "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
            "PATH": "/usr/bin:/bin",
        },
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(out.read_text())
    return {(oracle.version, key): result[str(folder)] for key, folder in folders.items()}


def _judged_major(case: Case) -> int | None:
    """The Airflow major the case's inventory names, if it names one."""
    text = case.inventory()
    version = toml.loads(text).get("deployment", {}).get("airflow_version") if text else None
    return int(str(version).split(".")[0]) if version else None


def _ours(case: Case) -> dict[str, list[str]]:
    """The files the rule reports, with its messages."""
    reported: dict[str, list[str]] = {}
    for line in case.output().splitlines():
        path, _, rest = line.partition(":")
        reported.setdefault(path, []).append(rest)
    return reported


@pytest.mark.parametrize("oracle", ORACLES, ids=lambda oracle: oracle.version)
@pytest.mark.parametrize("case", CHECKED, ids=lambda case: f"{case.id}-{case.kind}")
def test_airflow_rejects_what_the_rule_reports(
    case: Case,
    oracle: Oracle,
    loaded: dict[tuple[str, str], Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    judged = _judged_major(case)
    if judged is not None and judged != int(oracle.version.split(".")[0]):
        pytest.skip(f"the case is judged for Airflow {judged} only")
    airflow = loaded[(oracle.version, case.id + case.kind)]
    errors: dict[str, str] = airflow["errors"]
    ours = _ours(case)
    if case.kind == "good":
        assert errors == {} and ours == {}
        return
    if case.code == "DRL002":
        _duplicate_dag_ids(errors, ours, airflow["dags"])
        _kept_in_one_file(case, airflow["dags"], tmp_path, monkeypatch)
        return
    assert set(errors) == set(ours), f"Airflow: {errors}\nours: {ours}"
    for path, error in errors.items():
        assert ERRORS[case.code].search(error), error
        named = NAMED.get(case.code)
        if named is not None:
            for message in ours[path]:
                if "positional argument" in message:
                    assert "Use keyword arguments" in error, (message, error)
                    continue
                match = named.search(message)
                assert match is not None and f"'{match.group(1)}'" in error, (message, error)


def _duplicate_dag_ids(
    errors: dict[str, str], ours: dict[str, list[str]], dags: dict[str, list[str]]
) -> None:
    """Across files: all but one of the reported files rejected, for the id the rule names.
    In one file: no error, and one DAG of the id loaded."""
    across = {path for path, messages in ours.items() if any("also defined" in m for m in messages)}
    assert set(errors) <= across, (errors, ours)
    if across:
        assert len(errors) == len(across) - 1, (errors, ours)
    for path, error in errors.items():
        assert "AirflowDagDuplicatedIdException" in error, error
        named = re.search(r"dag '([^']+)'", ours[path][0])
        assert named is not None and f"Ignoring DAG {named.group(1)} from" in error
    for messages in ours.values():
        for message in messages:
            named = re.search(r"dag '([^']+)' is defined again", message)
            if named is not None:
                assert named.group(1) in dags, dags


AGAIN = re.compile(r":(\d+):\d+: DRL002 .*dag '([^']+)' is defined again in this file \(first at")


def _kept_in_one_file(
    case: Case,
    dags: dict[str, list[str]],
    root: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two DAGs of one id in one file: the DAG Airflow keeps has the tasks of one definition
    only (which one changes from run to run, in both versions: DagBag collects them in a set).
    The tasks of each definition are the ones ``routes`` places before and after the line of
    the definition reported."""
    again = [
        (int(m.group(1)), m.group(2)) for m in map(AGAIN.search, case.output().splitlines()) if m
    ]
    if not again:
        return
    for name, data in case.files().items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data if isinstance(data, bytes) else data.encode())
    (root / "pyproject.toml").write_text("[tool.dagroute-lint]\n", encoding="utf-8")
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["routes", "dags", "--format", "json", "--no-cache"])
    tasks = json.loads(result.stdout)["tasks"]
    for line, dag_id in again:
        first = {t["task_id"] for t in tasks if t["dag_id"] == dag_id and t["line"] < line}
        last = {t["task_id"] for t in tasks if t["dag_id"] == dag_id and t["line"] >= line}
        assert first and last and set(dags[dag_id]) in (first, last), (dags, first, last)
