"""The routing map of a repository of realistic size (``realistic_repository.py``: 21 DAGs, 211
tasks, nine queues, four workers), drawn by the real tools: every queue, worker, runtime and
problem appears with its reason in the DOT Graphviz lays out, in the SVG, and in the page
headless Chromium renders, where the problems are drawn red where their boxes are; the map's
natural size stays within what a person reads at 100 % (``MAP_WIDTH`` by ``MAP_HEIGHT`` CSS
pixels, no text under ``MIN_TEXT`` pixels); and the page's filters, search and clicks work in
the browser.
"""

from __future__ import annotations

import html
import json
import math
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import run_command
from tests.realistic_repository import (
    CANDIDATE_TASKS,
    DAGS,
    MISSING_EXECUTOR,
    QUEUES,
    RUNTIMES,
    TASKS,
    UNSERVED_QUEUE,
    UNUSED_QUEUE,
    WORKERS,
    realistic_repository,
)
from tests.test_routing_map import (
    AMBER,
    GREY,
    LAID_OUT,
    RED,
    Box,
    box,
    drawn_boxes,
    graphviz_svg,
)
from tests.tools import chromium, chromium_flags, graphviz, png_pixels

# What a person reads without zooming out: the map at 100 %, on a large screen scrolled once.
MAP_WIDTH, MAP_HEIGHT, MIN_TEXT = 2000, 2500, 12
# The browser window of the measures and the screenshot: the map within bounds fits in it.
WINDOW = (MAP_WIDTH + 100, MAP_HEIGHT + 500)
PROBLEM_FILL, UNKNOWN_FILL = (0xFF, 0xEB, 0xE9), (0xFF, 0xF8, 0xC5)
# s3_exports' tasks (its file imports the amazon provider, which their worker lacks), by the
# title of their box and a task id its text names.
S3_GROUP = ("8 tasks", "upload_orders")
GAPS = ((UNSERVED_QUEUE, ""), (MISSING_EXECUTOR, ""), ("reporting", ""), S3_GROUP)


@pytest.fixture(scope="module")
def realistic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return realistic_repository(tmp_path_factory.mktemp("realistic"))


