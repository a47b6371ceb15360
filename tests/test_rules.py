"""Routing and provider rules on small repositories with inventories."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import CELERY_K8S, by_code, codes, lint_repo

HEADER = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG, TaskGroup, task
"""


def dag_file(body: str) -> dict[str, str]:
    return {"dags/dag.py": HEADER + body}


def test_unserved_queue_names_task_and_served_queues(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab"):
    with TaskGroup("grp"):
        BashOperator(task_id="build", bash_command="x", queue="reports")
"""),
    )
    (diagnostic,) = by_code(report, "DRL101")
    assert diagnostic.message == (
        "task 'grp.build' in dag 'lab' routes to queue 'reports', but no CeleryExecutor worker "
        "serves it (served: default, imports); it will stay queued and never start"
    )
    assert (diagnostic.line, diagnostic.column) == (7, 9)


def test_served_queue_and_default_queue_are_fine(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab", default_args={"queue": "imports"}):
    BashOperator(task_id="a", bash_command="x")
    BashOperator(task_id="b", bash_command="x", queue=None)
"""),
    )
    assert codes(report) == []


def test_empty_operator_without_callbacks_never_reaches_a_worker(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab"):
    EmptyOperator(task_id="marker", queue="nowhere")
    EmptyOperator(task_id="hooked", queue="nowhere", on_success_callback=print)
"""),
    )
    assert [d.message.split("'")[1] for d in by_code(report, "DRL101")] == ["hooked"]


def test_empty_operator_with_callback_from_default_args_is_dispatched(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab", default_args={"on_execute_callback": print, "outlets": []}):
    EmptyOperator(task_id="marker", queue="nowhere")
    EmptyOperator(task_id="quiet", queue="nowhere", on_execute_callback=None)
"""),
    )
    assert [d.message.split("'")[1] for d in by_code(report, "DRL101")] == ["marker"]


def test_queue_blind_executor_ignores_queue(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab"):
    BashOperator(task_id="k", bash_command="x", executor="KubernetesExecutor", queue="gpu")
"""),
    )
    assert codes(report) == ["DRL102"]
    assert "KubernetesExecutor ignores queues" in report.diagnostics[0].message


def test_edge_worker_without_queues_serves_every_queue(tmp_path: Path) -> None:
    inventory = """
[deployment]
airflow_version = "3.3"
executors = ["airflow.providers.edge3.executors.EdgeExecutor"]
[[workers]]
name = "edge"
runtime = "base"
[runtimes.base]
providers = ["standard", "edge3"]
"""
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab"):
    BashOperator(task_id="anywhere", bash_command="x", queue="rare")
"""),
        inventory=inventory,
    )
    assert codes(report) == []


def test_unknown_executor(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
K8S = "airflow.providers.cncf.kubernetes.executors.kubernetes_executor.KubernetesExecutor"
with DAG("lab", default_args={"executor": "celeryexecutor"}):
    BashOperator(task_id="t", bash_command="x")
    BashOperator(task_id="ok", bash_command="x", executor=K8S)
"""),
    )
    (diagnostic,) = by_code(report, "DRL103")
    assert "names executor 'celeryexecutor' (DAG default_args)" in diagnostic.message
    assert "configured: CeleryExecutor, KubernetesExecutor" in diagnostic.message


def test_provider_missing_at_parse(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
from airflow.providers.amazon.aws.operators.s3 import S3CreateBucketOperator
with DAG("lab"):
    S3CreateBucketOperator(task_id="bucket", bucket_name="b")
"""),
    )
    (diagnostic,) = by_code(report, "DRL201")
    assert diagnostic.line == 5
    assert "apache-airflow-providers-amazon" in diagnostic.message
    assert "DAG processor runtime 'base' lacks" in diagnostic.message


