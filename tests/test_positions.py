"""Positions taken from CPython's tree agree with libcst's own position providers.

``anchored_positions`` numbers libcst's statements and calls in source order and places each
wanted node from the CPython node of the same number; these tests hold it to libcst's
``PositionProvider`` (which places what falls back) on every file of the repository and
on a sample of the syntax where the two parsers differ.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import (
    MetadataWrapper,
    PositionProvider,
    WhitespaceInclusivePositionProvider,
)

from dagroute_lint.extract import positions as positions_module
from dagroute_lint.extract.positions import anchored_positions, node_positions
from dagroute_lint.extract.source import Parsed, decode, parse

REPO = Path(__file__).resolve().parents[1]

# What CPython and libcst place differently: parentheses, generators, continuations, decorators,
# async, tabs, wide characters, calls in f-strings and calls that start where another does.
SAMPLE = '''\
# -*- coding: utf-8 -*-
"""Ünïcode ☃ in the docstring, so columns are characters, not bytes."""
import os.path as p, sys
from . import (a as b, c)
from x.y import (  # comment
    z,
)

@d(a())
@e
def f(p, /, q=g(), *args, r: h() = i(), **kw) -> j():
    x = a() if b() else c()
    lambda y=k(): l()
    try:
        pass
    except m() as e:
        n()
    else:
        o()
    finally:
        p()
    match q():
        case [r] if s():
            t()
        case {"a": u}:
            pass
    with v() as (w, z), aa() as w2:
        bb()

    # a comment before a loop
    for (a, b) in dd():
        ee()
    else:
        ff()
    while gg():
        break
    [ii(x) for x in jj() if kk()]
    {ll(): mm() for x in nn()}
    x[oo():pp():qq()] = rr()
    x: ss() = tt()
    x += uu()
    del x[vv()]
    assert ww(), xx()
    raise yy() from zz()


async def g2(a="☃☃", b=cc("é")):
    await cc(  "☃", k=("é"),  *args, **kw)
    async for t in ee():
        pass
    async with ff() as h:
        pass


@bbb()
class C(ccc(), metaclass=ddd()):
    x = eee()
def  \\
    spaced(): pass
class\\
  Spaced: pass
print(f"{fff()} {x!r:>{ggg()}}", *ggg(), **hhh(), k=iii())
a = b = jjj()
if x: kkk(); lll()
elif y: mmm()
else: nnn()
z = not ooo() and ppp() or qqq() < rrr() < sss()
t = (uuu(), *vvv()), {www(): xxx(), **yyy()}, {zzz()}
s = x.y().z[1](2)(3)
n = (w := a())
q = f((a), (b for b in c), (d, e), k=(x for x in y)) if 0 else f(x for x in y)
if q:
\tr = "tab" if 0 else f(1,\tx=2)
with DAG("d") as dag, (DAG("e")) as (other):
\tpass
for (single) in range(3):
    pass
v = call(
    "é",
    # comment
    queue="q" \\
        "r",
)
'''


def _files() -> Iterator[tuple[str, str]]:
    yield "sample", SAMPLE
    yield "sample with CRLF line breaks", SAMPLE.replace("\n", "\r\n")
    for path in sorted([*(REPO / "examples").rglob("*.py"), *(REPO / "tests").rglob("*.py")]):
        text = decode(path.read_bytes())
        if isinstance(text, str):
            yield str(path.relative_to(REPO)), text


def _parsed(text: str) -> Parsed | None:
    parsed = parse(text)
    return parsed if isinstance(parsed, Parsed) else None


_REPORTED = (cst.Call, cst.Arg, cst.Import, cst.ImportFrom, cst.BaseSmallStatement)


def test_the_sample_parses() -> None:
    assert _parsed(SAMPLE) is not None


def test_every_reported_kind_matches_libcst_on_every_file() -> None:
    checked = files = 0
    for name, text in _files():
        parsed = _parsed(text)
        if parsed is None:
            continue
        wrapper = MetadataWrapper(parsed.module, unsafe_skip_copy=True)
        inclusive = wrapper.resolve(WhitespaceInclusivePositionProvider)
        syntactic = wrapper.resolve(PositionProvider)
        nodes = [node for node in inclusive if isinstance(node, _REPORTED)]
        expected = {id(node): syntactic[node].start for node in nodes}
        for node in inclusive:  # compound statements and the names they bind: their own start
            if isinstance(node, cst.BaseCompoundStatement):
                nodes.append(node)
                expected[id(node)] = syntactic[node].start
                bound: list[cst.CSTNode] = []
                if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
                    bound = [node.name]
                elif isinstance(node, cst.For):
                    bound = [node.target]
                elif isinstance(node, cst.With):
                    bound = [item.asname.name for item in node.items if item.asname is not None]
                for part in bound:
                    nodes.append(part)
                    expected[id(part)] = syntactic[part].start
        ours = anchored_positions(parsed.module, nodes, parsed.anchors)
        muted = _fstring_nodes(parsed.module)
        for node in nodes:
            if id(node) in muted:
                assert id(node) not in ours
                continue
            start = expected[id(node)]
            got = ours.get(id(node))
            assert got is not None, (name, type(node).__name__, start)
            assert (got.line, got.column) == (start.line, start.column + 1), (name, node)
            checked += 1
        files += 1
    assert files > 400
    assert checked > 20_000


def _fstring_nodes(module: cst.Module) -> set[int]:
    """What lies inside f-strings, which are left out on both sides."""
    found: set[int] = set()

    def collect(node: cst.CSTNode, inside: bool) -> None:
        inside = inside or isinstance(node, cst.FormattedString)
        if inside:
            found.add(id(node))
        for child in node.children:
            collect(child, inside)

    collect(module, False)
    return found


def _reference(module: cst.Module) -> tuple[list[cst.CSTNode], list[cst.CSTNode]]:
    """Statements and calls in source order, from libcst's own ``children`` (slow, exact)."""
    statements: list[cst.CSTNode] = []
    calls: list[cst.CSTNode] = []

    def walk(node: cst.CSTNode) -> None:
        if isinstance(node, cst.FormattedString):
            return
        if isinstance(node, cst.Call):
            calls.append(node)
        elif isinstance(node, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
            statements.append(node)
        for child in node.children:
            walk(child)

    walk(module)
    return statements, calls


def test_the_lean_walk_meets_statements_and_calls_in_source_order_as_cpython_does() -> None:
    walked = 0
    for name, text in _files():
        parsed = _parsed(text)
        if parsed is None:
            continue
        numbered = positions_module._number(parsed.module, set())
        statements, calls = _reference(parsed.module)
        assert numbered.statements == statements, name
        assert numbered.calls == calls, name
        assert len(parsed.anchors.calls) == len(calls), name
        assert len(parsed.anchors.statements) == len(statements), name
        walked += 1
    assert walked > 400


def test_only_what_cpython_places_differently_falls_back_to_libcsts_positions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed = _parsed(SAMPLE)
    assert parsed is not None
    fallen: list[cst.CSTNode] = []

    def recording(module: cst.Module, nodes: list[cst.CSTNode]) -> dict[int, object]:
        fallen.extend(nodes)
        return node_positions(module, nodes)  # type: ignore[return-value]

    monkeypatch.setattr(positions_module, "node_positions", recording)
    wrapper = MetadataWrapper(parsed.module, unsafe_skip_copy=True)
    nodes = [n for n in wrapper.resolve(PositionProvider) if isinstance(n, (cst.Call, cst.Arg))]
    anchored_positions(parsed.module, nodes, parsed.anchors)
    kinds = sorted(
        "generator" if isinstance(node.value, cst.GeneratorExp) else "parenthesised"
        for node in fallen
        if isinstance(node, cst.Arg)
    )
    assert kinds == ["generator", "generator", "parenthesised", "parenthesised"]
    assert all(isinstance(node, cst.Arg) for node in fallen)


def test_nodes_of_another_tree_are_left_out() -> None:
    here, there = _parsed("f(a)\n"), _parsed("g(b)\n")
    assert here is not None and there is not None
    foreign = there.module.body[0].body[0].value  # type: ignore[attr-defined]
    own = here.module.body[0].body[0].value  # type: ignore[attr-defined]
    placed = anchored_positions(here.module, [own, foreign], here.anchors)
    assert set(placed) == {id(own)}
