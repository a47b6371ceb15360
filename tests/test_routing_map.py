"""The routing map (``routes --format dot|mermaid|svg|html``), checked by the real tools: Graphviz
accepts the DOT, Mermaid's own parser the flowchart, and headless Chromium renders the page."""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path

import pytest

from dagroute_lint.deployment.inventory import Inventory, load_inventory
from dagroute_lint.formatters.routing_map import COLLAPSE_AT, routing_map
from dagroute_lint.resolve.repository import Repository
from tests.helpers import CELERY_K8S, copy_of_examples, lint_repo, write_repo
from tests.test_cli import invoke
from tests.tools import (
    MERMAID_DIR,
    REPO,
    chromium,
    chromium_flags,
    mermaid_parser,
    png_pixels,
    program,
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
# A name that would end a label and start a node in careless output, in every format.
HOSTILE = 'x"] --> evil; n9["y'
NAMES = f"""
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG({HOSTILE!r}):
    BashOperator(task_id={("<b>&" + HOSTILE)!r}, bash_command="x")
"""
MANY = f"""
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG("big"):
    for i in range({COLLAPSE_AT + 3}):
        BashOperator(task_id=f"step_{{i}}", bash_command="x")
    BashOperator(task_id="odd", bash_command="x", queue="imports")
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_repo(
        tmp_path, {"dags/gaps.py": GAPS, "dags/spark.py": SPARK, "dagroute.toml": CELERY_K8S}
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def drawn(output_format: str, *paths: str) -> str:
    code, out, err = invoke("routes", *(paths or ("dags",)), "--format", output_format)
    assert code == 0, err
    return out


def test_the_map_marks_gaps_unused_queues_and_unknowns(tmp_path: Path) -> None:
    report = lint_repo(tmp_path, {"dags/gaps.py": GAPS, "dags/spark.py": SPARK})
    graph = routing_map(report.repository)
    states = {node.label: node.state for node in graph.nodes.values()}
    assert states["reports"] == "problem"  # used, no worker serves it
    assert states["imports"] == "unused"  # a worker queue no task uses
    assert states["queue ?"] == "unknown"  # os.environ["Q"]
    assert states["spark"] == "problem"  # the pods runtime lacks apache.spark
    assert "apache-airflow-providers-apache-spark on k8s-pods" in next(
        node.detail for node in graph.nodes.values() if node.label == "spark"
    )
    assert states["fine"] == states["default"] == states["celery-general"] == "ok"
    assert {
        (graph.nodes[e.source].label, graph.nodes[e.target].label) for e in graph.edges.values()
    } >= {
        ("fine", "default"),
        ("default", "celery-general"),
        ("celery-general", "base"),
        ("spark", "KubernetesExecutor"),
        ("KubernetesExecutor", "k8s-pods"),
        ("k8s-pods", "pods"),
    }
    assert list(graph.dags) == ["lab", "spark_lab"]


def load(root: Path) -> Inventory:
    return load_inventory(root / "dagroute.toml")


def test_a_large_dag_is_collapsed_per_destination(tmp_path: Path) -> None:
    report = lint_repo(tmp_path, {"dags/many.py": MANY})
    graph = routing_map(report.repository)
    labels = sorted(graph.nodes[member].label for member in graph.dags["big"])
    assert labels == ["1 tasks", f"{COLLAPSE_AT + 3} tasks"]
    collapsed = next(n for n in graph.nodes.values() if n.label == f"{COLLAPSE_AT + 3} tasks")
    assert "step_0" in collapsed.detail and "odd" not in collapsed.detail


def test_dot_is_accepted_by_graphviz(repo: Path) -> None:
    dot = program(("dot",), "apt-get install graphviz")
    text = drawn("dot")
    result = subprocess.run([dot, "-Tsvg"], input=text, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # not even a warning
    svg = result.stdout
    texts = svg_texts(svg)
    for label in ("fine", "stuck", "spark", "reports", "celery-general", "k8s-pods", "pods"):
        assert label in texts, label
    assert 'stroke="#cf222e"' in svg  # the unserved queue and the missing provider, in red


def svg_texts(svg: str) -> list[str]:
    """The text of every ``<text>`` element Graphviz drew (it writes ``-`` as ``&#45;``)."""
    return [html.unescape(text) for text in re.findall(r">([^<]*)</text>", svg)]


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
    assert parsed["subgraphs"] == ["lab", "spark_lab"]
    vertices = parsed["vertices"]
    assert isinstance(vertices, list)
    assert {"fine", "stuck", "spark", "reports", "queue ?", "celery-general", "pods"} <= set(
        vertices
    )
    report_graph = routing_map(_repository(repo))
    assert parsed["edges"] == len(report_graph.edges)
    assert len(vertices) == len(report_graph.nodes)


def _repository(root: Path) -> Repository:
    return lint_repo(root, {}).repository


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
    assert [decoded(title) for title in parsed["subgraphs"]] == [HOSTILE]  # type: ignore[union-attr]
    dot = program(("dot",), "apt-get install graphviz")
    result = subprocess.run(
        [dot, "-Tsvg"], input=drawn("dot"), capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count('<g id="node') == len(graph.nodes)
    assert "<b>&" + HOSTILE in svg_texts(result.stdout)
    page = drawn("html")
    assert "<b>" not in page and "&lt;b&gt;&amp;x&quot;] --&gt; evil" in page


def test_html_page_is_self_contained(repo: Path) -> None:
    page = drawn("html")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    # The only URL is the SVG namespace, which is a name, never fetched.
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) == {"http://www.w3.org/2000/svg"}
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
    assert len(re.findall(r'<g class="node ', dom.stdout)) == len(
        routing_map(_repository(repo)).nodes
    )
    assert dom.stdout.count("<tr>") == 1 + 4  # header and one row per task
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
    # The map starts below the heading and summary: its region must hold drawn nodes, red ones
    # (the unserved queue) among them.
    region = [pixel for row in rows[150:600] for pixel in row[30:1100]]
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
    monkeypatch.chdir(copy_of_examples(tmp_path))
    code, out, err = invoke(*MAP_COMMAND)
    assert code == 0, err
    assert README_MAP.read_text(encoding="utf-8") == out, (
        "regenerate it: dagroute-lint "
        + " ".join(MAP_COMMAND)
        + " --output-file "
        + "docs/routing-map.svg"
    )
    command = "dagroute-lint " + " ".join(MAP_COMMAND) + " --output-file docs/routing-map.svg"
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "![Routing map of examples/](docs/routing-map.svg)" in readme
    assert command in readme
    page = (REPO / "docs" / "routes.md").read_text(encoding="utf-8")
    assert "![Routing map of examples/](routing-map.svg)" in page
    assert command in page