def test_guarded_import_does_not_fail_parse(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
try:
    from airflow.providers.amazon.aws.hooks.s3 import S3Hook
except ImportError:
    S3Hook = None
with DAG("lab"):
    BashOperator(task_id="t", bash_command="x")
"""),
    )
    assert codes(report) == []


def test_provider_missing_on_the_worker_of_the_task(tmp_path: Path) -> None:
    inventory = CELERY_K8S.replace(
        'dag_processor = { runtime = "base" }', 'dag_processor = { runtime = "pods" }'
    )
    report = lint_repo(
        tmp_path,
        dag_file("""
from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator
with DAG("lab"):
    KubernetesPodOperator(task_id="pod", name="p", image="i", executor="KubernetesExecutor")
    BashOperator(task_id="shell", bash_command="x")
"""),
        inventory=inventory,
    )
    (diagnostic,) = by_code(report, "DRL202")
    # The worker re-imports the whole file: the module-level import breaks the Celery task too.
    assert diagnostic.line == 5  # at the import (after the header), naming the task it breaks
    assert diagnostic.message.startswith("module-level import of ")
    assert diagnostic.message.endswith(": task 'shell' in dag 'lab'")
    assert "apache-airflow-providers-cncf-kubernetes" in diagnostic.message
    assert "worker 'celery-general' (runtime 'base') lacks" in diagnostic.message
    assert "fails there at startup" in diagnostic.message


def test_provider_missing_on_some_workers_of_a_queue(tmp_path: Path) -> None:
    inventory = (
        CELERY_K8S
        + """
[[workers]]
name = "celery-aws"
executor = "CeleryExecutor"
queues = ["imports"]
runtime = "aws"

[runtimes.aws]
providers = ["standard", "celery", "amazon"]
"""
    )
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab"):
    @task(queue="imports")
    def pull():
        from airflow.providers.amazon.aws.hooks.s3 import S3Hook
        return S3Hook
    pull()
"""),
        inventory=inventory,
    )
    (diagnostic,) = by_code(report, "DRL202")
    assert "worker 'celery-general' (runtime 'base') lacks" in diagnostic.message
    assert "'celery-aws' has it" in diagnostic.message
    assert "fails only when it lands on a worker without it" in diagnostic.message


def test_airflow3_bundled_providers_need_no_listing(tmp_path: Path) -> None:
    inventory = CELERY_K8S.replace('providers = ["standard", "celery"]', 'providers = ["celery"]')
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab"):
    BashOperator(task_id="t", bash_command="x")
"""),
        inventory=inventory,
    )
    assert codes(report) == []


def test_noqa_suppresses_on_the_reported_line(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab"):
    BashOperator(task_id="a", bash_command="x", queue="reports")  # noqa: DRL101
    BashOperator(task_id="b", bash_command="x", queue="reports")  # noqa
    BashOperator(task_id="c", bash_command="x", queue="reports")  # noqa: DRL202
"""),
    )
    # ALL includes DRL901: the DRL202 that silenced nothing is reported too
    assert [(d.line, d.code) for d in report.diagnostics] == [(8, "DRL901"), (8, "DRL101")]


def test_file_level_noqa(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
# dagroute-lint: noqa
with DAG("lab"):
    BashOperator(task_id="a", bash_command="x", queue="reports")
"""),
    )
    assert codes(report) == []


def test_syntax_error_is_a_diagnostic_and_other_files_still_run(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {
            "dags/broken.py": "with DAG(:\n",
            **dag_file("""
with DAG("lab"):
    BashOperator(task_id="a", bash_command="x", queue="reports")
"""),
        },
    )
    assert codes(report) == ["DRL001", "DRL101"]
    assert report.diagnostics[0].path.endswith("broken.py")


def test_without_inventory_only_inventory_free_rules_run(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        {
            "dags/broken.py": "with DAG(:\n",
            **dag_file("""
with DAG("lab"):
    BashOperator(task_id="a", bash_command="x", queue="reports")
"""),
        },
        inventory=None,
    )
    assert codes(report) == ["DRL001"]


def test_select_and_ignore(tmp_path: Path) -> None:
    files = dag_file("""
from airflow.providers.amazon.aws.operators.s3 import S3CreateBucketOperator
with DAG("lab"):
    BashOperator(task_id="a", bash_command="x", queue="reports")
    BashOperator(task_id="b", bash_command="x")
""")
    # The provider the DAG processor lacks stops the file loading: DRL201, and no DRL202 on top.
    assert set(codes(lint_repo(tmp_path, files))) == {"DRL101", "DRL201"}
    assert codes(lint_repo(tmp_path, files, select=("DRL1",))) == ["DRL101"]


def test_unmappable_routing(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
with DAG("lab"):
    BashOperator.partial(task_id="a", bash_command="x").expand(queue=["p", "q"])
    BashOperator.partial(task_id="b", bash_command="x").expand(pool=["p", "q"])
    @task
    def add(x, queue):
        return x
    add.partial(queue="imports").expand(x=[1])
"""),
    )
    messages = [d.message for d in by_code(report, "DRL104")]
    assert len(messages) == 3
    assert "expands 'queue', which Airflow cannot map" in messages[0]
    assert "routing never varies per map index" in messages[1]
    assert "use .override(queue=...)" in messages[2]


def test_unresolved_routing_points_at_the_value(tmp_path: Path) -> None:
    report = lint_repo(
        tmp_path,
        dag_file("""
import os
with DAG("lab"):
    BashOperator(
        task_id="a",
        bash_command="x",
        queue=os.environ["QUEUE"],
    )
"""),
    )
    (diagnostic,) = by_code(report, "DRL105")
    assert (diagnostic.line, diagnostic.column) == (10, 15)  # os.environ["QUEUE"]
    assert "environment variable (os.environ)" in diagnostic.message
    assert codes(report) == ["DRL105"]
