"""The routing map (``routes --format dot|mermaid|svg|html``) on small repositories, checked by
the real tools: Graphviz lays the DOT out, Mermaid's own parser reads the flowchart, and
headless Chromium renders the page. ``test_routing_map_realistic.py`` draws a repository of
realistic size."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import NamedTuple
from xml.etree import ElementTree

import pytest

from dagroute_lint.formatters.mermaid import node_text
from dagroute_lint.formatters.routing_map import RoutingMap, routing_map
from dagroute_lint.resolve.repository import Repository
from tests.helpers import CELERY_K8S, copy_of_examples, lint_repo, write_repo
from tests.test_cli import invoke
from tests.tools import (
    MERMAID_DIR,
    REPO,
    chromium,
    chromium_flags,
    graphviz,
    mermaid_parser,
    png_pixels,
)

GAPS = """
import os
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("lab"):
    BashOperator(task_id="fine", bash_command="x")
    BashOperator(task_id="stuck", bash_command="x", queue="reports")
    BashOperator(task_id="guess", bash_command="x", queue=os.environ["Q"])
"""
# Its own file: a module-level import counts for every task of the file (DRL202).
SPARK = """
from airflow.providers.apache.spark.operators.spark_submit import SparkSubmitOperator
from airflow.sdk import DAG

with DAG("spark_lab"):
    SparkSubmitOperator(task_id="spark", application="a.py", executor="KubernetesExecutor")
"""
# A queue reached only as one of two values, an executor the deployment lacks, one that cannot
# be known, and a task the scheduler completes without an executor.
CHOICES = """
import os
from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG

GPU = "gpu" if os.environ.get("USE_GPU") else "default"

with DAG("choices"):
    EmptyOperator(task_id="start")
    for shard in range(3):
        BashOperator(task_id=f"train_{shard}", bash_command="x", queue=GPU)
    BashOperator(task_id="edge", bash_command="x", executor="EdgeExecutor")
    BashOperator(task_id="which", bash_command="x", executor=os.environ.get("EXECUTOR"))
"""
# A name that would end a label and start a node in careless output, in every format.
HOSTILE = 'x"] --> evil; n9["y'
NAMES = f"""
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG({HOSTILE!r}):
    BashOperator(task_id={("<b>&" + HOSTILE)!r}, bash_command="x")
"""
MANY = """
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("big"):
    for i in range(15):
        BashOperator(task_id=f"step_{i}", bash_command="x")
    BashOperator(task_id="odd", bash_command="x", queue="imports")
"""
RED, AMBER, GREY = "#cf222e", "#bf8700", "#afb8c1"
LAID_OUT = ("svg", "html")  # the formats Graphviz lays out: skipped (failed in CI) without it


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_repo(
        tmp_path, {"dags/gaps.py": GAPS, "dags/spark.py": SPARK, "dagroute.toml": CELERY_K8S}
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def drawn(output_format: str, *paths: str) -> str:
    if output_format in LAID_OUT:
        graphviz()
    code, out, err = invoke("routes", *(paths or ("dags",)), "--format", output_format)
    assert code == 0, err
    return out


def _repository(root: Path) -> Repository:
    return lint_repo(root, {}).repository


def by_title(graph: RoutingMap) -> dict[str, list[str]]:
    """Each node's title with its state and what it says when marked."""
    return {node.title: [node.state, node.why] for node in graph.nodes.values()}


