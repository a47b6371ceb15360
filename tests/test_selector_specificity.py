"""Selectors apply from the least specific to the most: ``ALL`` (in any case) comes before even
a one-letter prefix, and an unknown selector's error suggests the code it was likely meant to be."""

from __future__ import annotations

from pathlib import Path

import pytest

from dagroute_lint.config import Settings
from dagroute_lint.errors import ConfigError
from dagroute_lint.rules import RULES

ALL = frozenset(rule.code for rule in RULES)


@pytest.mark.parametrize(
    ("select", "ignore", "expected"),
    [
        (["D"], ["ALL"], ALL),  # a one-letter prefix is more specific than ALL
        (["DRL"], ["all"], ALL),  # `all` is ALL
        (["all"], ["D"], frozenset()),
    ],
)
def test_all_is_the_least_specific_selector(
    select: list[str], ignore: list[str], expected: frozenset[str], tmp_path: Path
) -> None:
    settings = Settings(root=tmp_path).with_overrides(select=select, ignore=ignore)
    assert settings.selected_codes() == expected


def test_an_unknown_selector_suggests_the_closest_code(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as raised:
        Settings(root=tmp_path).with_overrides(select=["DRL1O1"])
    assert str(raised.value) == (
        "unknown rule selector 'DRL1O1' in the command line select (see `dagroute-lint rules`); "
        "did you mean DRL101?"
    )
