from airflow.sdk import DAG, task

with DAG("sizes", schedule=None):

    # pip installs flower into the venv, and with it what flower requires: humanize, tornado.
    @task.virtualenv(requirements=["flower"], system_site_packages=False)
    def report() -> None:
        import humanize
        import tornado

        print(humanize.naturalsize(1), tornado.version)

    report()
