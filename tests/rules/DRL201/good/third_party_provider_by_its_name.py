from airflow.providers.foo.bar.operators.sync import FooBarSyncOperator
from airflow.sdk import DAG

# airflow.providers.foo.bar is apache-airflow-providers-foo-bar's by Airflow's naming rule, which
# the runtime lists: not the guessed apache-airflow-providers-foo.
with DAG("foo_bar", schedule=None):
    FooBarSyncOperator(task_id="sync")
