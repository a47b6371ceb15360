"""Per-file extraction cost against the parse-only floor (``libcst.parse_module``), in one run.

Usage: python benchmarks/parse_ratio.py FOLDER [REPEATS]
Prints CPU seconds for parsing alone and for full extraction over every ``*.py`` in FOLDER,
the median of REPEATS alternating runs, and their ratio.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import libcst

from dagroute_lint.extract import extract_module


def _cpu(function: Callable[[], None]) -> float:
    start = time.process_time()
    function()
    return time.process_time() - start


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

    # Alternate the two so that drift in machine load hits both alike; report medians.
    floors, fulls = [], []
    for _ in range(repeats):
        floors.append(_cpu(parse_only))
        fulls.append(_cpu(extract))
    floor, full = statistics.median(floors), statistics.median(fulls)
    ratios = sorted(f / p for f, p in zip(fulls, floors))
    print(f"{len(files)} files, {repeats} alternating runs")
    print(f"parse only (libcst.parse_module): median {floor:.3f} s CPU")
    print(f"extract_module (decode, parse, walk, positions): median {full:.3f} s CPU")
    print(
        f"ratio: {full / floor:.2f}x the parse-only floor "
        f"(per-run ratios {ratios[0]:.2f}-{ratios[-1]:.2f})"
    )


if __name__ == "__main__":
    main()
