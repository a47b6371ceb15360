"""Apply the fixes that diagnostics describe, with libcst: rewrite ``from ... import``
statements, and string keywords of calls.

Rules only describe a fix (``ImportFix``, ``KeywordFix``); this module finds what it names and
rewrites it, keeping the comments and all formatting it does not have to change. An import fix
rewrites the statement at the diagnostic's position: names of one statement that go to
different modules split it into one statement per module; the local names never change (a
renamed class is imported ``as`` its old name), so no other line of the file has to be touched.
A keyword fix rewrites the keyword argument at its own position (keyword and string, in the
string's own quotes) and removes the ones it drops, each with its comma and the comment ending
its line, which spoke of it. Either is refused when the file no longer holds what it names.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import field
from pathlib import Path

import libcst as cst
from libcst.helpers import get_full_name_for_node

from dagroute_lint.diagnostics import Diagnostic, Fix, ImportFix, KeywordFix
from dagroute_lint.extract.positions import node_positions
from dagroute_lint.extract.source import decode
from dagroute_lint.model import Position
from dagroute_lint.records import record
from dagroute_lint.sources.files import write_atomically

# Where a rewritten name goes: a module, or ``None`` for names the statement keeps.
_Target = str | None


@record
class FixedFile:
    """One file's content before and after its fixes, and how many diagnostics they fix."""

    path: str
    before: bytes
    after: bytes
    fixed: int

    def diff(self) -> str:
        """A unified diff, as ``--diff`` prints it."""
        return "".join(
            difflib.unified_diff(
                _text(self.before).splitlines(keepends=True),
                _text(self.after).splitlines(keepends=True),
                fromfile=self.path,
                tofile=self.path,
            )
        )


@record(frozen=False)
class FixOutcome:
    """What ``fix_files`` did: files fixed (or that would be), and files it had to leave alone."""

    files: list[FixedFile] = field(default_factory=list)
    changed_on_disk: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)

    @property
    def fixed(self) -> int:
        return sum(file.fixed for file in self.files)


def fix_files(diagnostics: Iterable[Diagnostic], write: bool) -> FixOutcome:
    """Fix every file that fixable diagnostics point at; with ``write``, save the results.

    A file whose statements no longer match its diagnostics (it changed after it was linted) is
    ``stale``; a file that changes on disk while it is being fixed is ``changed_on_disk``. Either
    is left as it is.
    """
    by_path: dict[str, list[tuple[Position, Fix]]] = {}
    for diagnostic in diagnostics:
        if diagnostic.fix is not None:
            position = Position(diagnostic.line, diagnostic.column)
            by_path.setdefault(diagnostic.path, []).append((position, diagnostic.fix))
    outcome = FixOutcome()
    for path, fixes in sorted(by_path.items()):
        before = _read(path)
        after = None if before is None else fix_source(before, fixes)
        if before is None or after is None:
            outcome.stale.append(path)
            continue
        if after == before:
            continue
        if write:
            # Right before the write: never overwrite what someone saved since we read it.
            now = _read(path)
            if now != before:
                outcome.changed_on_disk.append(path)
                continue
            write_atomically(Path(path), after)
        outcome.files.append(FixedFile(path, before, after, len(fixes)))
    return outcome


def _read(path: str) -> bytes | None:
    try:
        return Path(path).read_bytes()
    except OSError:
        return None


def fix_source(data: bytes, fixes: Sequence[tuple[Position, Fix]]) -> bytes | None:
    """``data`` with ``fixes`` applied, or ``None`` if they do not describe this content."""
    try:
        module = cst.parse_module(data)
    except (cst.ParserSyntaxError, RecursionError):
        return None
    imports = [(position, fix) for position, fix in fixes if isinstance(fix, ImportFix)]
    keywords = [fix for _, fix in fixes if isinstance(fix, KeywordFix)]
    plans = _import_plans(module, imports)
    edits = _keyword_edits(module, keywords)
    if plans is None or edits is None:
        return None
    # Imports first: their rewriter keeps every call as it is (the same nodes), so the keyword
    # edits, keyed by node, still find their arguments in its result.
    rewritten = module.visit(_Rewriter(plans)) if plans else module
    if not edits:
        return rewritten.bytes
    keyword_rewriter = _KeywordRewriter(edits)
    rewritten = rewritten.visit(keyword_rewriter)
    return rewritten.bytes if keyword_rewriter.applied == len(edits) else None


