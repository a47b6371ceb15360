"""``routes --format html``: one self-contained page, the routing map and a sortable task table.

Nothing is fetched: the map is inline SVG, the styles and the sorting script are inline, and the
page's content security policy forbids any request, so it opens the same offline, attached to a
CI run or from a file share.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from dagroute_lint import __version__
from dagroute_lint.formatters.escape import printable
from dagroute_lint.formatters.routes import summary, task_records
from dagroute_lint.formatters.routing_map import routing_map
from dagroute_lint.formatters.svg import render_svg
from dagroute_lint.resolve.repository import Repository

_COLUMNS = (
    ("location", "file"),
    ("dag", "dag_id"),
    ("task", "task_id"),
    ("queue", "queue"),
    ("executor", "executor"),
    ("pool", "pool"),
    ("slots", "pool_slots"),
    ("operator", "operator"),
    ("provider", "provider"),
    ("unresolved", "unresolved"),
)

_STYLE = """
body { font-family: Helvetica, Arial, sans-serif; margin: 24px; color: #1f2328; }
h1 { font-size: 20px; } p.summary { color: #57606a; }
#map { overflow-x: auto; border: 1px solid #d0d7de; border-radius: 6px; padding: 8px; }
table { border-collapse: collapse; margin-top: 24px; font-size: 13px; }
th, td { border-bottom: 1px solid #d0d7de; padding: 4px 10px; text-align: left; }
td { white-space: nowrap; } #table { overflow-x: auto; }
th button { font: inherit; font-weight: bold; border: 0; background: none; cursor: pointer; }
th[aria-sort="ascending"] button::after { content: " \\25B2"; }
th[aria-sort="descending"] button::after { content: " \\25BC"; }
td.num { text-align: right; }
"""

# Sorts the table by the clicked column, numbers as numbers; a second click reverses.
_SCRIPT = """
document.querySelectorAll("#tasks th button").forEach(function (button, column) {
  button.addEventListener("click", function () {
    var header = button.parentElement;
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    document.querySelectorAll("#tasks th").forEach(function (th) {
      th.removeAttribute("aria-sort");
    });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = document.querySelector("#tasks tbody");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[column].dataset.key, y = b.cells[column].dataset.key;
      var order = (isNaN(x) || isNaN(y) || x === "" || y === "")
        ? x.localeCompare(y) : Number(x) - Number(y);
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  });
});
"""


def _text(value: object) -> str:
    return escape(printable(str(value)), {'"': "&quot;"})


def _cell(key: str, record: dict[str, object]) -> str:
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
    return f'<td{number} data-key="{_text(sort_key)}">{_text(shown)}</td>'


def format_routes_html(repository: Repository) -> str:
    stats = summary(repository)
    lines = [f"{stats['tasks']} tasks, {stats['unresolved_tasks']} with unresolved routing"]
    if repository.inventory is not None:
        for key, label in (
            ("unserved_queues", "queues used but unserved"),
            ("unused_worker_queues", "worker queues no task uses"),
        ):
            names = stats[key]
            assert isinstance(names, list)
            lines.append(f"{label}: {', '.join(names) or 'none'}")
    headers = "".join(f'<th scope="col"><button>{name}</button></th>' for name, _ in _COLUMNS)
    rows = "\n".join(
        "<tr>" + "".join(_cell(key, record) for _, key in _COLUMNS) + "</tr>"
        for record in task_records(repository)
    )
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
<p class="summary">{"<br>".join(_text(line) for line in lines)}</p>
<div id="map">
{render_svg(routing_map(repository))}</div>
<div id="table"><table id="tasks">
<thead><tr>{headers}</tr></thead>
<tbody>
{rows}
</tbody>
</table></div>
<p class="summary">dagroute-lint {_text(__version__)}</p>
<script>{_SCRIPT}</script>
</body>
</html>
"""
