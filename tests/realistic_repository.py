"""A DAG repository of a realistic size, written into a test's folder: 21 DAGs, 211 tasks, nine
queues, four workers, with the gaps a routing map exists to show.

The DAGs are written as teams write them: queues from a shared module, ``default_args``,
TaskGroups, loops over lists of tables, TaskFlow, provider operators. Planted in them:

- ``gpu_batch``: the queue of eleven tasks whose queue is one of two values (``"gpu_batch" if
  os.environ.get("USE_GPU") else "ml"``); no worker serves it, and no task routes to it for sure;
- a queue read from the environment, which cannot be known;
- ``EdgeExecutor``, named by three tasks and not configured;
- ``apache-airflow-providers-amazon``, imported by a DAG whose queue's worker (runtime
  ``reporting``) lacks it;
- ``maintenance``, a worker queue no task uses.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers import write_repo

QUEUES = (
    "default",
    "etl",
    "imports",
    "reports",
    "exports",
    "ml",
    "features",
    "maintenance",
    "gpu_batch",
)
WORKERS = ("celery-etl", "celery-reports", "celery-ml", "k8s-pods")
RUNTIMES = ("etl-image", "reporting", "ml-image", "pods")
UNSERVED_QUEUE = "gpu_batch"
CANDIDATE_TASKS = 11
UNUSED_QUEUE = "maintenance"
MISSING_EXECUTOR = "EdgeExecutor"
MISSING_PROVIDER = "apache-airflow-providers-amazon"
LACKING_RUNTIME = "reporting"
UNKNOWN_QUEUE_DAG = "partner_feeds"
DAGS = 21
TASKS = 211

INVENTORY = """\
[deployment]
airflow_version = "3.3"
executors = ["CeleryExecutor", "KubernetesExecutor"]
default_queue = "default"
dag_processor = { runtime = "processor" }
triggerer = { runtime = "etl-image" }

[[workers]]
name = "celery-etl"
executor = "CeleryExecutor"
queues = ["default", "etl", "imports"]
runtime = "etl-image"

[[workers]]
name = "celery-reports"
executor = "CeleryExecutor"
queues = ["reports", "exports", "maintenance"]
runtime = "reporting"

[[workers]]
name = "celery-ml"
executor = "CeleryExecutor"
queues = ["ml", "features"]
runtime = "ml-image"

[[workers]]
name = "k8s-pods"
executor = "KubernetesExecutor"
runtime = "pods"

[runtimes.etl-image]
python = "3.11"
providers = ["standard", "celery", "common.sql", "postgres", "amazon"]
packages = ["pandas>=2", "requests"]

[runtimes.reporting]
python = "3.11"
providers = ["standard", "celery", "common.sql"]
packages = ["pandas>=2"]

[runtimes.ml-image]
python = "3.11"
providers = ["standard", "celery", "apache.spark"]
packages = ["pandas>=2", "scikit-learn"]

[runtimes.pods]
python = "3.11"
providers = ["standard", "cncf.kubernetes", "apache.spark"]
packages = []

[runtimes.processor]
python = "3.11"
providers = ["standard", "celery", "common.sql", "postgres", "amazon", "apache.spark",
             "cncf.kubernetes"]
packages = ["pandas>=2"]

[pools]
default_pool = 128
warehouse = 8
"""

QUEUES_MODULE = """\
\"\"\"The queues the DAGs route to, in one place.\"\"\"

import os

ETL = "etl"
IMPORTS = "imports"
REPORTS = "reports"
EXPORTS = "exports"
ML = "ml"
FEATURES = "features"
# The GPU workers are being rolled out: where they exist, training goes to their queue.
TRAINING = "gpu_batch" if os.environ.get("USE_GPU") else "ml"
"""

HEADER = """\
import os

from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG, TaskGroup, task

from common import queues
"""


def _etl(source: str) -> str:
    """12 tasks: extract per table on the imports queue, transforms, loads, a check."""
    return f"""{HEADER}
with DAG("etl_{source}", schedule="@daily", default_args={{"queue": queues.ETL, "retries": 2}}):
    start = EmptyOperator(task_id="start")
    end = EmptyOperator(task_id="end")
    for table in ("{source}", "{source}_items", "{source}_events", "{source}_audit"):
        SQLExecuteQueryOperator(
            task_id=f"extract_{{table}}", sql=f"select * from {{table}}", queue=queues.IMPORTS
        )
    with TaskGroup("transform"):
        for step in ("clean", "dedupe", "enrich"):
            BashOperator(task_id=step, bash_command=f"transform {{step}}")
    for target in ("staging", "warehouse"):
        SQLExecuteQueryOperator(task_id=f"load_{{target}}", sql="insert", pool="warehouse")

    @task
    def check_counts():
        return 1

    check_counts()
"""


def _report(name: str) -> str:
    """9 tasks: renders, exports, a publish on the default queue."""
    return f"""{HEADER}
with DAG("report_{name}", schedule="@daily", default_args={{"queue": queues.REPORTS}}):
    for page in ("summary", "regions", "products", "customers", "trends", "appendix"):
        BashOperator(task_id=f"render_{{page}}", bash_command=f"render {{page}}")
    with TaskGroup("export"):
        BashOperator(task_id="pdf", bash_command="pdf", queue=queues.EXPORTS)
        BashOperator(task_id="csv", bash_command="csv", queue=queues.EXPORTS)
    BashOperator(task_id="publish", bash_command="publish", queue="default")
