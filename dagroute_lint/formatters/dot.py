"""``routes --format dot``: the routing map for Graphviz, the one source of the SVG and HTML maps.

Left to right (``rankdir=LR``): a box per DAG with a row per task group (an edge leaves from
its row), then the queues and executors, the workers, the runtimes, each kind in a column of
its own (``rank=same``), so a large repository grows down by one row per DAG and destination,
and Graphviz's layered layout orders each column to keep edges from crossing. Every node and
row carries the ``id`` the HTML page's script finds it by (Graphviz writes it into its SVG).
"""

from __future__ import annotations

import textwrap
from xml.sax.saxutils import escape

from dagroute_lint.formatters.escape import printable
from dagroute_lint.formatters.map_style import EDGE_COLOUR, STATE_COLOURS, colours
from dagroute_lint.formatters.routing_map import COLUMNS, Edge, Node, RoutingMap, routing_map
from dagroute_lint.resolve.repository import Repository

_SHAPES = {
    "queue": "box",
    "executor": "box",
    "worker": "box3d",
    "runtime": "cylinder",
}
# A reason is wrapped at this many characters, so a long one makes a box taller, not wider.
REASON_WIDTH = 36
LEGEND = (
    "red: a problem, with its rule's code  ·  amber: not known without running the file  ·  "
    "grey, dashed: a worker queue no task uses  ·  dashed arrow: one of several values"
)


def node_ids(graph: RoutingMap) -> dict[str, str]:
    """The DOT name of each node, which is also its ``id`` in the SVG: ``n0``, ``n1``..."""
    return {node_id: f"n{index}" for index, node_id in enumerate(graph.nodes)}


def edge_id(index: int) -> str:
    return f"e{index}"


def dag_id(index: int) -> str:
    return f"d{index}"


def _quoted(*lines: str) -> str:
    """A DOT string of ``lines``: quotes and backslashes escaped, nothing unprintable (see
    escape.py), each line ended by DOT's ``\\n``."""
    escaped = (printable(line).replace("\\", "\\\\").replace('"', '\\"') for line in lines)
    return '"' + "\\n".join(escaped) + '"'


def _html(text: str) -> str:
    """Text inside a Graphviz HTML-like label."""
    return escape(printable(text), {'"': "&quot;"})


def _small(text: str, colour: str) -> str:
    return f'<font point-size="9" color="{colour}">{_html(text)}</font>'


def _reason(node: Node, colour: str) -> list[str]:
    """Why the node is marked, wrapped, in its state's colour."""
    return [_small(line, colour) for line in textwrap.wrap(node.why, REASON_WIDTH)]


def _label(node: Node) -> str:
    _, stroke, text = colours(node.kind, node.state)
    parts = [f"<b>{_html(node.title)}</b>", _small(node.note, text), *_reason(node, stroke)]
    return "<" + "<br/>".join(parts) + ">"


def _node(node: Node, ids: dict[str, str]) -> str:
    fill, stroke, text = colours(node.kind, node.state)
    style = "filled,rounded" if node.kind in ("queue", "executor") else "filled"
    if node.state == "unused":
        style += ",dashed"
    attributes = [
        f"id={ids[node.id]}",
        f'class="{node.kind} {node.state}"',
        f"label={_label(node)}",
        f"shape={_SHAPES[node.kind]}",
        f'style="{style}"',
        f'fillcolor="{fill}"',
        f'color="{stroke}"',
        f'fontcolor="{text}"',
        f"penwidth={2 if node.state == 'problem' else 1}",
        f"tooltip={_quoted(*node.tooltip)}",
    ]
    return f"{ids[node.id]} [{', '.join(attributes)}];"


