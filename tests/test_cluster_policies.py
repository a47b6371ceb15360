"""Cluster policies (``airflow_local_settings.py``): read where Airflow imports them from, and
applied to every task above the DAG file's own levels, decided where the task's attributes
decide the policy's conditions, unknown (with the policy's line) where they do not.

The conformance corpus ``policies`` compares the same with Airflow running the policy."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from dagroute_lint.config import Settings
from dagroute_lint.deployment.inventory import load_inventory
from dagroute_lint.errors import ConfigError
from dagroute_lint.extract.module import extract_module
from dagroute_lint.pipeline.local_settings import settings_file
from dagroute_lint.resolve.tasks import ResolvedTask
from tests.helpers import CELERY_K8S, lint_repo, run_command, value, write_repo

DAGS = """
from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, TaskGroup, task

with DAG("ml_train", default_args={"owner": "gpu-team"}):
    BashOperator(task_id="train", bash_command="x", queue="manual")
    KubernetesPodOperator(task_id="pod", image="i")

with DAG("etl"):
    BashOperator(task_id="extract", bash_command="x")
    BashOperator(task_id="load", bash_command="x", queue="io")
    with TaskGroup("grp"):
        BashOperator(task_id="load", bash_command="x", queue="io")

    @task
    def report_summary():
        return 1

    report_summary()
"""

POLICY = """
from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator

HEAVY = "heavy"
TEAMS = {"gpu-team", "vision"}


def _pools(task):
    if task.task_id.startswith("report_"):
        task.pool = "reports"


def task_policy(task):
    if isinstance(task, KubernetesPodOperator):
        task.queue = "pods"
        return
    if task.dag_id.startswith("ml_") and task.owner in TEAMS:
        task.queue = HEAVY
    elif task.task_id in ("load", "grp.load"):
        task.executor = "KubernetesExecutor"
    _pools(task)
