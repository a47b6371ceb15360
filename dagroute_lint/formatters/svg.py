"""``routes --format svg``: the routing map's DOT laid out by Graphviz's ``dot``.

Graphviz is a program, not a Python package (no maintained wheel ships it), so ``svg`` and
``html`` need ``dot`` on ``PATH``; without it they stop with exit 2 and the line that installs
it, and ``--format dot`` or ``mermaid`` still work. docs/routes.md says why a layout engine
rather than our own drawing.
"""

from __future__ import annotations

import shutil
import subprocess

from dagroute_lint.errors import ConfigError
from dagroute_lint.formatters.dot import routing_dot
from dagroute_lint.formatters.escape import printable
from dagroute_lint.formatters.routing_map import RoutingMap, routing_map
from dagroute_lint.resolve.repository import Repository

INSTALL = (
    "install Graphviz (apt-get install graphviz, dnf install graphviz, brew install graphviz, "
    "choco install graphviz), or use --format dot or mermaid, which need nothing"
)


def map_svg(graph: RoutingMap, output_format: str = "svg") -> str:
    """The map as SVG, laid out by ``dot``; a ``ConfigError`` (exit 2) when ``dot`` is missing
    or fails, naming ``output_format`` as the user asked for it."""
    program = shutil.which("dot")
    if program is None:
        raise ConfigError(
            f"--format {output_format} lays the map out with Graphviz's dot, which is not on "
            f"PATH: {INSTALL}"
        )
    try:
        done = subprocess.run(
            [program, "-Tsvg"],
            input=routing_dot(graph).encode("utf-8"),
            capture_output=True,
            check=False,
        )
    except OSError as error:
        raise ConfigError(f"cannot run {program}: {error.strerror or error}") from None
    if done.returncode != 0:
        said = printable(done.stderr.decode("utf-8", "replace").strip())
        raise ConfigError(f"{program} could not lay the map out (exit {done.returncode}): {said}")
    return done.stdout.decode("utf-8")


def format_routes_svg(repository: Repository) -> str:
    return map_svg(routing_map(repository))
