"""Each rule's diagnostics say, as facts, what their messages say: kind, item, tasks, workers.

The kinds are written here once more, by hand, as the rules' specification (``DRL302`` reports a
pool too small and slots below 1, a parse error); ``DRLnnn/facts.json`` pins the whole facts of
every bad case, rewritten with ``--update-snapshots`` like the text snapshots; and every fact is
checked against the message of its own diagnostic, so a rule that passed one value and worded
another would fail here whatever the snapshot says.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import pytest

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.formatters.json import facts_object
from dagroute_lint.rules import RULES, AnyRule
from tests.rules.test_fixtures import CASES, FACTS, HERE, Case, diagnostics_of

# code -> the kinds its reports are of, and whether every one of them names an item.
EXPECTED: dict[str, tuple[frozenset[str], bool]] = {
    "DRL001": (frozenset({"parse"}), False),
    "DRL002": (frozenset({"parse"}), True),
    "DRL003": (frozenset({"parse"}), True),
    "DRL004": (frozenset({"parse"}), False),  # a positional argument names none
    "DRL005": (frozenset({"parse"}), True),
    "DRL006": (frozenset({"parse"}), True),
    "DRL007": (frozenset({"parse"}), True),
    "DRL008": (frozenset({"parse"}), True),
    "DRL009": (frozenset({"parse"}), True),
    "DRL010": (frozenset({"parse"}), True),
    "DRL011": (frozenset({"parse"}), True),
    "DRL012": (frozenset({"parse"}), True),
    "DRL101": (frozenset({"queue"}), True),
    "DRL102": (frozenset({"queue"}), True),
    "DRL103": (frozenset({"executor"}), True),
    "DRL104": (frozenset({"routing"}), True),
    "DRL105": (frozenset({"routing"}), True),
    "DRL106": (frozenset({"unmodelled"}), False),
    "DRL201": (frozenset({"provider"}), True),
    "DRL202": (frozenset({"provider"}), True),
    "DRL203": (frozenset({"package"}), True),
    "DRL204": (frozenset({"airflow-version"}), True),
    "DRL205": (frozenset({"package"}), True),
    "DRL206": (frozenset({"module"}), True),
    "DRL301": (frozenset({"pool"}), True),
    "DRL302": (frozenset({"pool", "parse"}), True),
    "DRL303": (frozenset({"triggerer"}), False),
    "DRL304": (frozenset({"triggerer"}), False),
    "DRL401": (frozenset({"credential"}), True),
    "DRL402": (frozenset({"connection"}), True),
    "DRL501": (frozenset({"executor"}), False),
    "DRL901": (frozenset({"suppression"}), True),
    # The item is the inventory key left unset (``runtimes.base.providers``).
    "DRL902": (frozenset({"provider", "package", "triggerer", "airflow-version"}), True),
}
BAD = [case for case in CASES if case.kind == "bad"]
# A value longer than this may be shown cut short ("...") in a message.
SHOWN_WHOLE = 60


def reported(case: Case) -> list[Diagnostic]:
    return [d for d in diagnostics_of(case) if d.code == case.code]


def snapshot(diagnostics: Iterable[Diagnostic]) -> list[dict[str, object]]:
    return [{"at": f"{d.path}:{d.line}:{d.column}", **facts_object(d.facts)} for d in diagnostics]


def test_every_rule_has_its_kinds_written_here() -> None:
    assert set(EXPECTED) == {rule.code for rule in RULES}


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
def test_a_rule_reports_its_kinds_and_items(rule: AnyRule) -> None:
    kinds, item_always = EXPECTED[rule.code]
    found = [d for case in BAD if case.code == rule.code for d in reported(case)]
    assert found, f"{rule.code} reports nothing in its bad cases"
    assert {d.facts.kind for d in found} == kinds
    if item_always:
        assert [d.message for d in found if d.facts.item is None] == []
    else:
        assert any(d.facts.item is None for d in found)


@pytest.mark.parametrize("case", BAD, ids=lambda case: case.id)
def test_facts_snapshot(case: Case, update_snapshots: bool) -> None:
    path = HERE / case.code / FACTS
    pinned = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    actual = snapshot(reported(case))
    if update_snapshots and pinned.get(case.name) != actual:
        pinned[case.name] = actual
        path.write_text(json.dumps(dict(sorted(pinned.items())), indent=2) + "\n", "utf-8")
    assert case.name in pinned, f"{case.id} has no facts snapshot; run with --update-snapshots"
    assert pinned[case.name] == actual


def test_facts_snapshots_hold_only_bad_cases() -> None:
    for folder in sorted(HERE.glob("DRL*")):
        path = folder / FACTS
        names = set(json.loads(path.read_text(encoding="utf-8"))) if path.is_file() else set()
        assert names == {case.name for case in BAD if case.code == folder.name}, folder.name


def shown(value: str, message: str) -> bool:
    """Whether ``message`` shows ``value``, whole or (a long one) cut short."""
    return value in message or (len(value) > SHOWN_WHOLE and value[:50] in message)


@pytest.mark.parametrize("case", BAD, ids=lambda case: case.id)
def test_facts_are_what_the_message_says(case: Case) -> None:
    for d in reported(case):
        facts, message = d.facts, d.message
        # A label cut short ("task 'a-very-long-id..."): what followed the cut is not shown.
        cut = "..." in message
        # DRL105 names several fields at once: "its queue and pool", item "queue, pool".
        for part in (facts.item or "").split(", "):
            assert shown(part, message), (part, message)
        if facts.tasks:
            _, task_id = facts.tasks[0]  # grouped messages name the first tasks
            assert task_id is None or shown(f"'{task_id}'", message), (task_id, message)
        if len(facts.tasks) == 1:
            assert (facts.dag_id, facts.task_id) == facts.tasks[0]
        else:
            assert facts.task_id is None
        if facts.dag_id is not None and not cut:
            assert f"'{facts.dag_id}'" in message, (facts.dag_id, message)
        for worker, runtime in facts.workers:
            assert f"'{worker}' (runtime '{runtime}')" in message, (worker, message)
        if facts.runtime is not None:
            assert f"runtime '{facts.runtime}'" in message, (facts.runtime, message)