"""


def tasks_under(root: Path, policy: str | None, where: str = "config") -> dict[str, ResolvedTask]:
    files = {"dags/dag.py": DAGS}
    if policy is not None:
        files[f"{where}/airflow_local_settings.py"] = policy
    report = lint_repo(root, files, inventory=None)
    return {f"{t.dag_id}.{t.task_id}": t for t in report.tasks}


def test_assignments_under_decided_conditions_set_the_fields(tmp_path: Path) -> None:
    tasks = tasks_under(tmp_path, POLICY)
    assert value(tasks["ml_train.train"], "queue") == "heavy"  # beats queue="manual"
    assert value(tasks["ml_train.pod"], "queue") == "pods"  # isinstance, then return
    assert value(tasks["etl.extract"], "queue") == "default"
    assert value(tasks["etl.load"], "executor") == "KubernetesExecutor"
    assert value(tasks["etl.grp.load"], "executor") == "KubernetesExecutor"  # the full id
    assert value(tasks["etl.extract"], "executor") is None
    assert value(tasks["etl.report_summary"], "pool") == "reports"  # through the helper
    assert value(tasks["etl.extract"], "pool") == "default_pool"
    train = tasks["ml_train.train"]
    assert train.fields["queue"].origin.startswith("task_policy (")
    assert train.fields["queue"].origin.endswith("config/airflow_local_settings.py:17)")
    assert [step.field for step in train.policy] == ["queue"]


def test_without_a_policy_the_file_decides(tmp_path: Path) -> None:
    tasks = tasks_under(tmp_path, None)
    assert value(tasks["ml_train.train"], "queue") == "manual"
    assert tasks["ml_train.train"].policy == ()


def test_a_condition_that_cannot_be_decided_leaves_both_values(tmp_path: Path) -> None:
    policy = """
    import os

    def task_policy(task):
        if os.environ.get("BUSY"):
            task.queue = "overflow"
        if task.retries > 2:
            task.pool = "retries"
    """
    tasks = tasks_under(tmp_path, policy)
    queue = tasks["etl.load"].fields["queue"]
    assert not queue.known
    assert queue.candidates == ("io", "overflow")
    assert queue.reason == "a cluster policy may change it (airflow_local_settings.py:5)"
    assert tasks["etl.load"].fields["pool"].candidates == ("default_pool", "retries")
    assert ("queue", queue.reason) in tasks["etl.load"].unresolved


def test_a_statement_not_followed_makes_every_routing_field_unknown(tmp_path: Path) -> None:
    policy = """
    def task_policy(task):
        if task.dag_id == "etl":
            route(task, "x")
    """
    tasks = tasks_under(tmp_path, policy)
    load = tasks["etl.load"]
    for name in ("queue", "executor", "pool", "pool_slots"):
        assert not load.fields[name].known
        assert 'route(task, "x")' in load.fields[name].reason
    assert value(tasks["ml_train.train"], "queue") == "manual"  # decided: not reached


def test_a_value_computed_from_the_task_is_unknown(tmp_path: Path) -> None:
    policy = """
    def task_policy(task):
        if task.task_id == "extract":
            task.queue = task.dag_id + "_q"
    """
    extract = tasks_under(tmp_path, policy)["etl.extract"]
    assert not extract.fields["queue"].known
    assert "a cluster policy changes it (airflow_local_settings.py:3)" in (
        extract.fields["queue"].reason
    )


def test_effects_run_in_order_and_see_the_values_before_them(tmp_path: Path) -> None:
    policy = """
    def dag_policy(dag):
        for t in dag.tasks:
            if dag.dag_id == "etl":
                t.queue = "legacy"

    def task_policy(task):
        if task.queue == "legacy" and task.task_id == "extract":
            task.pool_slots = 3
    """
    tasks = tasks_under(tmp_path, policy)
    assert value(tasks["etl.extract"], "queue") == "legacy"
    assert value(tasks["etl.extract"], "pool_slots") == 3
    assert value(tasks["etl.load"], "pool_slots") == 1
    assert value(tasks["ml_train.train"], "queue") == "manual"


def test_a_policy_that_may_reject_a_dag_makes_its_tasks_conditional(tmp_path: Path) -> None:
    policy = """
    from airflow.exceptions import AirflowClusterPolicyViolation

    def task_policy(task):
        if task.task_id == "pod":
            raise AirflowClusterPolicyViolation("no pods")
    """
    tasks = tasks_under(tmp_path, policy)
    assert tasks["ml_train.train"].task.conditional  # bag_dag drops the whole DAG
    assert tasks["ml_train.pod"].task.conditional
    assert not tasks["etl.load"].task.conditional
    reject = [step for step in tasks["ml_train.train"].policy if step.field == "reject"]
    assert reject and reject[0].certain


def test_isinstance_is_decided_only_on_a_known_class_chain(tmp_path: Path) -> None:
    policy = """
    from airflow.providers.standard.operators.bash import BashOperator

    def task_policy(task):
        if isinstance(task, BashOperator):
            task.pool = "shell"
    """
    tasks = tasks_under(tmp_path, policy)
    assert value(tasks["etl.load"], "pool") == "shell"
    assert value(tasks["ml_train.pod"], "pool") == "default_pool"  # KPO is no BashOperator
    # @task builds Airflow's _PythonDecoratedOperator (@task.bash's is a BashOperator)
    assert value(tasks["etl.report_summary"], "pool") == "default_pool"


def test_the_mutation_hook_and_the_legacy_name(tmp_path: Path) -> None:
    policy = """
    def policy(task):
        task.queue = "old"

    def task_instance_mutation_hook(ti, dag_run=None):
        if ti.task_id == "extract":
            ti.pool = "hooked"
    """
    tasks = tasks_under(tmp_path, policy)
    extract = tasks["etl.extract"]
    assert value(extract, "pool") == "hooked"
    assert extract.fields["pool"].origin.startswith("task_instance_mutation_hook (")
    # ``policy`` is Airflow 2's name of task_policy: Airflow 3 (no inventory: 3) ignores it
    assert value(extract, "queue") == "default"


def test_the_policy_is_read_into_effects_by_the_evaluator() -> None:
    source = b"""
Q = "q"
__all__ = ["task_policy"]

def task_policy(task):
    if task.pool_slots >= 2 and task.task_id not in {"a", "b"}:
        task.queue = Q

def dag_policy(dag):
    for t in dag.tasks:
        t.queue = "never read: not in __all__"
