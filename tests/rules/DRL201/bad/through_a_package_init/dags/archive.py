try:
    import yaml
except ImportError:
    yaml = None

import common.storage
from airflow.sdk import DAG, task

# 'import common.storage' runs common/__init__.py first, whose import needs the amazon provider;
# the guarded imports above it, here and there, do not end the walk.
with DAG("archive", schedule=None):

    @task
    def flag() -> None:
        print(common.storage.BUCKET)

    flag()
