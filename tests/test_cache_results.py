"""The result cache: a warm run prints what a run without any cache prints, in every format, and
re-lints exactly the files whose results read something that changed."""

from __future__ import annotations

import json
import os
import pickle
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.pipeline import runner
from dagroute_lint.pipeline.results import FORMAT, KEPT_INDEXES
from tests.helpers import CELERY_K8S, SETTINGS_WITH_DAGS, write_repo

SHARED_QUEUE = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from common.routing import REPORTS

with DAG("shared_{n}"):
    BashOperator(task_id="report", bash_command="x", queue=REPORTS)
"""
LOOPING = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from common.lists import QUEUES

with DAG("looping"):
    for queue in QUEUES:
        BashOperator(task_id=f"run_{queue}", bash_command="x", queue=queue)
"""
CALLING = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
from common.factory import pick_queue

with DAG("calling"):
    BashOperator(task_id="picked", bash_command="x", queue=pick_queue())
"""
LEAF = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("leaf"):
    BashOperator(task_id="alone", bash_command="x", queue="default")
"""
MISSING = """
from airflow.sdk import DAG
import common.later

with DAG("missing"):
    pass
"""
NAMESPACE = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG
import toolbox.rows

with DAG("namespace"):
    BashOperator(task_id="t", bash_command="x")