def routes(root: Path, output_format: str) -> str:
    if output_format in LAID_OUT:
        graphviz()
    result = run_command(
        [sys.executable, "-m", "dagroute_lint", "routes", "dags", "--format", output_format,
         "--no-cache"],
        cwd=root,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_repository_is_of_realistic_size(realistic: Path) -> None:
    document = json.loads(routes(realistic, "json"))
    summary = document["summary"]
    assert (summary["tasks"], summary["dags"]) == (TASKS, DAGS)
    used = set(summary["tasks_per_queue"]) | set(summary["unserved_queues"])
    assert used | set(summary["unused_worker_queues"]) == set(QUEUES)
    assert summary["unserved_queues"] == [UNSERVED_QUEUE]
    assert summary["unused_worker_queues"] == [UNUSED_QUEUE]
    # The unserved queue is only ever one of several values a task's queue can take.
    assert UNSERVED_QUEUE not in summary["tasks_per_queue"]
    assert summary["tasks_with_candidates"] == CANDIDATE_TASKS


def assert_every_queue_worker_and_problem(boxes: list[Box]) -> None:
    """The drawing holds every queue, worker and runtime, each gap red with its reason, each
    unknown amber with its reason, the unused queue grey; and far fewer boxes than tasks."""
    titles = {each.title for each in boxes}
    for name in (*QUEUES, *WORKERS, *RUNTIMES):
        assert name in titles, name
    assert len(boxes) < TASKS / 2.5, len(boxes)
    gpu = box(boxes, UNSERVED_QUEUE)
    assert RED in gpu.strokes
    assert gpu.text == (
        f"{UNSERVED_QUEUE} queue · {CANDIDATE_TASKS} tasks may route here "
        "DRL101: no CeleryExecutor worker serves it"
    )
    edge = box(boxes, MISSING_EXECUTOR)
    assert RED in edge.strokes and "DRL103: not configured: Airflow rejects the DAG" in edge.text
    reporting = box(boxes, "reporting")
    assert RED in reporting.strokes and "DRL202: lacks amazon provider" in reporting.text
    uploads = box(boxes, *S3_GROUP)
    assert RED in uploads.strokes
    assert "DRL202: needs amazon provider, which reporting lacks" in uploads.text
    unknown_queue, unknown_executor = box(boxes, "queue ?"), box(boxes, "executor ?")
    assert AMBER in unknown_queue.strokes
    assert "DRL105: environment variable (os.environ)" in unknown_queue.text
    assert AMBER in unknown_executor.strokes
    assert "DRL105: environment variable (os.environ.get)" in unknown_executor.text
    unused = box(boxes, UNUSED_QUEUE)
    assert GREY in unused.strokes and "no task routes here" in unused.text
    assert RED not in box(boxes, "etl").strokes | box(boxes, "celery-etl").strokes


def test_graphviz_lays_out_the_dot_with_every_queue_worker_and_problem(realistic: Path) -> None:
    assert_every_queue_worker_and_problem(drawn_boxes(graphviz_svg(routes(realistic, "dot"))))


def test_the_svg_holds_every_queue_worker_and_problem(realistic: Path) -> None:
    svg = routes(realistic, "svg")
    assert_every_queue_worker_and_problem(drawn_boxes(svg))
    # Wide-ish, not a column: about as many points wide as half its height, or more.
    width, height = (
        float(n) for n in re.findall(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg)[0]
    )
    assert width > height / 2, (width, height)


# Appended to a copy of the page: measures it and drives it (see the script's header).
PROBE = Path(__file__).with_name("map_probe.js")


@pytest.fixture(scope="module")
def page(realistic: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The page as written, and what the probe saw of a copy in Chromium, at ``WINDOW``."""
    folder = tmp_path_factory.mktemp("page")
    written = folder / "map.html"
    written.write_text(routes(realistic, "html"), encoding="utf-8")
    probed = folder / "probed.html"
    probed.write_text(
        written.read_text(encoding="utf-8").replace(
            "</body>", f"<script>{PROBE.read_text(encoding='utf-8')}</script></body>"
        )
    )
    dom = subprocess.run(
        [chromium(), *chromium_flags(folder / "profile"), f"--window-size={WINDOW[0]},{WINDOW[1]}",
         "--dump-dom", probed.as_uri()],
        capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = re.search(r'data-probe="([^"]*)"', dom.stdout)
    assert found is not None, "the probe did not run: " + dom.stderr[-2000:]
    return written, json.loads(html.unescape(found.group(1)))


def test_the_page_shows_the_map_at_a_readable_size(page: tuple[Path, dict[str, Any]]) -> None:
    _, seen = page
    left, top, width, height = seen["map"]
    print(f"routing map of {TASKS} tasks: {width:.0f} x {height:.0f} CSS px, smallest text "
          f"{seen['smallest']:.1f} px")  # fmt: skip
    assert width <= MAP_WIDTH and height <= MAP_HEIGHT, (width, height)
    assert seen["smallest"] >= MIN_TEXT - 0.01, seen["smallest"]
    assert left + width <= WINDOW[0] and top + height <= WINDOW[1]


def test_the_page_lists_and_draws_every_queue_worker_and_problem(
    page: tuple[Path, dict[str, Any]],
) -> None:
    written, seen = page
    boxes = seen["boxes"]
    titles = {each["title"] for each in boxes}
    for name in (*QUEUES, *WORKERS, *RUNTIMES):
        assert name in titles, name

    def found(title: str, containing: str = "") -> dict[str, Any]:
        [each] = [b for b in boxes if b["title"] == title and containing in b["text"]]
        return each

    assert "DRL101: no CeleryExecutor worker serves it" in found(UNSERVED_QUEUE)["text"]
    assert "DRL202: needs amazon provider" in found(*S3_GROUP)["text"]
    problems = seen["problems"]
    assert [item.split(" ", 1)[0] for item in problems] == [
        "DRL101", "DRL103", "DRL202", "DRL105", "DRL105",
    ]  # fmt: skip
    assert problems[0] == (
        f"DRL101 queue '{UNSERVED_QUEUE}': no CeleryExecutor worker serves it; "
        f"{CANDIDATE_TASKS} tasks may, as one of several values"
    )
    assert f"executor '{MISSING_EXECUTOR}': not configured" in problems[1]
    assert "lacks the provider apache-airflow-providers-amazon" in problems[2]
    assert "the queue of 4 tasks cannot be known" in problems[3]
    # The screenshot, at the window the probe measured in: each gap is red where its box is
    # drawn, each unknown amber.
    shot = written.parent / "shot.png"
    done = subprocess.run(
        [chromium(), *chromium_flags(written.parent / "shot-profile"),
         f"--window-size={WINDOW[0]},{WINDOW[1]}", f"--screenshot={shot}", written.as_uri()],
        capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and shot.is_file(), done.stderr[-2000:]
    width, height, rows = png_pixels(shot.read_bytes())
    assert (width, height) == WINDOW

    def share(where: tuple[str, str], colour: tuple[int, int, int]) -> float:
        left, top, box_width, box_height = (math.floor(n) for n in found(*where)["rect"])
        inside = [
            pixel
            for row in rows[top + 2 : top + box_height - 2]
            for pixel in row[left + 2 : left + box_width - 2]
        ]
        return sum(1 for pixel in inside if pixel == colour) / len(inside)

    for where in GAPS:
        assert share(where, PROBLEM_FILL) > 0.4, where
    assert share(("queue ?", ""), UNKNOWN_FILL) > 0.4
    assert share(("etl", ""), PROBLEM_FILL) == 0


def test_the_page_filters_searches_and_shows_traces(page: tuple[Path, dict[str, Any]]) -> None:
    _, seen = page
    assert seen["start"] == {
        "shown": f"{TASKS} of {TASKS} tasks",
        "rows": seen["start"]["rows"],
        "dim": {"etl": False, "gpu_batch": False},
    }
    assert len(seen["start"]["rows"]) == TASKS
    queue = seen["queue"]
    assert queue["shown"] == f"{CANDIDATE_TASKS} of {TASKS} tasks"
    assert queue["rows"] == [f"gpu_training.train_shard_{n}" for n in range(CANDIDATE_TASKS)]
    # Lit: the queue and where the same tasks may go instead; dimmed: the rest.
    assert queue["dim"] == {
        "gpu_batch": False, "ml": False, "celery-ml": False, "etl": True, "celery-etl": True,
    }  # fmt: skip
    worker = seen["worker"]
    assert worker["dim"] == {"reports": False, "exports": False, "reporting": False, "etl": True}
    assert {row.split(".")[0] for row in worker["rows"]} == {
        "report_daily_sales", "report_executive", "report_finance", "report_operations",
        "s3_exports",
    }  # fmt: skip
    # Every task of a gap: eleven that may route to the unserved queue, three naming the
    # missing executor, seven uploads needing the provider (s3_exports' eighth task too: its
    # file imports the provider at module level).
    assert seen["problem"]["shown"] == f"{CANDIDATE_TASKS + 3 + 8} of {TASKS} tasks"
    assert seen["dag"]["shown"] == f"8 of {TASKS} tasks"
    assert seen["dag"]["dim"] == {"exports": False, "etl": True}
    assert seen["search"]["rows"] == ["gpu_training.train_shard_1", "gpu_training.train_shard_10"]
    group = seen["group"]
    assert group["open"] and group["heading"] == "8 tasks"
    assert group["tasks"] == [
        *(
            f"s3_exports.upload_{name}"
            for name in (
                "orders",
                "customers",
                "payments",
                "inventory",
                "returns",
                "refunds",
                "fees",
            )
        ),
        "s3_exports.notify",
    ]
    trace = seen["trace"]
    assert trace["heading"] == "s3_exports.upload_orders"
    assert trace["text"].startswith("task 'upload_orders' in dag 's3_exports'\n")
    assert "queue: 'exports', set by DAG default_args" in trace["text"]
    assert "provider apache-airflow-providers-amazon: LACKS it" in trace["text"]
    assert seen["queueClick"]["tasks"] == [
        f"gpu_training.train_shard_{n}" for n in range(CANDIDATE_TASKS)
    ]
    single = seen["single"]  # a group of one task shows its trace at once
    assert single["heading"] == "pod_maintenance.report" and "executor: unknown" in single["trace"]
    assert seen["closed"] is True
    assert seen["fromList"] == {
        "problem": "problem:0",
        "shown": f"{CANDIDATE_TASKS} of {TASKS} tasks",
    }