"""


def _ml(model: str) -> str:
    """9 tasks: features, training, a Spark job in a pod, evaluation."""
    return f"""{HEADER}
from airflow.providers.apache.spark.operators.spark_submit import SparkSubmitOperator

with DAG("ml_{model}", schedule="@weekly", default_args={{"queue": queues.FEATURES}}):
    for feature in ("recency", "frequency", "monetary", "tenure"):
        BashOperator(task_id=f"feature_{{feature}}", bash_command="features")
    BashOperator(task_id="train", bash_command="train", queue=queues.ML)
    BashOperator(task_id="tune", bash_command="tune", queue=queues.ML)
    SparkSubmitOperator(
        task_id="score_all", application="score.py", executor="KubernetesExecutor"
    )

    @task(queue=queues.ML)
    def evaluate():
        return 1

    @task(queue=queues.ML)
    def register():
        return 1

    evaluate() >> register()
"""


GPU_TRAINING = f"""{HEADER}
with DAG("gpu_training", schedule=None):
    start = EmptyOperator(task_id="start")
    for shard in range({CANDIDATE_TASKS}):
        BashOperator(task_id=f"train_shard_{{shard}}", bash_command="train", queue=queues.TRAINING)
"""

PARTNER_FEEDS = f"""{HEADER}
with DAG("{UNKNOWN_QUEUE_DAG}", schedule="@hourly", default_args={{"queue": queues.IMPORTS}}):
    for partner in ("acme", "globex", "initech", "umbrella"):
        BashOperator(task_id=f"fetch_{{partner}}", bash_command="fetch")
    for partner in ("acme", "globex", "initech", "umbrella"):
        BashOperator(
            task_id=f"push_{{partner}}", bash_command="push", queue=os.environ["PARTNER_QUEUE"]
        )
"""

S3_EXPORTS = f"""{HEADER}
from airflow.providers.amazon.aws.operators.s3 import S3CreateObjectOperator

with DAG("s3_exports", schedule="@daily", default_args={{"queue": queues.EXPORTS}}):
    for name in ("orders", "customers", "payments", "inventory", "returns", "refunds", "fees"):
        S3CreateObjectOperator(
            task_id=f"upload_{{name}}", s3_bucket="exports", s3_key=name, data="x"
        )
    BashOperator(task_id="notify", bash_command="notify")
"""

EDGE_SYNC = f"""{HEADER}
with DAG("edge_sync", schedule="@hourly", default_args={{"queue": queues.ETL}}):
    for site in ("north", "south", "east"):
        BashOperator(task_id=f"sync_{{site}}", bash_command="sync", executor="{MISSING_EXECUTOR}")
    for step in ("collect", "merge", "verify", "archive"):
        BashOperator(task_id=step, bash_command=step)
"""

POD_MAINTENANCE = f"""{HEADER}
from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator

with DAG("pod_maintenance", schedule="@daily"):
    for job in ("vacuum", "reindex", "rotate_logs", "compact", "prune", "backup"):
        KubernetesPodOperator(
            task_id=job, image="tools:1", cmds=[job], executor="KubernetesExecutor"
        )
    BashOperator(
        task_id="report", bash_command="report", executor=os.environ.get("REPORT_EXECUTOR")
    )
"""

WAREHOUSE = f"""{HEADER}
with DAG("warehouse_snapshots", schedule="@daily", default_args={{"queue": queues.ETL}}):
    for table in ("orders", "customers", "payments", "inventory", "shipments"):
        SQLExecuteQueryOperator(
            task_id=f"snapshot_{{table}}", sql="snapshot", pool="warehouse"
        )
        SQLExecuteQueryOperator(task_id=f"verify_{{table}}", sql="verify")
"""

SOURCES = (
    "orders",
    "customers",
    "payments",
    "inventory",
    "shipments",
    "returns",
    "marketing",
    "support",
)
REPORTS = ("daily_sales", "finance", "operations", "executive")
MODELS = ("churn", "ranking", "forecast")


def realistic_repository(root: Path) -> Path:
    """Write the repository into ``root``: ``dags/`` (with ``common/queues.py``), the
    inventory ``dagroute.toml`` and a ``pyproject.toml`` naming both."""
    files = {
        "pyproject.toml": '[tool.dagroute-lint]\ndags = ["dags"]\ninventory = "dagroute.toml"\n',
        "dagroute.toml": INVENTORY,
        "dags/common/__init__.py": "",
        "dags/common/queues.py": QUEUES_MODULE,
        "dags/gpu_training.py": GPU_TRAINING,
        "dags/partner_feeds.py": PARTNER_FEEDS,
        "dags/s3_exports.py": S3_EXPORTS,
        "dags/edge_sync.py": EDGE_SYNC,
        "dags/pod_maintenance.py": POD_MAINTENANCE,
        "dags/warehouse_snapshots.py": WAREHOUSE,
    }
    files.update({f"dags/etl_{source}.py": _etl(source) for source in SOURCES})
    files.update({f"dags/report_{name}.py": _report(name) for name in REPORTS})
    files.update({f"dags/ml_{model}.py": _ml(model) for model in MODELS})
    return write_repo(root, files)
