"""Cluster policies applied to a resolved task: the routing layer above the DAG file's.

``extract/policies.py`` reads ``airflow_local_settings``'s hooks as effects under conditions on
the task; this applies them, in Airflow's order (``dag_policy``, ``task_policy``, then
``task_instance_mutation_hook``), to the values the DAG file gives the task. A condition is
decided on what the resolver knows of the task (its ids, owner, class, and its routing as the
effects before have left it): an effect that certainly applies sets the field, with the hook
and its line as the field's origin; one that may apply makes the field one of its old and new
values, unknown with "a cluster policy may change it (airflow_local_settings.py:LINE)"; an
effect whose value cannot be known leaves the field unknown. A ``raise`` that may reach the task
makes its DAG one Airflow may drop (``bag_dag`` rejects the whole DAG): its tasks are
conditional. The mutation hook runs when the scheduler creates the task instance, so the parsed
task never shows it; its change is the task's routing all the same, and shown the same way.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable

from dagroute_lint.catalog.operator_classes import class_chain
from dagroute_lint.model import (
    LEGACY_TASK_POLICY,
    ClusterPolicy,
    Condition,
    Position,
    Ref,
    SeqExpr,
    Site,
)
from dagroute_lint.records import record
from dagroute_lint.resolve.values import Resolved, SymbolTable, Unresolved, candidates, choices

# The fields an effect on ``*`` (a statement the policy runs on the task, not followed) reaches.
POLICY_FIELDS = ("queue", "executor", "pool", "pool_slots")


@record
class SettingsPolicy:
    """The cluster policy of the run, and the file it is read from (as the run shows it)."""

    path: str
    policy: ClusterPolicy


@record
class PolicyStep:
    """An effect of a cluster policy that reached a task's ``field``: the hook, where it is
    written, whether it certainly applied (otherwise it may have), and the value it sets (for
    ``reject``, the exception's name)."""

    field: str
    hook: str
    site: Site
    certain: bool
    value: Resolved = Unresolved("")

    @property
    def label(self) -> str:
        """``task_policy (config/airflow_local_settings.py:7)``: the layer, as ``routes`` and
        ``trace`` name it (``Field.origin``)."""
        return f"{self.hook} ({self.site.path}:{self.site.position.line})"


@record
class Attribute:
    """What the resolver knows of one task attribute a condition tests: its values (one when
    known, several when it is one of them), or ``None`` when it cannot be known."""

    values: tuple[object, ...] | None


def known(value: object) -> Attribute:
    return Attribute((value,))


UNKNOWN = Attribute(None)


@record
class Subject:
    """The task as a policy sees it: the attributes the resolver knows, the routing fields as
    ``Resolved`` values (changed by each effect applied), and its class for ``isinstance``
    (``classes``: every class name it is an instance of, ``None`` when not known)."""

    attributes: dict[str, Attribute]
    routing: dict[str, Resolved]
    classes: frozenset[str] | None


@record
class Outcome:
    """What the policy did to one task: its routing, each effect that reached it, and whether
    Airflow may drop its DAG (``rejected``, with the effect's line), or certainly does."""

    routing: dict[str, Resolved]
    steps: tuple[PolicyStep, ...]
    rejected: PolicyStep | None = None


def apply_policy(
    settings: SettingsPolicy, subject: Subject, symbols: SymbolTable, airflow_major: int
) -> Outcome:
    """The effects of the run's cluster policy on the task ``subject``, under Airflow
    ``airflow_major`` (3.x no longer runs a ``policy`` function as ``task_policy``)."""
    routing = dict(subject.routing)
    steps: list[PolicyStep] = []
    rejected: PolicyStep | None = None
    path = settings.path
    for effect in settings.policy.effects:
        if effect.hook == LEGACY_TASK_POLICY and airflow_major >= 3:
            continue
        applies = decide(effect.when, subject, routing, symbols)
        if applies is False:
            continue
        site = Site(path, Position(effect.line, 1))
        certain = applies is True
        value = symbols.evaluate(effect.value)
        if effect.field == "reject":
            rejected = PolicyStep("reject", effect.hook, site, certain, value)
            if certain:
                break  # the exception ends the hooks: Airflow drops the DAG
            continue
        names = POLICY_FIELDS if effect.field == "*" else (effect.field,)
        for name in names:
            routing[name] = _changed(routing[name], value, site, certain)
            steps.append(PolicyStep(name, effect.hook, site, certain, value))
    return Outcome(routing, tuple(steps), rejected)


# How the reason of a field a cluster policy leaves unknown begins.
POLICY_CAUSE = "a cluster policy"


def may_change(path: str, line: int) -> str:
    """The reason of a field a policy may or may not change."""
    return f"{POLICY_CAUSE} may change it ({os.path.basename(path)}:{line})"


def _changed(before: Resolved, new: Resolved, site: Site, certain: bool) -> Resolved:
    """A field ``before`` an effect that sets it to ``new`` (``certain``: it surely applies)."""
    where = f"{os.path.basename(site.path)}:{site.position.line}"
    if isinstance(new, Unresolved) and not new.candidates:
        how = "changes" if certain else "may change"
        # placed at the policy: one cause, said once for every task it reaches (DRL105)
        return Unresolved(f"{POLICY_CAUSE} {how} it ({where}): {new.reason}", at=site)
    if certain:
        if isinstance(new, Unresolved):
            return Unresolved(
                f"{POLICY_CAUSE} sets it to one of several values ({where})", new.candidates
            )
        return new
    old, values = choices(before), choices(new)
    reason = may_change(site.path, site.position.line)
    if old is None or values is None:
        return Unresolved(reason, at=site)
    return candidates([*old, *values], reason)


# --- conditions ----------------------------------------------------------------------------


def decide(
    condition: Condition,
    subject: Subject,
    routing: dict[str, Resolved],
    symbols: SymbolTable,
) -> bool | None:
    """Whether ``condition`` holds for the task (``None``: it cannot be decided)."""
    op = condition.op
    if op in ("true", "false"):
        return op == "true"
    if op == "unknown":
        return None
    if op == "not":
        inner = decide(condition.parts[0], subject, routing, symbols)
        return None if inner is None else not inner
    if op in ("and", "or"):
        found = [decide(part, subject, routing, symbols) for part in condition.parts]
        stop = op == "or"  # the value that decides alone: True for ``or``, False for ``and``
        if stop in found:
            return stop
        return None if None in found else not stop
    return _test(condition, subject, routing, symbols)


def _test(
    condition: Condition,
    subject: Subject,
    routing: dict[str, Resolved],
    symbols: SymbolTable,
) -> bool | None:
    if condition.test == "isinstance":
        return _isinstance(condition, subject)
    attribute = _attribute(condition.attribute, subject, routing)
    if attribute.values is None:
        return None
    operands: list[object] = [None]
    if condition.operand is not None:
        found = choices(symbols.evaluate(condition.operand))
        if found is None:
            return None
        operands = found
    results = {
        _holds(condition.test, value, operand)
        for value, operand in itertools.product(attribute.values, operands)
    }
    return results.pop() if len(results) == 1 else None


def _attribute(name: str, subject: Subject, routing: dict[str, Resolved]) -> Attribute:
    if name in routing:
        values = choices(routing[name])
        return Attribute(tuple(values) if values is not None else None)
    return subject.attributes.get(name, UNKNOWN)


_TESTS: dict[str, Callable[[object, object], object]] = {
    "eq": lambda value, operand: value == operand,
    "ne": lambda value, operand: value != operand,
    "lt": lambda value, operand: value < operand,  # type: ignore[operator]
    "le": lambda value, operand: value <= operand,  # type: ignore[operator]
    "gt": lambda value, operand: value > operand,  # type: ignore[operator]
    "ge": lambda value, operand: value >= operand,  # type: ignore[operator]
    "in": lambda value, operand: value in operand,  # type: ignore[operator]
    "not_in": lambda value, operand: value not in operand,  # type: ignore[operator]
    "contains": lambda value, operand: operand in value,  # type: ignore[operator]
    "not_contains": lambda value, operand: operand not in value,  # type: ignore[operator]
    "startswith": lambda value, operand: value.startswith(operand),  # type: ignore[attr-defined]
    "endswith": lambda value, operand: value.endswith(operand),  # type: ignore[attr-defined]
    "truth": lambda value, _operand: bool(value),
    "is_none": lambda value, _operand: value is None,
    "is_not_none": lambda value, _operand: value is not None,
}


def _holds(test: str, value: object, operand: object) -> bool | None:
    """The test on known values, as Python computes it (``None`` where Python would raise,
    which the policy's own run would make an import error: not decided here)."""
    if isinstance(operand, list):
        operand = tuple(operand)
    try:
        return bool(_TESTS[test](value, operand))
    except (TypeError, AttributeError):
        return None


def _isinstance(condition: Condition, subject: Subject) -> bool | None:
    operand = condition.operand
    assert isinstance(operand, SeqExpr)
    wanted = {item.qualname.rsplit(".", 1)[-1] for item in operand.items if isinstance(item, Ref)}
    if subject.classes is None:
        return None
    return bool(wanted & subject.classes)


def operator_classes(
    operator: str | None, major: int, symbols: SymbolTable, canonical: Callable[[str], str]
) -> frozenset[str] | None:
    """Every class name an instance of ``operator`` (as Airflow ``major`` holds it) is an
    instance of, where its whole chain is known: from the table (``task.<kind>`` for the class
    a TaskFlow decorator builds), through the repository's own classes. ``None`` for a class
    not known (a mapped task is a ``MappedOperator``, no instance of it: the caller passes
    ``None`` for one).
    ``canonical`` names an Airflow class by the path Airflow holds it under (a 3.x shim)."""
    if operator is None:
        return None
    names: set[str] = set()
    pending = [operator]
    seen: set[str] = set()
    while pending:
        qualname = pending.pop()
        if qualname in seen:
            continue
        seen.add(qualname)
        info = symbols.class_info(qualname)
        if info is not None:
            names.add(qualname.rsplit(".", 1)[-1])
            pending.extend(info.bases)
            continue
        chain = class_chain(canonical(qualname), major)
        if chain is None:
            return None
        names.update(chain)
    return frozenset(names)
