"""``routes --format dot``: the routing map for Graphviz (``dot -Tsvg map.dot > map.svg``)."""

from __future__ import annotations

from dagroute_lint.formatters.escape import printable
from dagroute_lint.formatters.map_style import STATE_COLOURS, colours
from dagroute_lint.formatters.routing_map import COLUMN_OF, COLUMNS, Node, routing_map
from dagroute_lint.resolve.repository import Repository

_SHAPES = {
    "task": "box",
    "queue": "box",
    "executor": "box",
    "worker": "box3d",
    "runtime": "cylinder",
}


def _quoted(text: str) -> str:
    """A DOT string: quotes and backslashes escaped, nothing unprintable (see escape.py)."""
    return '"' + printable(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _node(node: Node, ids: dict[str, str]) -> str:
    fill, stroke, text = colours(node.kind, node.state)
    style = "filled,rounded" if node.kind in ("task", "queue", "executor") else "filled"
    if node.state == "unused":
        style += ",dashed"
    attributes = [
        f"label={_quoted(node.label)}",
        f"shape={_SHAPES[node.kind]}",
        f'style="{style}"',
        f'fillcolor="{fill}"',
        f'color="{stroke}"',
        f'fontcolor="{text}"',
    ]
    if node.detail:
        attributes.append(f"tooltip={_quoted(node.detail)}")
    return f"{ids[node.id]} [{', '.join(attributes)}];"


def format_routes_dot(repository: Repository) -> str:
    graph = routing_map(repository)
    ids = {node_id: f"n{index}" for index, node_id in enumerate(graph.nodes)}
    lines = [
        "digraph routes {",
        '  graph [rankdir=LR, fontname="Helvetica", nodesep=0.25, ranksep=1.0];',
        '  node [fontname="Helvetica", fontsize=11];',
        '  edge [color="#8c959f", arrowsize=0.6];',
    ]
    for index, (dag_id, members) in enumerate(graph.dags.items()):
        lines.append(f"  subgraph cluster_{index} {{")
        lines.append(f'    label={_quoted(dag_id)}; style="rounded"; color="#8c959f";')
        lines.extend(f"    {_node(graph.nodes[member], ids)}" for member in members)
        lines.append("  }")
    for column in COLUMNS[1:]:
        rank = [node for node in graph.nodes.values() if COLUMNS[COLUMN_OF[node.kind]] == column]
        if rank:
            lines.append("  { rank=same;")
            lines.extend(f"    {_node(node, ids)}" for node in rank)
            lines.append("  }")
    for edge in graph.edges.values():
        colour = STATE_COLOURS[edge.state][1] if edge.state != "ok" else "#8c959f"
        style = ", style=dashed" if edge.state in ("unused", "unknown") else ""
        lines.append(f'  {ids[edge.source]} -> {ids[edge.target]} [color="{colour}"{style}];')
    lines.append("}")
    return "\n".join(lines) + "\n"
