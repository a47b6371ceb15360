"""Which corpus files each Airflow version reads, and what a run says of them (no Airflow
needed)."""

from __future__ import annotations

from pathlib import Path

from harness import CorpusRun, file_versions, folder_for, inventory_version
from verdicts import Deployment


def test_files_marked_for_other_versions_are_left_out(tmp_path: Path) -> None:
    source = tmp_path / "dags"
    (source / "common").mkdir(parents=True)
    (source / "both.py").write_text("from airflow import DAG\n", encoding="utf-8")
    (source / "three.py").write_text(
        '"""Doc."""\n# conformance-versions: 3.3.2\nfrom airflow.sdk import DAG\n', encoding="utf-8"
    )
    (source / "common" / "lib.py").write_text("X = 1\n", encoding="utf-8")
    assert file_versions(source / "three.py") == ("3.3.2",)
    assert file_versions(source / "both.py") is None

    (source / "common" / "__pycache__").mkdir()
    (source / "common" / "__pycache__" / "lib.cpython-311.pyc").write_bytes(b"stale")

    whole = folder_for(source, "3.3.2", tmp_path / "s3")
    narrowed = folder_for(source, "2.10.5", tmp_path / "s2")
    # Copies, never the folder itself: Airflow's imports write bytecode into what it reads.
    assert whole == tmp_path / "s3" / "dags" and narrowed == tmp_path / "s2" / "dags"
    assert sorted(p.relative_to(whole).as_posix() for p in whole.rglob("*")) == [
        "both.py",
        "common",
        "common/lib.py",
        "three.py",
    ]
    assert sorted(p.relative_to(narrowed).as_posix() for p in narrowed.rglob("*.py")) == [
        "both.py",
        "common/lib.py",
    ]
    assert (source / "three.py").is_file()  # the source is left as it was


def test_inventory_version_is_major_minor() -> None:
    assert inventory_version("2.10.5") == "2.10"
    assert inventory_version("3.3.2") == "3.3"


def test_a_dag_file_needs_a_task_in_routes_or_the_no_dag_report(tmp_path: Path) -> None:
    """The invariant ``test_no_dag_file_is_silent`` checks, on a run made by hand."""
    dags = [
        {"file": "seen.py", "dag_id": "a", "task_count": 1},
        {"file": "said.py", "dag_id": "b", "task_count": 2},
        {"file": "silent.py", "dag_id": "c", "task_count": 1},
        {"file": "taskless.py", "dag_id": "d", "task_count": 0},
    ]
    routes = {"tasks": [{"file": str(tmp_path / "seen.py"), "dag_id": "a", "task_id": "t"}]}
    run = CorpusRun(
        "hand", "3.3.2", tmp_path, tmp_path, {"dags": dags, "tasks": []},
        Deployment("3.3", ("LocalExecutor",), "default", (), {}), routes, 0.0, [], {}, None,
        no_dag_files=frozenset({"said.py"}),
    )  # fmt: skip
    assert run.unseen_dag_files() == ["silent.py"]
    assert run.contradicted_no_dag_files() == []
    both = CorpusRun(**{**run.__dict__, "no_dag_files": frozenset({"said.py", "seen.py"})})
    assert both.contradicted_no_dag_files() == ["seen.py"]
