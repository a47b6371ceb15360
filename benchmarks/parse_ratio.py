"""Per-file extraction cost against the parse-only floor (``libcst.parse_module``), in one run.

Usage: python benchmarks/parse_ratio.py FOLDER [REPEATS]
Prints CPU seconds for parsing alone and for full extraction over every ``*.py`` in FOLDER,
best of REPEATS, and their ratio.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import libcst

from dagroute_lint.extract import extract_module


def _best(function: Callable[[], None], repeats: int) -> float:
    timings = []
    for _ in range(repeats):
        start = time.process_time()
        function()
        timings.append(time.process_time() - start)
    return min(timings)


def main() -> None:
    folder = Path(sys.argv[1])
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    files = [(str(path), path.read_bytes()) for path in sorted(folder.rglob("*.py"))]
    texts = [data.decode("utf-8") for _, data in files]
    libcst.parse_module("")  # warm the parser

    def parse_only() -> None:
        for text in texts:
            libcst.parse_module(text)

    def extract() -> None:
        for path, data in files:
            extract_module(data, path, Path(path).stem)

    floor = _best(parse_only, repeats)
    full = _best(extract, repeats)
    print(f"{len(files)} files")
    print(f"parse only (libcst.parse_module): {floor:.3f} s CPU")
    print(f"extract_module (decode, parse, walk, positions): {full:.3f} s CPU")
    print(f"ratio: {full / floor:.2f}x the parse-only floor")


if __name__ == "__main__":
    main()
