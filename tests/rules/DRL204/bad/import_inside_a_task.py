from airflow.sdk import DAG, task

with DAG("legacy", schedule=None):

    @task
    def run() -> None:
        # Fails when the task runs, not when the file is parsed: still an Airflow 2 path.
        from airflow.operators.dummy import DummyOperator

        print(DummyOperator)

    run()
