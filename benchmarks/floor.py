"""The parse-only floor: read, decode and ``libcst.parse_module`` every ``*.py`` in a folder.

Usage: python benchmarks/floor.py FOLDER

One process, nothing else: the least any libcst-based linter must spend on the same files.
"""

from __future__ import annotations

import sys
from pathlib import Path

import libcst


def main() -> int:
    count = 0
    for path in sorted(Path(sys.argv[1]).rglob("*.py")):
        libcst.parse_module(path.read_bytes().decode("utf-8"))
        count += 1
    print(f"parsed {count} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
