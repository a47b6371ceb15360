"""``--fix`` and ``--diff`` for DAGs written for Airflow 2's hybrid executors, on the command line.

Under an Airflow 3 inventory, a task that reached CeleryKubernetesExecutor's Kubernetes side
(its queue ``"kubernetes"``) is sent to KubernetesExecutor with ``executor=``, and one that
reached its Celery side to CeleryExecutor; only literal keywords on the task's own call are
rewritten, and the fixed file parses and lints clean.
"""

from __future__ import annotations

import ast
import json
import textwrap
from pathlib import Path

import pytest

from tests.helpers import CELERY_K8S, write_repo
from tests.test_cli import invoke

HYBRID = """\
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("migrate"):
    BashOperator(task_id="pod", bash_command="x", executor="CeleryKubernetesExecutor", queue="kubernetes")
    BashOperator(
        task_id="worker",
        bash_command="x",
        executor='CeleryKubernetesExecutor',  # the hybrid's Celery side
    )
    BashOperator(
        task_id="by_queue",
        bash_command="x",
        queue="kubernetes",  # the hybrid was the default executor
    )
    BashOperator(
        task_id="last",
        bash_command="x",
        executor="CeleryKubernetesExecutor",
        queue="kubernetes",
    )
"""  # noqa: E501 (a long call line stays one line)

FIXED = """\
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("migrate"):
    BashOperator(task_id="pod", bash_command="x", executor="KubernetesExecutor")
    BashOperator(
        task_id="worker",
        bash_command="x",
        executor='CeleryExecutor',  # the hybrid's Celery side
    )
    BashOperator(
        task_id="by_queue",
        bash_command="x",
        executor="KubernetesExecutor",  # the hybrid was the default executor
    )
    BashOperator(
        task_id="last",
        bash_command="x",
        executor="KubernetesExecutor",
    )
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_repo(tmp_path, {"dagroute.toml": CELERY_K8S})
    (tmp_path / "dags").mkdir()
    (tmp_path / "dags" / "dag.py").write_text(HYBRID)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def dag(repo: Path) -> str:
    return (repo / "dags" / "dag.py").read_text()


def fixes(*args: str) -> list[dict[str, object] | None]:
    """The ``fix`` of each diagnostic of the JSON output."""
    _, out, _ = invoke("dags", "--format", "json", *args)
    return [item["fix"] for item in json.loads(out)]


def test_diff_shows_the_rewrites_keeping_quotes_comments_and_layout(repo: Path) -> None:
    code, out, err = invoke("dags", "--diff")
    assert code == 1
    assert dag(repo) == HYBRID
    before, after = [], []
    for line in out.splitlines()[3:]:
        if not line.startswith("+"):
            before.append(line[1:])
        if not line.startswith("-"):
            after.append(line[1:])
    assert "\n".join(after) in FIXED and "\n".join(before) in HYBRID
    assert "Would fix 4 problems in 1 file." in err


def test_fix_writes_a_file_that_parses_and_lints_clean(repo: Path) -> None:
    code, out, err = invoke("dags", "--fix")
    assert dag(repo) == FIXED
    ast.parse(dag(repo))
    assert (code, out) == (0, "")
    assert "Fixed 4 problems in 1 file." in err and "All checks passed!" in err
    assert invoke("dags", "--select", "ALL")[:2] == (0, "")


def test_which_rule_carries_each_fix_and_what_json_says(repo: Path) -> None:
    _, out, _ = invoke("dags", "--format", "json")
    found = {(item["code"], item["line"]): item["fix"] for item in json.loads(out)}
    assert set(found) == {("DRL103", 5), ("DRL103", 6), ("DRL101", 11), ("DRL103", 16)}
    assert found["DRL103", 5] == {
        "kind": "keyword",
        "description": 'executor="KubernetesExecutor" instead of '
        'executor="CeleryKubernetesExecutor", without queue="kubernetes"',
        "line": 5,
        "column": 51,
        "keyword": "executor",
        "value": "CeleryKubernetesExecutor",
        "new_keyword": "executor",
        "new_value": "KubernetesExecutor",
        "drop": [{"line": 5, "column": 88, "keyword": "queue", "value": "kubernetes"}],
    }
    by_queue = found["DRL101", 11]
    assert by_queue is not None
    assert (by_queue["keyword"], by_queue["value"], by_queue["new_keyword"]) == (
        "queue",
        "kubernetes",
        "executor",
    )


def test_the_configured_alias_is_written(repo: Path) -> None:
    inventory = CELERY_K8S.replace('"KubernetesExecutor"]', '"pods:KubernetesExecutor"]')
    inventory = inventory.replace('executor = "KubernetesExecutor"', 'executor = "pods"')
    (repo / "dagroute.toml").write_text(textwrap.dedent(inventory))
    invoke("dags", "--fix")
    assert dag(repo) == FIXED.replace('executor="KubernetesExecutor"', 'executor="pods"')
    assert invoke("dags")[:2] == (0, "")


LOCAL = """
[deployment]
airflow_version = "3.3"
executors = ["LocalExecutor"]
dag_processor = { runtime = "base" }

