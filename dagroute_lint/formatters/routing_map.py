"""The routing map as a graph: DAGs' tasks → queues (or executors) → workers → runtimes.

The drawing formats (``dot``, ``mermaid``, ``svg``, ``html``) all draw this one graph, so they
agree. A DAG with more than ``COLLAPSE_AT`` tasks shows one node per destination ("12 tasks")
instead of one per task. Gaps are marked: a queue no worker serves, an executor the deployment
does not configure, and a task needing a provider that a runtime it reaches lacks (as DRL202
finds it) are ``problem``; a worker queue no task uses is ``unused``; a queue or executor that
cannot be known without running the file is ``unknown``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import field
from typing import Literal

from dagroute_lint.deployment.executors import ExecutorEntry
from dagroute_lint.deployment.inventory import Inventory, Worker
from dagroute_lint.records import record
from dagroute_lint.resolve.placement import Placement, workers_of
from dagroute_lint.resolve.repository import Repository
from dagroute_lint.resolve.tasks import ResolvedTask
from dagroute_lint.rules.parse_boundary import has_provider
from dagroute_lint.rules.providers import parse_needs, task_needs

COLLAPSE_AT = 12
DEFAULT_AIRFLOW_MAJOR = 3

State = Literal["ok", "problem", "unused", "unknown"]
Kind = Literal["task", "queue", "executor", "worker", "runtime"]
# Left to right: the column each kind of node is drawn in.
COLUMNS: tuple[Kind, ...] = ("task", "queue", "worker", "runtime")
COLUMN_OF: dict[Kind, int] = {"task": 0, "queue": 1, "executor": 1, "worker": 2, "runtime": 3}


@record(frozen=False)
class Node:
    """One box of the map; ``detail`` says why it is marked (shown as a tooltip)."""

    id: str
    label: str
    kind: Kind
    state: State = "ok"
    detail: str = ""
    dag: str | None = None  # the DAG a task node belongs to


@record
class Edge:
    source: str
    target: str
    state: State = "ok"


@record(frozen=False)
class RoutingMap:
    """Nodes in drawing order, edges, and the DAGs (in order) with the ids of their task nodes."""

    nodes: dict[str, Node] = field(default_factory=dict)
    edges: dict[tuple[str, str], Edge] = field(default_factory=dict)
    dags: dict[str, list[str]] = field(default_factory=dict)

    def add(self, node: Node) -> Node:
        return self.nodes.setdefault(node.id, node)

    def link(self, source: str, target: str, state: State = "ok") -> None:
        known = self.edges.get((source, target))
        if known is None or (known.state != "problem" and state == "problem"):
            self.edges[(source, target)] = Edge(source, target, state)

    def mark(self, node_id: str, state: State, detail: str) -> None:
        node = self.nodes[node_id]
        if node.state != "problem":
            node.state = state
            node.detail = detail


@record
class _Destination:
    """Where a task goes first (a queue or an executor node), and what it reaches from there."""

    node: Node
    placement: Placement | None
    missing: tuple[str, ...] = ()  # "provider on worker" problems


def routing_map(repository: Repository) -> RoutingMap:
    inventory = repository.inventory
    graph = RoutingMap()
    by_dag: dict[str, list[tuple[ResolvedTask, Placement | None]]] = {}
    for task, placement in _placed(repository):
        dag_id = str(task.dag_id) if task.dag_id is not None else "?"
        by_dag.setdefault(dag_id, []).append((task, placement))
    used_queues: set[str] = set()
    for dag_id, placed in by_dag.items():
        graph.dags[dag_id] = []
        members = [task for task, _ in placed]
        destinations = [
            _destination(task, placement, inventory, graph) for task, placement in placed
        ]
        for destination in destinations:
            if destination.placement is not None and destination.placement.queue is not None:
                used_queues.add(destination.placement.queue)
        if len(members) > COLLAPSE_AT:
            _collapsed(graph, dag_id, members, destinations)
        else:
            for index, (task, destination) in enumerate(zip(members, destinations)):
                node = graph.add(
                    Node(f"task:{dag_id}:{index}", str(task.task_id or "?"), "task", dag=dag_id)
                )
                _mark_missing(graph, node.id, destination.missing)
                graph.dags[dag_id].append(node.id)
                graph.link(node.id, destination.node.id, _state(destination))
    if inventory is not None:
        _deployment(graph, inventory, used_queues)
    return graph


def _collapsed(
    graph: RoutingMap,
    dag_id: str,
    members: Sequence[ResolvedTask],
    destinations: Sequence[_Destination],
) -> None:
    """One node per destination for a large DAG, counting its tasks."""
    groups: dict[str, list[tuple[ResolvedTask, _Destination]]] = {}
    for task, destination in zip(members, destinations):
        groups.setdefault(destination.node.id, []).append((task, destination))
    for target, group in groups.items():
        node = graph.add(
            Node(
                f"task:{dag_id}:{target}",
                f"{len(group)} tasks",
                "task",
                dag=dag_id,
                detail=", ".join(str(task.task_id) for task, _ in group),
            )
        )
        missing = tuple(sorted({m for _, destination in group for m in destination.missing}))
        _mark_missing(graph, node.id, missing)
        graph.dags[dag_id].append(node.id)
        state: State = "problem" if any(_state(d) == "problem" for _, d in group) else "ok"
        graph.link(node.id, target, state)


def _mark_missing(graph: RoutingMap, node_id: str, missing: tuple[str, ...]) -> None:
    if missing:
        graph.mark(node_id, "problem", "missing " + "; ".join(missing))


def _state(destination: _Destination) -> State:
    return "problem" if destination.node.state == "problem" or destination.missing else "ok"


def _placed(repository: Repository) -> Iterator[tuple[ResolvedTask, Placement | None]]:
    """Every task with the placement the pipeline worked out (dispatched tasks, with an
    inventory), in the repository's order: no task is placed a second time here."""
    for file in repository.files:
        placed = iter(file.placed)
        for task in file.tasks:
            placement = None
            if repository.inventory is not None and task.dispatched:
                placement = next(placed).placement
            yield task, placement


