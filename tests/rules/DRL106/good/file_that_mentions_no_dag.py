"""Shared settings read from Airflow Variables."""

from airflow.sdk import Variable

BUCKET = Variable.get("exports_bucket")
