"""DRL501 executor-config-ignored."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import by_code, lint_repo

HEADER = """
from kubernetes.client import models as k8s
from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG, task
"""
POD = 'k8s.V1Pod(spec=k8s.V1PodSpec(containers=[k8s.V1Container(name="base")]))'


def dag_file(body: str) -> dict[str, str]:
    return {"dags/dag.py": HEADER + body.replace("POD", POD)}


def test_executor_config_on_celery_is_ignored(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab"):
    BashOperator(task_id="celery", bash_command="x", executor_config={"pod_override": POD})
    BashOperator(
        task_id="pod",
        bash_command="x",
        executor="KubernetesExecutor",
        executor_config={"pod_override": POD},
    )
    BashOperator(task_id="empty_config", bash_command="x", executor_config={})
    BashOperator(task_id="none_config", bash_command="x", executor_config=None)
    EmptyOperator(task_id="marker", executor_config={"pod_override": POD})
"""),
    )
    (diagnostic,) = by_code(report, "DRL501")
    assert diagnostic.line == 7 and diagnostic.column == 54  # the executor_config= argument
    assert diagnostic.message == (
        "task 'celery' in dag 'lab' sets executor_config (argument), which its executor "
        "CeleryExecutor ignores; only Kubernetes and AWS executors read it"
    )


def test_default_args_config_reported_once_for_the_tasks_that_ignore_it(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab", default_args={"executor_config": {"pod_override": POD}}):
    BashOperator(task_id="a", bash_command="x")
    BashOperator(task_id="b", bash_command="x")
    BashOperator(task_id="c", bash_command="x")
    BashOperator(task_id="pod", bash_command="x", executor="KubernetesExecutor")
    BashOperator(task_id="cleared", bash_command="x", executor_config=None)
"""),
    )
    (diagnostic,) = by_code(report, "DRL501")
    assert diagnostic.line == 6  # where the DAG's default_args are written
    assert diagnostic.message.startswith(
        "task 'a' in dag 'lab' (and 2 more tasks) sets executor_config (DAG default_args)"
    )


def test_legacy_kubernetes_form_fails_at_queue_time(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab", default_args={"executor": "KubernetesExecutor"}):
    BashOperator(
        task_id="legacy",
        bash_command="x",
        executor_config={"KubernetesExecutor": {"image": "custom:1"}},
    )
    BashOperator(
        task_id="both",
        bash_command="x",
        executor_config={"KubernetesExecutor": {"image": "i"}, "pod_override": POD},
    )
    BashOperator(task_id="template", bash_command="x", executor_config={"pod_template_file": "/t"})
"""),
    )
    legacy, both = by_code(report, "DRL501")
    assert legacy.message == (
        "task 'legacy' in dag 'lab' sets executor_config (argument) in the legacy "
        "{'KubernetesExecutor': {...}} form, which KubernetesExecutor rejects ('Invalid "
        "executor_config passed'): the task fails when it is queued; use "
        "{'pod_override': k8s.V1Pod(...)}"
    )
    assert "with both 'KubernetesExecutor' and 'pod_override'" in both.message
    assert "AirflowConfigException" in both.message


def test_local_executor_ignores_it_too(tmp_path: Path) -> None:
    inventory = """
[deployment]
executors = ["LocalExecutor"]
[[workers]]
name = "scheduler-host"
runtime = "base"
[runtimes.base]
providers = ["standard"]
"""
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab"):
    BashOperator(task_id="a", bash_command="x", executor_config={"anything": 1})
"""),
        inventory=inventory,
    )
    (diagnostic,) = by_code(report, "DRL501")
    assert "its executor LocalExecutor ignores" in diagnostic.message


def test_a_config_whose_keys_cannot_be_known_is_still_set(tmp_path: Path) -> None:
    """Celery ignores any executor_config that holds an entry, whatever its key: one named by
    a constant from outside the repository, or a number, is an entry all the same."""
    report = lint_repo(
        tmp_path,
        dag_file("""
from vendor.settings import KEY

with DAG("lab"):
    BashOperator(task_id="imported_key", bash_command="x", executor_config={KEY: 1})
    BashOperator(task_id="number_key", bash_command="x", executor_config={1: 1})
    BashOperator(task_id="spread", bash_command="x", executor_config={**KEY})
"""),
    )
    assert [d.message.split(" sets ")[0] for d in by_code(report, "DRL501")] == [
        "task 'imported_key' in dag 'lab'",
        "task 'number_key' in dag 'lab'",
    ]


def test_a_config_keyed_by_a_list_is_still_set(tmp_path: Path) -> None:
    """A list as a key cannot be hashed (the file fails when it runs), but the dict as written
    holds an entry: its executor_config is not empty, and no key of it is read by name."""
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab"):
    BashOperator(task_id="list_key", bash_command="x", executor_config={["a"]: 1, "b": 2})
"""),
    )
    (diagnostic,) = by_code(report, "DRL501")
    assert diagnostic.message.startswith("task 'list_key' in dag 'lab' sets executor_config")
