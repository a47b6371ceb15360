"""``routes --format mermaid``: the routing map as a Mermaid flowchart (GitHub renders it)."""

from __future__ import annotations

import re

from dagroute_lint.formatters.map_style import STATE_COLOURS, colours
from dagroute_lint.formatters.routing_map import Node, routing_map
from dagroute_lint.resolve.repository import Repository

# Anything but these is written as a Mermaid entity (``#35;``), so no label can close its
# brackets, start markup or break the line.
_PLAIN = re.compile(r"[^A-Za-z0-9 _.,:/@+=-]")
_SHAPES = {
    "task": ('("', '")'),
    "queue": ('["', '"]'),
    "executor": ('["', '"]'),
    "worker": ('[["', '"]]'),
    "runtime": ('[("', '")]'),
}


def _label(text: str) -> str:
    return _PLAIN.sub(lambda match: f"#{ord(match.group())};", text)


def _node(node: Node, ids: dict[str, str]) -> str:
    opening, closing = _SHAPES[node.kind]
    return f"{ids[node.id]}{opening}{_label(node.label)}{closing}:::{node.kind}_{node.state}"


def format_routes_mermaid(repository: Repository) -> str:
    graph = routing_map(repository)
    ids = {node_id: f"n{index}" for index, node_id in enumerate(graph.nodes)}
    lines = ["flowchart LR"]
    in_dags = set()
    for index, (dag_id, members) in enumerate(graph.dags.items()):
        lines.append(f'  subgraph dag{index}["{_label(dag_id)}"]')
        lines.extend(f"    {_node(graph.nodes[member], ids)}" for member in members)
        lines.append("  end")
        in_dags.update(members)
    lines.extend(f"  {_node(node, ids)}" for node in graph.nodes.values() if node.id not in in_dags)
    styles: list[str] = []
    for number, edge in enumerate(graph.edges.values()):
        lines.append(f"  {ids[edge.source]} --> {ids[edge.target]}")
        if edge.state != "ok":
            dash = ",stroke-dasharray:4 3" if edge.state in ("unused", "unknown") else ""
            styles.append(f"  linkStyle {number} stroke:{STATE_COLOURS[edge.state][1]}{dash}")
    lines.extend(styles)
    for kind, state in sorted({(node.kind, node.state) for node in graph.nodes.values()}):
        fill, stroke, text = colours(kind, state)
        dash = ",stroke-dasharray:4 3" if state == "unused" else ""
        lines.append(f"  classDef {kind}_{state} fill:{fill},stroke:{stroke},color:{text}{dash}")
    return "\n".join(lines) + "\n"
