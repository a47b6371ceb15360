"""``routes --format mermaid``: the routing map as a Mermaid flowchart (GitHub renders it).

The same graph as the other drawings: a subgraph per DAG holding its task groups, then the
queues and executors, workers and runtimes, each box with its counts and, when marked, why.
"""

from __future__ import annotations

import re

from dagroute_lint.formatters.dot import node_ids
from dagroute_lint.formatters.map_style import STATE_COLOURS, colours
from dagroute_lint.formatters.routing_map import Node, routing_map
from dagroute_lint.resolve.repository import Repository

# Anything but these is written as a Mermaid entity (``#35;``), so no label can close its
# brackets, start markup or break the line.
_PLAIN = re.compile(r"[^A-Za-z0-9 _.,:/@+=-]")
_SHAPES = {
    "tasks": ('("', '")'),
    "queue": ('["', '"]'),
    "executor": ('["', '"]'),
    "worker": ('[["', '"]]'),
    "runtime": ('[("', '")]'),
}
LINE_BREAK = "<br>"


def _label(text: str) -> str:
    return _PLAIN.sub(lambda match: f"#{ord(match.group())};", text)


def node_text(node: Node) -> str:
    """A box's lines (name, note, reason), each escaped, joined by Mermaid's line break."""
    lines = (node.title, node.note, node.why)
    return LINE_BREAK.join(_label(line) for line in lines if line)


def _node(node: Node, ids: dict[str, str]) -> str:
    opening, closing = _SHAPES[node.kind]
    return f"{ids[node.id]}{opening}{node_text(node)}{closing}:::{node.kind}_{node.state}"


def format_routes_mermaid(repository: Repository) -> str:
    graph = routing_map(repository)
    ids = node_ids(graph)
    lines = ["flowchart LR"]
    in_dags = set()
    for index, (dag_id, members) in enumerate(graph.dags.items()):
        if not members:
            continue
        lines.append(f'  subgraph dag{index}["{_label(graph.dag_label(dag_id))}"]')
        lines.extend(f"    {_node(graph.nodes[member], ids)}" for member in members)
        lines.append("  end")
        in_dags.update(members)
    lines.extend(f"  {_node(node, ids)}" for node in graph.nodes.values() if node.id not in in_dags)
    styles: list[str] = []
    for number, edge in enumerate(graph.edges.values()):
        arrow = "-.->" if edge.maybe or edge.state == "unused" else "-->"
        lines.append(f"  {ids[edge.source]} {arrow} {ids[edge.target]}")
        if edge.state != "ok":
            styles.append(f"  linkStyle {number} stroke:{STATE_COLOURS[edge.state][1]}")
    lines.extend(styles)
    for kind, state in sorted({(node.kind, node.state) for node in graph.nodes.values()}):
        fill, stroke, text = colours(kind, state)
        dash = ",stroke-dasharray:4 3" if state == "unused" else ""
        lines.append(f"  classDef {kind}_{state} fill:{fill},stroke:{stroke},color:{text}{dash}")
    return "\n".join(lines) + "\n"
