from airflow.sdk import dag, task


@task
def fit() -> None:
    print("fit")


@dag(schedule=None)
def train():
    fit.override(executor="gpus")()
    fit.override(task_id="fit_again", executor="gpu")()


train()
