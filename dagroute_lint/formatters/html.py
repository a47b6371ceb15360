"""``routes --format html``: one self-contained page to explore the routing map.

The map is the SVG Graphviz lays out (``svg.py``); above it, every problem and unknown with
its reason; filters by DAG, destination, worker and problem, and a search by task id, that
dim what they leave out, on the map and in the table; a click on a task, a group or a box
shows the tasks behind it and each task's ``trace``, embedded in the page. Nothing is fetched:
the styles, the script (``map_page.js``) and the data are inline, and the page's content
security policy forbids any request, so it opens the same offline, attached to a CI run or
from a file share.
"""

from __future__ import annotations

import json
import pkgutil
from xml.sax.saxutils import escape

from dagroute_lint import __version__
from dagroute_lint.formatters.dot import dag_id, edge_id, node_ids
from dagroute_lint.formatters.escape import printable
from dagroute_lint.formatters.routes import summary, task_records
from dagroute_lint.formatters.routing_map import Node, RoutingMap, routing_map
from dagroute_lint.formatters.svg import map_svg
from dagroute_lint.formatters.trace import format_trace_text
from dagroute_lint.resolve.repository import Repository

_COLUMNS = (
    ("location", "file"),
    ("dag", "dag_id"),
    ("task", "task_id"),
    ("queue", "queue"),
    ("executor", "executor"),
    ("workers", "workers"),
    ("pool", "pool"),
    ("slots", "pool_slots"),
    ("operator", "operator"),
    ("provider", "provider"),
    ("unresolved", "unresolved"),
)

_STYLE = """
body { font-family: Helvetica, Arial, sans-serif; margin: 24px; color: #1f2328; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin: 16px 0 6px; }
p.summary { color: #57606a; }
ul.problems { margin: 0; padding-left: 20px; } ul.problems li { margin: 2px 0; }
li.problem { color: #82071e; } li.unknown { color: #633c01; }
li button, td button, #details button.task {
  font: inherit; color: inherit; border: 0; background: none; cursor: pointer; padding: 0;
  text-decoration: underline dotted; text-align: left; }
#filters { position: sticky; top: 0; background: #ffffff; padding: 8px 0; z-index: 1;
  display: flex; flex-wrap: wrap; gap: 12px; align-items: center;
  border-bottom: 1px solid #d0d7de; }
#filters label { font-size: 13px; color: #57606a; }
#filters select, #filters input { font: inherit; font-size: 13px; max-width: 260px; }
#shown { font-size: 13px; color: #57606a; }
#map { overflow: auto; border: 1px solid #d0d7de; border-radius: 6px; padding: 8px;
  margin-top: 8px; }
#map svg { display: block; }
#map .node, #map .edge, #map [id^="a_n"] { cursor: pointer; transition: opacity 0.15s; }
#map .dim { opacity: 0.15; }
#details { position: fixed; top: 0; right: 0; bottom: 0; width: min(900px, 60vw);
  overflow: auto; background: #ffffff; border-left: 1px solid #d0d7de; padding: 16px;
  box-shadow: -4px 0 12px rgba(31, 35, 40, 0.12); z-index: 2; }
#details pre { font-size: 12px; white-space: pre; overflow-x: auto; }
#details .close { float: right; font: inherit; }
table { border-collapse: collapse; margin-top: 24px; font-size: 13px; }
th, td { border-bottom: 1px solid #d0d7de; padding: 4px 10px; text-align: left; }
td { white-space: nowrap; } #table { overflow-x: auto; }
tr.problem td { background: #ffebe9; }
th button { font: inherit; font-weight: bold; border: 0; background: none; cursor: pointer; }
th[aria-sort="ascending"] button::after { content: " \\25B2"; }
th[aria-sort="descending"] button::after { content: " \\25BC"; }
td.num { text-align: right; }
"""


def _text(value: object) -> str:
    return escape(printable(str(value)), {'"': "&quot;"})


def _cell(key: str, record: dict[str, object], index: int) -> str:
    value = record[key]
    if key == "file":
        shown = f"{value}:{record['line']}"
        sort_key = f"{value}:{int(str(record['line'])):09d}"
    elif isinstance(value, list):
        shown = sort_key = ", ".join(str(item) for item in value)
    else:
        shown = "-" if value is None else str(value)
        sort_key = "" if value is None else str(value)
    number = ' class="num"' if isinstance(value, int) and not isinstance(value, bool) else ""
    inner = _text(shown)
    if key == "task_id":
        inner = f'<button data-task="{index}" title="show its trace">{inner}</button>'
    return f'<td{number} data-key="{_text(sort_key)}">{inner}</td>'


def page_data(graph: RoutingMap) -> dict[str, object]:
    """What the page's script reads: each task with its trace and the filter keys it matches
    (the nodes it reaches, ``dag:NAME``, ``problem:N``), and each node, edge and DAG box of the
    SVG by its id, with the tasks behind it."""
    ids = node_ids(graph)
    keys: list[list[str]] = [[f"dag:{task.dag}"] for task in graph.tasks]
    for node_id, node in graph.nodes.items():
        for index in node.reached:
            keys[index].append(ids[node_id])
    for number, problem in enumerate(graph.problems):
        for index in problem.tasks:
            keys[index] += [f"problem:{number}", f"{problem.state}:any"]
    drawn = [dag for dag, members in graph.dags.items() if members]
    return {
        "tasks": [
            {
                "name": f"{task.dag}.{task.name}",
                "keys": keys[index],
                "trace": format_trace_text([task.trace]),
            }
            for index, task in enumerate(graph.tasks)
        ],
        "nodes": {
            ids[node_id]: {
                "title": node.title,
                "text": "\n".join(node.tooltip),
                "tasks": sorted(node.reached),
            }
            for node_id, node in graph.nodes.items()
        },
        "edges": {
            edge_id(number): sorted(edge.tasks) for number, edge in enumerate(graph.edges.values())
        },
        "dags": {dag_id(number): dag for number, dag in enumerate(drawn)},
    }


