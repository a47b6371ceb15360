"""A flag computed from Airflow's version is decided from the inventory's ``airflow_version``:
every spelling real code reads the version with, the repository's own compat modules evaluated
as written, and the installed packages' flags by qualified name. Major.minor decides what it
decides and nothing more; without a version both branches are followed, as before."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dagroute_lint.config import Settings
from dagroute_lint.deployment.inventory import load_inventory
from dagroute_lint.pipeline.analysis import Execution
from dagroute_lint.pipeline.runner import Report, run
from dagroute_lint.resolve.tasks import ResolvedTask
from tests.helpers import by_code, lint_repo

OPERATOR = "from airflow.providers.standard.operators.bash import BashOperator\n"


def inventory(version: str | None) -> str:
    stated = f'airflow_version = "{version}"\n' if version is not None else ""
    return f"""
[deployment]
{stated}executors = ["CeleryExecutor"]

[[workers]]
name = "celery"
queues = ["default", "new", "old"]
runtime = "base"

[runtimes.base]
providers = ["standard", "amazon"]
packages = []
"""


def flag_dag(imports: str, condition: str) -> str:
    return (
        OPERATOR
        + "from airflow.sdk import DAG\n"
        + imports
        + f"""
with DAG("d", schedule=None):
    BashOperator(task_id="t", bash_command="x", queue="new" if {condition} else "old")
    if {condition}:
        BashOperator(task_id="only_new", bash_command="x")
"""
    )


def tasks_of(report: Report) -> dict[str, ResolvedTask]:
    return {task.task_id or "?": task for task in report.tasks}


def queue_under(root: Path, files: dict[str, str], version: str | None) -> tuple[object, bool]:
    """The task's queue (``None`` when unresolved) and whether ``only_new`` is built surely."""
    report = lint_repo(root, files, inventory=inventory(version))
    tasks = tasks_of(report)
    queue = tasks["t"].fields["queue"]
    only_new = "only_new" in tasks and not tasks["only_new"].task.conditional
    return (queue.value if queue.known else None), only_new


PROVIDER_COMPAT = """
import functools


@functools.cache
def get_base_airflow_version_tuple() -> tuple[int, int, int]:
    from packaging.version import Version

    from airflow import __version__

    airflow_version = Version(__version__)
    return airflow_version.major, airflow_version.minor, airflow_version.micro


AIRFLOW_V_3_0_PLUS = get_base_airflow_version_tuple() >= (3, 0, 0)
"""

SPLIT_COMPAT = """
def airflow_version_tuple():
    from airflow.version import version

    parts = version.split(".")[:3]
    return (int(parts[0]), int(parts[1]))


AIRFLOW_V_3_0_PLUS = airflow_version_tuple() >= (3, 0)
"""

# Each spelling of "Airflow 3 or later": its imports, its condition, the repository's modules.
SPELLINGS: dict[str, tuple[str, str, dict[str, str]]] = {
    "Version of __version__": (
        "from airflow import __version__\nfrom packaging.version import Version\n",
        'Version(__version__) >= Version("3.0.0")',
        {},
    ),
    "base_version": (
        "from airflow import __version__ as V\nfrom packaging import version\n",
        'version.Version(version.parse(V).base_version) >= version.Version("3")',
        {},
    ),
    "release tuple": (
        "import airflow\nimport packaging.version\n",
        "packaging.version.Version(airflow.__version__).release >= (3, 0, 0)",
        {},
    ),
    "major": (
        "from airflow.version import version\nfrom packaging.version import parse\n",
        "parse(version).major >= 3",
        {},
    ),
    "startswith": ("import airflow\n", 'not airflow.__version__.startswith("2.")', {}),
    "int of split": (
        "from airflow import __version__\n",
        'int(__version__.split(".")[0]) >= 3',
        {},
    ),
    "distribution metadata": (
        "from importlib.metadata import version\nfrom packaging.version import Version\n",
        'Version(version("apache-airflow")) >= Version("3.0")',
        {},
    ),
    "provider flag": (
        "from airflow.providers.amazon.version_compat import AIRFLOW_V_3_0_PLUS\n",
        "AIRFLOW_V_3_0_PLUS",
        {},
    ),
    "common.compat flag": (
        "from airflow.providers.common.compat import version_compat\n",
        "version_compat.AIRFLOW_V_3_0_PLUS",
        {},
    ),
    "tests_common flag": (
        "from tests_common.test_utils.version_compat import AIRFLOW_V_3_1_PLUS\n",
        "AIRFLOW_V_3_1_PLUS",
        {},
    ),
    "repository tuple helper": (
        "from common.compat import AIRFLOW_V_3_0_PLUS\n",
        "AIRFLOW_V_3_0_PLUS",
        {"dags/common/__init__.py": "", "dags/common/compat.py": PROVIDER_COMPAT},
    ),
    "repository split helper": (
        "from common import compat\n",
        "compat.AIRFLOW_V_3_0_PLUS",
        {"dags/common/__init__.py": "", "dags/common/compat.py": SPLIT_COMPAT},
    ),
}


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_each_spelling_is_decided_from_the_inventory(tmp_path: Path, spelling: str) -> None:
    imports, condition, extra = SPELLINGS[spelling]
    files = {"dags/dag.py": flag_dag(imports, condition), **extra}
    assert queue_under(tmp_path / "two", files, "2.10.5") == ("old", False)
    assert queue_under(tmp_path / "three", files, "3.3") == ("new", True)
    assert queue_under(tmp_path / "full", files, "3.3.2") == ("new", True)


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_without_a_version_both_branches_are_followed(tmp_path: Path, spelling: str) -> None:
    imports, condition, extra = SPELLINGS[spelling]
    report = lint_repo(tmp_path, {"dags/dag.py": flag_dag(imports, condition), **extra}, None)
    tasks = tasks_of(report)
    queue = tasks["t"].fields["queue"]
    assert not queue.known
    assert sorted(map(str, queue.candidates)) == ["new", "old"]
    assert tasks["only_new"].task.conditional


