"""Print the package's import graph in numbers: modules, arrows between them, arrows per stage.

``tests/test_architecture.py`` checks the same graph against the stage order; this script is for
people (``python scripts/import_graph.py [--edges]``).
"""

from __future__ import annotations

import argparse
import ast
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "dagroute_lint"


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, package: Path = PACKAGE) -> set[str]:
    """Every module ``path`` imports, at any depth (function-level imports count too)."""
    this = module_name(path, package)
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = this.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            # ``from pkg import module`` imports the submodule when there is one.
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module → the package's own modules it imports (external imports are kept as written)."""
    paths = sorted(package.rglob("*.py"))
    names = {module_name(path, package) for path in paths}
    root = package.name
    graph: dict[str, set[str]] = {}
    for path in paths:
        targets = set()
        for target in imported(path, package):
            if target == root or target.startswith(root + "."):
                if target in names:
                    targets.add(target)
            else:
                targets.add(target)
        graph[module_name(path, package)] = targets - {module_name(path, package)}
    return graph


def stage(module: str) -> str:
    """The folder a module lives in, or the module itself for those at the package root."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--edges", action="store_true", help="print every arrow between stages")
    args = parser.parse_args()
    graph = import_graph()
    internal = {m: {t for t in ts if t in graph} for m, ts in graph.items()}
    root_modules = [m for m in graph if m.count(".") == 1 and not m.endswith("__main__")]
    arrows = sum(len(ts) for ts in internal.values())
    between = Counter(
        (stage(m), stage(t)) for m, ts in internal.items() for t in ts if stage(m) != stage(t)
    )
    print(f"modules: {len(graph)} ({len(root_modules)} at the package root)")
    print(f"arrows between the package's modules: {arrows}")
    print(f"arrows between stages: {sum(between.values())} ({len(between)} distinct)")
    if args.edges:
        for (source, target), count in sorted(between.items()):
            print(f"  {source} -> {target}: {count}")


if __name__ == "__main__":
    main()
