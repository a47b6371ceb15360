"""Write ``catalog/data/operator_arguments.tsv``: the keywords each operator class accepts.

Run with the Python of an Airflow venv (it imports the operator modules of that venv and reads
each class's ``__init__`` chain with ``inspect``); the rows of that Airflow major version are
replaced, the other version's rows kept:

    .venv/dagroute-lint-cache/airflow-3.3.2-venv/bin/python scripts/generate_operator_arguments.py
    .venv/dagroute-lint-cache/airflow-2.10.5-venv/bin/python scripts/generate_operator_arguments.py

A keyword reaches ``BaseOperator.__init__`` through every ``**kwargs`` of the chain, and
``BaseOperator`` rejects any it does not name ("Invalid arguments were passed"). A class is
written only when that is all its chain does, read from each ``__init__``'s source with ``ast``:
``kwargs.pop("x")`` and ``del kwargs["x"]`` take ``x`` out (it is accepted), ``kwargs.get("x")``
and ``kwargs["x"]`` leave the set as it is; any other use of ``kwargs`` (a computed key,
``update``, passing it to a helper) or an ``__init__`` without ``**kwargs`` makes the set
unknowable, and the class is left out (the rule then never checks it).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "dagroute_lint" / "catalog" / "data"
TABLE = DATA / "operator_arguments.tsv"
COLUMNS = "airflow\toperator\tkeywords"
# Where operators and sensors are defined, in either major version (relative to site-packages).
PATTERNS = (
    "airflow/operators/*.py",
    "airflow/sensors/*.py",
    "airflow/providers/**/operators/*.py",
    "airflow/providers/**/sensors/*.py",
)
# ``kwargs`` methods that name one key and what they do to the accepted set.
KEY_METHODS = {"pop": True, "get": False, "setdefault": False}


def _modules() -> list[str]:
    import airflow

    site = Path(airflow.__file__).resolve().parents[1]
    found = set()
    for pattern in PATTERNS:
        for path in site.glob(pattern):
            if path.name != "__init__.py" and "example_dags" not in path.parts:
                found.add(".".join(path.relative_to(site).with_suffix("").parts))
    return sorted(found)


def _taken_keys(source: str, kwargs: str) -> set[str] | None:
    """Keys an ``__init__`` takes out of ``**kwargs`` itself; ``None``: not knowable."""
    tree = ast.parse(textwrap.dedent(source))
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    taken: set[str] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Name) and node.id == kwargs):
            continue
        parent = parents.get(id(node))
        if isinstance(parent, ast.keyword) and parent.arg is None:
            continue  # passed on with ``**kwargs``
        if isinstance(parent, ast.Subscript) and isinstance(parent.slice, ast.Constant):
            if isinstance(parents.get(id(parent)), ast.Delete):
                taken.add(str(parent.slice.value))
            continue
        call = parents.get(id(parent))
        if (
            isinstance(parent, ast.Attribute)
            and parent.attr in KEY_METHODS
            and isinstance(call, ast.Call)
            and call.args
            and isinstance(call.args[0], ast.Constant)
        ):
            if KEY_METHODS[parent.attr]:
                taken.add(str(call.args[0].value))
            continue
        return None
    return taken


def _keywords(cls: type, base: type) -> frozenset[str] | None:
    """Every keyword the chain from ``cls`` to ``BaseOperator`` passes on, or ``None``."""
    accepted: set[str] = set()
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        init = inspect.unwrap(init)
        try:
            parameters = inspect.signature(init).parameters.values()
            source = inspect.getsource(init)
        except (TypeError, ValueError, OSError):
            return None
        names = {
            p.name
            for p in parameters
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name != "self"
        }
        accepted |= names
        if klass is base:
            return frozenset(accepted)
        var_keyword = [p.name for p in parameters if p.kind is p.VAR_KEYWORD]
        taken = _taken_keys(source, var_keyword[0]) if var_keyword else None
        if taken is None:
            return None
        accepted |= taken
    return None


def base_operator() -> type:
    """The class every operator of this Airflow derives from."""
    try:
        from airflow.sdk.bases.operator import BaseOperator
    except ImportError:
        from airflow.models.baseoperator import BaseOperator
    return BaseOperator


def operator_classes() -> Iterator[tuple[str, type]]:
    """Every public operator class of this venv's Airflow and providers, by qualified name."""
    base = base_operator()
    for module_name in _modules():
        try:
            module = importlib.import_module(module_name)
        except Exception:  # an optional dependency of the provider is missing
            continue
        for name, cls in vars(module).items():
            if not (inspect.isclass(cls) and issubclass(cls, base)):
                continue
            if cls.__module__ == module_name and not name.startswith("_"):
                yield f"{module_name}.{name}", cls


def other_rows(table: Path, columns: str, ours: Callable[[list[str]], bool]) -> list[str]:
    """The rows of ``table`` another run wrote (``ours`` tells this run's cells apart)."""
    if not table.is_file():
        return []
    return [
        line
        for line in table.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#") and line != columns and not ours(line.split("\t"))
    ]


def main() -> None:
    import airflow

    major = airflow.__version__.split(".")[0]
    base = base_operator()
    rows: dict[str, frozenset[str]] = {}
    for path, cls in operator_classes():
        keywords = _keywords(cls, base)
        if keywords is not None:
            rows[path] = keywords
    kept = other_rows(TABLE, COLUMNS, lambda cells: cells[0] == major)
    written = [f"{major}\t{path}\t{','.join(sorted(keywords))}" for path, keywords in rows.items()]
    header = [
        "# The keywords each operator class accepts, per Airflow major version.",
        "# generated by scripts/generate_operator_arguments.py — do not edit",
    ]
    write_table(TABLE, [*header, *SOURCE, COLUMNS], kept + written)


# Where the classes the tables are read from come from.
SOURCE = (
    "# Source: the operator classes and their __init__ chains in the conformance venvs",
    "# (Airflow 3.3.2 with the standard and cncf.kubernetes providers; Airflow 2.10.5).",
)


def write_table(table: Path, header: list[str], rows: list[str]) -> None:
    """``table``: ``header``, then ``rows`` sorted by their first two cells."""
    import airflow

    body = sorted(rows, key=lambda line: line.split("\t")[:2])
    table.write_text("\n".join(header + body) + "\n", encoding="utf-8")
    print(f"Airflow {airflow.__version__}: {table.name}", file=sys.stderr)


if __name__ == "__main__":
    main()