@pytest.mark.parametrize(
    ("condition", "version", "expected"),
    [
        # A comparison that reaches the micro part: decided only when the inventory gives it.
        ('Version(__version__) >= Version("3.3.1")', "3.3", None),
        ('Version(__version__) >= Version("3.3.1")', "3.3.2", "new"),
        ('Version(__version__) >= Version("3.3.1")', "3.3.0", "old"),
        ('Version(__version__) >= Version("3.4")', "3.3", "old"),
        # An unknown micro is 0 or more: "3.0" is at least 3.0.0, and below 3.1.
        ('Version(__version__) >= Version("3.0.0")', "3.0", "new"),
        ("Version(__version__).release < (3, 1)", "3.0", "new"),
        ("Version(__version__).release > (3, 0, 0)", "3.0", None),
        ("Version(__version__).micro == 0", "3.3", None),
        ('__version__.startswith("3.3.")', "3.3", "new"),
        ('__version__.startswith("3.3.1")', "3.3", None),
        ('__version__.startswith("3.30")', "3.3", "old"),
        # Major only: the minor is not known either.
        ("Version(__version__).minor >= 1", "3", None),
        ('Version(__version__) >= Version("2.9")', "3", "new"),
        # Versions are equal by their releases; a tuple of parts equals a tuple only if the
        # walk knows both are tuples (a list never equals one), so only unequal is decided.
        ('Version(__version__) == Version("3.0.1")', "3.0.1", "new"),
        ('Version(__version__) == Version("3.0.1")', "3.0", None),
        ("Version(__version__).release == (3, 0, 1)", "3.3", "old"),
        ("Version(__version__).release == (3, 0, 1)", "3.0.1", None),
        # A version with a pre-release suffix is not a plain release: nothing is assumed.
        ('Version(__version__) >= Version("3.0.0")', "3.0.0rc1", None),
    ],
)
def test_only_the_known_parts_decide(
    tmp_path: Path, condition: str, version: str, expected: str | None
) -> None:
    imports = "from airflow import __version__\nfrom packaging.version import Version\n"
    files = {"dags/dag.py": flag_dag(imports, condition)}
    queue, _ = queue_under(tmp_path, files, version)
    assert queue == expected


@pytest.mark.parametrize(
    ("flag", "version", "expected"),
    [
        ("AIRFLOW_V_3_0_1", "3.3", "old"),  # == (3, 0, 1): the minor differs
        ("AIRFLOW_V_3_0_1", "3.0", None),  # the micro decides
        ("AIRFLOW_V_3_0_1", "3.0.1", "new"),
        ("AIRFLOW_V_3_1_3_PLUS", "3.1", None),
        ("AIRFLOW_V_3_1_3_PLUS", "3.2", "new"),
        ("AIRFLOW_V_2_10_PLUS", "2.10", "new"),
        ("AIRFLOW_V_2_10_PLUS", "2.9.3", "old"),
    ],
)
def test_installed_flags_by_qualified_name(
    tmp_path: Path, flag: str, version: str, expected: str | None
) -> None:
    imports = f"from tests_common.test_utils.version_compat import {flag}\n"
    queue, _ = queue_under(tmp_path, {"dags/dag.py": flag_dag(imports, flag)}, version)
    assert queue == expected


def test_a_name_like_a_flag_elsewhere_is_not_decided(tmp_path: Path) -> None:
    """Only the modules that define Airflow's flags are read by name: a package's own
    ``AIRFLOW_V_3_0_PLUS`` is its business."""
    imports = "from some_package.compat import AIRFLOW_V_3_0_PLUS\n"
    queue, _ = queue_under(
        tmp_path, {"dags/dag.py": flag_dag(imports, "AIRFLOW_V_3_0_PLUS")}, "3.3"
    )
    assert queue is None


