"""Crash hunt: extract and resolve every ``*.py`` under a folder, and count what raised.

Usage: python benchmarks/extract_corpus.py [FOLDER] [--jobs N]
FOLDER defaults to the site-packages of the cached Airflow 3.3.2 environment that the
conformance suite builds (thousands of real, varied files). Extraction must never raise, on any
input: a file it cannot handle becomes a ``syntax_error`` (DRL001), never an exception. Prints
the number of files, how many became DRL001 (and why, grouped) and every crash with its file and
traceback; exits 1 when anything crashed. Slow (minutes): kept out of the test suite.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

from dagroute_lint.extract import extract_module
from dagroute_lint.resolve.tasks import Resolver
from dagroute_lint.resolve.values import SymbolTable

AIRFLOW_VENV = Path.home() / ".cache" / "dagroute-lint" / "airflow-3.3.2-venv"


def default_folder() -> Path:
    found = sorted(AIRFLOW_VENV.glob("lib/python3*/site-packages"))
    if not found:
        sys.exit(f"no site-packages under {AIRFLOW_VENV}: run the conformance tests once first")
    return found[0]


def check_file(path: Path) -> tuple[str, str | None, str | None]:
    """(path, DRL001 message or None, traceback or None) for one file."""
    try:
        data = path.read_bytes()
        module = extract_module(data, str(path), path.stem)
        resolver = Resolver(SymbolTable(lambda _name: None), "default", 3)
        list(resolver.tasks(module))
    except Exception:
        return str(path), None, traceback.format_exc()
    problem = module.syntax_error
    return str(path), problem.message if problem is not None else None, None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path)
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    options = parser.parse_args()
    folder = options.folder or default_folder()
    files = sorted(path for path in folder.rglob("*.py") if path.is_file())
    start = time.perf_counter()
    results = []
    with multiprocessing.Pool(options.jobs) as pool:
        for result in pool.imap_unordered(check_file, files, chunksize=16):
            results.append(result)
            if result[2] is not None:  # show crashes as they come: the run takes a while
                print(f"crash: {result[0]}", flush=True)
    results.sort()
    elapsed = time.perf_counter() - start
    crashes = [(path, trace) for path, _, trace in results if trace is not None]
    skipped = Counter(message.split(":")[0] for _, message, _ in results if message is not None)
    print(f"{folder}: {len(files)} files in {elapsed:.0f} s ({options.jobs} processes)")
    print(f"DRL001 (not parsed or skipped): {sum(skipped.values())}")
    for reason, count in skipped.most_common():
        print(f"  {count:>5}  {reason}")
    print(f"crashes: {len(crashes)}")
    for path, trace in crashes:
        print(f"--- {path}\n{trace}")
    sys.exit(1 if crashes else 0)


if __name__ == "__main__":
    main()
