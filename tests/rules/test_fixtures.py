"""Each rule's specification: fixture cases under ``tests/rules/DRLnnn/`` and their snapshots.

A case is linted with ``--select`` its rule (see ``README.md`` here for the layout): a bad case's
text-format output must equal its ``.expected`` snapshot, a good case must report nothing.
"""

from __future__ import annotations

import difflib
import doctest
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.deployment.toml import toml
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.formatters.text import format_text
from dagroute_lint.rules import RULES, Rule
from tests import helpers
from tests.helpers import lint_files

HERE = Path(__file__).parent
KINDS = ("bad", "good")
MINIMUM_CASES = 3
SNAPSHOT = ".expected"
# Each rule folder's snapshot of the facts of its bad cases' diagnostics (``test_facts.py``).
FACTS = "facts.json"
# One line of text-format output: path:line:column: CODE message.
LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<column>\d+): (?P<code>[A-Z]+\d+) \S")


@dataclass(frozen=True)
class Case:
    """One fixture: a DAG file ``<name>.py`` (linted as ``dags/<name>.py``) or a folder
    ``<name>/`` that is a whole repository, under ``DRLnnn/bad/`` or ``DRLnnn/good/``."""

    code: str
    kind: str
    name: str
    source: Path

    @property
    def id(self) -> str:
        return f"{self.code}/{self.name}"

    @property
    def snapshot(self) -> Path:
        return self.source.parent / (self.name + SNAPSHOT)

    def files(self) -> dict[str, str | bytes]:
        """The repository to lint, as ``{relative path: bytes}``; bytes are linted as they are."""
        if self.source.is_file():
            return {f"dags/{self.source.name}": self.source.read_bytes()}
        return {
            path.relative_to(self.source).as_posix(): path.read_bytes()
            for path in sorted(self.source.rglob("*"))
            if path.is_file() and path.name != "dagroute.toml"
        }

    def inventory(self) -> str | None:
        """The case's own inventory (``<name>.toml``, or ``dagroute.toml`` in a folder case), else
        the rule folder's ``inventory.toml``; one holding no table means: no inventory."""
        for candidate in (
            self.source.parent / f"{self.name}.toml",
            self.source / "dagroute.toml",
            HERE / self.code / "inventory.toml",
        ):
            if candidate.is_file():
                text = candidate.read_text(encoding="utf-8")
                return text if toml.loads(text) else None
        return None

    @property
    def select(self) -> tuple[str, ...]:
        """The rule, and the codes its folder's ``select.txt`` adds: a rule about other rules'
        diagnostics (DRL901, unused noqa) needs them to run beside it."""
        extra = HERE / self.code / "select.txt"
        return (self.code, *(extra.read_text(encoding="utf-8").split() if extra.is_file() else ()))

    def output(self) -> str:
        """What ``dagroute-lint --select CODE`` prints for the case, in the text format."""
        return format_text(diagnostics_of(self))


@functools.cache
def diagnostics_of(case: Case) -> tuple[Diagnostic, ...]:
    """What ``--select CODE`` reports for the case, worked out once for the text snapshots and
    the facts (``test_facts.py``)."""
    return tuple(lint_files(case.files(), case.inventory(), select=case.select))


def cases() -> Iterator[Case]:
    for folder in sorted(HERE.glob("DRL*")):
        for kind in KINDS:
            for source in sorted((folder / kind).glob("*")):
                if source.is_dir() or source.suffix == ".py":
                    name = source.stem if source.is_file() else source.name
                    yield Case(folder.name, kind, name, source)


CASES = list(cases())


def _diff(expected: str, actual: str, snapshot: Path) -> str:
    lines = difflib.unified_diff(
        expected.splitlines(keepends=True),
        actual.splitlines(keepends=True),
        fromfile=str(snapshot.relative_to(HERE)),
        tofile="reported now",
    )
    return "".join(lines) + "\nIf the new output is right: pytest tests/rules --update-snapshots"


@pytest.mark.parametrize("case", [c for c in CASES if c.kind == "bad"], ids=lambda c: c.id)
def test_bad_case_reports_its_snapshot(case: Case, update_snapshots: bool) -> None:
    actual = case.output()
    assert actual, f"{case.id} is a bad case but {case.code} reports nothing for it"
    if update_snapshots:
        case.snapshot.write_text(actual, encoding="utf-8")
    assert case.snapshot.is_file(), f"{case.id} has no snapshot; run with --update-snapshots"
    expected = case.snapshot.read_text(encoding="utf-8")
    assert actual == expected, _diff(expected, actual, case.snapshot)


