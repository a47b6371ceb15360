"""Airflow DAG built by a platform helper after the logging set-up."""

from platform_tools.logs import configure
from platform_tools.pipelines import create_dag

configure("exports")
exports = create_dag("exports")