def _destination(
    task: ResolvedTask,
    placement: Placement | None,
    inventory: Inventory | None,
    graph: RoutingMap,
) -> _Destination:
    queue = task.fields["queue"]
    if inventory is None:
        if not queue.known:
            return _Destination(_unknown_queue(graph), None)
        name = str(queue.value if queue.value is not None else "default")
        return _Destination(graph.add(Node(f"queue:{name}", name, "queue")), None)
    if not task.dispatched:
        node = graph.add(Node("queue:-", "not dispatched", "queue"))
        node.detail = "the scheduler completes these tasks without sending them to a worker"
        return _Destination(node, None)
    assert placement is not None, "the pipeline places every dispatched task"
    executor = placement.executor
    if executor is None:
        field_ = task.fields["executor"]
        if not field_.known:
            node = graph.add(Node("executor:?", "executor ?", "executor", "unknown"))
            node.detail = "executor cannot be known statically"
            return _Destination(node, placement)
        name = str(field_.value)
        node = graph.add(Node(f"executor:{name}", name, "executor"))
        graph.mark(node.id, "problem", "the deployment configures no such executor")
        return _Destination(node, placement)
    if executor.honours_queue is not True:
        node = graph.add(Node(f"executor:{_name(executor)}", _name(executor), "executor"))
        return _Destination(node, placement, _missing(task, placement.workers, inventory))
    if placement.queue is None:
        return _Destination(_unknown_queue(graph), placement)
    node = graph.add(Node(f"queue:{placement.queue}", placement.queue, "queue"))
    if not placement.workers:
        graph.mark(node.id, "problem", f"no {_name(executor)} worker serves this queue")
    return _Destination(node, placement, _missing(task, placement.workers, inventory))


def _name(executor: ExecutorEntry) -> str:
    return executor.alias or executor.class_name


def _unknown_queue(graph: RoutingMap) -> Node:
    node = graph.add(Node("queue:?", "queue ?", "queue", "unknown"))
    node.detail = "queue cannot be known statically"
    return node


def _missing(
    task: ResolvedTask, workers: Sequence[Worker], inventory: Inventory
) -> tuple[str, ...]:
    """Each provider the task needs (as DRL202 finds them: its file's module-level imports, its
    operator, its own imports) that a worker it reaches lacks."""
    major = inventory.airflow_major or DEFAULT_AIRFLOW_MAJOR
    needs = task_needs(task, parse_needs(task.module, major), major)
    return tuple(
        f"{need.distribution} on {worker.name}"
        for need in needs
        for worker in workers
        if worker.runtime in inventory.runtimes
        and has_provider(inventory.runtimes[worker.runtime], need.distribution, major) is False
    )


def _deployment(graph: RoutingMap, inventory: Inventory, used_queues: set[str]) -> None:
    """Workers and runtimes, linked from the queues and executors the tasks reach, and the worker
    queues no task uses (greyed)."""
    for worker in inventory.workers:
        graph.add(
            Node(f"worker:{worker.name}", worker.name, "worker", detail=_name(worker.executor))
        )
        runtime = graph.add(Node(f"runtime:{worker.runtime}", worker.runtime, "runtime"))
        graph.link(f"worker:{worker.name}", runtime.id)
    for executor in inventory.executors:
        node_id = f"executor:{_name(executor)}"
        if node_id in graph.nodes:
            for worker in workers_of(inventory, executor):
                graph.link(node_id, f"worker:{worker.name}")
    for worker in inventory.workers:
        if worker.executor.honours_queue is not True:
            continue
        queues = worker.queues if worker.queues is not None else tuple(sorted(used_queues))
        for queue in queues:
            node = graph.add(Node(f"queue:{queue}", queue, "queue"))
            if queue not in used_queues:
                graph.mark(node.id, "unused", "no task uses this worker queue")
            graph.link(node.id, f"worker:{worker.name}", node.state)
