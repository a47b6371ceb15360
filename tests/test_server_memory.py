"""The language server's memory under an edit storm: the real ``dagroute-lint server`` process,
typed into as fast as a typist types, must stop growing once warm and still answer the last
version as the command line does."""

from __future__ import annotations

import gc
import importlib
import inspect
import json
import pkgutil
import random
import string
import sys
from pathlib import Path

from lsprotocol import types

import dagroute_lint
from dagroute_lint.catalog import import_verdicts, providers
from dagroute_lint.pipeline import collector
from tests.helpers import dag_repository, run_command
from tests.test_server import editor, run

DAG_FILE = """\
from airflow.operators.bash import BashOperator
from airflow.operators.python import PythonVirtualenvOperator
from airflow.sdk import DAG
import requests
from common.routing import REPORTS_QUEUE


def fetch():
    import pandas


with DAG("lab"):
    BashOperator(task_id="build", bash_command="x", queue=REPORTS_QUEUE)
    BashOperator(task_id="load", bash_command="x", queue="imports")
    PythonVirtualenvOperator(
        task_id="score", python_callable=fetch, requirements=["pandas", "scikit-learn"]
    )
"""
WARM = 2_000  # edits before the first reading: libcst, the tables and the allocator settle
MEASURED = 6_000  # edits between the two readings
BURST = 8  # edits sent before waiting for diagnostics: keystrokes come faster than lints
# kB over the measured edits. A server that keeps pygls's future of every notification grew
# 14 MB over them, one whose lints kept the collector rare 11 MB; this one under 1 MB.
GROWTH_LIMIT = 4 * 1024
# Typed characters: identifiers, and what breaks and mends the syntax around them.
TYPED = string.ascii_lowercase + "_.,:()[]=\"' \n"


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 8)))


def _edited(rng: random.Random, text: str) -> str:
    """The text after one keystroke, or after an edit that replaces it whole (a paste, an undo):
    the DAG again, importing modules nobody named before, as half-written identifiers do."""
    roll = rng.random()
    if roll < 0.5:
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.choice(TYPED) + text[at:]
    if roll < 0.8 and text:
        at = rng.randrange(len(text))
        return text[:at] + text[at + 1 :]
    imports = [
        f"import {_word(rng)}.{_word(rng)}\n",
        f"from {_word(rng)} import {_word(rng)}\n",
        f"from airflow.operators.{_word(rng)} import {_word(rng).title()}Operator\n",
    ]
    return "".join(rng.sample(imports, rng.randint(1, 3))) + DAG_FILE


def _resident_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS in /proc/{pid}/status")


def _command_line(repo: Path, text: str) -> list[tuple[int, int, str, str, str]]:
    """What ``dagroute-lint --stdin-filename`` reports for ``text``, in the LSP's 0-based terms
    (the texts are ASCII, so a column is a UTF-16 unit too)."""
    args = [sys.executable, "-m", "dagroute_lint", "--stdin-filename", "dags/report.py"]
    done = run_command([*args, "--format", "json", "-"], repo, input=text)
    assert done.returncode in (0, 1), done.stderr
    return sorted(
        (d["line"] - 1, d["column"] - 1, d["code"], d["severity"], d["message"])
        for d in json.loads(done.stdout)
    )


SEVERITY = {types.DiagnosticSeverity.Error: "error", types.DiagnosticSeverity.Warning: "warning"}


def _published(found: list[types.Diagnostic]) -> list[tuple[int, int, str, str, str]]:
    return sorted(
        (d.range.start.line, d.range.start.character, str(d.code), SEVERITY[d.severity], d.message)
        for d in found
    )


def test_an_edit_storm_leaves_resident_memory_flat_and_the_last_version_right(
    tmp_path: Path,
) -> None:
    repo = dag_repository(tmp_path, {"dags/report.py": DAG_FILE})
    rng = random.Random(20260101)

    async def test() -> None:
        async with editor(repo) as session:
            uri = session.open(repo / "dags" / "report.py")
            await session.diagnostics(uri)
            text = DAG_FILE

            async def storm(edits: int) -> None:
                nonlocal text
                for edit in range(1, edits + 1):
                    text = _edited(rng, text)
                    session.replace_text(uri, text)
                    if edit % BURST == 0 or edit == edits:
                        await session.diagnostics(uri)

            await storm(WARM)
            warm = _resident_kb(session.pid)
            await storm(MEASURED)
            grown = _resident_kb(session.pid) - warm
            assert grown < GROWTH_LIMIT, (
                f"resident memory grew by {grown:,} kB over {MEASURED:,} edits (from {warm:,} kB)"
            )
            # The version the typist stops at: the DAG, with an import nobody knows.
            text = "from airflow.operators.wat import WatOperator\nimport qqzx.more\n" + DAG_FILE
            session.replace_text(uri, text)
            last = _published(await session.diagnostics(uri))
            assert last == _command_line(repo, text)
            assert {code for _, _, code, _, _ in last} >= {"DRL101", "DRL204", "DRL205"}

    run(test)


