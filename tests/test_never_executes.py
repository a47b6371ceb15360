"""The linter reads DAG code and never runs it: markers any execution would write stay absent."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.helpers import CELERY_K8S, write_repo


def test_linting_and_routes_execute_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "executed"
    touch = f"open({str(marker)!r}, 'a').write(__name__ + '\\n')"
    write_repo(
        tmp_path,
        {
            "dagroute.toml": CELERY_K8S,
            "dags/common/__init__.py": f"{touch}\n",
            "dags/common/routing.py": f'{touch}\nQ = "imports"\n',
            "dags/dag.py": f"""
{touch}
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, task
from common.routing import Q

def side_effect(x={touch}):
    return x

class Boom:
    {touch}

@task
def work(arg=side_effect()):
    {touch}

with DAG("lab", default_args={{"queue": Q}}):
    BashOperator(task_id="t", bash_command="x")
    work()
""",
        },
    )
    for command in (["dags"], ["routes", "dags", "--format", "json"]):
        result = subprocess.run(
            [sys.executable, "-m", "dagroute_lint", *command],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode in (0, 1), result.stderr
    assert '"queue": "imports"' in result.stdout  # the constant was read from common/routing.py
    assert not marker.exists()