def test_the_map_marks_gaps_unused_queues_and_unknowns_with_their_reasons(tmp_path: Path) -> None:
    report = lint_repo(tmp_path, {"dags/gaps.py": GAPS, "dags/spark.py": SPARK})
    graph = routing_map(report.repository)
    assert by_title(graph) == {
        "fine": ["ok", ""],
        "stuck": ["ok", ""],
        "guess": ["ok", ""],
        "spark": ["problem", "DRL202: needs apache-spark provider, which pods lacks"],
        "default": ["ok", ""],
        "reports": ["problem", "DRL101: no CeleryExecutor worker serves it"],
        "queue ?": ["unknown", "DRL105: environment variable (os.environ)"],
        "imports": ["unused", "no task routes here"],
        "KubernetesExecutor": ["ok", ""],
        "celery-general": ["ok", ""],
        "k8s-pods": ["ok", ""],
        "base": ["ok", ""],
        "pods": ["problem", "DRL202: lacks apache-spark provider"],
    }
    notes = {node.title: node.note for node in graph.nodes.values()}
    assert notes["reports"] == "queue · 1 task"
    assert notes["celery-general"] == "CeleryExecutor worker · 1 task"
    assert notes["imports"] == "queue · 0 tasks"
    edges = {
        (graph.nodes[e.source].title, graph.nodes[e.target].title): e.state
        for e in graph.edges.values()
    }
    assert edges == {
        ("fine", "default"): "ok",
        ("default", "celery-general"): "ok",
        ("celery-general", "base"): "ok",
        ("stuck", "reports"): "problem",
        ("guess", "queue ?"): "ok",
        ("spark", "KubernetesExecutor"): "problem",
        ("KubernetesExecutor", "k8s-pods"): "ok",
        ("k8s-pods", "pods"): "ok",
        ("imports", "celery-general"): "unused",
    }
    assert [(p.code, p.text) for p in graph.problems] == [
        ("DRL101", "queue 'reports': no CeleryExecutor worker serves it; 1 task routes to it"),
        (
            "DRL202",
            "runtime 'pods' (worker k8s-pods) lacks the provider "
            "apache-airflow-providers-apache-spark, needed by 1 task it runs: it fails at "
            "startup",
        ),
        (
            "DRL105",
            "the queue of 1 task cannot be known without running the file: environment "
            "variable (os.environ)",
        ),
    ]
    assert list(graph.dags) == ["lab", "spark_lab"]


def test_a_dags_tasks_are_grouped_per_destination_and_counted(tmp_path: Path) -> None:
    report = lint_repo(tmp_path, {"dags/many.py": MANY})
    graph = routing_map(report.repository)
    groups = [graph.nodes[member] for member in graph.dags["big"]]
    assert [(group.title, group.note) for group in groups] == [
        ("15 tasks", "step_0, step_1, …"),
        ("odd", ""),
    ]
    assert groups[0].detail == ", ".join(f"step_{i}" for i in range(15))
    notes = {node.title: node.note for node in graph.nodes.values()}
    assert notes["default"] == "queue · 15 tasks"
    assert notes["imports"] == "queue · 1 task"
    assert notes["celery-general"] == "CeleryExecutor worker · 16 tasks"
    assert graph.dag_label("big") == "big · 16 tasks"


def test_a_queue_reached_only_as_one_of_several_values_is_a_problem(tmp_path: Path) -> None:
    report = lint_repo(tmp_path, {"dags/choices.py": CHOICES})
    graph = routing_map(report.repository)
    marked = by_title(graph)
    assert marked["gpu"] == ["problem", "DRL101: no CeleryExecutor worker serves it"]
    assert marked["EdgeExecutor"] == ["problem", "DRL103: not configured: Airflow rejects the DAG"]
    assert marked["executor ?"] == ["unknown", "DRL105: environment variable (os.environ.get)"]
    notes = {node.title: node.note for node in graph.nodes.values()}
    assert notes["gpu"] == "queue · 3 tasks may route here"
    assert notes["default"] == "queue · 3 tasks may route here"
    group = next(node for node in graph.nodes.values() if node.title == "3 tasks")
    dashed = {
        graph.nodes[edge.target].title: (edge.maybe, edge.state)
        for edge in graph.edges.values()
        if edge.source == group.id
    }
    assert dashed == {"gpu": (True, "problem"), "default": (True, "ok")}
    assert [problem.text for problem in graph.problems[:2]] == [
        "queue 'gpu': no CeleryExecutor worker serves it; 3 tasks may, as one of several values",
        "executor 'EdgeExecutor': not configured: Airflow rejects the DAG (configured: "
        "CeleryExecutor, KubernetesExecutor); 1 task routes to it",
    ]
    # The EmptyOperator reaches no worker: counted on its DAG's box, drawn nowhere.
    assert graph.dag_label("choices") == "choices · 6 tasks (1 need no worker)"
    assert "start" not in marked


def test_without_an_inventory_the_map_stops_at_the_queues(tmp_path: Path) -> None:
    report = lint_repo(tmp_path, {"dags/gaps.py": GAPS}, inventory=None)
    graph = routing_map(report.repository)
    assert by_title(graph) == {
        "fine": ["ok", ""],
        "stuck": ["ok", ""],
        "guess": ["ok", ""],
        "default": ["ok", ""],
        "reports": ["ok", ""],
        "queue ?": ["unknown", "DRL105: environment variable (os.environ)"],
    }
    assert {node.kind for node in graph.nodes.values()} == {"tasks", "queue"}


