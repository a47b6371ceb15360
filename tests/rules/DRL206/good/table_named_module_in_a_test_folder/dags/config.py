from airflow.sdk import DAG, task
import yaml

# tests/yaml/ is the repository's, but 'yaml' is PyYAML's import name: it is the installed one.
with DAG("config", schedule=None, tags=[yaml.__name__]):

    @task
    def read() -> None:
        pass

    read()