"""
    module = extract_module(source, "airflow_local_settings.py", "airflow_local_settings")
    assert module.policy is not None
    assert module.policy.hooks == {"task_policy": 5}
    (effect,) = module.policy.effects
    assert (effect.hook, effect.field, effect.line) == ("task_policy", "queue", 7)
    assert effect.when.op == "and"
    assert [part.test for part in effect.when.parts] == ["ge", "not_in"]
    other = extract_module(source, "settings.py", "settings")
    assert other.policy is None  # only the module Airflow imports


def test_where_the_settings_file_is_found(tmp_path: Path) -> None:
    root = tmp_path
    (root / "dags").mkdir()
    (root / "dags" / "airflow_local_settings.py").write_text("")
    settings = Settings(root=root, dags=(root / "dags",))
    # The DAG folder joins sys.path only after Airflow imported its local settings.
    assert settings_file(settings, None) is None
    (root / "plugins").mkdir()
    (root / "plugins" / "airflow_local_settings.py").write_text("")
    assert settings_file(settings, None) == root / "plugins" / "airflow_local_settings.py"
    (root / "config").mkdir()
    (root / "config" / "airflow_local_settings.py").write_text("")
    assert settings_file(settings, None) == root / "config" / "airflow_local_settings.py"
    extra = root / "site"
    extra.mkdir()
    (extra / "airflow_local_settings.py").write_text("")
    with_roots = Settings(root=root, dags=(root / "dags",), roots=(extra,))
    assert settings_file(with_roots, None) == extra / "airflow_local_settings.py"


def test_the_inventory_names_the_file_or_says_there_is_none(tmp_path: Path) -> None:
    write_repo(tmp_path, {"deploy/config/airflow_local_settings.py": "", "config/x.py": ""})
    (tmp_path / "config" / "airflow_local_settings.py").write_text("")
    settings = Settings(root=tmp_path)
    inventory = tmp_path / "dagroute.toml"
    inventory.write_text('[deployment]\nlocal_settings = "deploy/config"\n')
    named = load_inventory(inventory)
    found = tmp_path / "deploy" / "config" / "airflow_local_settings.py"
    assert named.local_settings == str(found.resolve())
    assert settings_file(settings, named) == found.resolve()
    inventory.write_text("[deployment]\nlocal_settings = false\n")
    assert settings_file(settings, load_inventory(inventory)) is None


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ('"nowhere/airflow_local_settings.py"', "deployment.local_settings: 'nowhere/"),
        ('"settings.py"', "is not named airflow_local_settings.py"),
        ("true", "expected a string"),
    ],
)
def test_a_wrong_local_settings_is_an_inventory_error(
    tmp_path: Path, written: str, message: str
) -> None:
    (tmp_path / "settings.py").write_text("")
    inventory = tmp_path / "dagroute.toml"
    inventory.write_text(f"[deployment]\nlocal_settings = {written}\n")
    with pytest.raises(ConfigError) as raised:
        load_inventory(inventory)
    assert f"{inventory}: deployment.local_settings:" in str(raised.value)
    assert message in str(raised.value)
    result = run_command(
        [sys.executable, "-m", "dagroute_lint", "inventory", "check", str(inventory)],
        cwd=tmp_path,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def _routes(root: Path, *extra: str) -> dict[str, dict]:
    result = run_command(
        [sys.executable, "-m", "dagroute_lint", "routes", "dags", "--format", "json", *extra],
        cwd=root,
    )
    assert result.returncode in (0, 1), result.stderr
    return {f"{t['dag_id']}.{t['task_id']}": t for t in json.loads(result.stdout)["tasks"]}


def test_routes_and_the_result_cache_follow_the_policy(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {
            "dags/dag.py": DAGS,
            "config/airflow_local_settings.py": POLICY,
            "pyproject.toml": "[tool.dagroute-lint]\n",
            "dagroute.toml": CELERY_K8S,
        },
    )
    first = _routes(tmp_path, "--inventory", "dagroute.toml")["ml_train.train"]
    assert first["queue"] == "heavy"
    assert first["set_by"]["queue"] == "task_policy (config/airflow_local_settings.py:17)"
    assert first["set_by"]["pool"] == "default"
    lint = [sys.executable, "-m", "dagroute_lint", "dags", "--inventory", "dagroute.toml"]
    assert "queue 'heavy'" in run_command(lint, cwd=tmp_path).stdout  # DRL101
    policy = tmp_path / "config" / "airflow_local_settings.py"
    policy.write_text(POLICY.replace('HEAVY = "heavy"', 'HEAVY = "gpu"'), encoding="utf-8")
    again = run_command(lint, cwd=tmp_path).stdout
    assert "queue 'gpu'" in again  # the warm run re-lints: the policy changed
    assert "queue 'heavy'" not in again
    assert _routes(tmp_path, "--inventory", "dagroute.toml")["ml_train.train"]["queue"] == "gpu"


def test_a_policy_statement_not_followed_is_one_drl105_for_every_task(tmp_path: Path) -> None:
    policy = """
    def task_policy(task):
        route(task)
    """
    write_repo(tmp_path, {"config/airflow_local_settings.py": policy})
    report = lint_repo(tmp_path, {"dags/dag.py": DAGS}, select=("DRL105",))
    (diagnostic,) = report.diagnostics
    assert diagnostic.message.startswith("a value that cannot be known statically (a cluster ")
    assert "of 6 tasks in 2 dags" in diagnostic.message  # one cause, one line
    assert "airflow_local_settings.py:2" in diagnostic.message
    assert diagnostic.related[0].path.endswith("config/airflow_local_settings.py")


def test_a_diagnostic_about_a_value_a_policy_set_points_at_the_policy(tmp_path: Path) -> None:
    write_repo(tmp_path, {"config/airflow_local_settings.py": POLICY})
    report = lint_repo(tmp_path, {"dags/dag.py": DAGS}, select=("DRL101",))
    heavy = [d for d in report.diagnostics if "'heavy'" in d.message]
    assert heavy, [d.message for d in report.diagnostics]
    (related,) = heavy[0].related
    assert related.path.endswith("config/airflow_local_settings.py")
    assert (related.line, related.message) == (
        17,
        "queue 'heavy' set here, by the cluster policy's task_policy",
    )


def test_dag_policy_changing_default_args_routes_no_task(tmp_path: Path) -> None:
    """``dag_policy`` runs in ``bag_dag``, after the tasks took their ``default_args``."""
    policy = """
    def dag_policy(dag):
        dag.default_args["queue"] = "late"
        dag.default_args.update({"pool": "late"})
        dag.tags.append("policed")
    """
    tasks = tasks_under(tmp_path, policy)
    assert value(tasks["ml_train.train"], "pool") == "default_pool"
    assert value(tasks["ml_train.train"], "queue") == "manual"
    reaching = policy + '    dag.get_task("extract").queue = "direct"\n'
    executor = tasks_under(tmp_path, reaching)["ml_train.train"].fields["executor"]
    assert not executor.known  # a statement that reaches a task: not followed
    assert "dag.get_task(" in executor.reason


def test_airflow_2_runs_the_old_policy_name(tmp_path: Path) -> None:
    write_repo(
        tmp_path,
        {"config/airflow_local_settings.py": "def policy(task):\n    task.queue = 'old'\n"},
    )
    inventory = CELERY_K8S.replace('airflow_version = "3.3"', 'airflow_version = "2.10"')
    report = lint_repo(tmp_path, {"dags/dag.py": DAGS}, inventory=inventory, select=("DRL101",))
    tasks = {f"{t.dag_id}.{t.task_id}": t for t in report.tasks}
    assert value(tasks["etl.extract"], "queue") == "old"
    assert tasks["etl.extract"].fields["queue"].origin.startswith("policy (")


def test_a_hook_imported_from_elsewhere_may_change_every_field(tmp_path: Path) -> None:
    policy = "from company.policies import task_policy\n"
    load = tasks_under(tmp_path, policy)["etl.load"]
    queue = load.fields["queue"]
    assert not queue.known
    assert queue.reason == (
        "a cluster policy changes it (airflow_local_settings.py:1): the policy's task_policy "
        "is 'company.policies.task_policy', whose code is not read"
    )


def test_a_settings_file_that_cannot_be_parsed_leaves_routing_unknown(tmp_path: Path) -> None:
    load = tasks_under(tmp_path, "def task_policy(task):\n    task.queue = (\n")["etl.load"]
    assert not load.fields["queue"].known
    assert "airflow_local_settings.py cannot be analysed: " in load.fields["queue"].reason


def test_a_loop_over_a_known_table_is_unrolled(tmp_path: Path) -> None:
    policy = """
    ROUTES = {"ml_": "heavy", "et": "io_fast", "etl": "never: the loop broke before"}

    def task_policy(task):
        for prefix, queue in ROUTES.items():
            if not task.dag_id.startswith(prefix):
                continue
            task.queue = queue
            break
        else:
            task.pool = "unrouted"
    """
    tasks = tasks_under(tmp_path, policy)
    assert value(tasks["ml_train.train"], "queue") == "heavy"
    assert value(tasks["etl.load"], "queue") == "io_fast"
    assert value(tasks["etl.load"], "pool") == "default_pool"
    unknown_loop = "def task_policy(task):\n    for q in QUEUES():\n        task.queue = q\n"
    load = tasks_under(tmp_path, unknown_loop)["etl.load"]
    assert "for q in QUEUES()" in load.fields["queue"].reason
