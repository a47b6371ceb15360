from airflow.sdk import DAG

with DAG("fine", schedule=None):
    pass
