from airflow.sdk import DAG, task

with DAG("fine", schedule=None):

    @task
    def route(kind: str) -> str:
        match kind:
            case "a" | "b":
                return f"{kind!r:>{4}}"
            case _:
                return (x := kind) and x

    route("a")
