"""Which corpus files each Airflow version reads (no Airflow needed)."""

from __future__ import annotations

from pathlib import Path

from harness import file_versions, folder_for, inventory_version


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

    assert folder_for(source, "3.3.2", tmp_path / "s3") == source
    narrowed = folder_for(source, "2.10.5", tmp_path / "s2")
    assert narrowed != source
    assert sorted(p.relative_to(narrowed).as_posix() for p in narrowed.rglob("*.py")) == [
        "both.py",
        "common/lib.py",
    ]


def test_inventory_version_is_major_minor() -> None:
    assert inventory_version("2.10.5") == "2.10"
    assert inventory_version("3.3.2") == "3.3"
