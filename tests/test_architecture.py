"""The package's folders are the pipeline's stages, and imports only point down the pipeline."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[1]


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("import_graph", REPO / "scripts/import_graph.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


graph_script = _load_script()
GRAPH: dict[str, set[str]] = graph_script.import_graph()

# Lowest first. A module may import its own stage and any stage listed before it, never after.
STAGES: tuple[tuple[str, ...], ...] = (
    # what every stage shares
    ("dagroute_lint", "errors", "records", "model", "diagnostics", "noqa", "wording"),
    ("catalog",),
    ("sources",),
    ("deployment",),
    ("extract",),
    ("resolve",),
    ("rules",),
    ("formatters",),
    ("config",),
    ("pipeline",),
    ("api",),  # the public API: every front end's one way into the pipeline
    ("acceptance",),  # deployment acceptance: lints with inventories and compares
    ("cli", "flake8_plugin", "fix", "add_noqa", "server", "__main__"),  # front ends
)
RANK = {name: rank for rank, names in enumerate(STAGES) for name in names}
LIBCST_ALLOWED = ("dagroute_lint.extract", "dagroute_lint.fix")


def _internal(module: str) -> set[str]:
    return {target for target in GRAPH[module] if target in GRAPH}


def test_every_module_belongs_to_a_stage() -> None:
    unplaced = sorted(m for m in GRAPH if graph_script.stage(m) not in RANK)
    assert unplaced == []


def test_the_package_root_holds_only_front_ends_and_contracts() -> None:
    root = sorted(m.split(".")[1] for m in GRAPH if m.count(".") == 1 and m.split(".")[1] in RANK)
    folders = {p.name for p in (REPO / "dagroute_lint").iterdir() if p.is_dir()} - {"__pycache__"}
    assert set(root) - folders == {
        "__main__", "add_noqa", "api", "cli", "config", "diagnostics", "errors", "fix",
        "flake8_plugin", "model", "noqa", "records", "wording",
    }  # fmt: skip


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_point_down_the_pipeline(module: str) -> None:
    rank = RANK[graph_script.stage(module)]
    upward = sorted(t for t in _internal(module) if RANK[graph_script.stage(t)] > rank)
    assert upward == [], f"{module} imports a later stage"


FRONT_ENDS = ("cli", "flake8_plugin", "server", "acceptance", "__main__")
ANALYSIS = "dagroute_lint.pipeline.analysis"


def _reachable(start: str, without: str) -> set[str]:
    """The package's modules ``start`` imports, directly or not, not passing through ``without``."""
    seen: set[str] = set()
    pending = [start]
    while pending:
        module = pending.pop()
        for target in _internal(module) - seen - {without}:
            seen.add(target)
            pending.append(target)
    return seen


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if graph_script.stage(m) in FRONT_ENDS))
def test_every_front_end_reaches_the_analysis_only_through_the_api(module: str) -> None:
    """One way from paths to a repository: a front end that lints imports ``api``, and no
    import chain of any front end reaches ``analyse()`` around it."""
    assert ANALYSIS not in _reachable(module, without="dagroute_lint.api")


def test_the_front_ends_that_lint_use_the_api() -> None:
    users = {m for m in GRAPH if "dagroute_lint.api" in GRAPH[m]}
    assert {
        "dagroute_lint.cli", "dagroute_lint.flake8_plugin", "dagroute_lint.server.app",
        "dagroute_lint.acceptance.coverage",
    } <= users  # fmt: skip
    assert ANALYSIS in _reachable("dagroute_lint.api", without="")


def test_libcst_lives_only_in_extraction_and_the_fixer() -> None:
    users = sorted(
        m for m, targets in GRAPH.items() if any(t.split(".")[0] == "libcst" for t in targets)
    )
    assert users, "the scan finds libcst's importers"
    assert [m for m in users if not m.startswith(LIBCST_ALLOWED)] == []


def test_libcst_matchers_stay_out_of_the_package() -> None:
    """``libcst.matchers`` takes 170 ms to import, more than the rest of a one-file run (the
    pre-commit hook's case) costs: a visitor does what the package needs of it."""
    users = sorted(m for m, targets in GRAPH.items() if "libcst.matchers" in targets)
    assert users == []


def test_rules_never_see_a_tree() -> None:
    rules = [m for m in GRAPH if graph_script.stage(m) == "rules"]
    seen = sorted(
        (m, t)
        for m in rules
        for t in GRAPH[m]
        if t.split(".")[0] == "libcst" or t.startswith("dagroute_lint.extract")
    )
    assert seen == []


def test_the_scan_sees_function_level_imports(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "low").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "low" / "__init__.py").write_text("")
    source = "def f():\n    from pkg.high import b\n    import libcst\n"
    (package / "low" / "a.py").write_text(source)
    (package / "high.py").write_text("from .low import a\n")
    graph = graph_script.import_graph(package)
    assert {"pkg.high", "libcst"} <= graph["pkg.low.a"]
    assert "pkg.low.a" in graph["pkg.high"]
