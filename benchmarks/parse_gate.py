"""Cost of the CPython pre-parse that guards libcst, against libcst's parse alone.

Usage: python benchmarks/parse_gate.py FOLDER [REPEATS]
Every file is parsed by CPython (``ast.parse`` plus the tree-height walk) before libcst sees it,
because libcst's native parser crashes the process on nesting CPython refuses. Prints CPU
seconds of both over every ``*.py`` in FOLDER (medians of REPEATS alternating runs) and the
gate's share of the parse-only floor.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import libcst

from dagroute_lint.extract.source import MAX_FILE_BYTES, _cpython_problem


def _cpu(function: Callable[[], object]) -> float:
    start = time.process_time()
    function()
    return time.process_time() - start


def main() -> None:
    folder = Path(sys.argv[1])
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    texts = []
    for path in sorted(folder.rglob("*.py")):
        data = path.read_bytes()
        if len(data) <= MAX_FILE_BYTES:
            try:
                texts.append(data.decode("utf-8"))
            except UnicodeDecodeError:
                continue
    texts = [text for text in texts if _cpython_problem(text) is None]
    libcst.parse_module("")  # warm the parser
    floors, gates = [], []
    for _ in range(repeats):
        floors.append(_cpu(lambda: [libcst.parse_module(text) for text in texts]))
        gates.append(_cpu(lambda: [_cpython_problem(text) for text in texts]))
    floor, gate = statistics.median(floors), statistics.median(gates)
    size = sum(len(text) for text in texts) // 1024
    print(f"{len(texts)} files, {size} KiB, {repeats} alternating runs")
    print(f"libcst.parse_module: median {floor:.2f} s CPU")
    print(f"CPython gate (ast.parse + tree height): median {gate:.2f} s CPU")
    print(f"gate: {gate / floor:.1%} of the parse-only floor")


if __name__ == "__main__":
    main()
