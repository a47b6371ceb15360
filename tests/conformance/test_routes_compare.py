"""The comparison rules of the conformance suite, on hand-made documents (no Airflow needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from routes_compare import NO_REASON, compare, relative_file, unresolved_fields

FOLDER = Path("/corpus")


def _airflow(*tasks: dict[str, Any]) -> dict[str, Any]:
    return {"tasks": list(tasks)}


def _task(task_id: str, **values: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "file": "a.py",
        "dag_id": "d",
        "task_id": task_id,
        "queue": "default",
        "executor": None,
        "pool": "default_pool",
        "pool_slots": 1,
        "deferrable": False,
        "operator": "airflow.providers.standard.operators.bash.BashOperator",
        "mapped": False,
    }
    base.update(values)
    return base


def _routes(*tasks: dict[str, Any]) -> dict[str, Any]:
    return {"version": 1, "tasks": [{**t, "file": f"/corpus/{t['file']}"} for t in tasks]}


def test_exact_match() -> None:
    report = compare(
        "c",
        _airflow(_task("t", queue=None)),
        _routes({**_task("t", queue=None), "unresolved": []}),
        folder=FOLDER,
        routes_cwd=Path("/"),
    )
    assert report.ok
    assert (report.compared, report.exact_tasks, report.exact_fields) == (1, 1, 7)


def test_null_listed_as_unresolved_is_allowed_only_on_the_allow_list() -> None:
    airflow = _airflow(_task("t", queue="etl"), _task("u", queue="etl"))
    routes = _routes(
        {**_task("t", queue=None), "unresolved": [{"field": "queue", "reason": "os.getenv"}]},
        {**_task("u", queue=None), "unresolved": ["queue"]},
    )
    report = compare(
        "c",
        airflow,
        routes,
        folder=FOLDER,
        routes_cwd=Path("/"),
        allowed_unresolved={("a.py", "t", "queue")},
    )
    assert [e["task_id"] for e in report.unresolved] == ["t"]
    assert report.unresolved_by_reason == {"os.getenv": 1}
    assert [e["task_id"] for e in report.unexpected_unresolved] == ["u"]
    assert report.unexpected_unresolved[0]["reason"] == NO_REASON
    assert not report.ok


def test_null_not_listed_is_wrong_even_on_the_allow_list() -> None:
    report = compare(
        "c",
        _airflow(_task("t", queue="etl")),
        _routes({**_task("t", queue=None), "unresolved": []}),
        folder=FOLDER,
        routes_cwd=Path("/"),
        allowed_unresolved={("a.py", "t", "queue")},
    )
    assert [e["field"] for e in report.wrong] == ["queue"]


def test_types_are_compared_strictly() -> None:
    report = compare(
        "c",
        _airflow(_task("t", pool_slots=1)),
        _routes(_task("t", pool_slots=True)),
        folder=FOLDER,
        routes_cwd=Path("/"),
    )
    assert [e["field"] for e in report.wrong] == ["pool_slots"]


def test_missing_extra_and_duplicates() -> None:
    airflow = _airflow(_task("a"), _task("b"))
    routes = _routes(_task("a"), _task("a"), _task("ghost"))
    report = compare("c", airflow, routes, folder=FOLDER, routes_cwd=Path("/"))
    assert [e["task_id"] for e in report.missing] == ["b"]
    assert [e["task_id"] for e in report.extra] == ["ghost"]
    assert [e["task_id"] for e in report.duplicates] == ["a"]
    assert report.routes_tasks == 2
    assert not report.ok
    assert "MISSING, NOT ANNOUNCED BY DRL106: a.py::d::b" in report.render()


def test_a_missing_task_passes_only_with_drl106_in_its_file() -> None:
    airflow = _airflow(_task("a"), {**_task("b"), "file": "b.py"})
    report = compare(
        "c",
        airflow,
        _routes(),
        folder=FOLDER,
        routes_cwd=Path("/"),
        announcements={"a.py": ["line 3: tasks created by make() cannot be seen"], "c.py": ["x"]},
    )
    assert [e["task_id"] for e in report.missing_announced] == ["a"]
    assert [(e["file"], e["task_id"]) for e in report.missing] == [("b.py", "b")]
    assert report.values_ok and not report.ok


def test_conditional_extra_task_is_not_a_failure() -> None:
    routes = _routes({**_task("maybe"), "conditional": True})
    report = compare("c", _airflow(), routes, folder=FOLDER, routes_cwd=Path("/"))
    assert [e["task_id"] for e in report.extra_conditional] == ["maybe"]
    assert report.ok


def test_allow_list_entry_that_is_resolved_now_is_stale() -> None:
    airflow = _airflow(_task("t", queue="etl"), _task("u", queue=None))
    routes = _routes(
        _task("t", queue="etl"),
        # null listed as unresolved is "unknown", even where Airflow's value is None
        {**_task("u", queue=None), "unresolved": ["queue"]},
    )
    report = compare(
        "c",
        airflow,
        routes,
        folder=FOLDER,
        routes_cwd=Path("/"),
        allowed_unresolved={("a.py", "t", "queue"), ("a.py", "u", "queue")},
    )
    assert [(e["task_id"], e["field"]) for e in report.stale] == [("t", "queue")]
    assert [e["task_id"] for e in report.unresolved] == ["u"]
    assert not report.ok


def test_candidates_must_hold_airflows_value() -> None:
    airflow = _airflow(_task("t", queue="manager"), _task("u", queue="manager"))
    routes = _routes(
        {
            **_task("t", queue=None),
            "unresolved": ["queue"],
            "candidates": {"queue": ["nfs", "manager"]},
        },
        {**_task("u", queue=None), "unresolved": ["queue"], "candidates": {"queue": ["nfs"]}},
    )
    report = compare("c", airflow, routes, folder=FOLDER, routes_cwd=Path("/"))
    assert [(e["task_id"], e["routes"]) for e in report.candidates] == [
        ("t", {"candidates": ["nfs", "manager"]})
    ]
    assert report.unexpected_unresolved == [] and report.unresolved == []
    assert [(e["task_id"], e["routes"]) for e in report.wrong] == [("u", {"candidates": ["nfs"]})]
    assert report.exact_tasks == 0


def test_candidates_need_no_allow_list_entry_and_make_it_stale() -> None:
    airflow = _airflow(_task("t", queue="manager"))
    routes = _routes(
        {
            **_task("t", queue=None),
            "unresolved": ["queue"],
            "candidates": {"queue": ["nfs", "manager"]},
        }
    )
    allowed = {("a.py", "t", "queue")}
    report = compare(
        "c", airflow, routes, folder=FOLDER, routes_cwd=Path("/"), allowed_unresolved=allowed
    )
    assert [e["task_id"] for e in report.candidates] == ["t"]
    assert [(e["task_id"], e["field"]) for e in report.stale] == [("t", "queue")]


def test_operator_names_taskflow_and_dag_file_classes() -> None:
    taskflow = "airflow.providers.standard.decorators.python._PythonDecoratedOperator"
    airflow = {
        "tasks": [
            _task("tf", operator=taskflow),
            _task("own", operator="unusual_prefix_" + "0" * 40 + "_jobs.MyOperator"),
            _task("shim", operator="airflow.providers.standard.operators.bash.BashOperator"),
        ],
        "taskflow_operators": {"task.python": taskflow},
    }
    routes = _routes(
        _task("tf", operator="task.python"),
        _task("own", operator="jobs.MyOperator"),
        _task("shim", operator="airflow.operators.bash.BashOperator"),
    )
    report = compare("c", airflow, routes, folder=FOLDER, routes_cwd=Path("/"))
    assert [(e["task_id"], e["field"]) for e in report.wrong] == [("shim", "operator")]


def test_mapped_is_compared() -> None:
    report = compare(
        "c",
        _airflow(_task("m", mapped=True)),
        _routes(_task("m")),
        folder=FOLDER,
        routes_cwd=Path("/"),
    )
    assert [e["field"] for e in report.wrong] == ["mapped"]


def test_relative_file_accepts_relative_and_absolute_paths() -> None:
    assert relative_file("/corpus/x/y.py", FOLDER, Path("/elsewhere")) == "x/y.py"
    assert relative_file("y.py", FOLDER, FOLDER) == "y.py"
    assert relative_file("../corpus/y.py", FOLDER, Path("/tmp")) == "y.py"
    assert relative_file("/other/y.py", FOLDER, FOLDER) == "/other/y.py"


def test_unresolved_entry_shapes() -> None:
    assert unresolved_fields(["queue", {"field": "pool", "message": "call"}, {"x": 1}]) == {
        "queue": NO_REASON,
        "pool": "call",
    }
    assert unresolved_fields(["queue"], {"queue": "os.getenv"}) == {"queue": "os.getenv"}
    assert unresolved_fields(None) == {}  # type: ignore[arg-type]


def test_tasks_without_a_resolved_id_are_extra() -> None:
    routes = _routes(_task("a"), {**_task("x"), "task_id": None, "line": 7})
    report = compare("c", _airflow(_task("a")), routes, folder=FOLDER, routes_cwd=Path("/"))
    assert report.extra == [{"file": "a.py", "dag_id": "d", "task_id": None, "line": 7}]
    assert report.duplicates == []
    assert "EXTRA: a.py::d::None (line 7, id not resolved)" in report.render()
