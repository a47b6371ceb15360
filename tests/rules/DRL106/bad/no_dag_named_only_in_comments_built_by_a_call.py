# Nightly exports for the airflow deployment: the company library builds the dag.
from company_pipelines import build

build("nightly_exports", schedule="@daily")
