"""Line and column of a chosen few nodes: from CPython's tree where it can, libcst's otherwise.

libcst's ``PositionProvider`` records a range for every node of the tree, which costs more than
the parse itself. A linter reports the start of a handful of calls, arguments, imports and
bindings per file. ``anchored_positions`` takes them from CPython's tree, which the syntax check
has already built (see ``anchors``): one lean walk of the libcst tree numbers its statements and
calls in source order, and the n-th libcst call is the n-th CPython call. What CPython places
differently from libcst (a parenthesised argument, a generator argument, a line continuation
inside a ``def``) falls back to ``node_positions``: libcst's own ``PositionProvider``.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Sequence
from dataclasses import field

import libcst as cst
from libcst.metadata import PositionProvider

from dagroute_lint.extract.anchors import Anchors
from dagroute_lint.model import Position
from dagroute_lint.records import record

# --- from CPython's tree ------------------------------------------------------------------------

# Fields that hold only whitespace, punctuation or keywords: no call or statement lies below.
_NOT_BELOW = frozenset(
    {
        "lpar", "rpar", "lbrace", "rbrace", "lbracket", "rbracket", "comma", "semicolon",
        "equal", "colon", "first_colon", "second_colon", "dot", "star", "operator",
        "asynchronous", "leading_lines", "lines_after_decorators", "header", "footer",
        "trailing_whitespace", "newline", "indent", "leading_whitespace",
    }
)  # fmt: skip
# Where libcst's field order is not the order of the source (checked by tests/test_positions.py).
_SOURCE_ORDER: dict[type[cst.CSTNode], tuple[str, ...]] = {
    cst.ClassDef: ("decorators", "name", "type_parameters", "bases", "keywords", "body"),
    cst.FunctionDef: ("decorators", "name", "type_parameters", "params", "returns", "body"),
    cst.IfExp: ("body", "test", "orelse"),
    cst.ExceptHandler: ("type", "name", "body"),
    cst.ExceptStarHandler: ("type", "name", "body"),
    cst.MatchCase: ("pattern", "guard", "body"),
    cst.Parameters: (
        "posonly_params", "posonly_ind", "params", "star_arg", "kwonly_params", "star_kwarg"
    ),
    cst.Arg: ("value",),  # the keyword is a name
    cst.Import: (),  # nothing below an import is reported on its own
    cst.ImportFrom: (),
    cst.FormattedString: (),  # see anchors: f-strings are left out on both sides
}  # fmt: skip
_STATEMENT_TYPES = (cst.BaseSmallStatement, cst.BaseCompoundStatement)
_PLAIN, _CALL, _STATEMENT, _LEAF = range(4)
# Per node class: its fields that may hold calls or statements, last first (the walk's stack
# pops them in source order), and what the walk does with the node itself.
_KINDS: dict[type[cst.CSTNode], tuple[tuple[str, ...], int]] = {}


def _kind(kind: type[cst.CSTNode]) -> tuple[tuple[str, ...], int]:
    names = tuple(
        field.name
        for field in dataclasses.fields(kind)
        if field.name not in _NOT_BELOW
        and not field.name.startswith("whitespace")
        and field.type not in _TEXT  # a name's or a number's ``value``
    )
    order = _SOURCE_ORDER.get(kind)
    if order is not None:
        names = tuple(name for name in order if name in names)
    if kind is cst.Call:
        role = _CALL
    elif any(base in kind.__mro__ for base in _STATEMENT_TYPES):  # as _number tells nodes
        role = _STATEMENT
    else:
        role = _PLAIN if names else _LEAF
    _KINDS[kind] = entry = (names[::-1], role)
    return entry


_TEXT: tuple[object, ...] = (str, "str")


@record(frozen=False)
class _Numbered:
    """The libcst tree's statements and calls in source order, and what the wanted nodes are."""

    statements: list[cst.CSTNode] = field(default_factory=list)
    calls: list[cst.Call] = field(default_factory=list)
    # id(node) -> (how it is placed, the ordinal of its statement or call, its index there)
    sites: dict[int, tuple[str, int, int]] = field(default_factory=dict)
    seen: list[cst.CSTNode] = field(default_factory=list)  # wanted nodes of no known kind


