from airflow.sdk import DAG, task

with DAG("broken", schedule=None):

    @task
    def run() -> None:
        print("a")
      print("b")

    run()
