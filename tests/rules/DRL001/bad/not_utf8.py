from airflow.sdk import DAG

# café au lait: latin-1 bytes in a file without an encoding declaration
with DAG("broken", schedule=None):
    pass
