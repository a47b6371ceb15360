import opensearchpy  # the DAG processor's runtime lacks it: the file's one DAG never loads
from airflow.sdk import DAG

with DAG("search_maintenance", schedule=None):
    pass
