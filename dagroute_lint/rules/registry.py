"""Every rule that can run: the built-in ``RULES`` followed by the installed rule packs.

Plugins are looked up once per process, on first use, so commands that never consult the rules
(``inventory``) do not pay for scanning installed distributions.
"""

from __future__ import annotations

import functools

from dagroute_lint.plugins import PluginRule, load_plugin_rules
from dagroute_lint.rules import RULES, Rule


@functools.cache
def plugin_rules() -> tuple[PluginRule, ...]:
    """The installed plugin rules (``ConfigError`` if a rule pack is broken)."""
    return load_plugin_rules(RULES)


def all_rules() -> tuple[Rule, ...]:
    """Built-in rules, then plugin rules in entry point order."""
    return RULES + tuple(plugin.rule for plugin in plugin_rules())


def rule_by_code(code: str) -> Rule | None:
    return next((rule for rule in all_rules() if rule.code == code), None)


def plugin_origin(code: str) -> str | None:
    """The entry point and distribution a plugin rule came from; ``None`` for a built-in."""
    return next((plugin.origin for plugin in plugin_rules() if plugin.rule.code == code), None)
