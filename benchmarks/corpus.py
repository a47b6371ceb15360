"""Write an N-file DAG repository from varied, realistic templates (deterministic for a seed).

Usage: python benchmarks/corpus.py OUT N [--seed S]

OUT gets ``dags/`` (the DAG folder: team folders of DAG files, shared ``common/`` modules and
helper modules that are not DAGs), ``dagroute.toml`` (an inventory) and ``pyproject.toml``.
Every file imports with Airflow 3.3 and the standard provider, so the same folder can be loaded
with ``DagBag``. Templates: TaskFlow, classic operators with ``default_args``, task groups (context
manager and ``@task_group``), mapped tasks (``partial``/``expand``), loops over lists shared in
``common/``, and plain helper modules. A few tasks route to a queue no worker serves, so the
rules have something to report.
"""

from __future__ import annotations

import argparse
import random
import textwrap
from pathlib import Path

COMMON = {
    "common/__init__.py": "",
    "common/routing.py": '''
        """Queues and pools shared by every team."""

        ETL_QUEUE = "etl"
        REPORTS_QUEUE = "reports"
        HEAVY_POOL = "warehouse"
        REGIONS = ["emea", "amer", "apac"]
        SHARDS = [f"shard_{n}" for n in range(4)]
        QUEUES_BY_TIER = {"gold": ETL_QUEUE, "silver": "default"}
    ''',
    "common/defaults.py": '''
        """default_args every team starts from."""

        from datetime import timedelta

        DEFAULT_ARGS = {
            "owner": "data-platform",
            "retries": 2,
            "retry_delay": timedelta(minutes=5),
            "queue": "default",
        }
    ''',
}

INVENTORY = """
[deployment]
airflow_version = "3.3"
executors = ["CeleryExecutor", "KubernetesExecutor"]
default_queue = "default"
dag_processor = { runtime = "base" }

[[workers]]
name = "celery-general"
executor = "CeleryExecutor"
queues = ["default", "etl"]
runtime = "base"

[[workers]]
name = "k8s-pods"
executor = "KubernetesExecutor"
runtime = "base"

[runtimes.base]
providers = ["standard", "celery", "cncf.kubernetes"]

[pools]
default_pool = 128
warehouse = 8
"""

PYPROJECT = """
[tool.dagroute-lint]
dags = ["dags"]
"""

HEADER = '''
"""{doc}"""

from __future__ import annotations

from datetime import datetime

'''


def taskflow(name: str, rng: random.Random) -> str:
    steps = rng.randint(3, 8)
    body = [
        "from airflow.sdk import dag, task\n",
        "from common.routing import ETL_QUEUE, REPORTS_QUEUE\n\n\n",
        f'@dag(dag_id="{name}", schedule="@daily", start_date=datetime(2024, 1, 1), '
        'catchup=False, tags=["taskflow"])\n',
        f"def {name}():\n",
    ]
    for step in range(steps):
        queue = rng.choice(["ETL_QUEUE", '"default"', "REPORTS_QUEUE" if step == 0 else '"etl"'])
        body.append(f"    @task(queue={queue}, retries={rng.randint(0, 3)})\n")
        body.append(f"    def step_{step}(value=None):\n")
        body.append(f'        """Step {step} of {name}."""\n')
        body.append("        rows = [value] * 3 if value else []\n")
        body.append(f"        return {{'step': {step}, 'rows': len(rows)}}\n\n")
    chain = "None"
    for step in range(steps):
        body.append(f"    out_{step} = step_{step}({chain})\n")
        chain = f"out_{step}"
    body.append(f"\n\n{name}()\n")
    return "".join(body)


def classic(name: str, rng: random.Random) -> str:
    tasks = rng.randint(4, 12)
    body = [
        "from airflow.providers.standard.operators.bash import BashOperator\n",
        "from airflow.providers.standard.operators.empty import EmptyOperator\n",
        "from airflow.providers.standard.operators.python import PythonOperator\n",
        "from airflow.sdk import DAG\n\n",
        "from common.defaults import DEFAULT_ARGS\n",
        "from common.routing import HEAVY_POOL\n\n\n",
        "def _check(**context):\n",
        '    print("checking", context["ds"])\n\n\n',
        "with DAG(\n",
        f'    dag_id="{name}",\n',
        '    schedule="@hourly",\n',
        "    start_date=datetime(2024, 1, 1),\n",
        "    catchup=False,\n",
        '    default_args={**DEFAULT_ARGS, "owner": "team"},\n',
        ") as dag:\n",
        '    start = EmptyOperator(task_id="start")\n',
        "    previous = start\n",
    ]
    for index in range(tasks):
        if rng.random() < 0.5:
            body.append(
                f"    t{index} = BashOperator(\n"
                f'        task_id="load_{index}",\n'
                f'        bash_command="python -m jobs.load --part {index} --date {{{{ ds }}}}",\n'
                f"        pool=HEAVY_POOL,\n"
                f"        pool_slots={rng.randint(1, 3)},\n"
                "    )\n"
            )
        else:
            body.append(
                f"    t{index} = PythonOperator(\n"
                f'        task_id="check_{index}",\n'
                "        python_callable=_check,\n"
                f'        queue="{rng.choice(["default", "etl"])}",\n'
                "    )\n"
            )
        body.append(f"    previous >> t{index}\n    previous = t{index}\n")
    return "".join(body)


