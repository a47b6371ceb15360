import humanize
from airflow.sdk import DAG, task

# The runtime lists a distribution whose requirements no shipped table knows: the report says
# so, since humanize may come with it.
with DAG("report_sizes", schedule=None):

    @task
    def sizes() -> str:
        return humanize.naturalsize(1_000_000)

    sizes()
