import acme_airflow_provider
from acme_airflow_provider.operators import AcmeOperator
from airflow.sdk import DAG
from google.cloud import bigquery

# No table maps acme-airflow-provider: it is taken to provide acme_airflow_provider, the module
# it is named after; google.cloud.bigquery is google-cloud-bigquery's.
with DAG("acme", schedule=None, tags=[acme_airflow_provider.__name__, bigquery.__name__]):
    AcmeOperator(task_id="sync")