def test_a_long_lived_process_keeps_the_collectors_own_pace() -> None:
    """The language server's process leaves the cyclic collector as Python sets it while a lint
    runs in its thread; the command line and library callers keep collections rare or off for
    the lint's own stretches, and a library caller gets its thresholds back."""
    before = gc.get_threshold()
    mode = dict(collector._MODE)
    try:
        with collector.rare_collections():
            assert gc.get_threshold()[0] == collector.RARE_COLLECTIONS
        assert gc.get_threshold() == before
        with collector.no_collections():
            assert not gc.isenabled()
        assert gc.isenabled()
        collector.for_long_lived()
        with collector.rare_collections():
            assert gc.get_threshold() == before
        with collector.no_collections():
            assert gc.isenabled()
    finally:
        collector._MODE.update(mode)
        gc.set_threshold(*before)


# The caches a process keeps that take an argument and have no size bound, and why their keys
# are bounded all the same. Any other keyed cache is an LRU of a stated size.
KEYED_BY_DATA = {
    "dagroute_lint.catalog.import_verdicts._listed_rows": "modules of import_verdicts.tsv only",
    "dagroute_lint.catalog.providers._listed_moves": "old modules of import_moves.tsv only",
    "dagroute_lint.catalog.providers._shim_names": "modules of shim_modules.tsv only",
    "dagroute_lint.rules.registry._everything": "one key: the plugin rules, looked up once",
    "dagroute_lint.rules.airflow_imports._airflow2_paths": "the Airflow 2 releases checked only",
    "dagroute_lint.flake8_plugin._project": "the folders of one flake8 run's files",
}


def _caches() -> dict[str, tuple[int | None, int]]:
    """Every ``functools`` cache the package defines: its size bound and how many arguments
    its key has."""
    found = {}
    for info in pkgutil.walk_packages(dagroute_lint.__path__, "dagroute_lint."):
        if info.name == "dagroute_lint.__main__":  # importing it runs the command line
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if hasattr(value, "cache_parameters") and value.__module__ == module.__name__:
                arguments = len(inspect.signature(value).parameters)
                found[f"{module.__name__}.{name}"] = (
                    value.cache_parameters()["maxsize"],
                    arguments,
                )
    return found


def test_every_cache_is_bounded_or_keyed_by_what_the_package_ships() -> None:
    caches = _caches()
    unbounded = {name for name, (bound, arguments) in caches.items() if bound is None and arguments}
    assert unbounded == set(KEYED_BY_DATA)
    # Those keyed by names a file or a typist writes are bounded.
    assert caches["dagroute_lint.catalog.distributions.import_need"][0] == 256
    assert caches["dagroute_lint.catalog.distributions.spellings"][0] == 256
    assert caches["dagroute_lint.catalog.distributions._closure"][0] == 32
    assert caches["dagroute_lint.catalog.stdlib_first.has_name"][0] == 256
    assert caches["dagroute_lint.catalog.stdlib_first._stdlib_everywhere"][0] == 1024


def test_names_no_table_lists_are_answered_without_being_kept() -> None:
    kept = (import_verdicts._listed_rows, providers._listed_moves, providers._shim_names)
    before = [cache.cache_info().currsize for cache in kept]
    for typed in ("airflow.operators.bas", "airflow.operators.bashx", "airflow.x", "qqzx.more"):
        assert providers.moved_import(typed, "BashOperator") is None
        assert providers.shim_module_names(typed) is None
        assert providers.module_moves(typed) == ()
        assert (
            import_verdicts.import_verdict(typed, "BashOperator", import_verdicts.Checked("3.3.2"))
            is None
        )
    assert [cache.cache_info().currsize for cache in kept] == before
    # A module the tables list is kept, and answered from them.
    move = providers.moved_import("airflow.operators.bash", "BashOperator")
    assert move is not None and move.new_module == "airflow.providers.standard.operators.bash"
    assert providers._listed_moves.cache_info().currsize >= 1
