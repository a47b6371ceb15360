import os

from airflow.sdk import DAG, task

OPTIONS = {"python_version": "3.11"}

with DAG("venvs", schedule=None):

    # A templated requirement is only known when the task runs.
    @task.virtualenv(
        requirements=["numpy @ https://example.com/{{ var.value.numpy }}.whl"],
        system_site_packages=False,
    )
    def templated() -> None:
        import scipy

        print(scipy)

    # An item that is not a constant string.
    @task.virtualenv(requirements=["numpy", os.environ["EXTRA"]], system_site_packages=False)
    def from_environment() -> None:
        import scipy

        print(scipy)

    # A spread may carry requirements= or system_site_packages=: not judged.
    @task.virtualenv(**OPTIONS, system_site_packages=False)
    def spread_only() -> None:
        import scipy

        print(scipy)

    # pip options name files the linter does not read.
    @task.virtualenv(requirements=["-r requirements.txt"], system_site_packages=False)
    def from_a_file() -> None:
        import scipy

        print(scipy)

    templated()
    from_environment()
    spread_only()
    from_a_file()
