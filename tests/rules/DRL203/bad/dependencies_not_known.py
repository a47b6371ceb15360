from airflow.sdk import DAG, task

# The worker's runtime lists a distribution whose requirements are not known: humanize may
# come with it, and the report says so.
with DAG("report_sizes", schedule=None):

    @task
    def sizes() -> str:
        import humanize

        return humanize.naturalsize(1_000_000)

    sizes()