def _import_plans(
    module: cst.Module, fixes: Sequence[tuple[Position, ImportFix]]
) -> dict[int, dict[str, ImportFix]] | None:
    """The names to rewrite in each statement (by node), or ``None`` if a fix finds no
    statement importing its name at its position."""
    if not fixes:
        return {}
    statements = _import_froms(module)
    positions = node_positions(module, list(statements))
    at = {(p.line, p.column): node for node in statements for p in [positions[id(node)]]}
    plans: dict[int, dict[str, ImportFix]] = {}
    for position, fix in fixes:
        node = at.get((position.line, position.column))
        if node is None or not _imports(node, fix):
            return None
        plans.setdefault(id(node), {})[fix.name] = fix
    return plans


# --- finding the statements ---------------------------------------------------------------------


class _ImportFroms(cst.CSTVisitor):
    """Every ``from ... import`` statement; expressions cannot hold one, so they are skipped."""

    def __init__(self) -> None:
        self.found: list[cst.ImportFrom] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            self.found += [small for small in node.body if isinstance(small, cst.ImportFrom)]
            return False
        return not isinstance(node, cst.BaseExpression)


def _import_froms(module: cst.Module) -> list[cst.ImportFrom]:
    visitor = _ImportFroms()
    module.visit(visitor)
    return visitor.found


def _imports(node: cst.ImportFrom, fix: ImportFix) -> bool:
    """Whether ``node`` is ``from fix.module import ..., fix.name, ...`` (absolute)."""
    if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
        return False
    if get_full_name_for_node(node.module) != fix.module:
        return False
    return any(get_full_name_for_node(alias.name) == fix.name for alias in node.names)


# --- keywords -----------------------------------------------------------------------------------

# What becomes of one keyword argument: written anew as ``keyword="value"``, or ``None``: removed.
_Edit = tuple[str, str] | None


class _KeywordArguments(cst.CSTVisitor):
    """Every keyword argument of every call, wherever the call is."""

    def __init__(self) -> None:
        self.found: list[cst.Arg] = []

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self.found.append(node)


def _keyword_edits(module: cst.Module, fixes: Sequence[KeywordFix]) -> dict[int, _Edit] | None:
    """Each argument's edit, by node; ``None`` when an argument is not written at its position
    as its fix says, or two fixes disagree about one argument."""
    if not fixes:
        return {}
    visitor = _KeywordArguments()
    module.visit(visitor)
    positions = node_positions(module, list(visitor.found))
    at = {(p.line, p.column): node for node in visitor.found for p in [positions[id(node)]]}
    edits: dict[int, _Edit] = {}
    for fix in fixes:
        wanted: list[tuple[int, int, str, str, _Edit]] = [
            (fix.line, fix.column, fix.keyword, fix.value, (fix.new_keyword, fix.new_value)),
            *((line, column, keyword, value, None) for line, column, keyword, value in fix.drop),
        ]
        for line, column, keyword, value, edit in wanted:
            node = at.get((line, column))
            if node is None or not _written(node, keyword, value):
                return None
            if edits.setdefault(id(node), edit) != edit:
                return None
    return edits


def _written(node: cst.Arg, keyword: str, value: str) -> bool:
    """Whether ``node`` is ``keyword="value"``, the value a plain string literal."""
    string = node.value
    return (
        node.keyword is not None
        and node.keyword.value == keyword
        and isinstance(string, cst.SimpleString)
        and string.evaluated_value == value
    )


