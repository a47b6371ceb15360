"""Compare `dagroute-lint routes` output with Airflow's own parsed tasks, field by field.

Pure functions over the two JSON documents (``dump_airflow.py`` output and ``routes --format
json`` output), so the rules can be unit-tested without Airflow or the linter.

Per task, keyed by (file relative to the DAG folder, dag_id, task_id), each routing field is:

- ``exact``: routes holds Airflow's value (same type and value, ``null`` == ``None``);
- ``unresolved``: routes holds ``null`` and lists the field in the task's ``unresolved`` entries,
  and the (file, task_id, field) is on the allow-list of genuinely dynamic values;
- ``unexpected_unresolved``: the same, off the allow-list (a failure: the value was static);
- ``wrong``: anything else (a failure: a wrong value is worse than an honest ``null``).

A field routes leaves unresolved may carry the set of values it can take (``"candidates":
{"queue": ["nfs", "manager"]}``, for ``q = "nfs" if has_nfs else "manager"``): that set must hold
Airflow's value, or the field is ``wrong``; when it does, the field is ``candidates`` (no failure,
and no allow-list entry: the rules check every candidate, so nothing goes unchecked; an allow-list
entry for such a field is stale).

``operator`` and ``mapped`` are compared like the routing fields. routes prints an operator by
its public qualified name, which is the class's own module for classic operators (so the
comparison is plain equality: under Airflow 3 an ``airflow.operators.bash`` import must come out
as the standard provider's class, as Airflow holds it), and by its decorator (``task.python``)
for TaskFlow, where Airflow holds a private ``_...DecoratedOperator``: that one alias is mapped
through the table the dump reads from the installed Airflow (``taskflow_operators``).

Tasks only Airflow has are ``missing``. That fails unless a DRL106 diagnostic (``unmodelled-tasks``)
in the same file announces that tasks may be missing there (``missing_announced``). Tasks only
routes has are ``extra`` (a failure), except those routes marks ``conditional``: it said they
may not be created. An allow-list entry whose field is no longer unresolved (or whose task is
gone) is ``stale`` (a failure: the allow-list only ever shrinks by hand otherwise).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FIELDS: tuple[str, ...] = (
    "queue",
    "executor",
    "pool",
    "pool_slots",
    "deferrable",
    "operator",
    "mapped",
)

TaskKey = tuple[str, str, str]  # (file, dag_id, task_id)
UnresolvedKey = tuple[str, str, str]  # (file, task_id, field)

NO_REASON = "(no reason given)"
LIST_LIMIT = 25  # entries of each failure list shown in the text report


@dataclass
class CorpusReport:
    """The outcome for one corpus; ``ok`` is false when any failure category is non-empty."""

    corpus: str
    airflow_tasks: int = 0
    routes_tasks: int = 0
    compared: int = 0
    exact_tasks: int = 0
    exact_fields: int = 0
    unresolved_by_reason: dict[str, int] = field(default_factory=dict)
    unresolved: list[dict[str, Any]] = field(default_factory=list)
    candidates: list[dict[str, Any]] = field(default_factory=list)
    unexpected_unresolved: list[dict[str, Any]] = field(default_factory=list)
    wrong: list[dict[str, Any]] = field(default_factory=list)
    stale: list[dict[str, Any]] = field(default_factory=list)
    missing: list[dict[str, Any]] = field(default_factory=list)
    missing_announced: list[dict[str, Any]] = field(default_factory=list)
    extra: list[dict[str, Any]] = field(default_factory=list)
    extra_conditional: list[dict[str, Any]] = field(default_factory=list)
    duplicates: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def values_ok(self) -> bool:
        """No wrong, unexpected-unresolved, stale, extra or duplicate entry (missing aside)."""
        return not (
            self.unexpected_unresolved
            or self.wrong
            or self.stale
            or self.extra
            or self.duplicates
            or self.problems
        )

    @property
    def ok(self) -> bool:
        return self.values_ok and not self.missing

    @property
    def verdict(self) -> str:
        """OK; WRONG when a value, an allow-list entry or a duplicate is wrong (always a
        failure); else GAPS: what the evaluator does not know yet, which the tests hold to the
        exact list in ``open_gaps.json``."""
        if self.ok:
            return "OK"
        if self.wrong or self.stale or self.duplicates or self.problems:
            return "WRONG"
        return "GAPS"

    def to_dict(self) -> dict[str, Any]:
        return {
            "corpus": self.corpus,
            "ok": self.ok,
            "counts": self.counts(),
            "unresolved_by_reason": dict(sorted(self.unresolved_by_reason.items())),
            "unresolved": self.unresolved,
            "candidates": self.candidates,
            "unexpected_unresolved": self.unexpected_unresolved,
            "wrong": self.wrong,
            "stale": self.stale,
            "missing": self.missing,
            "missing_announced": self.missing_announced,
            "extra": self.extra,
            "extra_conditional": self.extra_conditional,
            "duplicates": self.duplicates,
            "problems": self.problems,
        }

    def counts(self) -> dict[str, int]:
        return {
            "airflow_tasks": self.airflow_tasks,
            "routes_tasks": self.routes_tasks,
            "compared": self.compared,
            "exact_tasks": self.exact_tasks,
            "exact_fields": self.exact_fields,
            "compared_fields": self.compared * len(FIELDS),
            "unresolved_fields": len(self.unresolved),
            "candidate_fields": len(self.candidates),
            "unexpected_unresolved_fields": len(self.unexpected_unresolved),
            "wrong_fields": len(self.wrong),
            "stale": len(self.stale),
            "missing": len(self.missing),
            "missing_announced": len(self.missing_announced),
            "extra": len(self.extra),
            "extra_conditional": len(self.extra_conditional),
            "duplicates": len(self.duplicates),
        }

    def render(self) -> str:
        c = self.counts()
        lines = [
            f"[{self.corpus}] {self.verdict}: {c['airflow_tasks']} Airflow tasks, "
            f"{c['routes_tasks']} routes tasks, {c['compared']} compared",
            f"  exact: {c['exact_tasks']} tasks, {c['exact_fields']}/{c['compared_fields']} fields",
            f"  unresolved (allowed): {c['unresolved_fields']} fields"
            + (
                " — " + ", ".join(f"{r}: {n}" for r, n in sorted(self.unresolved_by_reason.items()))
                if self.unresolved_by_reason
                else ""
            ),
            f"  candidates holding Airflow's value: {c['candidate_fields']} fields",
            f"  unresolved (NOT allowed): {c['unexpected_unresolved_fields']}   "
            f"wrong: {c['wrong_fields']}   stale allow-list: {c['stale']}   "
            f"missing: {c['missing']} (+{c['missing_announced']} announced by DRL106)   "
            f"extra: {c['extra']} (+{c['extra_conditional']} conditional)   "
            f"duplicates: {c['duplicates']}",
        ]
        for title, entries in (
            ("WRONG", self.wrong),
            ("UNRESOLVED, NOT ALLOWED", self.unexpected_unresolved),
            ("STALE ALLOW-LIST ENTRY", self.stale),
            ("MISSING, NOT ANNOUNCED BY DRL106", self.missing),
            ("EXTRA", self.extra),
            ("DUPLICATE", self.duplicates),
        ):
            for entry in entries[:LIST_LIMIT]:
                lines.append(f"  {title}: {_describe(entry)}")
            if len(entries) > LIST_LIMIT:
                lines.append(f"  {title}: ... {len(entries) - LIST_LIMIT} more")
        lines.extend(f"  PROBLEM: {p}" for p in self.problems)
        return "\n".join(lines)


def _describe(entry: Mapping[str, Any]) -> str:
    where = f"{entry.get('file')}::{entry.get('dag_id')}::{entry.get('task_id')}"
    if entry.get("line") is not None:
        where += f" (line {entry['line']}, id not resolved)"
    if "field" in entry:
        detail = (
            f" {entry['field']}: airflow={entry.get('airflow')!r} routes={entry.get('routes')!r}"
        )
        if entry.get("reason"):
            detail += f" ({entry['reason']})"
        return where + detail
    return where


def relative_file(file: str, folder: Path, cwd: Path) -> str:
    """``file`` as printed by routes (relative to ``cwd`` or absolute), relative to ``folder``."""
    path = Path(file)
    if not path.is_absolute():
        path = cwd / path
    try:
        return path.resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return file


def unresolved_fields(entries: Iterable[Any], reasons: Any = None) -> dict[str, str]:
    """Field -> reason from a routes task's ``unresolved`` list (and ``reasons`` mapping).

    The entries may be plain field names, with the reason in a ``reasons`` object keyed by
    field, or objects naming the field (``field``) and a reason (``reason`` or ``message``):
    all shapes are accepted so that the suite does not pin down more of the output than
    DESIGN §2.4 does.
    """
    reasons = reasons if isinstance(reasons, Mapping) else {}
    result: dict[str, str] = {}
    for entry in entries or ():
        if isinstance(entry, str):
            result[entry] = str(reasons.get(entry) or NO_REASON)
        elif isinstance(entry, Mapping):
            name = entry.get("field") or entry.get("name")
            if isinstance(name, str):
                reason = entry.get("reason") or entry.get("message") or NO_REASON
                result[name] = str(reason)
    return result


# DagBag imports a DAG file under a mangled module name (``unusual_prefix_<sha1>_<stem>``); routes
# names a class defined in a DAG file by the file's own module name.
_DAG_FILE_MODULE = re.compile(r"^unusual_prefix_[0-9a-f]{40}_")


def _same(name: str, airflow: Any, routes: Any, taskflow: Mapping[str, str]) -> bool:
    if name == "operator" and isinstance(routes, str) and isinstance(airflow, str):
        routes = taskflow.get(routes, routes)
        airflow = _DAG_FILE_MODULE.sub("", airflow)
    # Type-strict: pool_slots "2" or True must not pass for 2 or 1.
    return type(airflow) is type(routes) and airflow == routes


def compare(
    corpus: str,
    airflow_dump: Mapping[str, Any],
    routes_output: Mapping[str, Any],
    *,
    folder: Path,
    routes_cwd: Path,
    allowed_unresolved: Iterable[UnresolvedKey] = (),
    announcements: Mapping[str, list[str]] | None = None,
) -> CorpusReport:
    """Build the report for one corpus; see the module docstring for the categories.

    ``announcements`` maps a file (relative to the folder) to the DRL106 messages in it.
    """
    report = CorpusReport(corpus)
    allowed_unresolved_set = set(allowed_unresolved)
    announcements = announcements or {}
    taskflow = airflow_dump.get("taskflow_operators") or {}
    still_unresolved: set[UnresolvedKey] = set()
    values: dict[UnresolvedKey, dict[str, Any]] = {}

    airflow_tasks: dict[TaskKey, Mapping[str, Any]] = {}
    for task in airflow_dump.get("tasks", []):
        airflow_tasks[(task["file"], task["dag_id"], task["task_id"])] = task
    report.airflow_tasks = len(airflow_tasks)

    raw_tasks = routes_output.get("tasks")
    if not isinstance(raw_tasks, list):
        report.problems.append("routes output has no 'tasks' list")
        raw_tasks = []
    routes_tasks: dict[TaskKey, Mapping[str, Any]] = {}
    unnamed: list[dict[str, Any]] = []
    for task in raw_tasks:
        if not isinstance(task, Mapping) or not isinstance(task.get("file"), str):
            report.problems.append(f"routes task without a file: {task!r}"[:300])
            continue
        file = relative_file(task["file"], folder, routes_cwd)
        dag_id, task_id = task.get("dag_id"), task.get("task_id")
        if not isinstance(dag_id, str) or not isinstance(task_id, str):
            # A task whose id routes could not work out matches no Airflow task: it is extra
            # (and the Airflow task it stands for, if any, is missing).
            unnamed.append(
                {"file": file, "dag_id": dag_id, "task_id": task_id, "line": task.get("line")}
            )
            continue
        key = (file, dag_id, task_id)
        if key in routes_tasks:
            report.duplicates.append({"file": key[0], "dag_id": key[1], "task_id": key[2]})
            continue
        routes_tasks[key] = task
    report.routes_tasks = len(routes_tasks) + len(unnamed)

    unresolved_reasons: Counter[str] = Counter()
    for key in sorted(airflow_tasks.keys() | routes_tasks.keys()):
        file, dag_id, task_id = key
        ident = {"file": file, "dag_id": dag_id, "task_id": task_id}
        if key not in routes_tasks:
            if announcements.get(file):
                report.missing_announced.append({**ident, "drl106": announcements[file]})
            else:
                report.missing.append(ident)
            continue
        if key not in airflow_tasks:
            if routes_tasks[key].get("conditional") is True:
                report.extra_conditional.append(ident)
            else:
                report.extra.append(ident)
            continue
        expected, actual = airflow_tasks[key], routes_tasks[key]
        unresolved = unresolved_fields(actual.get("unresolved") or (), actual.get("reasons"))
        raw_candidates = actual.get("candidates")
        candidates = raw_candidates if isinstance(raw_candidates, Mapping) else {}
        report.compared += 1
        task_exact = True
        for name in FIELDS:
            want, got = expected.get(name), actual.get(name)
            entry = {**ident, "field": name, "airflow": want, "routes": got}
            values[(file, task_id, name)] = entry
            # routes' null for a field it lists as unresolved means "unknown", even where
            # Airflow's value happens to be None.
            if not (got is None and name in unresolved) and _same(name, want, got, taskflow):
                report.exact_fields += 1
                continue
            task_exact = False
            if got is None and name in unresolved:
                entry["reason"] = unresolved[name]
                options = candidates.get(name)
                if isinstance(options, list) and options:
                    if not any(_same(name, want, option, taskflow) for option in options):
                        # A candidate set that leaves out Airflow's value is as wrong as a value.
                        report.wrong.append({**entry, "routes": {"candidates": options}})
                    else:
                        report.candidates.append({**entry, "routes": {"candidates": options}})
                    continue
                still_unresolved.add((file, task_id, name))
                if (file, task_id, name) in allowed_unresolved_set:
                    report.unresolved.append(entry)
                    unresolved_reasons[unresolved[name]] += 1
                else:
                    report.unexpected_unresolved.append(entry)
            else:
                report.wrong.append(entry)
        if task_exact:
            report.exact_tasks += 1
    report.extra.extend(unnamed)
    report.unresolved_by_reason = dict(unresolved_reasons)
    # A stale entry: routes has the task and no longer leaves the field unresolved. (An entry
    # for a task routes lacks is judged by the missing-task check instead.)
    for key in sorted(allowed_unresolved_set - still_unresolved):
        if key in values:
            report.stale.append(
                {**values[key], "reason": "allowed to be unresolved; routes now gives a value"}
            )
    return report
