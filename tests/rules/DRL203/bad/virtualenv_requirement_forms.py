from airflow.sdk import DAG, task

OPTIONS = {"python_version": "3.11"}

with DAG("venvs", schedule=None):

    # One string, split into lines: comments and blank lines are not requirements.
    @task.virtualenv(
        requirements="numpy  # pinned # by ops\n\n   # a comment line\npolars\n",
        system_site_packages=False,
    )
    def from_text() -> None:
        import numpy
        import polars
        import scipy

        print(numpy, polars, scipy)

    # No requirements at all: the venv holds nothing beyond the standard library.
    @task.virtualenv(system_site_packages=False)
    def bare() -> None:
        import pandas

        print(pandas)

    # Keywords spread in, but both that matter are written: still judged.
    @task.virtualenv(**OPTIONS, requirements=["numpy"], system_site_packages=False)
    def spread_and_named() -> None:
        import pandas

        print(pandas)

    from_text()
    bare()
    spread_and_named()
