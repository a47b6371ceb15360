"""The import index: a one-file run finds the importers of the file without reading every file,
and never trusts an entry for bytes it was not made from."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dagroute_lint.model import Module
from dagroute_lint.pipeline import import_index
from dagroute_lint.pipeline.import_index import ImportIndex
from dagroute_lint.pipeline.shards import read_shard, write_shard
from dagroute_lint.sources import files
from tests.helpers import dag_repository
from tests.test_cli import invoke
from tests.test_dependents import DAG

TEAM = 30  # DAG files that import nothing of interest
PAD = "# " + "-" * 40  # in place of an import, so that an edit can keep the file's size


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    layout = {
        "dags/direct.py": DAG.format(
            imports="from common.routing import REPORTS_QUEUE", name="b", queue="REPORTS_QUEUE"
        ),
    }
    for n in range(TEAM):
        layout[f"dags/team/dag_{n:02}.py"] = DAG.format(imports=PAD, name=f"t{n}", queue='"x"')
    dag_repository(tmp_path, layout)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files read from disk, as the reader was asked for them."""
    seen: list[str] = []
    real = files.read_source_status

    def recording(path: Path | str, limit: int) -> tuple[bytes, os.stat_result]:
        seen.append(str(path))
        return real(path, limit)

    monkeypatch.setattr(files, "read_source_status", recording)
    monkeypatch.setattr("dagroute_lint.pipeline.world.read_source_status", recording)
    return seen


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files written by the test count as settled at once (the guard is tested on its own)."""
    monkeypatch.setattr(import_index, "SETTLED_NS", 0)


def importers(*args: str) -> tuple[int, set[str]]:
    code, out, _ = invoke("dags/common/routing.py", *args)
    return code, {line.split(":")[0] for line in out.splitlines()}


def test_a_one_file_run_reads_only_what_the_index_cannot_answer(
    repo: Path, reads: list[str], settled: None
) -> None:
    assert importers("--no-cache") == (1, {"dags/direct.py"})
    invoke("dags")  # a full run with the cache makes the index
    reads.clear()
    assert importers() == (1, {"dags/direct.py"})
    team = [path for path in reads if "/team/" in path]
    assert team == [] and len(reads) < 6  # the named file, its importer, the modules they read


def test_an_edited_file_is_read_again_and_its_new_import_found(
    repo: Path, reads: list[str], settled: None
) -> None:
    invoke("dags")
    edited = repo / "dags/team/dag_07.py"
    before = edited.stat()
    # The same size and, set back, the same modification time: only the change time differs.
    edited.write_text(edited.read_text().replace(PAD, "import common.routing".ljust(len(PAD))))
    os.utime(edited, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert edited.stat().st_size == before.st_size
    reads.clear()
    assert importers() == (1, {"dags/direct.py", "dags/team/dag_07.py"})
    assert [Path(path).name for path in reads if "/team/" in path] == ["dag_07.py"]


def test_a_file_changed_just_before_it_was_read_gets_no_entry(tmp_path: Path) -> None:
    path = tmp_path / "dag.py"
    path.write_text("import common.routing\n")
    status = path.stat()
    changed = max(status.st_mtime_ns, status.st_ctime_ns)
    module = Module(path="dag.py", module_name="dag")
    settled = changed + import_index.SETTLED_NS
    for read_at, trusted in ((settled - 1, False), (settled, True)):
        index = ImportIndex(tmp_path / "cache", lambda: "k")
        index.saw("dag.py", str(path), status, read_at)
        index.learn(module)
        index.save()
        held = ImportIndex(tmp_path / "cache", lambda: "k").holding([str(path)])
        assert held == ({str(path)} if trusted else set())


@pytest.mark.parametrize("damage", ["truncated", "entries"])
def test_a_damaged_index_is_a_cold_start(repo: Path, settled: None, damage: str) -> None:
    invoke("dags")
    (index,) = (repo / f".dagroute_cache/imports-v{import_index.FORMAT}").iterdir()
    shards = list(index.iterdir())
    assert shards
    for shard in shards:
        if damage == "truncated":
            shard.write_bytes(shard.read_bytes()[:40])
        else:  # well-formed shards whose entries are of another shape
            entries = read_shard(shard, import_index._MAGIC)
            write_shard(shard, import_index._MAGIC, dict.fromkeys(entries, ("x", 1)))
    assert importers() == (1, {"dags/direct.py"})


def test_files_no_longer_found_leave_the_index(repo: Path, settled: None) -> None:
    invoke("dags")
    (repo / "dags/team/dag_03.py").unlink()
    importers()
    (path,) = (repo / f".dagroute_cache/imports-v{import_index.FORMAT}").iterdir()
    index = ImportIndex(repo / ".dagroute_cache", lambda: path.name)
    kept, gone = (str((repo / f"dags/team/dag_0{n}.py").resolve()) for n in (4, 3))
    assert index.holding([kept, gone]) == {kept}
    left = {Path(real).relative_to(repo.resolve()).as_posix() for real in index._loaded()}
    assert "dags/team/dag_03.py" not in left and len(left) == TEAM - 1 + 3
    assert {"dags/direct.py", "dags/common/routing.py", "dags/common/__init__.py"} <= left


def test_helpers_that_import_nothing_are_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reads: list[str], settled: None
) -> None:
    """No run extracts a helper module no DAG file imports, but one whose bytes hold no import
    statement reads no module: its entry says so, and a later edit that adds one is seen."""
    plain = "def clean(rows):\n    return [row for row in rows if row]\n"
    dag_repository(
        tmp_path,
        {
            "dags/direct.py": DAG.format(
                imports="from common.routing import REPORTS_QUEUE", name="b", queue="REPORTS_QUEUE"
            ),
            "dags/uses_helper.py": DAG.format(imports="import team.helper", name="u", queue='"x"'),
            "dags/team/helper.py": plain,
            "dags/team/plain.py": plain,
            "dags/team/declared.py": "# -*- coding: latin-1 -*-\n" + plain,
            "dags/team/with_import.py": "import json\n" + plain,
        },
    )
    monkeypatch.chdir(tmp_path)
    invoke("dags")
    reads.clear()
    assert importers() == (1, {"dags/direct.py"})
    assert sorted(Path(path).name for path in reads if "/team/" in path) == [
        "declared.py",
        "with_import.py",
    ]
    helper = tmp_path / "dags/team/helper.py"
    helper.write_text("from common.routing import REPORTS_QUEUE\n" + plain)
    reads.clear()
    assert importers() == (1, {"dags/direct.py", "dags/uses_helper.py"})
    assert "helper.py" in {Path(path).name for path in reads}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (b"X = 1\n", True),
        (b"import os\n", False),
        (b"from . import x\n", False),
        (b"X = __import__('os')\n", False),
        (b"# coding: latin-1\nX = 1\n", False),
    ],
)
def test_what_cannot_hold_an_import(text: bytes, expected: bool) -> None:
    assert import_index.imports_nothing(text) is expected
