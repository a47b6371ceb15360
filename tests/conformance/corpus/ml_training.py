"""Model training with TaskFlow: `@dag`, `@task(...)`, `@task.<kind>`, `.override()`."""

from datetime import datetime

from airflow.sdk import dag, task
from common.helpers import summarize
from common.routing import GPU_QUEUE


@dag(
    schedule=None,
    start_date=datetime(2024, 1, 1),
    default_args={"owner": "ml", "queue": "ml", "pool": "ml_pool"},
    tags=["ml"],
)
def ml_training():
    @task
    def fetch_features():
        return {"rows": 1000}

    @task(queue=GPU_QUEUE, pool_slots=4)
    def train(features):
        return {"model": "m1", "rows": features["rows"]}

    @task.python(queue="ml-cpu")
    def evaluate(model):
        return {"auc": 0.9, "model": model["model"]}

    @task.bash(pool="default_pool")
    def publish():
        return "echo publishing model"

    @task.virtualenv(requirements=["scikit-learn==1.5.0"], queue="ml-venv")
    def explain():
        import sklearn

        return sklearn.__version__

    features = fetch_features()
    model = train(features)
    # Calling one TaskFlow function three times yields evaluate, evaluate__1, evaluate__2.
    evaluate(model)
    evaluate(model)
    evaluate.override(pool="eval_pool")(model)
    evaluate.override(task_id="evaluate_holdout", queue="ml-holdout")(model)
    train.override(task_id="train_small", queue="ml-cpu", pool_slots=1)(features)
    publish()
    explain()
    # A plain function wrapped without decorator syntax.
    task(summarize, queue="reports")()
    task(summarize)()


ml_training()


@dag(dag_id="ml_feature_backfill", schedule=None, start_date=datetime(2024, 1, 1))
def backfill_features():
    @task(queue="ml-cpu")
    def backfill(day: str):
        print(day)

    backfill("2024-01-01")
    backfill("2024-01-02")


backfill_features()