def _row(node: Node, ids: dict[str, str]) -> str:
    """A task group as a row of its DAG's box: a port its edges leave from, and the ``id`` the
    page finds it by (Graphviz writes a cell's ``id`` on the link it makes of ``href``)."""
    fill, stroke, text = colours(node.kind, node.state)
    name = ids[node.id]
    line = f"<b>{_html(node.title)}</b>"
    if node.note:
        line += "  " + _small(node.note, text)
    lines = [line, *_reason(node, stroke)]
    border = 1 if node.state == "problem" else 0
    tip = "&#10;".join(_html(line) for line in node.tooltip)
    return (
        f'<tr><td port="{name}" id="{name}" href="#{name}" tooltip="{tip}" '
        f'align="left" balign="left" bgcolor="{fill}" color="{stroke}" border="{border}">'
        + '<br align="left"/>'.join(lines)
        + "</td></tr>"
    )


def _dag(index: int, dag: str, graph: RoutingMap, ids: dict[str, str]) -> str:
    """A DAG as one box: its name and task count, then a row per task group."""
    rows = [
        f'<tr><td align="left" cellpadding="3"><b>{_html(graph.dag_label(dag))}</b></td></tr>',
        *(_row(graph.nodes[member], ids) for member in graph.dags[dag]),
    ]
    table = (
        '<table border="1" cellborder="0" cellspacing="2" cellpadding="2" style="rounded" '
        f'bgcolor="#f6f8fa" color="#d0d7de">{"".join(rows)}</table>'
    )
    name = dag_id(index)
    return (
        f'  {name} [id={name}, class="dag", shape=plain, label=<{table}>, tooltip={_quoted(dag)}];'
    )


def _end(node_id: str, graph: RoutingMap, ids: dict[str, str], dags: dict[str, str]) -> str:
    """Where an edge attaches: a task group's row, on the right of its DAG's box."""
    node = graph.nodes[node_id]
    if node.kind == "tasks" and node.dag is not None:
        return f"{dags[node.dag]}:{ids[node_id]}:e"
    return ids[node_id]


def _edge(
    index: int, edge: Edge, graph: RoutingMap, ids: dict[str, str], dags: dict[str, str]
) -> str:
    colour = STATE_COLOURS[edge.state][1] if edge.state != "ok" else EDGE_COLOUR
    attributes = [f"id={edge_id(index)}", f'color="{colour}"']
    if edge.maybe or edge.state == "unused":
        attributes.append("style=dashed")
    if edge.state == "problem":
        attributes.append("penwidth=1.6")
    source, target = graph.nodes[edge.source], graph.nodes[edge.target]
    attributes.append(f"tooltip={_quoted(f'{source.title} → {target.title}')}")
    ends = f"{_end(edge.source, graph, ids, dags)} -> {_end(edge.target, graph, ids, dags)}"
    return f"  {ends} [{', '.join(attributes)}];"


def routing_dot(graph: RoutingMap) -> str:
    """The map as DOT source."""
    ids = node_ids(graph)
    drawn = [dag for dag, members in graph.dags.items() if members]
    dags = {dag: dag_id(index) for index, dag in enumerate(drawn)}
    lines = [
        "digraph routes {",
        '  graph [rankdir=LR, newrank=true, fontname="Helvetica", fontsize=10, nodesep=0.12, '
        f'ranksep=0.9, labelloc=b, labeljust=l, fontcolor="#57606a", label={_quoted(LEGEND)}];',
        '  node [fontname="Helvetica", fontsize=11, margin="0.1,0.04", height=0.3];',
        f'  edge [color="{EDGE_COLOUR}", arrowsize=0.6];',
    ]
    lines.extend(_dag(index, dag, graph, ids) for index, dag in enumerate(drawn))
    for kinds in COLUMNS[1:]:
        column = [node for node in graph.nodes.values() if node.kind in kinds]
        if column:
            lines.append("  { rank=same;")
            lines.extend(f"    {_node(node, ids)}" for node in column)
            lines.append("  }")
    lines.extend(
        _edge(index, edge, graph, ids, dags) for index, edge in enumerate(graph.edges.values())
    )
    lines.append("}")
    return "\n".join(lines) + "\n"


def format_routes_dot(repository: Repository) -> str:
    return routing_dot(routing_map(repository))
