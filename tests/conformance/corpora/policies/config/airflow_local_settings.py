"""A platform team's cluster policies: route by DAG, owner, operator class and task id.

Airflow imports this module from ``$AIRFLOW_HOME/config`` when it starts; the conformance
harness puts it there for the oracle and names it in the inventory for dagroute-lint.
"""

from airflow.exceptions import AirflowClusterPolicySkipDag

HEAVY_QUEUE = "heavy"
GPU_POOL = "gpu"
KUBERNETES = "KubernetesExecutor"
# The first prefix a DAG id starts with gives its tasks a pool, when they have none.
PREFIX_POOLS = (("etl_", "etl_pool"), ("legacy_", "legacy_batch_pool"), ("", "unreachable"))


def _reports_pool(task):
    """A helper the policy calls with the task: read as the policy's own body."""
    if task.task_id.startswith("report_"):
        task.pool = "reports"
        task.pool_slots = 2


def task_policy(task):
    # Imported here, not at module level: Airflow imports this module while it starts.
    from airflow.operators.bash import BashOperator

    if task.dag_id.startswith("ml_"):
        task.queue = HEAVY_QUEUE
        if task.owner == "gpu-team":
            task.pool = GPU_POOL
        return
    if isinstance(task, BashOperator) and task.queue == "default":
        task.queue = "shell"
    elif task.task_id in ("load", "grp.load"):
        task.executor = KUBERNETES
    _reports_pool(task)
    if task.task_id == "flaky" and task.retries > 2:  # retries is not modelled: may apply
        task.queue = "retrying"
    for prefix, pool in PREFIX_POOLS:
        if not task.dag_id.startswith(prefix):
            continue
        if task.pool == "default_pool":
            task.pool = pool
        break


def dag_policy(dag):
    if dag.dag_id == "skipped_by_policy":
        raise AirflowClusterPolicySkipDag("not run on this deployment")
    # dag_policy runs before task_policy: these tasks reach it on the legacy queue.
    for task in dag.tasks:
        if dag.dag_id == "legacy_batch":
            task.queue = "legacy"


def task_instance_mutation_hook(task_instance, dag_run=None):
    # Runs when the scheduler creates the task instance; the routing it dispatches with.
    if task_instance.queue == "legacy" and task_instance.task_id == "nightly":
        task_instance.pool = "legacy_pool"
    urgent = dag_run is not None and dag_run.conf.get("urgent")  # decided per run: may apply
    if task_instance.task_id == "weekly" and urgent:
        task_instance.pool_slots = 4
