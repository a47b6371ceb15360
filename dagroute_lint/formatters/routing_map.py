"""The routing map as a graph: each DAG's tasks grouped by where they go → the queues (or, for
executors that ignore queues, the executors) → the workers → their runtimes.

Every drawing format (``dot``, ``svg``, ``html``, ``mermaid``) draws this one graph, so they
agree. A DAG's tasks are one node per destination and gap ("4 tasks"), never one per task: a
repository of two hundred tasks draws as some fifty boxes. Every node counts the tasks that
reach it. A gap is a ``problem`` whose reason is written on the box, as the rules find it: a
queue no worker serves (DRL101; a queue that is only one of the values a task's queue can take
included), an executor the deployment does not configure (DRL103), a provider or package that
a serving worker's runtime lacks (DRL202, DRL203, judged by ``trace``'s reading of the rules).
A queue or executor that cannot be known without running the file is ``unknown``, one node per
reason; a worker queue no task uses is ``unused``. Tasks the scheduler completes without an
executor (``EmptyOperator``) reach no worker: their DAG's box counts them, and draws none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from typing import Literal

from dagroute_lint.catalog.airflow_defaults import DEFAULT_QUEUE
from dagroute_lint.deployment.inventory import Inventory
from dagroute_lint.formatters.trace import Trace, trace_repository
from dagroute_lint.records import record
from dagroute_lint.resolve.placement import Placement, variant_placements
from dagroute_lint.resolve.repository import Repository
from dagroute_lint.resolve.tasks import ResolvedTask
from dagroute_lint.rules.dispatch import UNKNOWN_EXECUTOR, UNRESOLVED_ROUTING, UNSERVED_QUEUE
from dagroute_lint.rules.packages import PACKAGE_MISSING_ON_WORKER
from dagroute_lint.rules.providers import PROVIDER_MISSING_ON_WORKER

State = Literal["ok", "problem", "unused", "unknown"]
Kind = Literal["tasks", "queue", "executor", "worker", "runtime"]
# Left to right: the kinds of node drawn in each column.
COLUMNS: tuple[tuple[Kind, ...], ...] = (
    ("tasks",),
    ("queue", "executor"),
    ("worker",),
    ("runtime",),
)
PROVIDER_PREFIX = "apache-airflow-providers-"
# How many task ids a group's box names before "…" (the tooltip and the page name them all).
NAMED_IN_BOX = 2


@record(frozen=False)
class Node:
    """One box of the map. ``title`` is its name; ``note`` what it is and how many tasks reach
    it; ``reason``, written on the box, why it is marked (with the rule's ``code``); ``detail``
    the rest, for its tooltip. ``tasks`` are the indexes (in ``RoutingMap.tasks``) of the tasks
    that reach it, ``maybe`` those that reach it only as one of several values."""

    id: str
    kind: Kind
    title: str
    state: State = "ok"
    code: str = ""
    reason: str = ""
    note: str = ""
    detail: str = ""
    dag: str | None = None
    tasks: set[int] = field(default_factory=set)
    maybe: set[int] = field(default_factory=set)

    def mark(self, state: State, code: str, reason: str) -> None:
        """Mark the node; a problem is never hidden by a milder state, and reasons add up."""
        if self.state == "problem" and state != "problem":
            return
        if self.state != state:
            self.reason = ""
        self.state, self.code = state, code
        if reason not in self.reason.split("; "):
            self.reason = f"{self.reason}; {reason}" if self.reason else reason

    @property
    def reached(self) -> set[int]:
        return self.tasks | self.maybe

    @property
    def why(self) -> str:
        """What a marked node says on its box: ``DRL101: no CeleryExecutor worker serves it``."""
        return f"{self.code}: {self.reason}" if self.code and self.reason else self.reason

    @property
    def tooltip(self) -> tuple[str, ...]:
        """Its tooltip, line by line: all it says on its box, and the rest (the task ids)."""
        return tuple(part for part in (self.title, self.note, self.why, self.detail) if part)


@record(frozen=False)
class Edge:
    """``maybe``: the tasks take it only as one of several values (drawn dashed); ``tasks``:
    the indexes of the tasks that take it."""

    source: str
    target: str
    state: State = "ok"
    maybe: bool = False
    tasks: set[int] = field(default_factory=set)


@record
class MapTask:
    """A task on the map: its trace (what the page shows when it is clicked) and its group's
    node (``None``: the scheduler completes it without an executor, so no box is drawn)."""

    task: ResolvedTask
    trace: Trace
    group: str | None

    @property
    def dag(self) -> str:
        return _dag_of(self.task)

    @property
    def name(self) -> str:
        return str(self.task.task_id) if self.task.task_id is not None else "?"


@record(frozen=False)
class Problem:
    """A gap or an unknown, said once for every task it concerns, with the nodes it marks."""

    state: State
    code: str
    text: str
    nodes: list[str]
    tasks: set[int]


@record(frozen=False)
class RoutingMap:
    """Nodes in drawing order, edges, each DAG (in order) with its group nodes, every task in
    the repository's order, and the problems and unknowns."""

    nodes: dict[str, Node] = field(default_factory=dict)
    edges: dict[tuple[str, str], Edge] = field(default_factory=dict)
    dags: dict[str, list[str]] = field(default_factory=dict)
    tasks: list[MapTask] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def add(self, node: Node) -> Node:
        return self.nodes.setdefault(node.id, node)

    def link(
        self, source: str, target: str, state: State = "ok", maybe: bool = False, task: int = -1
    ) -> None:
        """Add the edge, or mark it again: a problem stays one, and an edge some task takes for
        sure is drawn solid. ``task``: the index of a task that takes it (``-1``: none)."""
        edge = self.edges.get((source, target))
        if edge is None:
            edge = self.edges[(source, target)] = Edge(source, target, state, maybe)
        elif state == "problem":
            edge.state = state
        edge.maybe = edge.maybe and maybe
        if task >= 0:
            edge.tasks.add(task)

    def dag_label(self, dag: str) -> str:
        """``etl_orders · 12 tasks (2 need no worker)``."""
        tasks = [task for task in self.tasks if task.dag == dag]
        idle = sum(1 for task in tasks if task.group is None)
        return f"{dag} · {_count(len(tasks))}" + (f" ({idle} need no worker)" if idle else "")


@record
class _Way:
    """One way a task goes: its first node, the workers it reaches, and whether it goes there
    only as one of several values."""

    node: str
    placement: Placement | None
    maybe: bool


@record
class _Gap:
    """Something a serving worker's runtime lacks for a task."""

    code: str
    name: str
    runtime: str
    worker: str


def routing_map(repository: Repository) -> RoutingMap:
    inventory = repository.inventory
    graph = RoutingMap()
    placed = {id(entry.task): entry for entry in repository.placed}
    traces = trace_repository(repository, repository.tasks)
    groups: dict[tuple[object, ...], str] = {}
    gaps: dict[tuple[str, str, str], list[tuple[int, _Gap]]] = {}
    for index, (task, trace) in enumerate(zip(repository.tasks, traces)):
        dag = _dag_of(task)
        graph.dags.setdefault(dag, [])
        if not task.dispatched:
            graph.tasks.append(MapTask(task, trace, None))
            continue
        if inventory is not None:  # the pipeline placed every dispatched task
            ways = [
                _way(graph, variant, placement, bool(chosen), inventory)
                for variant, chosen, placement in variant_placements(placed[id(task)], inventory)
            ]
        else:
            ways = [
                _way(graph, variant, None, bool(chosen), None)
                for variant, chosen in task.variants(("queue",))
            ]
        lacking = _gaps(trace)
        # One group per DAG, set of destinations and gaps, in the order first met.
        key = (dag, tuple((way.node, way.maybe) for way in ways), tuple(lacking))
        if key not in groups:
            groups[key] = graph.add(Node(f"tasks:{len(groups)}", "tasks", "", dag=dag)).id
            graph.dags[dag].append(groups[key])
        group = groups[key]
        graph.nodes[group].tasks.add(index)
        graph.tasks.append(MapTask(task, trace, group))
        for gap in lacking:
            gaps.setdefault((gap.runtime, gap.code, gap.name), []).append((index, gap))
        _route(graph, index, group, ways, bool(lacking))
    if inventory is not None:
        _deployment(graph, inventory)
    _gap_problems(graph, gaps)
    _name_groups(graph)
    _count_destinations(graph)
    graph.problems[:0] = _node_problems(graph)
    # Problems first, then what cannot be known; by rule within each.
    graph.problems.sort(key=lambda problem: (problem.state != "problem", problem.code))
    return graph


def _dag_of(task: ResolvedTask) -> str:
    return str(task.dag_id) if task.dag_id is not None else "?"


def _way(
    graph: RoutingMap,
    task: ResolvedTask,
    placement: Placement | None,
    maybe: bool,
    inventory: Inventory | None,
) -> _Way:
    """Where one variant of a task goes first: a queue, an executor that ignores queues, an
    executor the deployment lacks, or a node saying why that cannot be known."""
    queue = task.fields["queue"]
    if inventory is None or placement is None:
        if not queue.known:
            return _Way(_unknown(graph, "queue", queue.reason).id, None, maybe)
        name = str(queue.value) if queue.value is not None else DEFAULT_QUEUE
        return _Way(graph.add(Node(f"queue:{name}", "queue", name)).id, None, maybe)
    executor = placement.executor
    if executor is None:
        written = task.fields["executor"]
        if not written.known:
            return _Way(_unknown(graph, "executor", written.reason).id, placement, maybe)
        name = str(written.value)
        node = graph.add(Node(f"executor:{name}", "executor", name))
        configured = ", ".join(each.written for each in inventory.executors)
        node.mark("problem", UNKNOWN_EXECUTOR.code, "not configured: Airflow rejects the DAG")
        node.detail = f"configured: {configured}"
        return _Way(node.id, placement, maybe)
    if executor.honours_queue is not True:
        name = executor.display_name
        return _Way(graph.add(Node(f"executor:{name}", "executor", name)).id, placement, maybe)
    if placement.queue is None:
        return _Way(_unknown(graph, "queue", queue.reason).id, placement, maybe)
    node = graph.add(Node(f"queue:{placement.queue}", "queue", placement.queue))
    if not placement.workers:
        node.mark("problem", UNSERVED_QUEUE.code, f"no {executor.display_name} worker serves it")
    return _Way(node.id, placement, maybe)


def _unknown(graph: RoutingMap, field_name: str, reason: str) -> Node:
    """One node per field and reason: ``queue ?`` with why it cannot be known."""
    node = graph.add(Node(f"{field_name}:?:{reason}", _kind(field_name), f"{field_name} ?"))
    node.mark("unknown", UNRESOLVED_ROUTING.code, reason or "cannot be known statically")
    return node


def _kind(field_name: str) -> Kind:
    return "executor" if field_name == "executor" else "queue"


def _gaps(trace: Trace) -> list[_Gap]:
    """What the task needs that a worker serving it lacks, as DRL202 and DRL203 judge it."""
    codes = {"provider": PROVIDER_MISSING_ON_WORKER.code, "package": PACKAGE_MISSING_ON_WORKER.code}
    found = {
        _Gap(codes[need.kind], need.name, worker.runtime, worker.name): None
        for worker in trace.workers or ()
        for need in worker.needs
        if need.has is False
    }
    return sorted(found, key=lambda gap: (gap.code, gap.name, gap.runtime, gap.worker))


def _route(graph: RoutingMap, index: int, group: str, ways: Sequence[_Way], lacking: bool) -> None:
    """The edges of one task, from its group through each way it goes to workers and runtimes,
    and the task counted on every node it reaches."""
    for way in ways:
        node = graph.nodes[way.node]
        state: State = "problem" if lacking or node.state == "problem" else "ok"
        graph.link(group, way.node, state, way.maybe, index)
        reached = [way.node]
        if way.placement is not None:
            for worker in way.placement.workers:
                graph.add(Node(f"worker:{worker.name}", "worker", worker.name))
                graph.add(Node(f"runtime:{worker.runtime}", "runtime", worker.runtime))
                graph.link(way.node, f"worker:{worker.name}", task=index)
                graph.link(f"worker:{worker.name}", f"runtime:{worker.runtime}", task=index)
                reached += [f"worker:{worker.name}", f"runtime:{worker.runtime}"]
        for node_id in reached:
            (graph.nodes[node_id].maybe if way.maybe else graph.nodes[node_id].tasks).add(index)


def _deployment(graph: RoutingMap, inventory: Inventory) -> None:
    """Every worker and runtime, each worker linked to its runtime, and the worker queues no
    task uses (greyed), so the map shows the whole deployment."""
    for worker in inventory.workers:
        node = graph.add(Node(f"worker:{worker.name}", "worker", worker.name))
        node.detail = f"{worker.executor.display_name} worker"
        graph.add(Node(f"runtime:{worker.runtime}", "runtime", worker.runtime))
        graph.link(node.id, f"runtime:{worker.runtime}")
        if worker.executor.honours_queue is not True:
            continue
        for queue in worker.queues or ():
            queue_node = graph.add(Node(f"queue:{queue}", "queue", queue))
            if not queue_node.reached:
                queue_node.mark("unused", "", "no task routes here")
            graph.link(queue_node.id, node.id, queue_node.state)


def _gap_problems(
    graph: RoutingMap, gaps: dict[tuple[str, str, str], list[tuple[int, _Gap]]]
) -> None:
    """Each runtime lacking something, red on the runtime and on the tasks' groups."""
    for (runtime, code, name), found in gaps.items():
        tasks = {index for index, _ in found}
        workers = sorted({gap.worker for _, gap in found})
        shown = _short(name)
        graph.nodes[f"runtime:{runtime}"].mark("problem", code, f"lacks {shown}")
        groups = sorted({graph.tasks[index].group or "" for index in tasks})
        for group in groups:
            graph.nodes[group].mark("problem", code, f"needs {shown}, which {runtime} lacks")
        what = "provider" if code == PROVIDER_MISSING_ON_WORKER.code else "package"
        graph.problems.append(
            Problem(
                "problem",
                code,
                f"runtime '{runtime}' (worker {', '.join(workers)}) lacks the {what} {name}, "
                f"needed by {_count(len(tasks))} it runs: "
                + ("it fails at startup" if len(tasks) == 1 else "they fail at startup"),
                [f"runtime:{runtime}", *groups],
                tasks,
            )
        )


def _short(name: str) -> str:
    """A provider's distribution by what follows ``apache-airflow-providers-``, as the
    inventory lists providers."""
    return name.removeprefix(PROVIDER_PREFIX) + (
        " provider" if name.startswith(PROVIDER_PREFIX) else ""
    )


def _node_problems(graph: RoutingMap) -> list[Problem]:
    """The queues and executors marked while the tasks were routed, said once each."""
    found = []
    for node in graph.nodes.values():
        if node.kind not in ("queue", "executor") or node.state not in ("problem", "unknown"):
            continue
        sure, maybe = len(node.tasks), len(node.maybe - node.tasks)
        if node.state == "unknown":
            whose = _count(sure + maybe)
            text = (
                f"the {node.kind} of {whose} cannot be known without running the file: "
                f"{node.reason}"
            )
        else:
            why = f"{node.reason} ({node.detail})" if node.detail else node.reason
            reach = [f"{_count(sure)} {'routes' if sure == 1 else 'route'} to it"] if sure else []
            if maybe:
                reach.append(f"{_count(maybe)} may, as one of several values")
            text = f"{node.kind} '{node.title}': {why}; {' and '.join(reach)}"
        found.append(Problem(node.state, node.code, text, [node.id], node.reached))
    return found


def _name_groups(graph: RoutingMap) -> None:
    """A group's title: its task's id, or how many tasks it holds and their first ids."""
    for members in graph.dags.values():
        for group in members:
            node = graph.nodes[group]
            names = [graph.tasks[index].name for index in sorted(node.tasks)]
            if len(names) == 1:
                node.title = names[0]
                continue
            node.title = _count(len(names))
            node.note = ", ".join(names[:NAMED_IN_BOX]) + (
                ", …" if len(names) > NAMED_IN_BOX else ""
            )
            node.detail = ", ".join(names)


def _count_destinations(graph: RoutingMap) -> None:
    """Each queue, executor, worker and runtime says what it is and how many tasks reach it."""
    for node in graph.nodes.values():
        if node.kind == "tasks":
            continue
        what = node.detail if node.kind == "worker" and node.detail else node.kind
        definite, maybe = len(node.tasks), len(node.maybe - node.tasks)
        counted = _count(definite) if definite or not maybe else ""
        if maybe:
            may = f"{_count(maybe)} may route here"
            counted = f"{counted} (+{maybe} may)" if counted else may
        node.note = f"{what} · {counted}"


def _count(number: int) -> str:
    return f"{number} task" if number == 1 else f"{number} tasks"
