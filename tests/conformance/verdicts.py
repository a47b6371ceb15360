"""The DRL101-DRL103 and DRL301-DRL302 verdicts that follow from Airflow's routing, and the check.

For each corpus and Airflow version the suite writes an inventory derived from Airflow's own
values (``derive_deployment``): every executor the corpus uses, a Celery worker that serves all
but every third queue Celery tasks use, and all but every third pool, each with two slots. The
verdicts then follow from Airflow's parsed tasks alone (``expected``), and dagroute-lint's
diagnostics must be exactly those (``compare_diagnostics``), for each task both sides have:

- DRL101: a dispatched task whose executor honours queues (Celery) and whose queue no worker
  serves;
- DRL102: a dispatched task under a queue-blind executor whose queue is not the default (so
  something set it);
- DRL103: never: Airflow was configured with every executor the corpus names and would have
  dropped the DAG otherwise;
- DRL301: a dispatched task whose pool the inventory leaves out;
- DRL302: ``pool_slots`` below 1, or a dispatched task asking for more slots than its pool has.

"Dispatched" is the dump's ``dispatched`` (an EmptyOperator without callbacks, outlets or inlets
never reaches an executor). A verdict routes cannot reach because one of the fields it depends on
is unresolved is ``excused`` and counted, not failed (DRL105 speaks for it). A field routes gives
as candidates is not excused: the rules check every candidate, so the verdict Airflow's value
implies must be reported, and a verdict that only another candidate implies is ``possible``, not
unexpected.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

CODES: tuple[str, ...] = ("DRL101", "DRL102", "DRL103", "DRL301", "DRL302")
DEFAULT_POOL = "default_pool"
POOL_SIZE = 2
DEFAULT_POOL_SIZE = 128

# Which executors route on the queue (airflow-semantics §2): Celery does, the others ignore it.
HONOURS_QUEUE: dict[str, bool] = {
    "CeleryExecutor": True,
    "KubernetesExecutor": False,
    "LocalExecutor": False,
}
# The fields each verdict is computed from: unresolved there excuses a verdict routes cannot reach.
DEPENDS_ON: dict[str, tuple[str, ...]] = {
    "DRL101": ("queue", "executor"),
    "DRL102": ("queue", "executor"),
    "DRL103": ("executor",),
    "DRL301": ("pool",),
    "DRL302": ("pool", "pool_slots"),
}
LABEL = re.compile(r"task '(?P<task>[^']*)' in dag '(?P<dag>[^']*)'")

Key = tuple[str, str, str]  # (file, dag_id, task_id)


@dataclass(frozen=True)
class Deployment:
    """What the derived inventory declares."""

    airflow_version: str
    executors: tuple[str, ...]
    default_queue: str
    served_queues: tuple[str, ...]
    pools: dict[str, int]

    def toml(self, local_settings: str | None = None) -> str:
        """The inventory; ``local_settings`` names the deployment's ``airflow_local_settings.py``
        (``[deployment] local_settings``), the one the oracle's Airflow imported."""
        settings = f"local_settings = {json.dumps(local_settings)}\n" if local_settings else ""
        names = ", ".join(f'"{name}"' for name in self.executors)
        served = ", ".join(f'"{queue}"' for queue in self.served_queues)
        pools = "\n".join(f'"{name}" = {size}' for name, size in sorted(self.pools.items()))
        return (
            "# Written by tests/conformance from Airflow's own values (verdicts.py).\n"
            "[deployment]\n"
            f'airflow_version = "{self.airflow_version}"\n'
            f"executors = [{names}]\n"
            f'default_queue = "{self.default_queue}"\n'
            f"{settings}\n"
            "[[workers]]\n"
            'name = "celery-served"\n'
            'executor = "CeleryExecutor"\n'
            f"queues = [{served}]\n"
            'runtime = "base"\n\n'
            "[[workers]]\n"
            'name = "k8s-pods"\n'
            'executor = "KubernetesExecutor"\n'
            'runtime = "base"\n\n'
            "[[workers]]\n"
            'name = "local"\n'
            'executor = "LocalExecutor"\n'
            'runtime = "base"\n\n'
            "[runtimes.base]\n"
            'python = "3.11"\n'
            'providers = ["standard", "cncf.kubernetes"]\n\n'
            f"[pools]\n{pools}\n"
        )


def _every_third_left_out(names: Iterable[str], keep: str) -> tuple[str, ...]:
    ordered = sorted(set(names) - {keep})
    return (keep, *(name for index, name in enumerate(ordered) if index % 3 != 2))


def derive_deployment(
    dump: Mapping[str, Any], *, airflow_version: str, executors: tuple[str, ...], default_queue: str
) -> Deployment:
    tasks = dump.get("tasks", [])
    celery_queues = [
        str(task["queue"])
        for task in tasks
        if (task["executor"] or executors[0]) == "CeleryExecutor" and task["queue"] is not None
    ]
    pools = _every_third_left_out((str(task["pool"]) for task in tasks), DEFAULT_POOL)
    return Deployment(
        airflow_version=airflow_version,
        executors=executors,
        default_queue=default_queue,
        served_queues=_every_third_left_out(celery_queues, default_queue),
        pools={name: DEFAULT_POOL_SIZE if name == DEFAULT_POOL else POOL_SIZE for name in pools},
    )