def _number(module: cst.Module, wanted: set[int]) -> _Numbered:
    """Number the tree's statements and calls, walking it with a stack.

    libcst's node classes are ``abc.ABCMeta`` classes, and the first ``isinstance`` of a value
    that is not a node (``None``, a tuple, a sentinel) against ``CSTNode`` walks every node class
    there is, once per process and type: a one-file run paid that for each. Nodes are told by
    their class's ``__mro__`` instead (libcst registers no virtual subclasses).
    """
    numbered = _Numbered()
    statements, calls, sites = numbered.statements, numbered.calls, numbered.sites
    node_type, kinds = cst.CSTNode, _KINDS
    stack: list[cst.CSTNode] = [module]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        node = pop()
        entry = kinds.get(type(node))
        names, role = entry if entry is not None else _kind(type(node))
        key = id(node)
        if role == _LEAF:
            if key in wanted and key not in sites:
                numbered.seen.append(node)
            continue
        if role == _CALL:
            if key in wanted:
                sites[key] = ("call", len(calls), 0)
            for index, argument in enumerate(node.args):  # type: ignore[attr-defined]
                if id(argument) in wanted:
                    sites[id(argument)] = ("argument", len(calls), index)
            calls.append(node)  # type: ignore[arg-type]
        elif role == _STATEMENT:
            if key in wanted:
                sites[key] = ("statement", len(statements), 0)
            _parts(node, len(statements), wanted, sites)
            statements.append(node)
        elif key in wanted and key not in sites:
            numbered.seen.append(node)
        for name in names:
            value = getattr(node, name)
            held = type(value)
            if held is tuple or held is list:
                extend(value[::-1])  # libcst's sequences hold nodes only
            elif held in kinds or node_type in held.__mro__:
                push(value)
    return numbered


def _parts(
    node: cst.CSTNode, ordinal: int, wanted: set[int], sites: dict[int, tuple[str, int, int]]
) -> None:
    """Wanted names that a statement binds: placed from the statement CPython places."""
    if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        if id(node.name) in wanted:
            sites[id(node.name)] = ("name", ordinal, 0)
        if isinstance(node, cst.ClassDef):
            for index, base in enumerate((*node.bases, *node.keywords)):
                if id(base) in wanted:
                    sites[id(base)] = ("base", ordinal, index)
    elif isinstance(node, cst.For):
        if id(node.target) in wanted:
            sites[id(node.target)] = ("target", ordinal, 0)
    elif isinstance(node, cst.With):
        for index, item in enumerate(node.items):
            if item.asname is not None and id(item.asname.name) in wanted:
                sites[id(item.asname.name)] = ("as", ordinal, index)


def anchored_positions(
    module: cst.Module, nodes: list[cst.CSTNode], anchors: Anchors
) -> dict[int, Position]:
    """Map ``id(node)`` to the 1-based start of each node of ``nodes`` found in ``module``
    (nodes of other modules' trees are left out, as ``node_positions`` leaves them out)."""
    if not nodes:
        return {}
    numbered = _number(module, {id(node) for node in nodes})
    if len(numbered.calls) != len(anchors.calls) or len(numbered.statements) != len(
        anchors.statements
    ):
        return node_positions(module, nodes)  # the two parsers disagree: trust libcst
    by_id = {id(node): node for node in nodes}
    positions: dict[int, Position] = {}
    rest = numbered.seen
    for key, (how, ordinal, index) in numbered.sites.items():
        position = _PLACES[how](numbered, anchors, ordinal, index)
        if position is None:
            rest.append(by_id[key])
        else:
            positions[key] = position
    if rest:
        positions.update(node_positions(module, rest))
    return positions


def _at(anchors: Anchors, node: ast.stmt | ast.expr | ast.keyword, extra: int = 0) -> Position:
    return Position(node.lineno, anchors.column(node.lineno, node.col_offset) + extra)


def _call(numbered: _Numbered, anchors: Anchors, ordinal: int, index: int) -> Position | None:
    return _at(anchors, anchors.calls[ordinal])


def _statement(numbered: _Numbered, anchors: Anchors, ordinal: int, index: int) -> Position | None:
    """A statement starts at its first token: an ``async``, a ``def`` after its decorators, never
    the comments and blank lines libcst keeps in front of it."""
    statement = anchors.statements[ordinal]
    if not _same_kind(numbered.statements[ordinal], statement):
        return None
    return _at(anchors, statement)


def _argument(numbered: _Numbered, anchors: Anchors, ordinal: int, index: int) -> Position | None:
    call = anchors.calls[ordinal]
    return _written(anchors, numbered.calls[ordinal].args, [*call.args, *call.keywords], index)


