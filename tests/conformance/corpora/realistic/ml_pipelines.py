"""One training pipeline per model: GPU queues from class constants, a DAG factory in a loop."""

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator
from airflow.operators.python import PythonOperator
from common.platform import QUEUES, get_default_args

MODELS = [
    ("churn", QUEUES.GPU.SMALL, 1),
    ("ranking", QUEUES.GPU.LARGE, 4),
    ("fraud", QUEUES.GPU.LARGE, 2),
    ("forecast", QUEUES.GPU.SMALL, 1),
    ("pricing", QUEUES.GPU.SMALL, 2),
]


def evaluate(model):
    print(model)


def build(model, gpu_queue, slots):
    dag = DAG(
        f"ml_{model}",
        start_date=datetime(2024, 1, 1),
        schedule="@weekly",
        catchup=False,
        default_args=get_default_args(owner="ml", pool="gpu"),
    )
    features = BashOperator(
        task_id="features", bash_command=f"features {model}", queue=QUEUES.TRANSFORM, dag=dag
    )
    train = BashOperator(
        task_id="train", bash_command=f"train {model}", queue=gpu_queue, pool_slots=slots, dag=dag
    )
    tune = BashOperator(task_id="tune", bash_command="tune", queue=gpu_queue, dag=dag)
    score = PythonOperator(
        task_id="evaluate", python_callable=evaluate, op_args=[model], pool="default_pool", dag=dag
    )
    register = BashOperator(task_id="register", bash_command="register", dag=dag)
    deploy = BashOperator(
        task_id="deploy", bash_command="deploy", executor="KubernetesExecutor", dag=dag
    )
    features >> train >> tune >> score >> register >> deploy
    return dag


for model, gpu_queue, slots in MODELS:
    globals()[f"ml_{model}"] = build(model, gpu_queue, slots)
