import cloudvolume
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, task

# cloudvolume is cloud-volume, opensearchpy opensearch-py, bson pymongo, chunkiterator
# chunk-iterator: every runtime lists them by their distribution names.
with DAG("volumes", schedule=None):

    @task
    def index() -> None:
        import bson
        import chunkiterator
        import opensearchpy

        opensearchpy.OpenSearch().index(index="v", body={"id": str(bson.ObjectId())})
        chunkiterator.chunked([1, 2, 3], 2)

    index() >> BashOperator(task_id="mesh", bash_command="mesh.sh")

VOLUME = cloudvolume.CloudVolume