REMOVED_IMPORT_SHIM = """
from common.compat import AIRFLOW_V_3_0_PLUS

if not AIRFLOW_V_3_0_PLUS:
    from airflow.operators.dummy import DummyOperator
if AIRFLOW_V_3_0_PLUS:
    from airflow.sdk import Asset
"""


@pytest.mark.parametrize(("version", "reported"), [("3.3", []), ("2.10.5", [4])])
def test_drl204_judges_only_the_branch_that_runs(
    tmp_path: Path, version: str, reported: list[int]
) -> None:
    """On 3.x the Airflow 2 branch never runs (its import, removed in 3, is not an error); on
    2.10 the Airflow 3 branch never runs (``airflow.sdk`` is not judged), while the Airflow 2
    branch's deprecated import, which does run there, is reported."""
    files = {
        "dags/dag.py": REMOVED_IMPORT_SHIM,
        "dags/common/__init__.py": "",
        "dags/common/compat.py": PROVIDER_COMPAT,
    }
    report = lint_repo(tmp_path, files, inventory=inventory(version), select=("DRL204",))
    assert [diagnostic.line for diagnostic in by_code(report, "DRL204")] == reported


def test_a_changed_version_is_never_answered_from_the_cache(tmp_path: Path) -> None:
    """The summaries cached under one version are not those of another: the same files, the
    same cache folder, and each version's own answer, as a run without a cache gives it."""
    imports = "from common.compat import AIRFLOW_V_3_0_PLUS\n"
    files = {
        "dags/dag.py": flag_dag(imports, "AIRFLOW_V_3_0_PLUS"),
        "dags/common/__init__.py": "",
        "dags/common/compat.py": PROVIDER_COMPAT,
    }
    lint_repo(tmp_path, files, inventory=None)  # writes the files
    cache = Execution(cache_dir=tmp_path / "cache")

    def queue_with(version: str | None, execution: Execution | None) -> object:
        path = tmp_path / "dagroute.toml"
        path.write_text(textwrap.dedent(inventory(version)), encoding="utf-8")
        report = run(
            [str(tmp_path / "dags")], Settings(root=tmp_path), load_inventory(path), None, execution
        )
        field = tasks_of(report)["t"].fields["queue"]
        return field.value if field.known else sorted(map(str, field.candidates))

    answers = [queue_with(version, cache) for version in ("2.10.5", "3.3", None, "2.10.5", "3.3")]
    assert answers == ["old", "new", ["new", "old"], "old", "new"]
    assert [queue_with(version, None) for version in ("2.10.5", "3.3", None)] == answers[:3]


def test_a_condition_on_a_repository_constant_is_decided_from_its_module(tmp_path: Path) -> None:
    """How a flag of ``common/`` reaches the DAG file: an undecided condition asks for the
    modules whose names it reads, and the file is walked again with their source, whatever the
    constant is (here one that does not depend on the version, decided with no inventory)."""
    files = {
        "dags/dag.py": flag_dag("from common import settings\n", "settings.ENABLED"),
        "dags/common/__init__.py": "",
        "dags/common/settings.py": "ENABLED = len('ab') == 2\n",
    }
    report = lint_repo(tmp_path, files, inventory=None)
    tasks = tasks_of(report)
    assert tasks["t"].fields["queue"].value == "new"
    assert not tasks["only_new"].task.conditional


def test_a_dependency_helper_imported_in_both_branches_keeps_its_role(tmp_path: Path) -> None:
    """``chain`` from ``airflow.sdk`` on one branch and ``airflow.models.baseoperator`` on the
    other is Airflow's ``chain`` either way: not "one of several callables" (DRL106), on a
    version the walk cannot decide (none in the inventory) as on one it can."""
    source = (
        OPERATOR
        + """
from airflow.sdk import DAG
from common.compat import AIRFLOW_V_3_0_PLUS

if AIRFLOW_V_3_0_PLUS:
    from airflow.sdk import Label, chain, chain_linear, cross_downstream
else:
    from airflow.models.baseoperator import chain, chain_linear, cross_downstream
    from airflow.utils.edgemodifier import Label

with DAG("d", schedule=None):
    a = BashOperator(task_id="a", bash_command="x")
    b = BashOperator(task_id="b", bash_command="x")
    chain(a, Label("then"), b)
    chain_linear(a, [b])
    cross_downstream([a], [b])
"""
    )
    files = {
        "dags/dag.py": source,
        "dags/common/__init__.py": "",
        "dags/common/compat.py": SPLIT_COMPAT,
    }
    for version in (None, "3.3.2", "2.10.5"):
        report = lint_repo(tmp_path / str(version), files, inventory=inventory(version))
        assert sorted(tasks_of(report)) == ["a", "b"]
        assert by_code(report, "DRL106") == []
