import humanize
from airflow.sdk import DAG, task

# The DAG processor's runtime lists flower, and installing flower installs humanize.
with DAG("report_sizes", schedule=None):

    @task
    def sizes() -> str:
        return humanize.naturalsize(1_000_000)

    sizes()