class _KeywordRewriter(cst.CSTTransformer):
    """Apply the edits to the calls holding their arguments; count the arguments edited."""

    def __init__(self, edits: dict[int, _Edit]) -> None:
        super().__init__()
        self.edits = edits
        self.applied = 0

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if not any(id(arg) in self.edits for arg in original_node.args):
            return updated_node
        kept: list[cst.Arg] = []
        for original, updated in zip(original_node.args, updated_node.args):
            if id(original) not in self.edits:
                kept.append(updated)
                continue
            self.applied += 1
            edit = self.edits[id(original)]
            if edit is not None:
                keyword, value = edit
                string = updated.value
                assert isinstance(string, cst.SimpleString)  # checked by _written
                quoted = f"{string.prefix}{string.quote}{value}{string.quote}"
                kept.append(
                    updated.with_changes(keyword=cst.Name(keyword), value=cst.SimpleString(quoted))
                )
        last = original_node.args[-1]
        if kept and id(last) in self.edits and self.edits[id(last)] is None:
            # The last argument went: the one now last ends as it did (no comma, or a
            # trailing comma before the closing parenthesis on its own line).
            kept[-1] = kept[-1].with_changes(comma=updated_node.args[-1].comma)
        return updated_node.with_changes(args=kept)


# --- rewriting ----------------------------------------------------------------------------------


class _Rewriter(cst.CSTTransformer):
    """Rewrite the planned statements; split one into several where names part ways."""

    def __init__(self, plans: dict[int, dict[str, ImportFix]]) -> None:
        super().__init__()
        self.plans = plans

    def on_visit(self, node: cst.CSTNode) -> bool:
        # Imports are rewritten when their line is left; no expression can hold one.
        simple = (cst.SimpleStatementLine, cst.SimpleStatementSuite, cst.BaseExpression)
        return not isinstance(node, simple)

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if len(updated_node.body) == 1:
            parts = self._parts(updated_node.body[0])
            if len(parts) > 1:
                # One statement per line: the first keeps the comments above and beside it.
                first = updated_node.with_changes(body=[parts[0]])
                rest = [cst.SimpleStatementLine(body=[part]) for part in parts[1:]]
                return cst.FlattenSentinel([first, *rest])
            return updated_node.with_changes(body=parts)
        return updated_node.with_changes(body=self._flatten(updated_node.body))

    def leave_SimpleStatementSuite(
        self, original_node: cst.SimpleStatementSuite, updated_node: cst.SimpleStatementSuite
    ) -> cst.SimpleStatementSuite:
        return updated_node.with_changes(body=self._flatten(updated_node.body))

    def _parts(self, small: cst.BaseSmallStatement) -> Sequence[cst.BaseSmallStatement]:
        plan = self.plans.get(id(small))
        if plan is None or not isinstance(small, cst.ImportFrom):
            return [small]
        return _rewrite(small, plan)

    def _flatten(self, body: Sequence[cst.BaseSmallStatement]) -> list[cst.BaseSmallStatement]:
        """Small statements with each rewritten import in place, ``;``-joined where it split."""
        out: list[cst.BaseSmallStatement] = []
        for small in body:
            parts = self._parts(small)
            joined = [
                part.with_changes(
                    semicolon=cst.Semicolon(whitespace_after=cst.SimpleWhitespace(" "))
                )
                for part in parts[:-1]
            ]
            out += [*joined, parts[-1]]
        return out


def _rewrite(node: cst.ImportFrom, plan: dict[str, ImportFix]) -> list[cst.ImportFrom]:
    """The statements that replace ``node``: the first one keeps its comments and layout."""
    assert not isinstance(node.names, cst.ImportStar)
    aliases = list(node.names)
    groups: dict[_Target, list[int]] = {}
    for index, alias in enumerate(aliases):
        fix = plan.get(get_full_name_for_node(alias.name) or "")
        groups.setdefault(None if fix is None else fix.new_module, []).append(index)
    renamed = [
        _renamed(alias, plan.get(get_full_name_for_node(alias.name) or "")) for alias in aliases
    ]
    # The names that stay keep the statement; otherwise the first name's new module does.
    order = sorted(groups, key=lambda target: target is not None)
    out = []
    for position, target in enumerate(order):
        module = node.module if target is None else cst.parse_expression(target)
        names = _closed([renamed[i] for i in groups[target]], groups[target][-1], aliases, node)
        part = node.with_changes(module=module, names=names)
        if position > 0:
            part = _new_statement(part, node)
        out.append(part.with_changes(semicolon=cst.MaybeSentinel.DEFAULT))
    out[-1] = out[-1].with_changes(semicolon=node.semicolon)
    return out


