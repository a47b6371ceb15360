from airflow.sdk import DAG, task

# No table maps acme-airflow-provider: it is taken to provide acme_airflow_provider, the module
# it is named after.
with DAG("acme", schedule=None):

    @task
    def sync() -> None:
        import acme_airflow_provider
        from acme_airflow_provider.operators import AcmeOperator

        acme_airflow_provider.connect(AcmeOperator)

    sync()
