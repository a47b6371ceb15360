"""The verdicts the conformance suite derives from Airflow's values (no Airflow needed)."""

from __future__ import annotations

from typing import Any

from verdicts import Deployment, compare_diagnostics, derive_deployment, expected_codes

EXECUTORS = ("CeleryExecutor", "KubernetesExecutor", "LocalExecutor")


def _task(task_id: str, **values: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "file": "a.py",
        "dag_id": "d",
        "task_id": task_id,
        "queue": "default",
        "executor": None,
        "pool": "default_pool",
        "pool_slots": 1,
        "dispatched": True,
    }
    base.update(values)
    return base


def _deployment(**changes: Any) -> Deployment:
    values: dict[str, Any] = {
        "airflow_version": "3.3",
        "executors": EXECUTORS,
        "default_queue": "default",
        "served_queues": ("default", "etl"),
        "pools": {"default_pool": 128, "warehouse": 2},
    }
    values.update(changes)
    return Deployment(**values)


def test_every_third_queue_and_pool_is_left_out_of_the_inventory() -> None:
    tasks = [
        _task(str(n), queue=q, pool=p)
        for n, (q, p) in enumerate(
            [("a", "p1"), ("b", "p2"), ("c", "p3"), ("d", "p4"), ("x", "default_pool")]
        )
    ]
    tasks.append(_task("k8s", queue="k8s-only", executor="KubernetesExecutor"))
    deployment = derive_deployment(
        {"tasks": tasks}, airflow_version="2.10", executors=EXECUTORS, default_queue="default"
    )
    assert deployment.served_queues == ("default", "a", "b", "d", "x")
    assert set(deployment.pools) == {"default_pool", "p1", "p2", "p4"}
    assert deployment.pools["p1"] == 2 and deployment.pools["default_pool"] == 128
    assert 'airflow_version = "2.10"' in deployment.toml()


def test_expected_codes() -> None:
    deployment = _deployment()
    assert expected_codes(_task("ok", queue="etl", pool="warehouse"), deployment) == set()
    assert expected_codes(_task("q", queue="reports"), deployment) == {"DRL101"}
    assert expected_codes(_task("e", queue="reports", dispatched=False), deployment) == set()
    assert expected_codes(
        _task("k", queue="reports", executor="KubernetesExecutor"), deployment
    ) == {"DRL102"}
    assert expected_codes(_task("p", pool="other"), deployment) == {"DRL301"}
    assert expected_codes(_task("s", pool="warehouse", pool_slots=3), deployment) == {"DRL302"}


def test_compare_diagnostics_names_missing_unexpected_and_excused() -> None:
    airflow = {
        ("a.py", "d", t["task_id"]): t
        for t in (_task("q", queue="reports"), _task("p", pool="other"), _task("fine"))
    }
    routes = {
        ("a.py", "d", "q"): {"unresolved": []},
        ("a.py", "d", "p"): {"unresolved": ["pool"]},
        ("a.py", "d", "fine"): {"unresolved": []},
    }
    diagnostics = [
        {"file": "a.py", "code": "DRL302", "message": "task 'fine' in dag 'd' asks for 9 slots"},
        {"file": "a.py", "code": "DRL101", "message": "no task named here"},
        {"file": "a.py", "code": "DRL105", "message": "task 'p' in dag 'd' is not a verdict"},
    ]
    report = compare_diagnostics("c", airflow, routes, diagnostics, _deployment())
    assert [e["task_id"] for e in report.missing] == ["q"]
    assert [(e["task_id"], e["code"]) for e in report.excused] == [("p", "DRL301")]
    assert [(e["task_id"], e["code"]) for e in report.unexpected] == [("fine", "DRL302")]
    assert len(report.unattributed) == 1
    assert not report.ok


def test_candidates_are_checked_not_excused() -> None:
    """A field given as candidates: Airflow's verdict must be reported, and a verdict only
    another candidate implies is possible, not unexpected."""
    airflow = {
        ("a.py", "d", t["task_id"]): t
        for t in (_task("held", queue="reports"), _task("other", queue="etl"))
    }
    either = {"unresolved": ["queue"], "candidates": {"queue": ["etl", "reports"]}}
    routes = {("a.py", "d", "held"): either, ("a.py", "d", "other"): either}
    diagnostics = [
        {"file": "a.py", "code": "DRL101", "message": "task 'other' in dag 'd' routes to queue"},
    ]
    report = compare_diagnostics("c", airflow, routes, diagnostics, _deployment())
    assert [(e["task_id"], e["code"]) for e in report.missing] == [("held", "DRL101")]
    assert [(e["task_id"], e["code"]) for e in report.possible] == [("other", "DRL101")]
    assert report.excused == [] and report.unexpected == []