def _base(numbered: _Numbered, anchors: Anchors, ordinal: int, index: int) -> Position | None:
    """A class's bases and keywords, which libcst writes as arguments too."""
    statement = anchors.statements[ordinal]
    node = numbered.statements[ordinal]
    if not isinstance(node, cst.ClassDef) or not isinstance(statement, ast.ClassDef):
        return None
    written: list[ast.expr | ast.keyword] = [*statement.bases, *statement.keywords]
    return _written(anchors, (*node.bases, *node.keywords), written, index)


def _written(
    anchors: Anchors,
    arguments: Sequence[cst.Arg],
    written: list[ast.expr | ast.keyword],
    index: int,
) -> Position | None:
    """The n-th argument as written: CPython keeps positional and keyword arguments apart, so
    they are merged back in source order. CPython places a parenthesised value at or inside its
    parentheses and a lone generator at the call's, where libcst places the argument itself."""
    if len(written) != len(arguments):
        return None
    written.sort(key=lambda part: (part.lineno, part.col_offset))
    argument = arguments[index]
    value = argument.value
    if not (argument.keyword or argument.star) and (
        value.lpar or isinstance(value, cst.GeneratorExp)
    ):
        return None
    return _at(anchors, written[index])


def _name(numbered: _Numbered, anchors: Anchors, ordinal: int, index: int) -> Position | None:
    """The name of a ``def`` or ``class``: after its keywords, on the line CPython gives."""
    statement = anchors.statements[ordinal]
    node = numbered.statements[ordinal]
    if isinstance(node, cst.FunctionDef):
        prefix = "def" + node.whitespace_after_def.value
        if node.asynchronous is not None:
            prefix = "async" + node.asynchronous.whitespace_after.value + prefix
    elif isinstance(node, cst.ClassDef):
        prefix = "class" + node.whitespace_after_class.value
    else:
        return None
    if "\\" in prefix or not _same_kind(node, statement):  # a line continuation moves the name
        return None
    return _at(anchors, statement, len(prefix))


def _target(numbered: _Numbered, anchors: Anchors, ordinal: int, index: int) -> Position | None:
    statement = anchors.statements[ordinal]
    node = numbered.statements[ordinal]
    if not isinstance(node, cst.For) or not isinstance(statement, (ast.For, ast.AsyncFor)):
        return None
    return _bound(anchors, node.target, statement.target)


def _as(numbered: _Numbered, anchors: Anchors, ordinal: int, index: int) -> Position | None:
    """What ``with ... as name`` binds."""
    statement = anchors.statements[ordinal]
    node = numbered.statements[ordinal]
    if not isinstance(node, cst.With) or not isinstance(statement, (ast.With, ast.AsyncWith)):
        return None
    asname = node.items[index].asname
    bound = statement.items[index].optional_vars
    if asname is None or bound is None:
        return None
    return _bound(anchors, asname.name, bound)


def _bound(anchors: Anchors, target: cst.BaseExpression, bound: ast.expr) -> Position | None:
    """CPython places a parenthesised tuple at its parenthesis, libcst inside it."""
    if target.lpar:
        return None
    return _at(anchors, bound)


def _same_kind(node: cst.CSTNode, statement: ast.stmt) -> bool:
    name = type(statement).__name__
    return _AST_NAMES.get(name, name.replace("Async", "", 1)) == type(node).__name__


_AST_NAMES = {"Delete": "Del"}
_PLACES = {
    "call": _call,
    "statement": _statement,
    "argument": _argument,
    "base": _base,
    "name": _name,
    "target": _target,
    "as": _as,
}


# --- by libcst's own positions -----------------------------------------------------------------


def node_positions(module: cst.Module, nodes: list[cst.CSTNode]) -> dict[int, Position]:
    """Map ``id(node)`` to the 1-based start of each node of ``nodes`` found in ``module``:
    where libcst's ``PositionProvider`` starts it, inside its parentheses and after its leading
    lines, as CPython places it. It ranges every node of the tree, so it is only asked for what
    CPython's tree cannot place, and for the statements a fix rewrites."""
    if not nodes:
        return {}
    # The tree as it is: a copy would hold other nodes than the ones asked about.
    ranges = cst.MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    positions: dict[int, Position] = {}
    for node in nodes:
        found = ranges.get(node)
        if found is not None:
            positions[id(node)] = Position(found.start.line, found.start.column + 1)
    return positions
