"""``Diagnostic.facts``: beside the message, never part of what a diagnostic is equal to, and what
the package reads instead of the message, whose codes it writes only where rules declare them."""

from __future__ import annotations

import ast
import pickle
import re
from pathlib import Path

from dagroute_lint.diagnostics import NO_FACTS, Diagnostic, Facts

PACKAGE = Path(__file__).resolve().parents[1] / "dagroute_lint"
CODE = re.compile(r"DRL\d{3}")
# What parses a text: a method of ``str`` or of a compiled pattern, or a function of ``re``.
PARSING = frozenset(
    {"search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split", "rsplit",
     "partition", "rpartition", "find", "rfind", "index", "startswith", "endswith"}
)  # fmt: skip
FACTS = Facts("queue", "reports", "lab", "build", (("lab", "build"),), (("general", "base"),))


def test_facts_take_no_part_in_equality_order_or_hash() -> None:
    plain = Diagnostic("dags/a.py", 3, 5, "DRL101", "m")
    with_facts = Diagnostic("dags/a.py", 3, 5, "DRL101", "m", facts=FACTS)
    assert plain.facts is NO_FACTS and plain.facts.kind == "other"
    assert plain == with_facts and hash(plain) == hash(with_facts)
    later = Diagnostic("dags/a.py", 3, 6, "DRL101", "m")
    assert sorted([later, with_facts]) == [with_facts, later]


def test_a_diagnostic_pickles_with_its_facts() -> None:
    """Diagnostics cross process boundaries (``--jobs``) and the caches."""
    diagnostic = Diagnostic("dags/a.py", 3, 5, "DRL101", "m", facts=FACTS)
    back = pickle.loads(pickle.dumps(diagnostic))
    assert back.facts == FACTS and back.facts.workers == (("general", "base"),)


def _sources() -> list[tuple[str, ast.Module]]:
    return [
        (path.relative_to(PACKAGE.parent).as_posix(), ast.parse(path.read_text("utf-8")))
        for path in sorted(PACKAGE.rglob("*.py"))
    ]


def _declared(tree: ast.Module) -> set[int]:
    """Ids of the string constants that declare a code: a rule's ``code=``, or a module-level
    constant (``UNUSED_NOQA = "DRL901"``, the flake8 adapter's ``UNUSABLE``)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "code":
            found.add(id(node.value))
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and all(
            isinstance(target, ast.Name) and target.id.isupper() for target in statement.targets
        ):
            found.add(id(statement.value))
    return found


def _docstrings(tree: ast.Module) -> set[int]:
    """Ids of the docstrings of the module, its classes and functions: prose naming codes."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def test_a_code_is_written_only_where_it_is_declared() -> None:
    """Anything else that names a code (a table by code, a message mentioning one) takes it from
    the rule, so that no second list of codes can drift from the registry. Docstrings, the
    command line's help and the settings' descriptions (``config.Setting``, the settings
    reference), which show selectors by example, are prose."""
    strays = []
    for name, tree in _sources():
        skipped = _declared(tree) | _docstrings(tree) | _help_texts(tree) | _settings_texts(tree)
        for node in ast.walk(tree):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and id(node) not in skipped and CODE.search(text):
                strays.append(f"{name}:{node.lineno}: {text[:60]!r}")
    assert strays == []


def _settings_texts(tree: ast.Module) -> set[int]:
    """Ids of the strings of a ``Setting(...)`` description, prose for the settings reference."""
    return {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "Setting"
        for argument in node.args
        for part in ast.walk(argument)
    }


def _help_texts(tree: ast.Module) -> set[int]:
    return {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.keyword) and node.arg == "help"
        for part in ast.walk(node.value)
    }


def _is_message(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "message"


def test_no_diagnostic_message_is_parsed() -> None:
    """Messages are for people: nothing in the package searches, splits or matches one."""
    found = []
    for name, tree in _sources():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            if node.func.attr not in PARSING:
                continue
            if _is_message(node.func.value) or any(_is_message(arg) for arg in node.args):
                found.append(f"{name}:{node.lineno}")
    assert found == []
