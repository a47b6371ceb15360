"""The documentation against the code: the settings reference generated from ``config.py``, every
relative link and anchor, the README's example output, and the snippets of the docs pages.

Other pages have their own tests: the rule index (``test_rule_pages.py``), the selection table
(``test_selection.py``), the editor and language server snippets (``test_editors.py``,
``test_server.py``), the routing map (``test_routing_map.py``) and the deployment acceptance step
(``test_inventory_diff.py``).
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from dagroute_lint import config
from dagroute_lint.cli import check
from dagroute_lint.config import SETTINGS, load_settings
from dagroute_lint.errors import ConfigError
from dagroute_lint.records import replace
from dagroute_lint.rules import RULES
from tests.helpers import dag_repository, run_command
from tests.test_cli import invoke
from tests.test_pre_commit import DAG, GIT_IDENTITY, _git

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", REPO / "CONTRIBUTING.md", *sorted((REPO / "docs").glob("*.md"))]
BIN = Path(sys.executable).parent


def text(path: str) -> str:
    return (REPO / path).read_text(encoding="utf-8")


def blocks(page: str, language: str) -> list[str]:
    """The fenced blocks of ``language`` in ``page``, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```$", text(page), flags=re.S | re.M)


# --- the settings reference ----------------------------------------------------------------------


def settings_reference() -> ModuleType:
    path = REPO / "scripts" / "settings_reference.py"
    spec = importlib.util.spec_from_file_location("settings_reference", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_settings_reference_is_what_the_script_writes_from_the_code() -> None:
    assert text("docs/settings.md") == settings_reference().render(), (
        "docs/settings.md is stale: python scripts/settings_reference.py"
    )


def test_every_key_the_parser_reads_is_in_the_settings_table() -> None:
    source = inspect.getsource(config._settings_from_table)
    read = set(re.findall(r'(?:table\.get|strings|flag|SETTINGS\[)\(?"([a-z-]+)"', source))
    assert read == set(SETTINGS)
    reference = text("docs/settings.md")
    for key in SETTINGS:
        assert f"\n## `{key}`\n" in reference


def _pyproject(tmp_path: Path, lines: list[str]) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        "\n".join(["[tool.dagroute-lint]", *lines]) + "\n", encoding="utf-8"
    )
    return tmp_path


def test_the_parser_accepts_exactly_the_documented_keys(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"tool\.dagroute-lint\.selekt: unknown setting"):
        load_settings(None, _pyproject(tmp_path, ['selekt = ["ALL"]']))
    given = {
        "extend": '"shared.toml"',
        "inventory": '"dagroute.toml"',
        "baseline": '"dagroute-baseline.json"',
        "dag-ignore-file-syntax": '"regexp"',
    }
    (tmp_path / "shared.toml").write_text("", encoding="utf-8")
    for key, setting in SETTINGS.items():
        value = given.get(key) or settings_reference().toml_value(setting.default)
        settings = load_settings(None, _pyproject(tmp_path, [f"{key} = {value}"]))
        where = f"{tmp_path / 'pyproject.toml'}: tool.dagroute-lint.{key}"
        assert settings.given == ((key.replace("-", "_"), where),)


def test_each_documented_default_is_what_an_absent_key_means(tmp_path: Path) -> None:
    script = settings_reference()
    written = [
        f"{key} = {script.toml_value(setting.default)}"
        for key, setting in SETTINGS.items()
        if setting.default is not None
    ]
    absent = load_settings(None, _pyproject(tmp_path, []))
    explicit = load_settings(None, _pyproject(tmp_path, written))
    assert replace(explicit, given=()) == replace(absent, given=())
    # A key without a default value says in words what its absence means.
    assert all(setting.default_text for setting in SETTINGS.values() if setting.default is None)


def test_the_flags_a_setting_names_are_options_of_check() -> None:
    options = {
        option
        for parameter in check.params
        for option in (*parameter.opts, *getattr(parameter, "secondary_opts", ()))
    }
    for setting in SETTINGS.values():
        assert set(setting.flags) <= options


# --- links and anchors ---------------------------------------------------------------------------

_FENCE = re.compile(r"^```.*?^```$", re.S | re.M)
_INLINE_CODE = re.compile(r"``.*?``|`[^`\n]*`")
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*$", re.M)


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the page's headings: lower case, punctuation dropped, spaces
    as hyphens, a repeated one numbered."""
    found: set[str] = set()
    for _, heading in _HEADING.findall(_FENCE.sub("", page.read_text(encoding="utf-8"))):
        plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
        slug = re.sub(r"[^\w\- ]", "", plain.lower()).replace(" ", "-")
        candidate, number = slug, 0
        while candidate in found:
            number += 1
            candidate = f"{slug}-{number}"
        found.add(candidate)
    return found


def links(page: Path) -> list[str]:
    prose = _INLINE_CODE.sub("", _FENCE.sub("", page.read_text(encoding="utf-8")))
    return _LINK.findall(prose)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(REPO)))
def test_every_relative_link_points_at_a_file_and_an_anchor_that_exist(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.exists():
            broken.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target}: no heading #{anchor} in {resolved.relative_to(REPO)}")
    assert not broken, broken


def test_the_anchors_follow_github() -> None:
    assert {"max-file-size", "behaving-like-ruff-and-where-not"} <= (
        anchors(REPO / "docs" / "settings.md") | anchors(REPO / "docs" / "configuration.md")
    )
    assert "airflowignore-and-which-files-can-hold-dags" in anchors(
        REPO / "docs" / "configuration.md"
    )


def test_the_docs_pages_are_all_linked_from_the_readme() -> None:
    linked = {target.partition("#")[0] for target in links(REPO / "README.md")}
    assert {f"docs/{page.name}" for page in (REPO / "docs").glob("*.md")} <= linked


# --- the README ----------------------------------------------------------------------------------


def test_the_readme_set_up_commands_are_the_ones_ci_runs() -> None:
    install, tests = blocks("README.md", "sh")[:2]
    ci = text(".ci/run")
    assert install.strip() in ci.splitlines()
    assert tests.strip() == ".venv/bin/pytest"
    assert ci.rstrip().endswith(tests.strip())


def test_the_readme_example_is_the_real_output(monkeypatch: pytest.MonkeyPatch) -> None:
    (example,) = blocks("README.md", "console")
    command, *expected = example.splitlines()
    assert command == "$ dagroute-lint examples/dags --inventory examples/dagroute.toml"
    monkeypatch.chdir(REPO)
    code, out, err = invoke(*command.split()[2:], "--no-cache")
    assert code == 1
    assert (out + err).splitlines() == expected


def test_the_readme_rule_families_cover_every_rule_and_its_boundary() -> None:
    families = {}
    for line in text("README.md").splitlines():
        found = re.match(r"\| (DRL\d)xx \| ([a-z, ]+) \|", line)
        if found:
            families[found.group(1)] = set(found.group(2).split(", "))
    boundaries: dict[str, set[str]] = {}
    for rule in RULES:
        boundaries.setdefault(rule.code[:4], set()).add(rule.boundary)
    assert families == boundaries


def test_the_tests_the_ruff_parity_table_names_exist() -> None:
    page = text("docs/configuration.md")
    table = page.split("## Behaving like ruff, and where not\n", 1)[1]
    named = re.findall(r"`((?:test_\w+\.py)?)::(test_\w+)`", table)
    assert len(named) > 20
    for file, test in named:
        source = (REPO / "tests" / (file or "test_ruff_parity.py")).read_text(encoding="utf-8")
        assert f"def {test}(" in source, (file, test)


# --- the routes contract -------------------------------------------------------------------------


def test_the_routes_page_shows_real_output(monkeypatch: pytest.MonkeyPatch) -> None:
    task, summary = (json.loads(block) for block in blocks("docs/routes.md", "json"))
    monkeypatch.chdir(REPO)
    command = "routes examples/dags --inventory examples/dagroute.toml --format json"
    assert f"`dagroute-lint {command}`" in text("docs/routes.md")
    code, out, err = invoke(*command.split(), "--no-cache")
    assert code == 0, err
    document = json.loads(out)
    assert task in document["tasks"]
    assert summary == document["summary"]
    assert list(task) == list(document["tasks"][0])  # every field, in the contract's order


# --- pre-commit and CI ---------------------------------------------------------------------------


def local_hook_config(page: str) -> str:
    (block,) = [block for block in blocks(page, "yaml") if "repo: local" in block]
    return block


def test_the_local_hook_is_the_published_hook() -> None:
    assert local_hook_config("README.md") == local_hook_config("docs/ci.md")
    (hook,) = yaml.safe_load(local_hook_config("docs/ci.md"))["repos"][0]["hooks"]
    (published,) = yaml.safe_load(text(".pre-commit-hooks.yaml"))
    for key in ("id", "name", "entry", "types_or", "files", "require_serial"):
        assert hook[key] == published[key], key
    assert hook["language"] == "system"  # the dagroute-lint installed where pre-commit runs


def test_the_ci_snippets_are_valid_yaml_and_run_the_installed_command() -> None:
    snippets = [block for block in blocks("docs/ci.md", "yaml") if "repo: local" not in block]
    assert len(snippets) == 5
    for snippet in snippets:
        assert yaml.safe_load(snippet)
        assert "OWNER" not in snippet
        assert "dagroute-lint " in snippet


def test_the_local_hook_runs_with_the_real_pre_commit(tmp_path: Path) -> None:
    repository = dag_repository(
        tmp_path / "repository",
        {
            ".pre-commit-config.yaml": local_hook_config("docs/ci.md"),
            "dags/report.py": DAG.format(name="REPORTS_QUEUE"),
        },
    )
    _git(repository, "init", "-q")
    _git(repository, "add", "-A")
    environment = {
        **os.environ,
        **GIT_IDENTITY,
        "PRE_COMMIT_HOME": str(tmp_path / "home"),
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    result = run_command(
        [sys.executable, "-m", "pre_commit", "run", "--files", "dags/report.py"],
        repository,
        env=environment,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "dags/report.py:5:5: DRL101 [error] task 'build' in dag 'lab'" in output
    fixed = DAG.format(name="IMPORTS_QUEUE")
    (repository / "dags" / "report.py").write_text(fixed, encoding="utf-8")
    result = run_command(
        [sys.executable, "-m", "pre_commit", "run", "--files", "dags/report.py"],
        repository,
        env=environment,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_placeholders_are_left() -> None:
    for page in PAGES:
        body = page.read_text(encoding="utf-8")
        for placeholder in ("OWNER", "TODO", "example.com", "FIXME", "XXX"):
            assert placeholder not in body, (page.name, placeholder)


def test_the_settings_script_checks_the_committed_file() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "settings_reference.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout
