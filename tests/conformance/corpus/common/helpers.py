"""Small helpers used by task callables; nothing here decides routing statically."""

from __future__ import annotations

import os


def pick_queue(size: str) -> str:
    """Queue for a job of the given size, overridable per environment."""
    queues = {"small": "etl", "large": "io-heavy"}
    return os.environ.get("ORDERS_QUEUE_OVERRIDE", queues.get(size, "etl"))


def shard_command(shard: str) -> str:
    return f"python -m jobs.load --shard {shard}"


def summarize(rows: int = 0) -> dict[str, int]:
    return {"rows": rows}
