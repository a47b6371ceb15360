from airflow.sdk import DAG

# starts with a UTF-8 byte order mark
with DAG("fine", schedule=None):
    pass