@pytest.mark.parametrize("case", [c for c in CASES if c.kind == "good"], ids=lambda c: c.id)
def test_good_case_reports_nothing(case: Case) -> None:
    assert case.output() == ""


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
def test_every_rule_has_bad_and_good_cases(rule: Rule) -> None:
    code = rule.code
    found = {kind: [c.name for c in CASES if c.code == code and c.kind == kind] for kind in KINDS}
    for kind, names in found.items():
        assert len(names) >= MINIMUM_CASES, f"{code} has {len(names)} {kind} cases: {names}"
    names = found["bad"] + found["good"]
    assert len(set(names)) == len(names), f"{code}: a case name is both bad and good"


@pytest.mark.parametrize("case", [c for c in CASES if c.kind == "bad"], ids=lambda c: c.id)
def test_bad_snapshot_is_not_empty_and_holds_only_its_rule(case: Case) -> None:
    """A snapshot cannot be emptied or hand-edited into another rule's output unnoticed."""
    lines = case.snapshot.read_text(encoding="utf-8").splitlines()
    assert lines, f"{case.snapshot} is empty"
    for line in lines:
        match = LINE.match(line)
        assert match, f"{case.snapshot}: not a diagnostic line: {line!r}"
        assert match["code"] == case.code, line
        assert not Path(match["path"]).is_absolute(), line


def test_fixture_folders_hold_only_cases_of_registered_rules() -> None:
    """No folder for a rule that is gone, no snapshot left behind by a renamed case, no good
    case with a snapshot, nothing else in ``bad/`` and ``good/``."""
    codes = {rule.code for rule in RULES}
    folders = {path.name for path in HERE.glob("DRL*")}
    assert folders == codes
    expected: set[Path] = set()
    for case in CASES:
        expected.add(case.source)
        expected.add(case.source.parent / f"{case.name}.toml")
        if case.kind == "bad":
            expected.add(case.snapshot)
    strays = [
        path.relative_to(HERE).as_posix()
        for folder in sorted(HERE.glob("DRL*"))
        for path in sorted(folder.iterdir())
        if path.name not in (*KINDS, "inventory.toml", "select.txt", FACTS)
    ]
    strays += [
        path.relative_to(HERE).as_posix()
        for folder in sorted(HERE.glob("DRL*/*"))
        if folder.name in KINDS
        for path in sorted(folder.iterdir())
        if path not in expected
    ]
    assert CASES and strays == []


def _command_line_runs(case: Case, root: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What ``dagroute-lint dags --select CODE`` prints in the case's repository: without the
    cache, then with it cold and warm (one pipeline: the cache only saves work)."""
    files = {"pyproject.toml": b"[tool.dagroute-lint]\n", **case.files()}
    for name, content in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(content if isinstance(content, bytes) else content.encode())
    inventory = case.inventory()
    if inventory is not None:
        (root / "dagroute.toml").write_text(inventory, encoding="utf-8")
    monkeypatch.chdir(root)
    select = ",".join(case.select)
    printed = []
    for cache in (["--no-cache"], [], []):
        result = CliRunner().invoke(main, ["dags", "--select", select, "--quiet", *cache])
        assert result.exit_code == (1 if case.kind == "bad" else 0), result.output
        printed.append(result.stdout)
    assert (root / ".dagroute_cache").is_dir(), "the cached runs kept a cache"
    return printed


@pytest.mark.parametrize("case", [c for c in CASES if c.kind == "bad"], ids=lambda c: c.id)
def test_snapshot_is_what_the_command_line_prints(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The in-memory helper is faithful: ``dagroute-lint dags --select CODE`` run in the case's
    repository prints the snapshot and exits 1, with the cache off, cold and warm."""
    expected = case.snapshot.read_text(encoding="utf-8")
    assert _command_line_runs(case, tmp_path, monkeypatch) == [expected] * 3


@pytest.mark.parametrize("case", [c for c in CASES if c.kind == "good"], ids=lambda c: c.id)
def test_good_case_is_clean_on_the_command_line(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _command_line_runs(case, tmp_path, monkeypatch) == [""] * 3


def test_lint_source_docstring_example_runs() -> None:
    result = doctest.testmod(helpers)
    assert result.attempted >= 1 and result.failed == 0