PANDAS = """
import pandas
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("frames"):
    BashOperator(task_id="load", bash_command="x")
    BashOperator(task_id="save", bash_command="x")
"""


def test_a_package_a_serving_runtime_lacks_is_a_problem(tmp_path: Path) -> None:
    report = lint_repo(tmp_path, {"dags/frames.py": PANDAS})
    graph = routing_map(report.repository)
    marked = by_title(graph)
    assert marked["2 tasks"] == ["problem", "DRL203: needs pandas, which base lacks"]
    assert marked["base"] == ["problem", "DRL203: lacks pandas"]
    assert [(p.code, p.text) for p in graph.problems] == [
        (
            "DRL203",
            "runtime 'base' (worker celery-general) lacks the package pandas, needed by 2 tasks "
            "it runs: they fail at startup",
        )
    ]


class Box(NamedTuple):
    """A box Graphviz drew: a node, or a task group's row of a DAG's box."""

    id: str
    texts: list[str]
    fills: set[str]
    strokes: set[str]

    @property
    def title(self) -> str:
        return self.texts[0]

    @property
    def text(self) -> str:
        return " ".join(self.texts)


_SVG = "{http://www.w3.org/2000/svg}"


def _box(group: ElementTree.Element, box_id: str) -> Box:
    texts = ["".join(text.itertext()).strip() for text in group.iter(f"{_SVG}text")]
    shapes = [
        shape
        for shape in group.iter()
        if shape.tag in (f"{_SVG}path", f"{_SVG}polygon", f"{_SVG}ellipse")
    ]
    return Box(
        box_id,
        [text for text in texts if text],
        {shape.get("fill", "") for shape in shapes},
        {shape.get("stroke", "") for shape in shapes},
    )


def drawn_boxes(svg: str) -> list[Box]:
    """Every box of Graphviz's SVG: the nodes, and each row of a DAG's box (a cell Graphviz
    wraps in a link, ``a_`` + its id)."""
    root = ElementTree.fromstring(svg)
    boxes: list[Box] = []
    for group in root.iter(f"{_SVG}g"):
        classes = group.get("class", "").split()
        if classes[:1] != ["node"]:
            continue
        if "dag" not in classes:
            boxes.append(_box(group, group.get("id", "")))
            continue
        rows = (row for row in group.iter(f"{_SVG}g") if row.get("id", "").startswith("a_"))
        # Less the link Graphviz makes of the whole box for its tooltip.
        boxes += [
            _box(row, row.get("id", "")[2:])
            for row in rows
            if row.get("id") != f"a_{group.get('id')}"
        ]
    return boxes


def box(boxes: list[Box], title: str, containing: str = "") -> Box:
    """The one box of ``title`` whose text holds ``containing``."""
    found = [each for each in boxes if each.title == title and containing in each.text]
    assert len(found) == 1, (title, containing, found)
    return found[0]


