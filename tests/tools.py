"""Locate the external programs some tests run for real (Graphviz, node, Chromium, Vim).

On a developer machine a missing program skips its tests, saying what to install; in CI
(``CI=true``, where ``.ci/run`` installs them all) it fails them, so a gap is never hidden.
"""

from __future__ import annotations

import os
import shutil
import struct
import zlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MERMAID_DIR = REPO / "tests" / "mermaid"


def _missing(what: str, install: str) -> None:
    message = f"{what} is not installed ({install}; .ci/run installs it)"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def program(names: tuple[str, ...], install: str) -> str:
    """The first of ``names`` on ``PATH``."""
    for name in names:
        found = shutil.which(name)
        if found is not None:
            return found
    _missing(" or ".join(names), install)
    raise AssertionError("unreachable")  # _missing fails or skips


def mermaid_parser() -> tuple[str, Path]:
    """node and the parse script, with the pinned ``mermaid`` and ``jsdom`` packages installed."""
    node = program(("node",), "apt-get install nodejs npm")
    for package in ("mermaid", "jsdom"):
        if not (MERMAID_DIR / "node_modules" / package / "package.json").is_file():
            _missing(f"the {package} npm package", "npm ci --prefix tests/mermaid")
    return node, MERMAID_DIR / "parse.mjs"


def graphviz() -> str:
    """Graphviz's ``dot``, which ``routes --format svg`` and ``html`` lay the map out with."""
    return program(("dot",), "apt-get install graphviz")


def vim() -> str:
    return program(("vim",), "apt-get install vim")


def chromium() -> str:
    return program(("chromium", "chromium-browser", "google-chrome"), "apt-get install chromium")


def chromium_flags(profile: Path) -> list[str]:
    """Headless, offline and with a fresh profile: nothing from the machine changes the page."""
    return [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-quic",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
    ]


def png_pixels(data: bytes) -> tuple[int, int, list[list[tuple[int, int, int]]]]:
    """Width, height and RGB rows of an 8-bit RGB or RGBA, non-interlaced PNG (as Chromium
    writes screenshots), decoded with the standard library only."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, chunks, header = 8, [], b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows: list[list[tuple[int, int, int]]] = []
    previous = bytearray(stride)
    offset = 0
    for _ in range(height):
        kind, line = raw[offset], bytearray(raw[offset + 1 : offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                guess = left + up - corner
                pa, pb, pc = abs(guess - left), abs(guess - up), abs(guess - corner)
                nearest = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + nearest) & 0xFF
        rows.append([tuple(line[i : i + 3]) for i in range(0, stride, channels)])  # type: ignore[misc]
        previous = line
    return width, height, rows
