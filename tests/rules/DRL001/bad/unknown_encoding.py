# -*- coding: klingon -*-
from airflow.sdk import DAG

with DAG("broken", schedule=None):
    pass
