"""--jobs and the summary cache change how a run works, never what it reports.

Output (every format) and exit code must be byte-identical across ``--jobs`` values and cache
states; a damaged, foreign, planted or unwritable cache is ignored and rebuilt; concurrent runs
leave a cache that later runs read back with the same output.
"""

from __future__ import annotations

import concurrent.futures
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint import extract
from dagroute_lint.cli import main
from dagroute_lint.model import Const, Module
from dagroute_lint.pipeline import cache as cache_module
from dagroute_lint.pipeline import extraction
from dagroute_lint.pipeline.cache import SummaryCache, decode_summary, encode_summary, summary_key
from dagroute_lint.pipeline.results import FORMAT as RESULTS_FORMAT
from dagroute_lint.pipeline.shards import read_shard, write_shard
from dagroute_lint.sources import files as files_module
from tests.helpers import CELERY_K8S, write_repo

TEAM_DAG = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, task
from common.routing import QUEUES, REPORTS

with DAG("team_{n}", default_args={{"queue": REPORTS}}):
    for queue in QUEUES:
        BashOperator(task_id=f"run_{{queue}}", bash_command="x", queue=queue)
    BashOperator(task_id="report", bash_command="x")

    @task(queue="nowhere_{n}")  # noqa: DRL105
    def publish():
        pass

    publish()
"""

FILES = {
    "dagroute.toml": CELERY_K8S,
    "dags/common/__init__.py": "",
    "dags/common/routing.py": 'REPORTS = "reports"\nQUEUES = ["default", "imports", "etl"]\n',
    "dags/helpers/rows.py": "def clean(rows):\n    return [r for r in rows if r]\n",
    "dags/broken.py": "from airflow.sdk import DAG\nwith DAG(:\n",
    **{f"dags/team_{n:02d}/dag_{n:02d}.py": TEAM_DAG.format(n=n) for n in range(6)},
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small repository; pools start from 4 files here, so that they run in these tests."""
    write_repo(tmp_path, FILES)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(extraction, "MIN_FILES_FOR_POOL", 4)
    return tmp_path


