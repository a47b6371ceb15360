"""The colours of the routing map, shared by every drawing format so they look alike."""

from __future__ import annotations

from dagroute_lint.formatters.routing_map import Kind, State

# (fill, stroke, text) per state: gaps in red, unused in grey, unknowns in amber.
STATE_COLOURS: dict[State, tuple[str, str, str]] = {
    "ok": ("#ffffff", "#57606a", "#1f2328"),
    "problem": ("#ffebe9", "#cf222e", "#82071e"),
    "unused": ("#f6f8fa", "#afb8c1", "#8c959f"),
    "unknown": ("#fff8c5", "#bf8700", "#633c01"),
}
EDGE_COLOUR = "#8c959f"
KIND_FILLS: dict[Kind, str] = {
    "tasks": "#ffffff",
    "queue": "#ddf4ff",
    "executor": "#ddf4ff",
    "worker": "#dafbe1",
    "runtime": "#fbefff",
}


def colours(kind: Kind, state: State) -> tuple[str, str, str]:
    """Fill, stroke and text colour of a node: its kind's fill unless marked."""
    fill, stroke, text = STATE_COLOURS[state]
    return (KIND_FILLS[kind] if state == "ok" else fill), stroke, text