def _options(label: str, name: str, choices: list[tuple[str, str]]) -> str:
    options = "".join(
        f'<option value="{_text(key)}">{_text(text)}</option>' for key, text in choices
    )
    return (
        f'<label>{label} <select id="{name}"><option value="">all</option>{options}'
        "</select></label>"
    )


def _place(node: Node) -> str:
    """A destination in the filter: ``reports``, ``KubernetesExecutor (executor)``, ``queue ?
    (environment variable (os.environ))``."""
    if node.state == "unknown":
        return f"{node.title} ({node.reason})"
    return node.title if node.kind == "queue" else f"{node.title} ({node.kind})"


def _filters(graph: RoutingMap) -> str:
    ids = node_ids(graph)
    dags = [(f"dag:{dag}", dag) for dag in graph.dags]
    places = [
        (ids[node_id], _place(node))
        for node_id, node in graph.nodes.items()
        if node.kind in ("queue", "executor") and node.reached
    ]
    workers = [
        (ids[node_id], node.title) for node_id, node in graph.nodes.items() if node.kind == "worker"
    ]
    problems = [("problem:any", "any problem"), ("unknown:any", "any unknown")] + [
        (f"problem:{number}", f"{problem.code}: {problem.text}")
        for number, problem in enumerate(graph.problems)
    ]
    return "\n".join(
        [
            _options("DAG", "dag", dags),
            _options("queue or executor", "place", sorted(places, key=lambda item: item[1])),
            _options("worker", "worker", workers),
            _options("problem", "problem", problems),
            '<label>task <input id="search" type="search" placeholder="task id"></label>',
            '<span id="shown"></span>',
        ]
    )


def _problems(graph: RoutingMap) -> str:
    if not graph.problems:
        return "<p>No problem: every task reaches a worker that has what it needs.</p>"
    items = "\n".join(
        f'<li class="{problem.state}"><button data-filter="problem:{number}">'
        f"{_text(problem.code)}</button> {_text(problem.text)}</li>"
        for number, problem in enumerate(graph.problems)
    )
    return f'<ul class="problems" id="problems">\n{items}\n</ul>'


def _summary(repository: Repository, graph: RoutingMap) -> list[str]:
    stats = summary(repository)
    lines = [
        f"{stats['tasks']} tasks in {stats['dags']} DAGs, {stats['unresolved_tasks']} with "
        "unresolved routing"
    ]
    if repository.inventory is not None:
        for key, label in (
            ("unserved_queues", "queues used but unserved"),
            ("unused_worker_queues", "worker queues no task uses"),
        ):
            names = stats[key]
            assert isinstance(names, list)
            lines.append(f"{label}: {', '.join(names) or 'none'}")
    lines.append("click a task, a box or a DAG for the tasks behind it and their traces")
    return lines


def _script_data(data: dict[str, object]) -> str:
    """JSON inside ``<script type="application/json">``: no ``<`` can close the element."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")


def _inline_svg(svg: str) -> str:
    """Graphviz's SVG document as an element of the page: from ``<svg`` on."""
    return svg[svg.index("<svg") :]


def _script() -> str:
    """``map_page.js``, read through the package's loader as the catalog's tables are."""
    data = pkgutil.get_data(__package__ or "dagroute_lint.formatters", "map_page.js")
    if data is None:  # a loader that cannot read data: a packaging bug
        raise RuntimeError("map_page.js: the package's loader cannot read its data")
    return data.decode("utf-8")


def format_routes_html(repository: Repository) -> str:
    graph = routing_map(repository)
    svg = _inline_svg(map_svg(graph, "html"))
    headers = "".join(f'<th scope="col"><button>{name}</button></th>' for name, _ in _COLUMNS)
    problem_tasks = {index for problem in graph.problems for index in problem.tasks}
    rows = "\n".join(
        f'<tr data-task="{index}"'
        + (' class="problem"' if index in problem_tasks else "")
        + ">"
        + "".join(_cell(key, record, index) for _, key in _COLUMNS)
        + "</tr>"
        for index, record in enumerate(task_records(repository))
    )
    script = _script()
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>dagroute-lint routing map</title>
<style>{_STYLE}</style>
</head>
<body>
<h1>Routing map</h1>
<p class="summary">{"<br>".join(_text(line) for line in _summary(repository, graph))}</p>
<h2>Problems and unknowns</h2>
{_problems(graph)}
<div id="filters">
{_filters(graph)}
</div>
<div id="map">
{svg}</div>
<aside id="details" hidden></aside>
<div id="table"><table id="tasks">
<thead><tr>{headers}</tr></thead>
<tbody>
{rows}
</tbody>
</table></div>
<p class="summary">dagroute-lint {_text(__version__)}</p>
<script type="application/json" id="map-data">{_script_data(page_data(graph))}</script>
<script>{script}</script>
</body>
</html>
"""
