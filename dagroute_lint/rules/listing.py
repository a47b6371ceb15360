"""What the command line says about rules: the list of rules, and one rule's page."""

from __future__ import annotations

import json

from dagroute_lint.errors import ConfigError
from dagroute_lint.rules import AnyRule
from dagroute_lint.rules.pages import page_text
from dagroute_lint.rules.registry import all_rules, plugin_origin
from dagroute_lint.wording import close_matches


def rule_listing(output_format: str) -> str:
    """Every rule, plugins' too (with the entry point they come from), as aligned text lines or
    as a JSON array for scripts."""
    rules = all_rules()
    if output_format == "json":
        items = [
            {
                "code": rule.code,
                "name": rule.name,
                "boundary": rule.boundary,
                "severity": rule.severity,
                "needs_inventory": rule.needs_inventory,
                "default_enabled": rule.default_enabled,
                "summary": rule.summary,
                "plugin": plugin_origin(rule.code),
            }
            for rule in rules
        ]
        return json.dumps(items, indent=2) + "\n"
    return "".join(
        f"{rule.code}  {rule.name:<28} {rule.boundary:<9} {rule.summary}"
        f"{'' if rule.default_enabled else ' (opt-in)'}{_origin(rule)}\n"
        for rule in rules
    )


def _origin(rule: AnyRule) -> str:
    origin = plugin_origin(rule.code)
    return f" [plugin {origin}]" if origin else ""


def explain(query: str) -> str:
    """The page of the rule named by ``query`` (a code, any case, or a rule name)."""
    rule = _find(query)
    text = page_text(rule.code)
    if text is None:
        raise ConfigError(f"{rule.code} ({rule.name}) has no page in this installation")
    return text if text.endswith("\n") else text + "\n"


def _find(query: str) -> AnyRule:
    wanted = query.strip()
    rules = all_rules()
    for rule in rules:
        if wanted.upper() == rule.code or wanted.lower() == rule.name:
            return rule
    unknown = f"unknown rule '{query}'"
    family = sorted(rule.code for rule in rules if wanted and rule.code.startswith(wanted.upper()))
    if family:
        codes = family[0] if len(family) == 1 else f"{family[0]}..{family[-1]}"
        raise ConfigError(
            f"{unknown}: it is a prefix of {codes}; explain takes one rule's code or name"
        )
    keys = {rule.code: rule.code for rule in rules} | {rule.name: rule.code for rule in rules}
    close = close_matches(wanted.upper(), keys, limit=3) + close_matches(wanted, keys, limit=3)
    suggestions = list(dict.fromkeys(keys[match] for match in close))[:3]
    hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
    raise ConfigError(f"{unknown}{hint} (`dagroute-lint rules` lists every rule)")
