import humanize
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, task

# The workers' runtime lists flower: installing it brought humanize and tornado.
with DAG("report_sizes", schedule=None):

    @task
    def sizes() -> str:
        import tornado

        return humanize.naturalsize(len(tornado.version))

    sizes() >> BashOperator(task_id="sync", bash_command="sync.sh")
