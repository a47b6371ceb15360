"""Every rule that can run: the built-in ``RULES`` followed by the installed rule packs.

Plugins are looked up once per process, on first use, so commands that never consult the rules
(``inventory``) do not pay for scanning installed distributions.
"""

from __future__ import annotations

import functools

from dagroute_lint.rules import RULES, AnyRule
from dagroute_lint.rules.plugins import PluginRule, load_plugin_rules


@functools.cache
def plugin_rules() -> tuple[PluginRule, ...]:
    """The installed plugin rules (``ConfigError`` if a rule pack is broken)."""
    return load_plugin_rules(RULES)


def all_rules() -> tuple[AnyRule, ...]:
    """Built-in rules, then plugin rules in entry point order."""
    return _everything(plugin_rules())[0]


def rule_by_code(code: str) -> AnyRule | None:
    return _everything(plugin_rules())[1].get(code)


def rule_name(code: str) -> str | None:
    """The rule's kebab-case name, for formats that print one beside each code."""
    rule = rule_by_code(code)
    return rule.name if rule is not None else None


def plugin_origin(code: str) -> str | None:
    """The entry point and distribution a plugin rule came from; ``None`` for a built-in."""
    return next((plugin.origin for plugin in plugin_rules() if plugin.rule.code == code), None)


@functools.cache
def _everything(
    plugins: tuple[PluginRule, ...],
) -> tuple[tuple[AnyRule, ...], dict[str, AnyRule]]:
    """The ordered rules and an index by code, built once for a given set of plugins: formats
    look a rule up for every diagnostic."""
    rules = RULES + tuple(plugin.rule for plugin in plugins)
    return rules, {rule.code: rule for rule in rules}
