"""The linter reads DAG code and never runs it: markers any execution would write stay absent.

Every way code in a repository could run when a Python tool touches it gets a canary that
appends its name to a marker file: module bodies, decorators, default arguments, annotations,
class bodies, metaclasses, ``__init_subclass__``, the ``__init__.py`` of referenced packages,
``conftest.py``, ``sitecustomize.py`` / ``usercustomize.py`` / ``.pth`` files, and modules that
shadow the linter's own dependencies in the folder it is started from.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import CELERY_K8S, write_repo


def canary(marker: Path, name: str) -> str:
    """A statement that, if ever executed, records ``name`` in ``marker``."""
    return f"open({str(marker)!r}, 'a').write({name!r} + '\\n')"


def hostile_repo(root: Path, marker: Path) -> None:
    def touch(name: str) -> str:
        return canary(marker, name)

    write_repo(
        root,
        {
            "dagroute.toml": CELERY_K8S,
            "pyproject.toml": '[tool.dagroute-lint]\ndags = ["dags"]\n',
            "conftest.py": f"{touch('root conftest.py')}\n",
            "dags/conftest.py": f"{touch('dags conftest.py')}\n",
            "sitecustomize.py": f"{touch('sitecustomize.py')}\n",
            "usercustomize.py": f"{touch('usercustomize.py')}\n",
            "dags/sitecustomize.py": f"{touch('dags sitecustomize.py')}\n",
            "evil.pth": f"import os; {touch('root .pth')}\n",
            "dags/evil.pth": f"import os; {touch('dags .pth')}\n",
            # modules that would shadow what the linter imports, were the folder on sys.path
            "click.py": f"{touch('click.py shadow')}\n",
            "libcst.py": f"{touch('libcst.py shadow')}\n",
            "tomli.py": f"{touch('tomli.py shadow')}\n",
            "dags/common/__init__.py": f"{touch('package __init__.py')}\n",
            "dags/common/routing.py": f'{touch("referenced module")}\nQ = "imports"\n',
            "dags/common/helpers/__init__.py": f"{touch('nested package __init__.py')}\n",
            "dags/common/helpers/star.py": f"{touch('star-imported module')}\nPOOL = 'p'\n",
            "dags/dag.py": f"""
{touch("module level")}
import importlib
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, task
from common.routing import Q
from common.helpers.star import *

importlib.import_module("common.routing")
exec({touch("exec string")!r})
eval("__import__('os')")
__import__("common.routing")

def side_effect(x={touch("default argument")}):
    {touch("function body")}
    return x

def decorate(function):
    {touch("decorator body")}
    return function

def factory():
    {touch("decorator factory")}
    return decorate

class Meta(type):
    def __new__(mcs, name, bases, namespace):
        {touch("metaclass __new__")}
        return super().__new__(mcs, name, bases, namespace)

class Base(metaclass=Meta):
    {touch("class body")}
    attribute: side_effect() = side_effect()

    def __init_subclass__(cls, **kwargs):
        {touch("__init_subclass__")}

    def __class_getitem__(cls, item):
        {touch("__class_getitem__")}

class Child(Base, flag=side_effect()):
    pass

annotated: side_effect() = 1
lazy = lambda: {touch("lambda body")}
listed = [{touch("comprehension")} for _ in range(1)]
formatted = f"{{side_effect()}}"
queue = Q if side_effect() else "default"

@decorate
@factory()
@task(queue=side_effect())
def work(arg=side_effect()):
    {touch("task body")}

if __name__ == "__main__":
    {touch("__main__ block")}

with DAG("lab", default_args={{"queue": Q}}, on_success_callback=side_effect):
    BashOperator(task_id="t", bash_command="x")
    work()
""",
        },
    )


def test_the_canaries_do_fire_when_python_runs_the_code(tmp_path: Path) -> None:
    marker = tmp_path / "executed"
    hostile_repo(tmp_path, marker)
    subprocess.run([sys.executable, "conftest.py"], cwd=tmp_path, check=True)
    assert marker.read_text() == "root conftest.py\n"


def installed(script: str) -> str:
    """A console script next to this interpreter: unlike ``python -m``, it never puts the
    current folder on ``sys.path``, so the repository's ``click.py`` cannot shadow anything."""
    found = shutil.which(script, path=str(Path(sys.executable).parent))
    assert found is not None, f"{script} is not installed next to this interpreter"
    return found


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(["dagroute-lint", "--select", "ALL", "--format", "json"], id="dags_setting"),
        pytest.param(["dagroute-lint", "dags/dag.py"], id="one_file"),
        pytest.param(["dagroute-lint", "dags", "--jobs", "2", "--no-cache"], id="jobs"),
        pytest.param(["dagroute-lint", "-", "--stdin-filename", "dags/dag.py"], id="stdin"),
        pytest.param(["dagroute-lint", "routes", "dags", "--format", "json"], id="routes"),
        pytest.param(["dagroute-lint", "inventory", "check"], id="inventory"),
        pytest.param(["flake8", "--isolated", "--select", "DRL", "dags"], id="flake8_plugin"),
    ],
)
def test_installed_commands_execute_nothing(tmp_path: Path, command: list[str]) -> None:
    marker = tmp_path / "executed"
    hostile_repo(tmp_path, marker)
    result = subprocess.run(
        [installed(command[0]), *command[1:]],
        cwd=tmp_path,
        input=(tmp_path / "dags" / "dag.py").read_text() if "-" in command else None,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode in (0, 1), result.stderr
    assert not marker.exists(), marker.read_text()
    if "routes" in command:
        assert '"queue": "imports"' in result.stdout  # read from common/routing.py, not run
    if "flake8" in command[0]:
        assert "dags/dag.py:" in result.stdout  # the plugin ran and reported


def test_library_api_executes_nothing(tmp_path: Path) -> None:
    from dagroute_lint.config import Settings
    from dagroute_lint.deployment.inventory import load_inventory
    from dagroute_lint.pipeline.runner import run

    marker = tmp_path / "executed"
    hostile_repo(tmp_path, marker)
    before = set(sys.modules)
    report = run(
        [str(tmp_path / "dags")],
        Settings(root=tmp_path, select=("ALL",)),
        load_inventory(tmp_path / "dagroute.toml"),
    )
    assert [task.task_id for task in report.tasks] == ["t", "work"]
    assert not marker.exists(), marker.read_text()
    assert not {"common", "common.routing", "dag"} & (set(sys.modules) - before)
