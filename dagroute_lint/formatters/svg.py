"""``routes --format svg``: the routing map drawn here, as one SVG image (no Graphviz needed).

Four columns, left to right: the tasks in a box per DAG, then queues (and the executors that
ignore queues), workers, runtimes. Each node after the first column sits at the mean height of
the nodes that point at it, so edges run mostly level; nodes keep their order and never overlap.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from dagroute_lint.formatters.escape import printable
from dagroute_lint.formatters.map_style import STATE_COLOURS, colours
from dagroute_lint.formatters.routing_map import COLUMN_OF, COLUMNS, RoutingMap, routing_map
from dagroute_lint.records import record
from dagroute_lint.resolve.repository import Repository

NODE_WIDTH = 190
NODE_HEIGHT = 26
GAP = 8
COLUMN_GAP = 110
MARGIN = 16
DAG_HEADER = 24
DAG_PADDING = 8
HEADING = 28
MAX_LABEL = 26
_HEADINGS = ("tasks per DAG", "queues / executors", "workers", "runtimes")


@record
class _Box:
    x: float
    y: float


def _text(value: str) -> str:
    return escape(printable(value), {'"': "&quot;"})


def _short(label: str) -> str:
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def _column_x(column: int) -> float:
    return MARGIN + column * (NODE_WIDTH + COLUMN_GAP)


def _layout(graph: RoutingMap) -> tuple[dict[str, _Box], list[tuple[str, float, float]], float]:
    """Node positions, the DAG boxes (label, top, bottom), and the height of the drawing."""
    boxes: dict[str, _Box] = {}
    dag_boxes: list[tuple[str, float, float]] = []
    y: float = MARGIN + HEADING
    for dag_id, members in graph.dags.items():
        top = y
        y += DAG_HEADER
        for member in members:
            boxes[member] = _Box(_column_x(0) + DAG_PADDING, y)
            y += NODE_HEIGHT + GAP
        y += DAG_PADDING
        dag_boxes.append((dag_id, top, y))
        y += GAP * 2
    height = y
    incoming: dict[str, list[str]] = {}
    for edge in graph.edges.values():
        incoming.setdefault(edge.target, []).append(edge.source)
    for column in range(1, len(COLUMNS)):
        placed = [node for node in graph.nodes.values() if COLUMN_OF[node.kind] == column]
        wanted = []
        for order, node in enumerate(placed):
            sources = [boxes[s].y for s in incoming.get(node.id, []) if s in boxes]
            wanted.append((sum(sources) / len(sources) if sources else float("inf"), order, node))
        y = MARGIN + HEADING
        for target, _, node in sorted(wanted, key=lambda item: (item[0], item[1])):
            y = max(y, target if target != float("inf") else y)
            boxes[node.id] = _Box(_column_x(column), y)
            y += NODE_HEIGHT + GAP
        height = max(height, y)
    return boxes, dag_boxes, height + MARGIN


def render_svg(graph: RoutingMap) -> str:
    boxes, dag_boxes, height = _layout(graph)
    width = _column_x(len(COLUMNS) - 1) + NODE_WIDTH + MARGIN + DAG_PADDING * 2
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="Helvetica, Arial, sans-serif" '
        'font-size="12" role="img" aria-label="routing map">',
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
    ]
    for column, heading in enumerate(_HEADINGS):
        parts.append(
            f'<text x="{_column_x(column):.0f}" y="{MARGIN + 12}" font-weight="bold" '
            f'fill="#57606a">{heading}</text>'
        )
    for dag_id, top, bottom in dag_boxes:
        parts.append(
            f'<g class="dag"><rect x="{_column_x(0):.0f}" y="{top:.0f}" '
            f'width="{NODE_WIDTH + DAG_PADDING * 2}" height="{bottom - top:.0f}" rx="6" '
            f'fill="#f6f8fa" stroke="#d0d7de"/><text x="{_column_x(0) + DAG_PADDING:.0f}" '
            f'y="{top + 16:.0f}" font-weight="bold">{_text(_short(dag_id))}</text>'
            f"<title>{_text(dag_id)}</title></g>"
        )
    for edge in graph.edges.values():
        start, end = boxes[edge.source], boxes[edge.target]
        x1, y1 = start.x + NODE_WIDTH, start.y + NODE_HEIGHT / 2
        x2, y2 = end.x, end.y + NODE_HEIGHT / 2
        middle = (x1 + x2) / 2
        colour = STATE_COLOURS[edge.state][1] if edge.state != "ok" else "#8c959f"
        dash = ' stroke-dasharray="4 3"' if edge.state in ("unused", "unknown") else ""
        parts.append(
            f'<path d="M{x1:.1f},{y1:.1f} C{middle:.1f},{y1:.1f} {middle:.1f},{y2:.1f} '
            f'{x2:.1f},{y2:.1f}" fill="none" stroke="{colour}" stroke-width="1.3"{dash}/>'
        )
    for node in graph.nodes.values():
        box = boxes[node.id]
        fill, stroke, text = colours(node.kind, node.state)
        dash = ' stroke-dasharray="4 3"' if node.state == "unused" else ""
        tooltip = node.label + (f" — {node.detail}" if node.detail else "")
        parts.append(
            f'<g class="node {node.kind} {node.state}"><rect x="{box.x:.0f}" y="{box.y:.0f}" '
            f'width="{NODE_WIDTH}" height="{NODE_HEIGHT}" rx="4" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="1.2"{dash}/><text x="{box.x + 8:.0f}" '
            f'y="{box.y + 17:.0f}" fill="{text}">{_text(_short(node.label))}</text>'
            f"<title>{_text(tooltip)}</title></g>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def format_routes_svg(repository: Repository) -> str:
    return render_svg(routing_map(repository))
