"""Keep mutmut's verdicts in the repository, and put them back into a fresh ``mutants/`` tree.

Usage: .venv/bin/python scripts/mutation_results.py export [FILE]
       .venv/bin/python scripts/mutation_results.py import [FILE]

``mutants/`` is not committed, and a run of every mutant takes longer than a working session, so
the verdicts are exported (default ``benchmarks/mutation-results.tsv``: the mutant, mutmut's exit
code, and the hash mutmut gave the mutated function's source). ``import`` writes them into the
``*.meta`` files of a tree ``mutmut run`` has just generated (stop it once it prints "Running
mutation testing"), only for mutants whose function still has the same hash, so a changed function
is tested again; ``scripts/mutation.sh`` then resumes with the mutants that have no verdict.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "mutants"
DEFAULT = ROOT / "benchmarks" / "mutation-results.tsv"


def function_key(mutant: str) -> str:
    """``dagroute_lint.resolve.tasks.x_field__mutmut_3`` -> ``x_field`` (the meta's hash key)."""
    return mutant.partition("__mutmut_")[0].rpartition(".")[2]


def export(target: Path) -> None:
    rows = []
    for meta in sorted((MUTANTS / "dagroute_lint").rglob("*.py.meta")):
        data = json.loads(meta.read_text())
        hashes = data["hash_by_function_name"]
        for name, code in sorted(data["exit_code_by_key"].items()):
            if code is not None:
                rows.append(f"{name}\t{code}\t{hashes.get(function_key(name), '')}")
    target.write_text("mutant\texit_code\tfunction_hash\n" + "\n".join(rows) + "\n")
    print(f"{len(rows)} verdicts written to {target}")


def restore(source: Path) -> None:
    kept: dict[str, tuple[int, str]] = {}
    for line in source.read_text().splitlines()[1:]:
        name, code, digest = line.split("\t")
        kept[name] = (int(code), digest)
    restored = stale = 0
    for meta in sorted((MUTANTS / "dagroute_lint").rglob("*.py.meta")):
        data = json.loads(meta.read_text())
        hashes = data["hash_by_function_name"]
        for name, code in data["exit_code_by_key"].items():
            if code is not None or name not in kept:
                continue
            verdict, digest = kept[name]
            if digest and hashes.get(function_key(name)) == digest:
                data["exit_code_by_key"][name] = verdict
                restored += 1
            else:
                stale += 1
        meta.write_text(json.dumps(data, indent=4))
    print(f"{restored} verdicts restored; {stale} left to run again (their function changed)")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    path = Path(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT
    if command == "export":
        export(path)
    elif command == "import":
        restore(path)
    else:
        raise SystemExit(__doc__)