def lint(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["dags", "--inventory", "dagroute.toml", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Records the worker count of every process pool a run starts."""
    started: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor

    class Recording(real):  # type: ignore[misc, valid-type]
        def __init__(self, max_workers: int | None = None, **kwargs: object) -> None:
            started.append(max_workers or 0)
            super().__init__(max_workers=max_workers, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Recording)
    return started


@pytest.fixture
def extractions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records every file extracted in this process."""
    seen: list[str] = []
    real = extract.extract_module

    def recording(data: bytes, path: str, *args: object, **kwargs: object) -> Module:
        seen.append(path)
        return real(data, path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(extract, "extract_module", recording)
    return seen


def cache_shards(folder: Path) -> list[Path]:
    """The summary shards (the result index beside them is tested in test_cache_results.py)."""
    return sorted((folder / f"summaries-v{cache_module.FORMAT}").iterdir())


def cache_entries(folder: Path) -> dict[str, tuple[str, bytes]]:
    """Every summary entry of the cache: its key, and the file and bytes it holds."""
    entries: dict[str, tuple[str, bytes]] = {}
    for shard in cache_shards(folder):
        entries.update(read_shard(shard, cache_module._SHARD_MAGIC))
    return entries


def rotated_keys(shards: list[Path]) -> list[str]:
    """Give each entry the next entry's bytes, across the shards (a shard may hold one entry
    only: keys fall into them by hash): summaries under the wrong keys. Returns the files whose
    entries were moved."""
    held = [
        (shard, key, item)
        for shard in shards
        for key, item in read_shard(shard, cache_module._SHARD_MAGIC).items()
    ]
    items = [item for _, _, item in held]
    rewritten: dict[Path, dict[str, object]] = {}
    for (shard, key, _), item in zip(held, items[1:] + items[:1]):
        rewritten.setdefault(shard, {})[key] = item
    for shard, entries in rewritten.items():
        write_shard(shard, cache_module._SHARD_MAGIC, entries)
    return [display for display, _ in items] if len(items) > 1 else []


def forget_results(folder: Path) -> None:
    """Drop the result index, so that the next run reads the summaries (the layer tested here)."""
    shutil.rmtree(folder / f"results-v{RESULTS_FORMAT}")


def test_output_is_identical_across_jobs_and_cache_states(repo: Path, pools: list[int]) -> None:
    reference = lint("--no-cache", "-j", "1")
    assert reference[0] == 1 and "DRL001" in reference[1] and "DRL101" in reference[1]
    assert pools == []
    runs = {
        "no cache, 2 jobs": lint("--no-cache", "-j", "2"),
        "cold cache, 2 jobs": lint("--cache-dir", "c", "-j", "2"),
        "warm cache, 1 job": lint("--cache-dir", "c", "-j", "1"),
        "warm cache, 2 jobs": lint("--cache-dir", "c", "-j", "2"),
        "cold cache, 1 job": lint("--cache-dir", "c1", "-j", "1"),
        "warm again": lint("--cache-dir", "c1", "-j", "2"),
    }
    # One pool for each run with two jobs and enough files to extract; none when warm.
    assert pools == [2, 2]
    for name, result in runs.items():
        assert result == reference, name
    for output_format in ("json", "github"):
        outputs = {
            lint("--no-cache", "-j", "1", "--format", output_format),
            lint("--no-cache", "-j", "2", "--format", output_format),
            lint("--cache-dir", "c", "--format", output_format),
        }
        assert len(outputs) == 1, output_format


def test_routes_are_identical_across_jobs_and_cache_states(repo: Path) -> None:
    def routes(*args: str) -> str:
        result = CliRunner().invoke(main, ["routes", "dags", "--format", "json", *args])
        assert result.exit_code == 1, result.output  # dags/broken.py does not parse
        return result.stdout

    reference = routes("--no-cache", "-j", "1")
    assert '"task_id": "run_etl"' in reference
    assert routes("--no-cache", "-j", "2") == reference
    assert routes("--cache-dir", "c") == reference
    assert routes("--cache-dir", "c", "-j", "2") == reference


def test_diagnostics_are_sorted_by_file_line_column_code(repo: Path) -> None:
    _, out = lint("--no-cache", "-j", "2")
    keys = []
    for line in out.splitlines():
        path, row, column, rest = line.split(":", 3)
        keys.append((path, int(row), int(column), rest.split()[0]))
    assert len(keys) > 8 and keys == sorted(keys)


def test_a_warm_run_extracts_nothing_and_one_change_extracts_one_file(
    repo: Path, extractions: list[str]
) -> None:
    cold = lint("-j", "1")
    assert len(extractions) > 6 and (repo / ".dagroute_cache").is_dir()
    extractions.clear()
    assert lint("-j", "1") == cold
    assert extractions == []
    changed = repo / "dags/team_03/dag_03.py"
    changed.write_text(changed.read_text() + "# edited\n")
    assert lint("-j", "1") == cold
    # Extracted once plainly, once more with the values of the names it loops over.
    assert extractions == ["dags/team_03/dag_03.py"] * 2


def test_the_cache_folder_ignores_itself_for_git(repo: Path) -> None:
    lint("-j", "1")
    assert (repo / ".dagroute_cache/.gitignore").read_text().splitlines()[-1] == "*"
    leftovers = [path for path in (repo / ".dagroute_cache").rglob(".*") if path.is_file()]
    assert [path.name for path in leftovers] == [".gitignore"]  # no temporary files remain


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda blob: blob[: len(blob) // 2], id="truncated"),
        pytest.param(lambda blob: b"", id="empty"),
        pytest.param(lambda blob: os.urandom(len(blob)), id="random-bytes"),
        pytest.param(lambda blob: blob[:-20] + b"\x00" * 20, id="corrupt-tail"),
        pytest.param(None, id="wrong-key"),
    ],
)
def test_a_damaged_cache_is_ignored_and_rebuilt(
    repo: Path, damage: object, extractions: list[str]
) -> None:
    reference = lint("--no-cache", "-j", "1")
    lint("--cache-dir", "c", "-j", "1")
    before = cache_entries(repo / "c")
    shards = cache_shards(repo / "c")
    assert before and len(shards) > 1
    moved: list[str] = []
    if damage is None:
        moved = rotated_keys(shards)
        assert len(moved) >= 2
    else:
        for shard in shards:
            shard.write_bytes(damage(shard.read_bytes()))  # type: ignore[operator]
    forget_results(repo / "c")
    extractions.clear()
    assert lint("--cache-dir", "c", "-j", "1") == reference
    # A summary under another key is a miss: its file is extracted again.
    assert set(moved) <= set(extractions)
    # Rebuilt: every entry reads back again, under the keys it had.
    after = cache_entries(repo / "c")
    assert after.keys() == before.keys()
    for key, (_, blob) in after.items():
        assert decode_summary(blob, key) is not None, key


def test_a_cache_from_another_version_is_not_used(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = lint("--no-cache", "-j", "1")
    with monkeypatch.context() as patch:
        patch.setattr(cache_module, "__version__", "0.0.0-other")
        cache_module.extraction_fingerprint.cache_clear()
        lint("--cache-dir", "c", "-j", "1")
    cache_module.extraction_fingerprint.cache_clear()
    foreign = cache_entries(repo / "c")
    forget_results(repo / "c")
    assert lint("--cache-dir", "c", "-j", "1") == reference
    # Every summary was extracted again under this version's keys, none read from the other's.
    assert len(cache_entries(repo / "c")) == 2 * len(foreign)
    assert not foreign.keys() & cache_entries(repo / "c").keys() - foreign.keys()


def test_a_changed_extractor_does_not_read_older_summaries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rebuilt extractor under the same version number (a checkout, an editable install)."""
    cache_module.extraction_fingerprint.cache_clear()
    before = summary_key(b"x = 1\n", "dags/a.py", "a", False)
    stamps: dict[str, str] = {}
    real_stamp = files_module.stamp

    def rebuilt(path: str) -> str:
        stamps[path] = real_stamp(path)
        return stamps[path] + ("-rebuilt" if path.endswith("module.py") else "")

    with monkeypatch.context() as patch:
        patch.setattr(cache_module, "stamp", rebuilt)
        patch.setattr(files_module, "stamp", rebuilt)  # what stamps_below calls
        cache_module.extraction_fingerprint.cache_clear()
        after = summary_key(b"x = 1\n", "dags/a.py", "a", False)
    cache_module.extraction_fingerprint.cache_clear()
    assert after != before
    assert any(path.endswith(os.path.join("extract", "module.py")) for path in stamps)
    # The tables extraction consults (which libraries build no task) are part of it too.
    assert any(path.endswith(os.path.join("data", "package_dependencies.tsv")) for path in stamps)


def test_a_planted_entry_cannot_run_code(repo: Path) -> None:
    """A cache entry is never a way to execute code: only the model's classes unpickle."""
    reference = lint("--no-cache", "-j", "1")
    lint("--cache-dir", "c", "-j", "1")
    canary = repo / "canary"

    class Exploit:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.system, (f"touch {canary}",))

    planted = {
        key: (display, encode_summary(pickle.dumps(Exploit()), key))
        for key, (display, _) in cache_entries(repo / "c").items()
    }
    shards = cache_shards(repo / "c")
    for shard in shards[1:]:
        write_shard(shard, cache_module._SHARD_MAGIC, planted)
    # And a shard that is itself the exploit, not only its entries.
    shards[0].write_bytes(cache_module._SHARD_MAGIC + pickle.dumps({"key": Exploit()}))
    forget_results(repo / "c")
    assert lint("--cache-dir", "c", "-j", "1") == reference
    assert not canary.exists()


def test_a_cache_that_cannot_be_written_is_skipped(repo: Path) -> None:
    reference = lint("--no-cache", "-j", "1")
    # The default cache folder's name is taken by a file, and a --cache-dir below a file.
    (repo / ".dagroute_cache").write_text("a file where the cache folder should be\n")
    assert lint("-j", "2") == reference
    assert lint("-j", "1") == reference
    assert lint("--cache-dir", ".dagroute_cache/below", "-j", "1") == reference
    assert (repo / ".dagroute_cache").read_text().startswith("a file")


def test_summary_keys_cover_every_input() -> None:
    base = summary_key(b"x = 1\n", "dags/a.py", "a", False)
    assert base == summary_key(b"x = 1\n", "dags/a.py", "a", False)
    variants = {
        summary_key(b"x = 2\n", "dags/a.py", "a", False),
        summary_key(b"x = 1\n", "dags/b.py", "a", False),
        summary_key(b"x = 1\n", "dags/a.py", "dags.a", False),
        summary_key(b"x = 1\n", "dags/a.py", "a", True),
        summary_key(b"x = 1\n", "dags/a.py", "a", False, {"common.Q": Const("q")}),
        summary_key(b"x = 1\n", "dags/a.py", "a", False, None, "3.3"),
        summary_key(b"x = 1\n", "dags/a.py", "a", False, None, "2.10.5"),
    }
    assert base not in variants and len(variants) == 7


def test_cache_round_trip(tmp_path: Path) -> None:
    module = extract.extract_module(b"from airflow.sdk import DAG\nQ = 'a'\n", "a.py", "a")
    cache = SummaryCache(tmp_path / "cache")
    key = summary_key(b"", "a.py", "a", False)
    assert cache.load(key) is None
    cache.store(key, "a.py", pickle.dumps(module))
    assert cache.load(key) == module  # before it is written
    assert not (tmp_path / "cache").exists()
    cache.flush()
    assert SummaryCache(tmp_path / "cache").load(key) == module
    assert len(cache_shards(tmp_path / "cache")) == 1


def test_a_shard_keeps_the_newest_summaries_of_each_file(tmp_path: Path) -> None:
    cache = SummaryCache(tmp_path / "cache")
    # Keys of one shard: the shard is chosen by the key's first two hexadecimal digits.
    keys = [f"00{n:062x}" for n in range(cache_module.KEPT_PER_FILE + 2)]
    for key in keys:
        cache.store(key, "dags/a.py", b"edit of a")
    cache.store("00" + "f" * 62, "dags/b.py", b"b")
    cache.flush()
    kept = cache_entries(tmp_path / "cache")
    assert list(kept) == [*keys[-cache_module.KEPT_PER_FILE :], "00" + "f" * 62]


def test_summaries_wait_in_memory_until_the_pending_bytes_are_reached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache_module, "PENDING_BYTES", 100)
    cache = SummaryCache(tmp_path / "cache")
    cache.store("01" + "0" * 62, "dags/a.py", b"x" * 10)
    assert not (tmp_path / "cache").exists()
    cache.store("02" + "0" * 62, "dags/b.py", b"x" * 90)
    assert set(cache_entries(tmp_path / "cache")) == {"01" + "0" * 62, "02" + "0" * 62}


def test_the_summaries_of_an_older_format_are_removed(repo: Path) -> None:
    older = repo / "c" / "v1" / "ab"
    older.mkdir(parents=True)
    (older / ("ab" + "0" * 62)).write_bytes(b"an entry of the older layout")
    (repo / "c" / f"results-v{RESULTS_FORMAT}").mkdir()
    lint("--cache-dir", "c", "-j", "1")
    assert not (repo / "c" / "v1").exists() and cache_entries(repo / "c")
    assert (repo / "c" / f"results-v{RESULTS_FORMAT}").is_dir()  # the result index prunes its own


def _spawn(repo: Path, cache: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "dagroute_lint", "dags", "--inventory", "dagroute.toml"]
    return subprocess.Popen(
        [*command, "--cache-dir", cache, "-j", "1"], cwd=repo, stdout=subprocess.PIPE
    )


def test_concurrent_runs_share_one_cache_safely(repo: Path) -> None:
    reference = lint("--no-cache", "-j", "1")
    runs = [_spawn(repo, "shared") for _ in range(3)]
    results = [(run.wait(), run.communicate()[0].decode()) for run in runs]
    assert results == [reference] * 3
    entries = cache_entries(repo / "shared")
    assert entries
    for key, (_, blob) in entries.items():
        assert decode_summary(blob, key) is not None
    assert lint("--cache-dir", "shared", "-j", "1") == reference


def test_rules_run_again_on_cached_summaries_when_the_inventory_changes(
    repo: Path, extractions: list[str]
) -> None:
    lint("-j", "1")
    before = lint("-j", "1")
    assert "queue 'reports'" in before[1]
    inventory = repo / "dagroute.toml"
    inventory.write_text(inventory.read_text().replace('"imports"]', '"imports", "reports"]'))
    extractions.clear()
    after = lint("-j", "1")
    assert extractions == []  # the summaries came from the cache
    assert after == lint("--no-cache", "-j", "1")
    assert "queue 'reports'" not in after[1] and after[1] != before[1]


WARM_RUN = """
import sys
from dagroute_lint.cli import main
sys.argv = ["dagroute-lint", "dags", "--inventory", "dagroute.toml", "-j", "1"]
try:
    main()
except SystemExit as done:
    print("exit", done.code, "libcst imported:", "libcst" in sys.modules, file=sys.stderr)
"""


def test_a_warm_run_never_imports_libcst(repo: Path) -> None:
    """Importing libcst costs more than a warm run of a thousand files: only extraction may."""
    command = [sys.executable, "-c", WARM_RUN]
    runs = [
        subprocess.run(command, cwd=repo, capture_output=True, text=True, check=False)
        for _ in range(2)
    ]
    assert "libcst imported: True" in runs[0].stderr  # the cold run extracted
    assert "exit 1 libcst imported: False" in runs[1].stderr
    assert runs[1].stdout == runs[0].stdout


# What a lint never needs: the inventory builder, the acceptance reports, the rule listing and
# pages' reader of `explain`, the fixer (without --fix), the writer of noqa comments (without
# --add-noqa), the baseline (without one), the language server, and distribution metadata (no
# installed distribution registers rules here: test_plugin_discovery.py).
UNNEEDED = (
    "importlib.metadata",
    "dagroute_lint.deployment.init.build",
    "dagroute_lint.acceptance.coverage",
    "dagroute_lint.rules.listing",
    "dagroute_lint.fix",
    "dagroute_lint.add_noqa",
    "dagroute_lint.pipeline.baseline",
    "dagroute_lint.server",
    "pygls",
)
# What a run that writes nothing (no cache) never needs either: tempfile (with shutil and random)
# is for writing files atomically, importlib.resources (with zipfile) for nothing pkgutil
# cannot read the shipped tables with, and shutil (with bz2 and lzma) otherwise only for git's
# PATH search when a walk has files to filter.
UNNEEDED_WITHOUT_WRITES = (
    *UNNEEDED,
    "tempfile",
    "importlib.resources",
    "zipfile",
    "shutil",
    "bz2",
    "lzma",
)
ONE_FILE_RUN = """
import sys
from dagroute_lint.cli import main
path, flags, names = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
sys.argv = ["dagroute-lint", "--quiet", path, *flags]
try:
    main()
except SystemExit as done:
    print("exit", done.code, file=sys.stderr)
    for name in names:
        print("imported:", name, name in sys.modules, file=sys.stderr)
"""


@pytest.mark.parametrize(
    ("flags", "unneeded"), [("", UNNEEDED), ("--no-cache", UNNEEDED_WITHOUT_WRITES)]
)
def test_linting_one_file_imports_only_what_the_lint_uses(
    repo: Path, flags: str, unneeded: tuple[str, ...]
) -> None:
    """pre-commit and editors start a process per file: its start-up is most of its time."""
    dag = next((repo / "dags").glob("*.py"))
    command = [sys.executable, "-c", ONE_FILE_RUN, str(dag), flags, *unneeded]
    result = subprocess.run(command, cwd=repo, capture_output=True, text=True, check=False)
    assert "exit 1" in result.stderr or "exit 0" in result.stderr, result.stderr
    assert [line for line in result.stderr.splitlines() if line.startswith("imported:")] == [
        f"imported: {name} False" for name in unneeded
    ]
