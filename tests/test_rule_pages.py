"""Every registered rule has a page, and the page's examples do what the page says.

Each example runs through the real command line as the single file ``dags/example.py`` of a
fresh repository, with the page's inventory as ``dagroute.toml`` and ``--select ALL``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import click
import libcst
import pytest
from click.testing import CliRunner

from dagroute_lint.cli import main
from dagroute_lint.rules import RULES, Rule
from dagroute_lint.rules.pages import PageError, RulePage, load_page, parse_page

REPO = Path(__file__).resolve().parents[1]
SECTIONS = ["## Why it matters", "## Example", "## How to fix"]


def page_of(rule: Rule) -> RulePage:
    page = load_page(rule.code)
    assert page is not None, f"rules/{rule.code}.md is missing"
    return page


def lint_example(root: Path, page: RulePage, source: str, monkeypatch: pytest.MonkeyPatch) -> list:
    """Diagnostics (as JSON objects) of ``source`` linted as the page prescribes."""
    (root / "dags").mkdir()
    (root / "dags" / "example.py").write_text(source, encoding="utf-8")
    for path, text in page.beside:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    if page.inventory is not None:
        (root / "dagroute.toml").write_text(page.inventory, encoding="utf-8")
    monkeypatch.chdir(root)
    result = CliRunner().invoke(
        main, ["dags/example.py", "--select", "ALL", "--format", "json", "--quiet"]
    )
    assert result.exit_code in (0, 1), result.output + result.stderr
    diagnostics: list = json.loads(result.stdout)
    assert result.exit_code == (1 if diagnostics else 0)
    return diagnostics


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
def test_page_structure(rule: Rule) -> None:
    page = page_of(rule)
    assert page.title == f"{rule.code} {rule.name}"
    assert page.description, "a paragraph under the title says what the rule reports"
    headings = [line for line in page.text.splitlines() if line.startswith("## ")]
    assert headings == SECTIONS


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
def test_bad_example_reports_only_its_rule(
    rule: Rule, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = page_of(rule)
    diagnostics = lint_example(tmp_path, page, page.bad, monkeypatch)
    assert diagnostics, "the reported example reports nothing"
    assert {diagnostic["code"] for diagnostic in diagnostics} == {rule.code}, diagnostics


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
def test_good_example_reports_nothing(
    rule: Rule, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = page_of(rule)
    assert lint_example(tmp_path, page, page.good, monkeypatch) == []


def test_every_page_belongs_to_a_registered_rule() -> None:
    codes = {rule.code for rule in RULES}
    pages = {path.stem for path in (REPO / "rules").glob("*.md")}
    assert pages - codes == set()


def test_explain_prints_the_page(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["explain", "drl101"])
    assert result.exit_code == 0
    assert result.stdout == (REPO / "rules" / "DRL101.md").read_text(encoding="utf-8")
    by_name = CliRunner().invoke(main, ["explain", "unserved-queue"])
    assert by_name.stdout == result.stdout


def test_explain_unknown_code_exits_two_with_suggestions() -> None:
    result = CliRunner().invoke(main, ["explain", "DRL1011"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("dagroute-lint: unknown rule 'DRL1011'; did you mean DRL101")
    by_name = CliRunner().invoke(main, ["explain", "unserved-queu"])
    assert by_name.stderr.startswith(
        "dagroute-lint: unknown rule 'unserved-queu'; did you mean DRL101"
    )
    far = CliRunner().invoke(main, ["explain", "nothing-like-it"])
    assert far.exit_code == 2
    assert "did you mean" not in far.stderr
    assert "`dagroute-lint rules` lists every rule" in far.stderr


def test_explain_a_code_prefix_names_its_family() -> None:
    result = CliRunner().invoke(main, ["explain", "DRL1"])
    assert result.exit_code == 2
    family = sorted(rule.code for rule in RULES if rule.code.startswith("DRL1"))
    assert result.stderr == (
        f"dagroute-lint: unknown rule 'DRL1': it is a prefix of {family[0]}..{family[-1]}; "
        "explain takes one rule's code or name\n"
    )
    assert "DRL501" not in result.stderr


def test_explain_without_a_page_exits_two(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("dagroute_lint.rules.listing.page_text", lambda code: None)
    result = CliRunner().invoke(main, ["explain", "DRL101"])
    assert result.exit_code == 2
    assert "DRL101 (unserved-queue) has no page in this installation" in result.stderr


def test_rules_lists_every_rule_as_text_and_json() -> None:
    text = CliRunner().invoke(main, ["rules"])
    assert [line.split()[0] for line in text.stdout.splitlines()] == [r.code for r in RULES]
    listed = json.loads(CliRunner().invoke(main, ["rules", "--format", "json"]).stdout)
    assert [(item["code"], item["name"]) for item in listed] == [(r.code, r.name) for r in RULES]
    assert {item["severity"] for item in listed} <= {"error", "warning"}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("no title\n", "first line must be the title"),
        ("# DRL9 x\n```python\na\n```\n", "1 ```python blocks"),
        ("# DRL9 x\n```toml\n```\n```toml\n```\n", "2 ```toml blocks"),
        ("# DRL9 x\n```python\na\n```\n```python\n", "DRL9.md:5: code block never closed"),
    ],
)
def test_broken_pages_are_named_errors(text: str, problem: str) -> None:
    with pytest.raises(PageError, match=problem.replace("`", ".")):
        parse_page("DRL9", text)


def test_blocks_are_told_apart_by_language() -> None:
    page = parse_page(
        "DRL9",
        "# DRL9 x\n\nSays.\n\n## Example\n\n```toml\n[deployment]\n```\n\n```sh\nrun\n```\n\n"
        "```python bad\nbad()\n```\n\n```python\ngood()\n```\n",
    )
    assert (page.inventory, page.bad, page.good) == ("[deployment]\n", "bad()\n", "good()\n")
    assert page.description == "Says."
    assert page.beside == ()


def test_a_block_naming_a_path_is_a_file_beside_the_examples() -> None:
    page = parse_page(
        "DRL9",
        "# DRL9 x\n\n```python dags/queue.py\nQ = 1\n```\n\n```python bad\nbad()\n```\n\n"
        "```python good\ngood()\n```\n",
    )
    assert (page.bad, page.good, page.beside) == (
        "bad()\n",
        "good()\n",
        (("dags/queue.py", "Q = 1\n"),),
    )


def test_pages_ship_in_the_wheel_and_explain_reads_them_there(tmp_path: Path) -> None:
    """Build the wheel, install it alone in a new virtual environment, run its console script.

    The environment borrows this one's dependencies (libcst, click) through a .pth file, so
    the test needs no package index; the installed copy is the only dagroute_lint it can import.
    """
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(REPO),
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "-w",
            str(tmp_path / "dist"),
        ],
        check=True,
    )
    (wheel,) = (tmp_path / "dist").glob("dagroute_lint-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped = set(archive.namelist())
    pages = {f"dagroute_lint/rule_pages/{page.name}" for page in (REPO / "rules").glob("*.md")}
    assert pages and pages <= shipped

    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    purelib = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site_packages = Path(_run(python, "-c", purelib))
    borrowed = {str(Path(module.__file__).resolve().parents[1]) for module in (libcst, click)}
    (site_packages / "borrowed-dependencies.pth").write_text("\n".join(sorted(borrowed)) + "\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            str(wheel),
        ],
        check=True,
    )

    imported = _run(python, "-c", "import dagroute_lint; print(dagroute_lint.__file__)")
    assert Path(imported).is_relative_to(site_packages)
    assert not (site_packages / "rules").exists()
    explained = _run(env_dir / "bin" / "dagroute-lint", "explain", "DRL101")
    assert explained == (REPO / "rules" / "DRL101.md").read_text(encoding="utf-8").strip()


def _run(*command: object) -> str:
    done = subprocess.run(
        [str(part) for part in command], capture_output=True, text=True, check=True, cwd="/"
    )
    return done.stdout.strip()


def test_the_rule_index_lists_every_rule_as_the_registry_has_it() -> None:
    """docs/rules.md: a row per rule, linking its page, with its name, boundary, severity,
    opt-in and whether it needs an inventory, as the registry says."""
    rows = {}
    for line in (REPO / "docs" / "rules.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        found = re.fullmatch(r"\[(DRL\d+)\]\(\.\./rules/(DRL\d+)\.md\)", cells[0])
        if len(cells) == 5 and found:
            assert found.group(1) == found.group(2), line
            warning = "**warning**" in cells[2]
            opt_in = "**opt-in**" in cells[2]
            rows[found.group(1)] = (cells[1], cells[3], warning, opt_in, cells[4] == "needed")
    assert rows == {
        rule.code: (
            rule.name,
            rule.boundary,
            rule.severity == "warning",
            not rule.default_enabled,
            rule.needs_inventory,
        )
        for rule in RULES
    }
