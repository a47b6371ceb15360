"""Which rules run: select, extend-select and ignore resolved across layers as ruff does."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dagroute_lint.errors import ConfigError
from dagroute_lint.records import record
from dagroute_lint.rules.registry import all_rules
from dagroute_lint.wording import did_you_mean

ALL = "ALL"


@record
class RuleSelection:
    """The selectors of one layer (the settings file, or the command line).

    ``select`` empty means "not given": the layer only adjusts what the layers before it chose.
    ``ignore`` holds ``ignore`` and ``extend-ignore`` together, as ruff merges them.
    """

    select: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    where: str = "the command line"

    def check(self) -> None:
        """Reject an unknown selector now, naming the layer it came from."""
        for key, selectors in (
            ("select", self.select),
            ("extend-select", self.extend_select),
            ("ignore", self.ignore),
        ):
            for selector in selectors:
                expand(selector, f"{self.where} {key}")


def resolve_selection(layers: Sequence[RuleSelection]) -> frozenset[str]:
    """The codes that run after applying ``layers`` in order (later layers win).

    Within a layer, selectors apply from the least specific (``ALL``) to the most specific (a
    full code), ignores after selects of the same specificity: ``select = ["DRL1"]`` with
    ``ignore = ["DRL102"]`` runs DRL1 but DRL102, ``ignore = ["DRL1"]`` with ``select =
    ["DRL102"]`` runs DRL102. A layer with ``select`` starts afresh; one without adjusts the
    codes chosen so far, so a command-line ``--extend-select`` re-enables a code the settings
    ignore. Opt-in rules are left out of the default set, never out of a selector's reach.
    """
    chosen = {rule.code for rule in all_rules() if rule.default_enabled}
    for layer in layers:
        updates: dict[str, bool] = {}
        selects = [(s, True) for s in (*layer.select, *layer.extend_select)]
        ignores = [(s, False) for s in layer.ignore]
        for selector, on in sorted(
            (*selects, *ignores), key=lambda item: (_specificity(item[0]), item[1] is False)
        ):
            for code in expand(selector, f"{layer.where}"):
                updates[code] = on
        if layer.select:
            chosen = {code for code, on in updates.items() if on}
        else:
            chosen |= {code for code, on in updates.items() if on}
            chosen -= {code for code, on in updates.items() if not on}
    return frozenset(chosen)


def _specificity(selector: str) -> int:
    """``ALL`` is the least specific selector; a longer prefix is more specific."""
    wanted = selector.strip().upper()
    return 0 if wanted == ALL else len(wanted)


def expand(selector: str, where: str) -> frozenset[str]:
    """The codes a selector names (``ALL``, a prefix such as ``DRL1``, or a code)."""
    codes = [rule.code for rule in all_rules()]
    wanted = selector.strip().upper()
    if wanted == ALL:
        return frozenset(codes)
    matches = frozenset(code for code in codes if wanted and code.startswith(wanted))
    if not matches:
        suggestion = did_you_mean(wanted, codes, quote=str)
        raise ConfigError(
            f"unknown rule selector '{selector}' in {where} (see `dagroute-lint rules`){suggestion}"
        )
    return matches


def expand_all(selectors: Iterable[str], where: str) -> frozenset[str]:
    """The codes any of ``selectors`` names."""
    return frozenset(code for selector in selectors for code in expand(selector, where))
