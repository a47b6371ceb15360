"""Operators re-exported as the provider system tests' ``tests_common.test_utils.compat`` does:
imported in a ``try`` whose body holds Airflow 3's paths, with Airflow 2's in the ``except
ImportError`` handler. DAG files import the classes from here; Airflow holds the class this
module imported (the standard provider's on 3.x; on 2.10.5 ``airflow.sdk`` fails to import, so
the handler's)."""

try:
    from airflow.providers.standard.operators.bash import BashOperator
    from airflow.providers.standard.operators.empty import EmptyOperator
    from airflow.sdk import BaseOperatorLink
except ImportError:
    from airflow.models.baseoperator import BaseOperatorLink
    from airflow.operators.bash import BashOperator
    from airflow.operators.empty import EmptyOperator

from airflow.operators.python import PythonOperator

__all__ = ["BaseOperatorLink", "BashOperator", "EmptyOperator", "PythonOperator"]
