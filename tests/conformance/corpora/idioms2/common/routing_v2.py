"""Routing constants of the current platform release."""

QUEUE = "platform-v2"
POOLS = {"heavy": "heavy_pool"}
