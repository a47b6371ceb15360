"""Factories under decorators: one that returns the function (followed) and two that wrap it."""

import functools
from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator
from airflow.utils.task_group import TaskGroup


@functools.lru_cache(maxsize=None)
def cached_name(kind):
    return f"load_{kind}"


@functools.lru_cache
def loader(kind):
    return BashOperator(task_id=f"cached_{kind}", bash_command=f"load {kind}", queue="loads")


def in_group(function):
    """Runs what it decorates inside a TaskGroup of its name: every task id gets the prefix."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with TaskGroup(function.__name__):
            return function(*args, **kwargs)

    return wrapper


def logged(function):
    return function


@in_group
def grouped(kind):
    return BashOperator(task_id=kind, bash_command=f"run {kind}", queue="grouped")


@logged
def plain(kind):
    return BashOperator(task_id=f"plain_{kind}", bash_command=f"run {kind}", queue="plain")


with DAG("decorated_factories", start_date=datetime(2024, 1, 1), schedule=None):
    loader("orders")
    grouped("report")
    plain("audit")
