"""Rule selection as ruff resolves it (docs/configuration.md's precedence table, row by row), and
``per-file-ignores`` globs with ruff's globset semantics."""

from __future__ import annotations

from pathlib import Path

import pytest

from dagroute_lint.config import Settings, load_settings
from dagroute_lint.errors import ConfigError
from dagroute_lint.rules import RULES
from dagroute_lint.sources.globs import project_glob

ALL = frozenset(rule.code for rule in RULES)
DEFAULT = frozenset(rule.code for rule in RULES if rule.default_enabled)


def family(prefix: str) -> frozenset[str]:
    return frozenset(code for code in ALL if code.startswith(prefix))


# (settings file, command line, codes that run) — docs/configuration.md's table, in its order.
ROWS = [
    ({}, {}, DEFAULT),
    ({"select": ["DRL1"]}, {}, family("DRL1")),
    ({"select": ["DRL1"], "ignore": ["DRL102"]}, {}, family("DRL1") - {"DRL102"}),
    ({"select": ["DRL102"], "ignore": ["DRL1"]}, {}, frozenset({"DRL102"})),
    ({"select": ["DRL1"], "ignore": ["DRL1"]}, {}, frozenset()),
    ({"extend-select": ["DRL304"]}, {}, DEFAULT | {"DRL304"}),
    ({"extend-ignore": ["DRL101"]}, {}, DEFAULT - {"DRL101"}),
    ({"ignore": ["DRL102"]}, {"ignore": ["DRL103"]}, DEFAULT - {"DRL102", "DRL103"}),
    ({"ignore": ["DRL102"]}, {"extend_ignore": ["DRL103"]}, DEFAULT - {"DRL102", "DRL103"}),
    ({"ignore": ["DRL102"]}, {"select": ["DRL1"]}, family("DRL1")),
    ({"extend-select": ["DRL304"]}, {"select": ["DRL1"]}, family("DRL1")),
    ({"ignore": ["DRL102"]}, {"extend_select": ["DRL102"]}, DEFAULT),
    ({"select": ["DRL2"]}, {"extend_select": ["DRL101"]}, family("DRL2") | {"DRL101"}),
    ({}, {"select": ["ALL"]}, ALL),
    ({}, {"select": ["ALL"], "ignore": ["DRL1"]}, ALL - family("DRL1")),
    ({}, {"select": ["DRL101"], "ignore": ["ALL"]}, frozenset({"DRL101"})),
]


@pytest.mark.parametrize(("file", "flags", "expected"), ROWS)
def test_precedence_table_row(
    file: dict[str, list[str]],
    flags: dict[str, list[str]],
    expected: frozenset[str],
    tmp_path: Path,
) -> None:
    lines = ["[tool.dagroute-lint]"] + [f"{key} = {value!r}" for key, value in file.items()]
    (tmp_path / "pyproject.toml").write_text("\n".join(lines).replace("'", '"') + "\n")
    settings = load_settings(None, tmp_path).with_overrides(**flags)  # type: ignore[arg-type]
    assert settings.selected_codes() == expected


def test_every_row_of_the_table_is_in_the_configuration_page() -> None:
    page = Path(__file__).resolve().parents[1] / "docs" / "configuration.md"
    table = page.read_text(encoding="utf-8").split("<!-- selection table -->\n")[1]
    table = table.split("\n\n")[0].splitlines()
    assert len(table) - 2 == len(ROWS)  # one line per row, besides the header and its rule


def test_unknown_selectors_name_where_they_came_from(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.dagroute-lint]\nextend-ignore = ["DRL99"]\n')
    with pytest.raises(ConfigError, match=r"pyproject.toml: tool.dagroute-lint ignore"):
        load_settings(None, tmp_path)
    with pytest.raises(ConfigError, match=r"unknown rule selector 'XYZ' in the command line"):
        Settings(root=tmp_path).with_overrides(extend_select=["XYZ"])


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("dags/**/*.py", "dags/top.py", True),  # `**/` matches no folder at all too
        ("dags/**/*.py", "dags/a/b/deep.py", True),
        ("dags/**/*.py", "other/dags/top.py", False),  # anchored at the project root
        ("dags/legacy.py", "other/dags/legacy.py", False),  # never matched from the right
        ("dags/legacy.py", "dags/legacy.py", True),
        ("dags/*.py", "dags/a/b.py", True),  # globset: `*` crosses `/` too
        ("test_*.py", "deep/down/test_x.py", True),  # no `/`: matched against the name
        ("**/generated/*", "dags/generated/x.py", True),
        ("dags/{a,b}.py", "dags/b.py", True),
        ("dags/[!a]*.py", "dags/a1.py", False),
        ("dags/[!a]*.py", "dags/b1.py", True),
        ("dags/?.py", "dags/x.py", True),
        ("./dags/*.py", "dags/x.py", True),
    ],
)
def test_per_file_ignore_globs_follow_globset(
    pattern: str, path: str, matches: bool, tmp_path: Path
) -> None:
    glob = project_glob(pattern, tmp_path, "test")
    assert glob.matches(tmp_path / path) is matches


def test_a_broken_glob_is_a_config_error_naming_the_key(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.dagroute-lint.per-file-ignores]\n"dags/[ab.py" = ["DRL101"]\n'
    )
    with pytest.raises(ConfigError, match=r"per-file-ignores.dags/\[ab.py: unclosed character"):
        load_settings(None, tmp_path)


def test_per_file_ignores_through_a_run(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.dagroute-lint.per-file-ignores]\n"dags/**/*.py" = ["DRL1"]\n'
    )
    settings = load_settings(None, tmp_path)
    assert settings.ignored_for(tmp_path / "dags" / "top.py") == family("DRL1")
    assert settings.ignored_for(tmp_path / "elsewhere" / "dags" / "top.py") == frozenset()