def graphviz_svg(dot_source: str) -> str:
    result = subprocess.run(
        [graphviz(), "-Tsvg"], input=dot_source, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # not even a warning
    return result.stdout


def test_dot_is_laid_out_by_graphviz_with_every_gap_red_and_its_reason(repo: Path) -> None:
    boxes = drawn_boxes(graphviz_svg(drawn("dot")))
    assert sorted(each.title for each in boxes) == sorted({
        "fine", "stuck", "guess", "spark", "default", "reports", "queue ?", "imports",
        "KubernetesExecutor", "celery-general", "k8s-pods", "base", "pods",
    })  # fmt: skip
    reports = box(boxes, "reports")
    assert RED in reports.strokes
    assert reports.text == "reports queue · 1 task DRL101: no CeleryExecutor worker serves it"
    spark = box(boxes, "spark")
    assert RED in spark.strokes and "DRL202: needs apache-spark provider" in spark.text
    assert RED in box(boxes, "pods").strokes
    unknown = box(boxes, "queue ?")
    assert AMBER in unknown.strokes
    assert "DRL105: environment variable (os.environ)" in unknown.text
    unused = box(boxes, "imports")
    assert GREY in unused.strokes and "no task routes here" in unused.text
    assert RED not in box(boxes, "fine").strokes | box(boxes, "default").strokes


def test_svg_is_graphviz_laying_out_the_dot(repo: Path) -> None:
    svg = drawn("svg")
    assert svg.startswith("<?xml") and "Generated by graphviz" in svg
    assert svg == graphviz_svg(drawn("dot"))


def test_without_graphviz_svg_and_html_exit_2_saying_how_to_install_it(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "no-programs"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    for output_format in ("svg", "html"):
        code, out, err = invoke("routes", "dags", "--format", output_format)
        assert code == 2, err
        assert out == ""
        assert err.startswith(
            f"dagroute-lint: --format {output_format} lays the map out with Graphviz's dot, "
            "which is not on PATH: install Graphviz (apt-get install graphviz"
        ), err
        assert "Traceback" not in err
    assert drawn("dot").startswith("digraph routes {")  # needs nothing


def mermaid(text: str) -> dict[str, object]:
    node, script = mermaid_parser()
    result = subprocess.run(
        [node, str(script)],
        input=text,
        capture_output=True,
        text=True,
        cwd=MERMAID_DIR,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    parsed: dict[str, object] = json.loads(result.stdout)
    vertices = parsed["vertices"]
    assert isinstance(vertices, list)
    parsed["vertices"] = [decoded(vertex) for vertex in vertices]
    return parsed


def decoded(text: str) -> str:
    """Mermaid keeps ``#35;`` entities as its own placeholders until it draws; decode them."""
    return re.sub("\ufb02\u00b0\u00b0(\\d+)\u00b6\u00df", lambda m: chr(int(m[1])), text)


def test_mermaid_is_accepted_by_the_mermaid_parser(repo: Path) -> None:
    parsed = mermaid(drawn("mermaid"))
    assert parsed["type"] == "flowchart-v2"
    subgraphs = parsed["subgraphs"]
    assert isinstance(subgraphs, list)
    assert [decoded(title) for title in subgraphs] == ["lab · 3 tasks", "spark_lab · 1 task"]
    vertices = parsed["vertices"]
    assert isinstance(vertices, list)
    assert {
        "fine",
        "reports<br>queue · 1 task<br>DRL101: no CeleryExecutor worker serves it",
        "queue ?<br>queue · 1 task<br>DRL105: environment variable (os.environ)",
        "celery-general<br>CeleryExecutor worker · 1 task",
    } <= set(vertices)
    graph = routing_map(_repository(repo))
    assert parsed["edges"] == len(graph.edges)
    # Each box's text as we wrote it, its #183; entities read as Mermaid reads them.
    written = [
        re.sub(r"#(\d+);", lambda m: chr(int(m[1])), node_text(n)) for n in graph.nodes.values()
    ]
    assert sorted(vertices) == sorted(written)


def test_hostile_names_stay_inside_their_labels(repo: Path) -> None:
    (repo / "dags" / "gaps.py").unlink()
    (repo / "dags" / "spark.py").unlink()
    write_repo(repo, {"dags/names.py": NAMES})
    parsed = mermaid(drawn("mermaid"))
    graph = routing_map(_repository(repo))
    vertices = parsed["vertices"]
    assert isinstance(vertices, list)
    assert len(vertices) == len(graph.nodes) and parsed["edges"] == len(graph.edges)
    assert "<b>&" + HOSTILE in vertices
    assert [decoded(title) for title in parsed["subgraphs"]] == [f"{HOSTILE} · 1 task"]  # type: ignore[union-attr]
    svg = graphviz_svg(drawn("dot"))
    # The task group is a row of its DAG's box, which is a node in its place.
    assert svg.count('class="node') == len(graph.nodes)
    assert [each.title for each in drawn_boxes(svg) if "&" in each.title] == ["<b>&" + HOSTILE]
    page = drawn("html")
    assert "<b>&" not in page and "&lt;b&gt;&amp;x&quot;] --&gt; evil" in page


def test_html_page_is_self_contained(repo: Path) -> None:
    page = drawn("html")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    # The only URLs are the SVG and XLink namespaces, which are names, never fetched.
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) == {
        "http://www.w3.org/2000/svg",
        "http://www.w3.org/1999/xlink",
    }
    assert "<script src" not in page and "<link" not in page


def test_html_page_renders_the_map_in_chromium(repo: Path, tmp_path: Path) -> None:
    browser = chromium()
    page = tmp_path / "map.html"
    page.write_text(drawn("html"), encoding="utf-8")
    flags = chromium_flags(tmp_path / "profile")
    dom = subprocess.run(
        [browser, *flags, "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert dom.returncode == 0, dom.stderr[-2000:]
    graph = routing_map(_repository(repo))
    # Every node but the task groups, which are rows of their DAG's box; one box per DAG.
    boxes = sum(1 for node in graph.nodes.values() if node.kind != "tasks")
    assert len(re.findall(r'<g id="n\d+" class="node ', dom.stdout)) == boxes
    assert len(re.findall(r'<g id="d\d+" class="node dag"', dom.stdout)) == 2
    assert dom.stdout.count("<tr data-task=") == 4  # one row per task
    assert '<span id="shown">4 of 4 tasks</span>' in dom.stdout  # the script ran
    shot = tmp_path / "shot.png"
    done = subprocess.run(
        [browser, *flags, "--window-size=1200,900", f"--screenshot={shot}", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0 and shot.is_file(), done.stderr[-2000:]
    width, height, rows = png_pixels(shot.read_bytes())
    assert (width, height) == (1200, 900)
    # Below the heading, the problems and the filters: the map's region must hold drawn nodes,
    # red ones (the unserved queue, the task lacking a provider) among them.
    region = [pixel for row in rows[250:900] for pixel in row[30:1100]]
    drawn_pixels = sum(1 for pixel in region if pixel != (255, 255, 255))
    problem_fill = sum(1 for pixel in region if pixel == (0xFF, 0xEB, 0xE9))
    assert drawn_pixels > 0.03 * len(region), drawn_pixels
    assert problem_fill > 1000, problem_fill  # about a node's area


SORT_CHECK = """
const { JSDOM } = require("jsdom");
const html = require("fs").readFileSync(0, "utf8");
const dom = new JSDOM(html, { runScripts: "dangerously" });
const document = dom.window.document;
const column = (n) => [...document.querySelectorAll("#tasks tbody tr")].map(
  (row) => row.cells[n].textContent);
const buttons = document.querySelectorAll("#tasks th button");
buttons[2].click();
const ascending = column(2);
buttons[2].click();
console.log(JSON.stringify({ ascending, descending: column(2) }));
"""


def test_html_table_sorts_by_the_clicked_column(repo: Path) -> None:
    node, _ = mermaid_parser()  # the same node and jsdom
    result = subprocess.run(
        [node, "-e", SORT_CHECK],
        input=drawn("html"),
        capture_output=True,
        text=True,
        cwd=MERMAID_DIR,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    order = json.loads(result.stdout)
    assert order["ascending"] == ["fine", "guess", "spark", "stuck"]
    assert order["descending"] == list(reversed(order["ascending"]))


def drawing(svg: str) -> list[tuple[str, ...]]:
    """What an SVG draws, without where: each element's kind, id, class, colours and text, in
    order (a layout is Graphviz's, and its coordinates differ between its versions)."""
    return [
        (
            element.tag,
            element.get("id", ""),
            element.get("class", ""),
            element.get("fill", ""),
            element.get("stroke", ""),
            (element.text or "").strip(),
        )
        for element in ElementTree.fromstring(svg).iter()
    ]


README_MAP = REPO / "docs" / "routing-map.svg"
MAP_COMMAND = (
    "routes",
    "examples/dags",
    "--inventory",
    "examples/dagroute.toml",
    "--format",
    "svg",
)


def test_the_readme_map_of_the_examples_is_up_to_date(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    graphviz()
    monkeypatch.chdir(copy_of_examples(tmp_path))
    code, out, err = invoke(*MAP_COMMAND)
    assert code == 0, err
    command = "dagroute-lint " + " ".join(MAP_COMMAND) + " --output-file docs/routing-map.svg"
    assert drawing(README_MAP.read_text(encoding="utf-8")) == drawing(out), (
        f"regenerate it: {command}"
    )
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "![Routing map of examples/](docs/routing-map.svg)" in readme
    assert command in readme
    page = (REPO / "docs" / "routes.md").read_text(encoding="utf-8")
    assert "![Routing map of examples/](routing-map.svg)" in page
    assert command in page