def expected_codes(task: Mapping[str, Any], deployment: Deployment) -> set[str]:
    """The verdicts one Airflow task implies under ``deployment``."""
    codes: set[str] = set()
    executor = task["executor"] or deployment.executors[0]
    queue = deployment.default_queue if task["queue"] is None else str(task["queue"])
    dispatched = bool(task.get("dispatched", True))
    honours = HONOURS_QUEUE.get(executor)
    if dispatched and honours is True and queue not in deployment.served_queues:
        codes.add("DRL101")
    if dispatched and honours is False and queue != deployment.default_queue:
        codes.add("DRL102")
    if executor not in deployment.executors:
        codes.add("DRL103")
    pool, slots = task["pool"], task["pool_slots"]
    if dispatched and pool not in deployment.pools:
        codes.add("DRL301")
    if isinstance(slots, int) and (
        slots < 1 or (dispatched and pool in deployment.pools and slots > deployment.pools[pool])
    ):
        codes.add("DRL302")
    return codes


@dataclass
class VerdictReport:
    """Expected against reported diagnostics, per task both sides have."""

    corpus: str
    tasks: int = 0
    expected: int = 0
    agreed: int = 0
    excused: list[dict[str, Any]] = field(default_factory=list)
    possible: list[dict[str, Any]] = field(default_factory=list)
    missing: list[dict[str, Any]] = field(default_factory=list)
    unexpected: list[dict[str, Any]] = field(default_factory=list)
    unattributed: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.missing or self.unexpected or self.unattributed)

    def to_dict(self) -> dict[str, Any]:
        return {
            "corpus": self.corpus,
            "ok": self.ok,
            "tasks": self.tasks,
            "expected": self.expected,
            "agreed": self.agreed,
            "excused": self.excused,
            "possible": self.possible,
            "missing": self.missing,
            "unexpected": self.unexpected,
            "unattributed": self.unattributed,
        }

    def render(self) -> str:
        lines = [
            f"[{self.corpus}] verdicts {'OK' if self.ok else 'FAILED'}: {self.tasks} tasks, "
            f"{self.expected} expected diagnostics, {self.agreed} reported as expected, "
            f"{len(self.excused)} excused (field unresolved), "
            f"{len(self.possible)} for another candidate value, {len(self.missing)} not reported, "
            f"{len(self.unexpected)} unexpected, {len(self.unattributed)} naming no task"
        ]
        for title, entries in (
            ("NOT REPORTED", self.missing),
            ("UNEXPECTED", self.unexpected),
            ("NAMES NO TASK", self.unattributed),
        ):
            for entry in entries[:25]:
                lines.append(
                    f"  {title}: {entry['file']}::{entry.get('dag_id')}::"
                    f"{entry.get('task_id')} {entry['code']} {entry.get('message', '')}"
                )
            if len(entries) > 25:
                lines.append(f"  {title}: ... {len(entries) - 25} more")
        return "\n".join(lines)


def compare_diagnostics(
    corpus: str,
    airflow_tasks: Mapping[Key, Mapping[str, Any]],
    routes_tasks: Mapping[Key, Mapping[str, Any]],
    diagnostics: Iterable[Mapping[str, Any]],
    deployment: Deployment,
) -> VerdictReport:
    """``diagnostics`` are the lint's, each with ``file`` already relative to the folder."""
    report = VerdictReport(corpus)
    reported: dict[Key, dict[str, str]] = {}
    for diagnostic in diagnostics:
        if diagnostic["code"] not in CODES:
            continue
        match = LABEL.search(str(diagnostic.get("message", "")))
        if match is None:
            report.unattributed.append(dict(diagnostic))
            continue
        key = (str(diagnostic["file"]), match["dag"], match["task"])
        reported.setdefault(key, {})[str(diagnostic["code"])] = str(diagnostic["message"])
    for key in sorted(airflow_tasks.keys() & routes_tasks.keys()):
        report.tasks += 1
        file, dag_id, task_id = key
        want = expected_codes(airflow_tasks[key], deployment)
        got = reported.pop(key, {})
        options = _candidates(routes_tasks[key])
        unresolved = set(_unresolved_names(routes_tasks[key])) - options.keys()
        possible = set().union(
            *(
                expected_codes({**airflow_tasks[key], **dict(zip(options, values))}, deployment)
                for values in itertools.product(*options.values())
            )
        )
        report.expected += len(want)
        for code in sorted(want | got.keys()):
            entry = {"file": file, "dag_id": dag_id, "task_id": task_id, "code": code}
            if code in want and code in got:
                report.agreed += 1
            elif unresolved & set(DEPENDS_ON[code]):
                report.excused.append(entry)
            elif code in want:
                report.missing.append(entry)
            elif code in possible:
                report.possible.append({**entry, "message": got[code]})
            else:
                report.unexpected.append({**entry, "message": got[code]})
    # Diagnostics for tasks only one side has are judged by the task comparison, not here.
    return report


def _candidates(task: Mapping[str, Any]) -> dict[str, list[Any]]:
    """The fields routes gives as one of several values, and those values."""
    found = task.get("candidates")
    if not isinstance(found, Mapping):
        return {}
    return {name: list(values) for name, values in found.items() if isinstance(values, list)}


def _unresolved_names(task: Mapping[str, Any]) -> Iterable[str]:
    for entry in task.get("unresolved") or ():
        if isinstance(entry, str):
            yield entry
        elif isinstance(entry, Mapping) and isinstance(entry.get("field"), str):
            yield entry["field"]
