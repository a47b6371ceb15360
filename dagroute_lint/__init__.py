"""dagroute-lint: check that every Airflow task can reach a worker that can run it."""

__version__ = "0.1.0"