"""
FILES = {
    "pyproject.toml": SETTINGS_WITH_DAGS,
    "dagroute.toml": CELERY_K8S,
    "dags/common/__init__.py": "",
    "dags/common/routing.py": 'REPORTS = "default"\n',
    "dags/common/lists.py": 'QUEUES = ["default", "imports"]\n',
    "dags/common/factory.py": 'def pick_queue():\n    return "imports"\n',
    "dags/shared_0.py": SHARED_QUEUE.format(n=0),
    "dags/shared_1.py": SHARED_QUEUE.format(n=1),
    "dags/looping.py": LOOPING,
    "dags/calling.py": CALLING,
    "dags/leaf.py": LEAF,
    "dags/missing.py": MISSING,
    "dags/namespace.py": NAMESPACE,
    "dags/broken.py": "from airflow.sdk import DAG\nwith DAG(:\n",
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_repo(tmp_path, FILES)
    monkeypatch.chdir(tmp_path)
    return tmp_path


# Set while ``lint`` runs without the cache: every file is linted then, and not recorded.
_UNCACHED = [False]


@pytest.fixture
def relinted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The files whose results a cached run worked out (rather than read from the index)."""
    seen: list[str] = []
    real = runner.lint_file

    def recording(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if not _UNCACHED[0]:
            seen.append(file.source.display)
        return real(file, *args, **kwargs)

    monkeypatch.setattr(runner, "lint_file", recording)
    yield seen


def lint(*args: str) -> tuple[int, str, str]:
    """Exit code, standard output and standard error of one run over ``dags``."""
    _UNCACHED[0] = "--no-cache" in args
    try:
        result = CliRunner().invoke(
            main, ["dags", "--inventory", "dagroute.toml", "-j", "1", *args]
        )
    finally:
        _UNCACHED[0] = False
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


@pytest.mark.parametrize("output", ["text", "json", "sarif"])
def test_cold_warm_and_changed_runs_print_what_an_uncached_run_prints(
    repo: Path, output: str, relinted: list[str]
) -> None:
    flags = ("--format", output)
    reference = lint("--no-cache", *flags)
    assert reference[0] == 1 and "DRL001" in reference[1] and "nowhere" not in reference[1]
    assert lint(*flags) == reference  # cold, writing the cache
    relinted.clear()
    assert lint(*flags) == reference  # warm
    assert relinted == []
    edit(repo / "dags/leaf.py", 'queue="default"', 'queue="nowhere"')
    changed = lint("--no-cache", *flags)
    assert changed != reference and "nowhere" in changed[1]
    assert lint(*flags) == changed
    edit(repo / "dags/common/routing.py", '"default"', '"reports"')
    shared = lint("--no-cache", *flags)
    assert shared != changed
    assert lint(*flags) == shared
    assert lint(*flags) == shared


def test_a_changed_leaf_is_the_only_file_linted_again(repo: Path, relinted: list[str]) -> None:
    lint()
    relinted.clear()
    edit(repo / "dags/leaf.py", 'queue="default"', 'queue="nowhere"')
    assert lint() == lint("--no-cache")
    assert relinted == ["dags/leaf.py"]


@pytest.mark.parametrize(
    ("module", "old", "new", "readers"),
    [
        # A constant read by two DAG files.
        ("routing", '"default"', '"reports"', ["dags/shared_0.py", "dags/shared_1.py"]),
        # A list a DAG file loops over (its summary is extracted again with the new values).
        ("lists", '"imports"]', '"reports"]', ["dags/looping.py"]),
        # A function a DAG file calls (its summary is extracted again with the new source).
        ("factory", 'return "imports"', 'return "reports"', ["dags/calling.py"]),
    ],
)
def test_a_changed_shared_module_changes_the_diagnostics_of_the_files_reading_it(
    repo: Path, relinted: list[str], module: str, old: str, new: str, readers: list[str]
) -> None:
    before = lint()
    assert "queue 'reports'" not in before[1]
    relinted.clear()
    edit(repo / f"dags/common/{module}.py", old, new)
    after = lint()
    assert after == lint("--no-cache")
    assert "queue 'reports'" in after[1]
    for reader in readers:
        assert reader in "".join(line for line in after[1].splitlines() if "'reports'" in line)
    # The readers, and the shared module itself where the run reports on it: nothing else.
    assert sorted(set(relinted) - {f"dags/common/{module}.py"}) == readers


def test_a_module_appearing_on_the_import_roots_is_seen(repo: Path) -> None:
    before = lint()
    assert "'common.later' is not found" in before[1]
    (repo / "dags/common/later.py").write_text("X = 1\n")
    after = lint()
    assert after == lint("--no-cache")
    assert "common.later" not in after[1]
    (repo / "dags/common/later.py").unlink()
    assert lint() == before


def test_a_folder_appearing_on_the_import_roots_makes_a_package_first_party(repo: Path) -> None:
    """No module file appears (a namespace folder): only the rules' question about the import
    roots changes its answer, and the result follows it."""
    before = lint("--select", "ALL")
    assert "toolbox" in before[1]
    (repo / "dags/toolbox").mkdir()
    after = lint("--select", "ALL")
    assert after == lint("--no-cache", "--select", "ALL")
    assert after != before


def test_the_inventory_and_the_rule_selection_key_the_results(repo: Path) -> None:
    lint()
    selected = lint("--select", "DRL001")
    assert selected == lint("--no-cache", "--select", "DRL001")
    assert selected[1] and all("DRL001" in line for line in selected[1].splitlines())
    inventory = repo / "dagroute.toml"
    edit(inventory, 'queues = ["default", "imports"]', 'queues = ["imports"]')
    after = lint()
    assert after == lint("--no-cache")
    assert "queue 'default'" in after[1]


def test_a_damaged_or_planted_index_is_a_cold_start(repo: Path) -> None:
    reference = lint("--no-cache")
    lint()
    (index,) = (repo / f".dagroute_cache/results-v{FORMAT}").iterdir()
    shards = sorted(index.iterdir())
    assert len(shards) > 1  # the repository's entries are spread over several shards
    canary = repo / "canary"

    class Plant:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (shutil.rmtree, (str(repo / "dags"),))

    for damage in (
        lambda blob: blob[:-40],
        lambda blob: b"dagroute-lint results\n" + pickle.dumps(Plant()),
        lambda blob: b"garbage",
    ):
        for shard in shards:
            shard.write_bytes(damage(shard.read_bytes()))
        assert lint() == reference
        assert (repo / "dags").is_dir() and not canary.exists()
    assert lint() == reference


def test_one_damaged_shard_relints_only_its_files(repo: Path, relinted: list[str]) -> None:
    reference = lint()
    relinted.clear()
    (index,) = (repo / f".dagroute_cache/results-v{FORMAT}").iterdir()
    shard = sorted(index.iterdir())[0]
    shard.write_bytes(b"garbage")
    assert lint() == reference
    assert relinted and len(relinted) < len(list((repo / "dags").rglob("*.py")))
    relinted.clear()
    assert lint() == reference
    assert relinted == []  # the shard was written again


def test_a_named_module_and_its_dependents_are_answered_from_the_cache(
    repo: Path, relinted: list[str]
) -> None:
    """pre-commit names the changed files: the DAG files importing a named module are linted
    and said to be, as an uncached run says; a second such run reads them from the cache.

    (A run over the folder reports ``common/__init__.py`` too, which changes how a look-up of
    ``common`` is answered, so the first named run cannot reuse the folder run's results.)"""
    lint()
    args = ["dags/common/routing.py", "--inventory", "dagroute.toml"]
    runner = CliRunner()
    uncached = runner.invoke(main, [*args, "--no-cache"])
    relinted.clear()
    for _ in range(2):
        cached = runner.invoke(main, args)
        assert (cached.exit_code, cached.stdout, cached.stderr) == (
            uncached.exit_code,
            uncached.stdout,
            uncached.stderr,
        )
    assert "also linted 2 files" in cached.stderr
    assert sorted(relinted) == ["dags/shared_0.py", "dags/shared_1.py"]  # then nothing


def test_old_indexes_are_pruned(repo: Path) -> None:
    folder = repo / f".dagroute_cache/results-v{FORMAT}"
    lint()
    for number in range(KEPT_INDEXES + 3):
        stale = folder / f"stale-{number}"
        stale.mkdir()
        (stale / "00").write_bytes(b"old")
        os.utime(stale, ns=(number, number))
    (current,) = [path for path in folder.iterdir() if not path.name.startswith("stale")]
    edit(repo / "dags/leaf.py", 'queue="default"', 'queue="nowhere"')
    lint()
    kept = sorted(path.name for path in folder.iterdir())
    assert len(kept) == KEPT_INDEXES and current.name in kept
    assert "stale-0" not in kept and f"stale-{KEPT_INDEXES + 2}" in kept


def test_a_dag_id_another_file_starts_or_stops_sharing_relints_the_unchanged_file(
    repo: Path, relinted: list[str]
) -> None:
    """DRL002 compares files: an unchanged file's cached result must follow the others' DAGs."""
    lint()
    relinted.clear()
    edit(repo / "dags/calling.py", 'DAG("calling")', 'DAG("leaf")')
    clash = lint()
    assert clash == lint("--no-cache")
    drl002 = [line for line in clash[1].splitlines() if "DRL002" in line]
    assert [line.split(":")[0] for line in drl002] == ["dags/calling.py", "dags/leaf.py"]
    assert sorted(relinted) == ["dags/calling.py", "dags/leaf.py"]
    relinted.clear()
    (repo / "dags/calling.py").unlink()  # leaves the run: nothing left changed, leaf.py is stale
    alone = lint()
    assert alone == lint("--no-cache")
    assert "DRL002" not in alone[1]
    assert relinted == ["dags/leaf.py"]


def test_cached_diagnostics_keep_their_cause_and_tasks(repo: Path) -> None:
    """``--statistics`` groups by cause and counts tasks: a warm run must print the same."""
    edit(repo / "dags/leaf.py", 'queue="default"', 'queue="nowhere"')
    edit(repo / "dags/common/routing.py", '"default"', '"reports"')
    reference = lint("--no-cache", "--statistics")
    assert "queue 'reports' (2)" in reference[1] + reference[2]
    assert lint("--statistics") == reference
    assert lint("--statistics") == reference
    assert lint("--format", "json") == lint("--no-cache", "--format", "json")


def test_the_results_key_reads_records_and_plain_dataclasses_field_by_field() -> None:
    """A run's key must be the same text in every process: a set inside a record or a
    plugin's own dataclass is written sorted, never in the order of one hash seed."""
    import subprocess
    import sys

    program = """
import dataclasses
from dagroute_lint.pipeline.results import canonical
from dagroute_lint.records import record

@record
class Kept:
    names: frozenset = frozenset()

@dataclasses.dataclass
class Plugin:
    names: set = dataclasses.field(default_factory=set)

print(canonical(Kept(frozenset(map(str, range(40))))), canonical(Plugin(set(map(str, range(40))))))
"""
    outputs = {
        subprocess.run(
            [sys.executable, "-c", program],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 1
    (text,) = outputs
    assert text.startswith("Kept({") and " Plugin({" in text


BROKEN_ON_WORKERS = """
import pandas
import polars
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("grouped"):
    BashOperator(task_id="one", bash_command="x")
    BashOperator(task_id="two", bash_command="x")
    BashOperator(task_id="three", bash_command="x", queue="nowhere")
"""
PARSER_HAS_PANDAS = (
    CELERY_K8S.replace(
        'dag_processor = { runtime = "base" }', 'dag_processor = { runtime = "parser" }'
    )
    + '\n[runtimes.parser]\nproviders = ["standard", "celery"]\npackages = ["pandas"]\n'
)


def test_a_warm_run_prints_the_facts_a_cold_one_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, relinted: list[str]
) -> None:
    """Facts of every shape (several tasks, workers, a runtime) come back from the index."""
    files = {
        "pyproject.toml": SETTINGS_WITH_DAGS,
        "dagroute.toml": PARSER_HAS_PANDAS,
        "dags/grouped.py": BROKEN_ON_WORKERS,
    }
    write_repo(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    cold = lint("--no-cache", "--format", "json")
    assert lint("--format", "json") == cold  # writes the index
    relinted.clear()
    warm = lint("--format", "json")
    assert relinted == [] and warm == cold
    facts = {item["code"]: item["facts"] for item in json.loads(warm[1])}
    assert facts["DRL203"]["tasks"] == [
        {"dag_id": "grouped", "task_id": "one"},
        {"dag_id": "grouped", "task_id": "two"},
    ]
    assert facts["DRL203"]["workers"] == [{"worker": "celery-general", "runtime": "base"}]
    assert (facts["DRL205"]["item"], facts["DRL205"]["runtime"]) == ("polars", "parser")
    assert (facts["DRL101"]["item"], facts["DRL101"]["task_id"]) == ("nowhere", "three")


def test_a_module_appearing_in_a_folder_off_the_import_roots_is_seen(repo: Path) -> None:
    """The rules ask where in the project a module on no root lies; a module written there later
    changes that answer, and the cached result follows it."""
    before = lint("--select", "ALL")
    (repo / "lib/toolbox").mkdir(parents=True)
    (repo / "lib/toolbox/rows.py").write_text("ROWS = 1\n")
    after = lint("--select", "ALL")
    assert after == lint("--no-cache", "--select", "ALL")
    assert '`roots = ["lib"]`' in after[1]
    assert "lib/" not in before[1]