def groups(name: str, rng: random.Random) -> str:
    count = rng.randint(2, 4)
    body = [
        "from airflow.providers.standard.operators.bash import BashOperator\n",
        "from airflow.providers.standard.operators.empty import EmptyOperator\n",
        "from airflow.sdk import DAG, TaskGroup, task, task_group\n\n",
        "from common.routing import ETL_QUEUE\n\n\n",
        "@task_group\n",
        "def publish(target: str):\n",
        "    @task(queue=ETL_QUEUE)\n",
        "    def render(target: str) -> str:\n",
        "        return target.upper()\n\n",
        "    @task\n",
        "    def upload(text: str) -> None:\n",
        "        print(text)\n\n",
        "    upload(render(target))\n\n\n",
        f'with DAG(dag_id="{name}", schedule=None, start_date=datetime(2024, 1, 1)) as dag:\n',
        '    begin = EmptyOperator(task_id="begin")\n',
    ]
    for index in range(count):
        body.append(
            f'    with TaskGroup("section_{index}", default_args={{"queue": ETL_QUEUE}}) '
            f"as section_{index}:\n"
        )
        for part in range(rng.randint(2, 4)):
            body.append(
                f'        BashOperator(task_id="part_{part}", bash_command="echo {part}")\n'
            )
        body.append(f"    begin >> section_{index}\n")
    body.append('    publish.override(group_id="publish_a")("a")\n')
    body.append('    publish.override(group_id="publish_b")("b")\n')
    return "".join(body)


def mapped(name: str, rng: random.Random) -> str:
    return (
        "from airflow.providers.standard.operators.bash import BashOperator\n"
        "from airflow.sdk import DAG, task\n\n"
        "from common.routing import ETL_QUEUE, SHARDS\n\n\n"
        f'with DAG(dag_id="{name}", schedule="@daily", start_date=datetime(2024, 1, 1)) as dag:\n'
        f"    @task(queue=ETL_QUEUE, max_active_tis_per_dag={rng.randint(2, 8)})\n"
        "    def process(shard: str, day: str) -> int:\n"
        "        return len(shard + day)\n\n"
        '    counts = process.partial(day="{{ ds }}").expand(shard=SHARDS)\n'
        "    BashOperator.partial(\n"
        '        task_id="archive",\n'
        '        queue="default",\n'
        f"        pool_slots={rng.randint(1, 2)},\n"
        '    ).expand(bash_command=[f"archive {s}" for s in SHARDS])\n'
    )


def loops(name: str, rng: random.Random) -> str:
    return (
        "from airflow.providers.standard.operators.bash import BashOperator\n"
        "from airflow.sdk import DAG\n\n"
        "from common.routing import QUEUES_BY_TIER, REGIONS, SHARDS\n\n\n"
        f'with DAG(dag_id="{name}", schedule="@daily", start_date=datetime(2024, 1, 1)) as dag:\n'
        "    for region in REGIONS:\n"
        "        for shard in SHARDS:\n"
        "            BashOperator(\n"
        '                task_id=f"sync_{region}_{shard}",\n'
        '                bash_command=f"sync --region {region} --shard {shard}",\n'
        f'                queue=QUEUES_BY_TIER["{rng.choice(["gold", "silver"])}"],\n'
        f"                retries={rng.randint(0, 2)},\n"
        "            )\n"
    )


def helper(name: str, rng: random.Random) -> str:
    functions = []
    for index in range(rng.randint(3, 8)):
        functions.append(
            f"def transform_{index}(rows: list[dict[str, object]]) -> list[dict[str, object]]:\n"
            f'    """Normalise rows, step {index}."""\n'
            "    result = []\n"
            "    for row in rows:\n"
            f"        cleaned = {{key.strip().lower(): value for key, value in row.items()}}\n"
            f'        cleaned["step"] = {index}\n'
            "        result.append(cleaned)\n"
            "    return result\n\n\n"
        )
    return "".join(functions).rstrip() + "\n"


TEMPLATES = (
    (taskflow, 3),
    (classic, 3),
    (groups, 2),
    (mapped, 1),
    (loops, 1),
    (helper, 2),
)


def write_corpus(out: Path, count: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    dags = out / "dags"
    for relative, text in COMMON.items():
        _write(dags / relative, textwrap.dedent(text).lstrip("\n"))
    (out / "dagroute.toml").write_text(INVENTORY.lstrip("\n"), encoding="utf-8")
    (out / "pyproject.toml").write_text(PYPROJECT.lstrip("\n"), encoding="utf-8")
    weighted = [template for template, weight in TEMPLATES for _ in range(weight)]
    for number in range(count - len(COMMON)):
        template = rng.choice(weighted)
        team = f"team_{number % 20:02d}"
        name = f"{template.__name__}_{number:05d}"
        if template is helper:
            text = f'"""Row helpers for {team}: plain Python."""\n\n\n' + helper(name, rng)
            _write(dags / team / f"{name}.py", text)
        else:
            doc = f"{template.__name__} DAG {number} of {team}."
            text = HEADER.format(doc=doc).lstrip("\n") + template(name, rng)
            _write(dags / team / f"{name}.py", text)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("count", type=int)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args()
    write_corpus(arguments.out, arguments.count, arguments.seed)
    files = sum(1 for _ in (arguments.out / "dags").rglob("*.py"))
    print(f"{arguments.out}: {files} files")


if __name__ == "__main__":
    main()