[runtimes.base]
providers = ["standard", "cncf.kubernetes"]
"""


def test_the_local_hybrid_goes_to_its_local_side(repo: Path) -> None:
    (repo / "dagroute.toml").write_text(LOCAL)
    (repo / "dags" / "dag.py").write_text(HYBRID.replace("CeleryKubernetes", "LocalKubernetes"))
    invoke("dags", "--fix", "--select", "DRL103")
    text = dag(repo)
    # No KubernetesExecutor is configured: the pod tasks keep the hybrid; the other runs local.
    assert text.count('executor="LocalKubernetesExecutor"') == 2
    assert "executor='LocalExecutor',  # the hybrid's Celery side" in text


OFFERED_NOWHERE = """\
from functools import partial

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, task

HYBRID = "CeleryKubernetesExecutor"
ON_K8S = partial(BashOperator, executor="CeleryKubernetesExecutor", queue="kubernetes")
QUEUE = "kubernetes"


@task(executor="CeleryKubernetesExecutor", queue="kubernetes")
def decorated():
    pass


def build(task_id, queue):
    BashOperator(task_id=task_id, bash_command="x", executor="CeleryKubernetesExecutor", queue=queue)


with DAG("kept", default_args={"executor": "CeleryKubernetesExecutor"}):
    BashOperator(task_id="variable", bash_command="x", executor=HYBRID, queue="kubernetes")
    BashOperator(task_id="shared", bash_command="x")
    ON_K8S(task_id="partial", bash_command="x")
    decorated()
    BashOperator(task_id="queue_variable", bash_command="x", executor="CeleryKubernetesExecutor", queue=QUEUE)
    build("to_pods", "kubernetes")
    build("to_workers", "default")
"""  # noqa: E501


def test_values_not_written_on_the_task_s_call_are_never_rewritten(repo: Path) -> None:
    """A variable, default_args, a partial, a decorator, a queue from a variable; and a call
    in a function whose tasks would need different rewrites."""
    (repo / "dags" / "dag.py").write_text(OFFERED_NOWHERE)
    _, out, _ = invoke("dags", "--format", "json", "--select", "DRL103")
    reported = json.loads(out)
    assert {item["facts"]["task_id"] for item in reported} == {
        "variable", "shared", "partial", "decorated", "queue_variable", "to_pods", "to_workers"
    }  # fmt: skip
    assert [item["fix"] for item in reported] == [None] * len(reported)
    code, _, err = invoke("dags", "--fix")
    assert code == 1 and dag(repo) == OFFERED_NOWHERE and "Fixed" not in err


def test_tasks_of_one_call_that_agree_are_fixed_once(repo: Path) -> None:
    loop = (
        HYBRID.split("    BashOperator(task_id", maxsplit=1)[0]
        + '    for name in ["a", "b"]:\n'
        + '        BashOperator(task_id=name, bash_command="x", '
        + 'executor="CeleryKubernetesExecutor", queue="kubernetes")\n'
    )
    (repo / "dags" / "dag.py").write_text(loop)
    code, _, err = invoke("dags", "--fix")
    assert code == 0 and "Fixed 2 problems in 1 file." in err
    assert dag(repo).endswith(
        '        BashOperator(task_id=name, bash_command="x", executor="KubernetesExecutor")\n'
    )


ONLY_CELERY = """
[deployment]
airflow_version = "3.3"
executors = ["CeleryExecutor"]
dag_processor = { runtime = "base" }

[[workers]]
name = "celery-general"
queues = ["default"]
runtime = "base"

[runtimes.base]
providers = ["standard", "celery"]
"""


def test_no_fix_under_airflow_2_or_without_the_executor_to_name(repo: Path) -> None:
    airflow_2 = textwrap.dedent(CELERY_K8S).replace('"3.3"', '"2.10"')
    (repo / "dagroute.toml").write_text(airflow_2)
    assert fixes("--select", "DRL1") == [None, None, None, None]
    (repo / "dagroute.toml").write_text(ONLY_CELERY)
    # Only the Celery side can be named: the tasks that went to Kubernetes keep their hybrid.
    found = fixes("--select", "DRL103")
    assert [fix["new_value"] if fix else None for fix in found] == [None, "CeleryExecutor", None]


def test_the_result_cache_keeps_the_fixes(repo: Path) -> None:
    cold = invoke("dags", "--format", "json")[1]
    assert (repo / ".dagroute_cache").is_dir()
    warm = invoke("dags", "--format", "json")[1]
    assert warm == cold and "KubernetesExecutor" in warm
    code, _, _ = invoke("dags", "--fix")  # fixes taken from the cache apply as well
    assert (code, dag(repo)) == (0, FIXED)
