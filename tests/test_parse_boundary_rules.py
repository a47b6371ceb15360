"""Why a DAG file fails to load (DRL205, DRL206): every cause once, each named as Python would.

Each cause is reported on its own, in file order, even though Python stops at the first: a
relative import does not hide the imports after it, two different repository modules that do
not exist are two reports, and the repository folder that lacks a module is named exactly. A
runtime whose listed distributions have requirements no table knows says so, naming up to three
of them.
"""

from __future__ import annotations

import pytest

from tests.helpers import lint_files, lint_source

DAG = """
from airflow.sdk import DAG, task
{imports}
with DAG("team_report", schedule=None):

    @task
    def build() -> None:
        pass

    build()
"""
NEVER_LOAD = "the file fails to import and its DAGs (team_report) never load"


def relative(target: str) -> str:
    return (
        f"relative import of '{target}' in a DAG file fails: Airflow loads the file as a "
        "top-level module, with no parent package (ImportError: attempted relative import with "
        f"no known parent package); import it by its name from an import root; {NEVER_LOAD}"
    )


def not_found(module: str, parent: str, last: str) -> str:
    return (
        f"module-level import of '{module}': '{module}' is not found, because the repository's "
        f"'{parent}' has no module or package '{last}' (ModuleNotFoundError); {NEVER_LOAD}"
    )


def drl206(files: dict[str, str]) -> list[tuple[str, int, str]]:
    return [(d.path, d.line, d.message) for d in lint_files({**files}, select=("DRL206",))]


TEAM = {
    "dags/team/__init__.py": "",
    "dags/team/helpers.py": 'OWNER = "analytics"\n',
    "dags/team/names.py": 'TEAM = "reports"\n',
}
COMMON = {
    "dags/common/__init__.py": "",
    "dags/common/storage.py": "def upload(key: str) -> None:\n    print(key)\n",
    "dags/common/sub/__init__.py": "",
}


def test_two_relative_imports_are_two_causes() -> None:
    imports = "from .helpers import OWNER\nfrom .names import TEAM\n"
    assert drl206({"dags/team/report.py": DAG.format(imports=imports), **TEAM}) == [
        ("dags/team/report.py", 2, relative("team.helpers")),
        ("dags/team/report.py", 3, relative("team.names")),
    ]


def test_imports_after_a_relative_one_are_still_judged() -> None:
    imports = "from .helpers import OWNER\nfrom common.storag import upload\n"
    files = {"dags/team/report.py": DAG.format(imports=imports), **TEAM, **COMMON}
    assert drl206(files) == [
        ("dags/team/report.py", 2, relative("team.helpers")),
        ("dags/team/report.py", 3, not_found("common.storag", "common", "storag")),
    ]


def test_two_missing_repository_modules_are_two_causes_each_under_its_own_folder() -> None:
    """``common.sub.missing``: the folder lacking the module is ``common.sub``, not ``common``."""
    imports = "from common.storag import upload\nfrom common.sub.missing import thing\n"
    assert drl206({"dags/report.py": DAG.format(imports=imports), **COMMON}) == [
        ("dags/report.py", 2, not_found("common.storag", "common", "storag")),
        ("dags/report.py", 3, not_found("common.sub.missing", "common.sub", "missing")),
    ]


PROCESSOR = """
[deployment]
airflow_version = "3.3"
executors = ["CeleryExecutor"]
dag_processor = {{ runtime = "parser" }}

[[workers]]
name = "celery-general"
queues = ["default"]
runtime = "parser"

[runtimes.parser]
providers = ["standard"]
packages = [{packages}]
"""
HUMANIZE = """
import humanize
from airflow.sdk import DAG, task

with DAG("sizes", schedule=None):

    @task
    def size() -> str:
        return humanize.naturalsize(1_000_000)

    size()
"""


@pytest.mark.parametrize(
    ("packages", "named"),
    [
        (["lab-alpha", "lab-beta"], "'lab-alpha' and 'lab-beta'"),
        (["lab-alpha", "lab-beta", "lab-gamma"], "'lab-alpha', 'lab-beta' and 'lab-gamma'"),
        (
            ["lab-alpha", "lab-beta", "lab-delta", "lab-gamma"],
            "'lab-alpha', 'lab-beta', 'lab-delta' and 1 more",
        ),
    ],
)
def test_unknown_dependencies_are_named_up_to_three(packages: list[str], named: str) -> None:
    """Distributions no shipped table knows may bring humanize: the first three (sorted) are
    named, any further ones counted."""
    inventory = PROCESSOR.format(packages=", ".join(f'"{name}"' for name in packages))
    (found,) = lint_source(HUMANIZE, inventory, select=("DRL205",))
    assert found.message == (
        "module-level import of 'humanize' needs humanize, which the DAG processor runtime "
        f"'parser' does not list (ModuleNotFoundError); the dependencies of {named} are not "
        "known (it may come with them); the file fails to import and its DAGs (sizes) never load"
    )
