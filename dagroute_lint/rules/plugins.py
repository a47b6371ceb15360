"""Third-party rule packs, registered through the ``dagroute_lint.rules`` entry point group.

The contract for a rule pack:

- In its ``pyproject.toml``::

      [project.entry-points."dagroute_lint.rules"]
      acme = "acme_rules:RULES"

- The object the entry point names is a rule or an iterable of them: a
  ``dagroute_lint.rules.Rule``, whose ``check(context)`` runs on every file and sees the inventory
  when there is one (else ``None``), or a ``dagroute_lint.rules.DeploymentRule``, which runs only
  with an inventory and whose context's ``inventory`` is never ``None``. A check yields what
  ``context.report(position, message)`` returns: the context is bound to the rule, so each
  diagnostic carries the rule's own code and severity. A check may pass facts by keyword
  (``kind="pool", item=pool, task=task``, see ``Context.report``); a report without them is of
  kind "other", and is counted as such by the acceptance reports.
- Codes are letters then digits (``ACME101``), so that ``--select ACME``, ``--ignore ACME101``,
  ``per-file-ignores`` and ``# noqa: ACME101`` work as for the built-in rules. The ``DRL`` prefix
  belongs to the built-in rules.

A pack that fails to import, names something that is not a rule, reuses a code, whose check
raises, or that yields a diagnostic under another code than its rule's is an error (exit 2) naming
the entry point and its distribution: a lint run that silently dropped an installed rule pack
would report a clean result that nobody asked for, and one that reported under a built-in code
would pass off its findings as ours.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Generic

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.errors import ConfigError
from dagroute_lint.records import record, replace
from dagroute_lint.rules.base import RULE_TYPES, AnyRule, C, Rule

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

ENTRY_POINT_GROUP = "dagroute_lint.rules"
BUILTIN_PREFIX = "DRL"
_CODE = re.compile(r"[A-Z]+[0-9]+")


@record
class PluginRule:
    """A rule from a pack, and where it came from: entry point and distribution."""

    rule: AnyRule
    origin: str


@record
class _GuardedCheck(Generic[C]):
    """A plugin's check that turns its crash, or a diagnostic under another code than its own,
    into an error naming the rule pack and the file."""

    check: Callable[[C], Iterator[Diagnostic]]
    code: str
    origin: str

    def __call__(self, context: C) -> Iterator[Diagnostic]:
        for diagnostic in self._unguarded(context):
            if diagnostic.code != self.code:
                raise ConfigError(
                    f"rule {self.code} from plugin {self.origin} reported code {diagnostic.code} "
                    f"on {context.module.path}; a rule reports only its own code, through "
                    "context.report()"
                )
            yield diagnostic

    def _unguarded(self, context: C) -> Iterator[Diagnostic]:
        try:
            yield from self.check(context)
        except Exception as error:
            raise ConfigError(
                f"rule {self.code} from plugin {self.origin} failed on {context.module.path}: "
                f"{type(error).__name__}: {error}"
            ) from error


def discover_entry_points() -> Sequence[EntryPoint]:
    """The installed ``dagroute_lint.rules`` entry points, in a stable order.

    ``importlib.metadata`` reads the metadata of every installed distribution, which costs a
    one-file lint more than its rules do; it is asked only when some distribution's
    ``entry_points.txt`` names the group at all (``may_declare_rules``).
    """
    if not may_declare_rules(sys.path):
        return ()
    from importlib.metadata import entry_points

    return sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: (ep.name, ep.value))


def may_declare_rules(path: Sequence[str]) -> bool:
    """Whether a distribution on ``path`` may register rules: false only when every entry is a
    folder (or missing) and no ``*.dist-info`` or ``*.egg-info`` in them has an
    ``entry_points.txt`` naming the group. Read afresh every run, so a pack installed a moment
    ago is found; a zip or egg on the path, or a finder that lists distributions of its own,
    sends the question to ``importlib.metadata``.
    """
    if any(_lists_distributions(finder) for finder in sys.meta_path):
        return True
    for entry in path:
        try:
            listing = os.scandir(entry or ".")
        except NotADirectoryError:
            return True
        except OSError:
            continue
        with listing:
            for item in listing:
                if item.name.endswith((".dist-info", ".egg-info")) and _names_group(item.path):
                    return True
    return False


def _lists_distributions(finder: object) -> bool:
    """A finder with distributions of its own (the standard path finder reads the folders)."""
    from importlib.machinery import PathFinder

    return finder is not PathFinder and hasattr(finder, "find_distributions")


def _names_group(distribution: str) -> bool:
    try:
        with open(os.path.join(distribution, "entry_points.txt"), "rb") as declared:
            return ENTRY_POINT_GROUP.encode() in declared.read()
    except OSError:
        return False


def load_plugin_rules(
    builtin: Sequence[AnyRule], found: Iterable[EntryPoint] | None = None
) -> tuple[PluginRule, ...]:
    """Load every rule pack; ``ConfigError`` for a broken one or a code used twice."""
    taken = {rule.code: "the built-in rules" for rule in builtin}
    loaded: list[PluginRule] = []
    for entry_point in discover_entry_points() if found is None else found:
        origin = _origin(entry_point)
        for rule in _rules_of(entry_point, origin):
            if not _CODE.fullmatch(rule.code):
                raise ConfigError(
                    f"plugin {origin}: rule code {rule.code!r} must be capital letters then "
                    "digits, such as ACME101"
                )
            if rule.code in taken:
                raise ConfigError(
                    f"plugin {origin}: rule code {rule.code} is already used by {taken[rule.code]}"
                )
            if rule.code.startswith(BUILTIN_PREFIX):
                raise ConfigError(
                    f"plugin {origin}: rule code {rule.code}: the {BUILTIN_PREFIX} prefix is "
                    "reserved for the built-in rules"
                )
            taken[rule.code] = f"plugin {origin}"
            loaded.append(PluginRule(_guarded(rule, origin), origin))
    return tuple(loaded)


def _guarded(rule: AnyRule, origin: str) -> AnyRule:
    # Two branches of one line: each kind of rule keeps its own kind of context.
    if isinstance(rule, Rule):
        return replace(rule, check=_GuardedCheck(rule.check, rule.code, origin))
    return replace(rule, check=_GuardedCheck(rule.check, rule.code, origin))


def _origin(entry_point: EntryPoint) -> str:
    text = f"'{entry_point.name} = {entry_point.value}'"
    distribution = getattr(entry_point, "dist", None)
    if distribution is not None:
        text += f" ({distribution.name} {distribution.version})"
    return text


def _rules_of(entry_point: EntryPoint, origin: str) -> list[AnyRule]:
    try:
        value = entry_point.load()
    except Exception as error:
        raise ConfigError(
            f"plugin {origin} failed to load: {type(error).__name__}: {error}"
        ) from None
    if isinstance(value, RULE_TYPES):
        items: list[object] = [value]
    elif isinstance(value, Iterable) and not isinstance(value, (str, bytes)):
        items = list(value)
    else:
        raise ConfigError(
            f"plugin {origin}: expected a dagroute_lint.rules.Rule or DeploymentRule or an "
            f"iterable of them, got {type(value).__name__}"
        )
    rules: list[AnyRule] = []
    for index, item in enumerate(items):
        if not isinstance(item, RULE_TYPES):
            raise ConfigError(
                f"plugin {origin}: item {index} is not a dagroute_lint.rules.Rule or "
                f"DeploymentRule ({type(item).__name__})"
            )
        if not callable(item.check):
            raise ConfigError(f"plugin {origin}: rule {item.code}: check is not callable")
        rules.append(item)
    return rules
