# -*- coding: latin-1 -*-
from airflow.sdk import DAG

# café au lait, declared as latin-1
with DAG("fine", schedule=None):
    pass