def _new_statement(part: cst.ImportFrom, node: cst.ImportFrom) -> cst.ImportFrom:
    """A statement split off ``node``: on one line unless its names carry comments."""
    assert not isinstance(part.names, cst.ImportStar)
    names = list(part.names)
    if any(
        isinstance(a.comma, cst.Comma) and _has_comment(a.comma.whitespace_after) for a in names
    ):
        return part.with_changes(
            lpar=_without_comments(node.lpar), rpar=_without_comments(node.rpar)
        )
    one_line = [
        alias.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        for alias in names[:-1]
    ]
    one_line.append(names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT))
    return part.with_changes(names=one_line, lpar=None, rpar=None)


def _renamed(alias: cst.ImportAlias, fix: ImportFix | None) -> cst.ImportAlias:
    if fix is None or fix.new_name == fix.name:
        return alias
    asname = alias.asname or cst.AsName(name=cst.Name(fix.name))
    return alias.with_changes(name=cst.Name(fix.new_name), asname=asname)


def _closed(
    group: list[cst.ImportAlias],
    end_index: int,
    aliases: list[cst.ImportAlias],
    node: cst.ImportFrom,
) -> list[cst.ImportAlias]:
    """``group`` ending as the statement's last name did, keeping the comments of its own commas.

    Every name but the statement's last has a comma, whose whitespace holds the comment written
    after the name; a group ending elsewhere takes the statement's ending instead (no comma, or a
    trailing comma before the closing parenthesis), unless that would drop such a comment.
    """
    end, last = group[-1], aliases[-1]
    if end_index == len(aliases) - 1 or not isinstance(end.comma, cst.Comma):
        return group
    if not _has_comment(end.comma.whitespace_after):
        closing = last.comma
        if isinstance(closing, cst.Comma):
            closing = closing.with_changes(
                whitespace_after=_strip_comments(closing.whitespace_after)
            )
        return [*group[:-1], end.with_changes(comma=closing)]
    # A comment inside an import implies parentheses, so the comma may stay as a trailing one.
    whitespace = end.comma.whitespace_after
    assert isinstance(whitespace, cst.ParenthesizedWhitespace)
    indent = _closing_indent(last, node)
    comma = end.comma.with_changes(whitespace_after=whitespace.with_changes(last_line=indent))
    return [*group[:-1], end.with_changes(comma=comma)]


def _closing_indent(last: cst.ImportAlias, node: cst.ImportFrom) -> cst.SimpleWhitespace:
    for whitespace in (
        last.comma.whitespace_after if isinstance(last.comma, cst.Comma) else None,
        node.rpar.whitespace_before if node.rpar is not None else None,
    ):
        if isinstance(whitespace, cst.ParenthesizedWhitespace):
            return whitespace.last_line
    return cst.SimpleWhitespace("")


def _has_comment(whitespace: cst.BaseParenthesizableWhitespace) -> bool:
    if not isinstance(whitespace, cst.ParenthesizedWhitespace):
        return False
    lines = [whitespace.first_line.comment, *(line.comment for line in whitespace.empty_lines)]
    return any(comment is not None for comment in lines)


def _strip_comments(
    whitespace: cst.BaseParenthesizableWhitespace,
) -> cst.BaseParenthesizableWhitespace:
    if not isinstance(whitespace, cst.ParenthesizedWhitespace):
        return whitespace
    return whitespace.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=[])


_Paren = cst.LeftParen | cst.RightParen | None


def _without_comments(paren: _Paren) -> _Paren:
    """A copy of a parenthesis for a new statement: the comments stay with the original."""
    if isinstance(paren, cst.LeftParen):
        return paren.with_changes(whitespace_after=_strip_comments(paren.whitespace_after))
    if isinstance(paren, cst.RightParen):
        return paren.with_changes(whitespace_before=_strip_comments(paren.whitespace_before))
    return None


def _text(data: bytes) -> str:
    text = decode(data)
    assert isinstance(text, str), "fixed files were parsed, so they decode"
    return text
