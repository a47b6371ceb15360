"""Statements in execution order: blocks, assignments, loops, branches, ``try``, ``with``."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import libcst as cst
from libcst.helpers import get_full_name_for_node

from dagroute_lint.catalog import airflow_names as names
from dagroute_lint.extract.bindings import (
    SPREAD,
    Binding,
    DagHandle,
    DictObject,
    GroupHandle,
    Imported,
    ListObject,
    Record,
    SetObject,
    TaskHandles,
)
from dagroute_lint.extract.candidates import cannot_raise, joined
from dagroute_lint.extract.containers import (
    CONTAINERS,
    consume,
    not_iterated,
    record_items,
    snapshot,
    spoil,
)
from dagroute_lint.extract.evaluator.functions import Functions
from dagroute_lint.extract.evaluator.helpers import (
    SET_AUGMENTED,
    airflow_core,
    dict_entries,
    fails_on,
    guards_import,
    handles_import_error,
    is_main_guard,
    is_type_checking,
    replace_values,
    same_binding,
    set_operation,
)
from dagroute_lint.extract.evaluator.state import (
    AUGMENTED,
    MAX_WORK,
    DraftImport,
    Jump,
    WalkerState,
)
from dagroute_lint.extract.folding import truth
from dagroute_lint.extract.imports import import_bindings
from dagroute_lint.extract.written import as_written
from dagroute_lint.model import (
    Const,
    DictExpr,
    Ref,
    SeqExpr,
    Unknown,
)


class Statements(WalkerState):
    def walk_block(self, statements: Sequence[cst.CSTNode]) -> None:
        for statement in statements:
            self.walk_statement(statement)

    def walk_statement(self, statement: cst.CSTNode) -> None:
        self.work += 1
        handler = STATEMENTS.get(type(statement))
        if handler is not None:
            handler(self, statement)

    def walk_line(self, statement: cst.SimpleStatementLine) -> None:
        for small in statement.body:
            self.walk_small(small)

    def walk_while(self, statement: cst.While) -> None:
        self.value_of(statement.test)
        self.walk_unknown_loop(
            statement,
            None,
            Unknown("a while loop"),
            statement.body,
            statement.orelse,
            "a while loop builds tasks; how many times it runs, and so how many tasks and their "
            "ids, is not known",
        )

    def walk_body(self, body: cst.BaseSuite) -> None:
        if isinstance(body, cst.IndentedBlock):
            self.walk_block(body.body)
        elif isinstance(body, cst.SimpleStatementSuite):
            for small in body.body:
                self.walk_small(small)

    def walk_small(self, small: cst.BaseSmallStatement) -> None:
        handler = SMALL_STATEMENTS.get(type(small))
        if handler is not None:
            handler(self, small)

    def walk_expression_statement(self, small: cst.Expr) -> None:
        self.value_of(small.value)

    def walk_assign(self, small: cst.Assign) -> None:
        value = self.value_of(small.value)
        for target in small.targets:
            self.bind(target.target, value)

    def walk_annotated_assign(self, small: cst.AnnAssign) -> None:
        if small.value is not None:
            self.bind(small.target, self.value_of(small.value))

    def walk_del_statement(self, small: cst.Del) -> None:
        self.walk_del(small.target)

    def walk_return(self, small: cst.Return) -> None:
        raise Jump("return", self.value_of(small.value) if small.value is not None else None)

    def walk_break(self, small: cst.Break) -> None:
        raise Jump("break")

    def walk_continue(self, small: cst.Continue) -> None:
        raise Jump("continue")

    def walk_del(self, target: cst.BaseExpression) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self.walk_del(element.value)
        elif isinstance(target, cst.Name):
            self.scope.names[target.value] = Unknown(f"'{target.value}' was deleted")
        elif isinstance(target, cst.Subscript):
            self.store_item(target, None)
        elif isinstance(target, cst.Attribute):
            self.bind_attribute(target, Unknown("the attribute was deleted"))

    def walk_import(self, statement: cst.Import | cst.ImportFrom) -> None:
        bindings, modules = import_bindings(statement, self.module_name, self.is_package)
        for local, qualname in bindings:
            self.scope.names[local] = Imported(names.canonical(qualname))
        if self.foreign_site is not None:
            return  # an import run by another module's function: not placed in this file
        for module in modules:
            self.imports.append(DraftImport(module, statement, "module", self.guarded))

    def walk_aug_assign(self, small: cst.AugAssign) -> None:
        """``x op= y``: in place for a dict's ``|=`` and a list's ``+=``, else ``x = x op y``."""
        current = self.value_of(small.target)
        operand = self.value_of(small.value)
        if isinstance(current, DictObject) and isinstance(small.operator, cst.BitOrAssign):
            self.change(current, lambda: current.parts.append((SPREAD, None, snapshot(operand))))
            return
        if isinstance(current, ListObject) and isinstance(small.operator, cst.AddAssign):
            self.extend(current, operand)
            return
        if isinstance(current, SetObject) and type(small.operator) in SET_AUGMENTED:
            result = set_operation(SET_AUGMENTED[type(small.operator)], current, operand, 0)
            if isinstance(result, SetObject):
                self.change(current, lambda: replace_values(current, result))
            else:
                spoil(current, result.reason if isinstance(result, Unknown) else "changed")
            return
        operator = AUGMENTED.get(type(small.operator))
        combined = None
        if operator is not None and not isinstance(current, Unknown):
            combined = self.combine(operator, current, operand)
        written = get_full_name_for_node(small.target) or "a target"
        self.bind(
            small.target,
            combined
            if combined is not None
            else Unknown(f"'{written}' is changed by an augmented assignment"),
        )

    def walk_with(self, statement: cst.With) -> None:
        pushed_dags = 0
        pushed_groups = 0
        for item in statement.items:
            value = self.value_of(item.item)
            if isinstance(value, DagHandle):
                self.dags[value.index].registered = True  # leaving the block registers it
                self.dag_stack.append(value.index)
                pushed_dags += 1
            elif isinstance(value, GroupHandle):
                self.group_stack.append(value.index)
                pushed_groups += 1
            if item.asname is not None:
                self.bind(item.asname.name, value)
        try:
            self.walk_body(statement.body)
        finally:
            for index in reversed(self.group_stack[len(self.group_stack) - pushed_groups :]):
                self.leave_group(index, statement)
            del self.dag_stack[len(self.dag_stack) - pushed_dags :]
            del self.group_stack[len(self.group_stack) - pushed_groups :]

    def walk_for(self, statement: cst.For) -> None:
        iterable = self.iterated_value(statement.iter)
        if isinstance(iterable, (Ref, Imported)):
            qualname = iterable.qualname
            if qualname in self.externals:
                iterable = self.externals[qualname]
            elif qualname not in self.loop_refs:
                self.loop_refs.append(qualname)
        items = self.iteration_items(iterable)
        if isinstance(items, Unknown):
            written = as_written(statement.iter)
            why = not_iterated(iterable, "not a literal sequence")
            self.walk_unknown_loop(
                statement,
                statement.target,
                items,
                statement.body,
                statement.orelse,
                f"a loop builds tasks over {written}, which is not known statically ({why}); "
                "how many tasks, and their ids, are not known",
            )
            return
        before = dict(self.scope.names)
        uncertain = self.uncertain
        broke = False
        for item in items:
            if self.work > MAX_WORK:
                self.bound_reached(statement, "the loop was not unrolled to its end (work bound)")
                self.uncertain += 1
                break
            self.bind(statement.target, item)
            jump = self.walk_loop_body(statement.body)
            if jump == "break":
                broke = True
                break
        left_early = self.uncertain > uncertain
        self.uncertain = uncertain
        if left_early:  # an undecided break or continue: later iterations may not have run
            self.merge_names(before, "'{}' is assigned in a loop left early under a condition")
        if statement.orelse is not None and not broke:
            self.walk_body(statement.orelse.body)

    def walk_loop_body(self, body: cst.BaseSuite) -> str | None:
        """One iteration; returns ``"break"`` or ``"continue"`` when one is certainly reached.
        An undecided one leaves ``self.uncertain`` raised for the rest of the loop."""
        try:
            self.walk_body(body)
        except Jump as jump:
            if jump.kind == "return":
                raise
            return jump.kind
        return None

    def walk_unknown_loop(
        self,
        node: cst.CSTNode,
        target: cst.BaseExpression | None,
        item: Unknown,
        body: cst.BaseSuite,
        orelse: cst.Else | None,
        message: str,
    ) -> None:
        """A loop whose iterations are unknown: its body is walked once, under a condition, and
        whatever it assigns is unresolved after it (it may have run any number of times).
        ``message`` is DRL106's, said if the body builds tasks."""
        before = dict(self.scope.names)
        uncertain = self.uncertain
        self.uncertain += 1
        if target is not None:
            self.bind(target, item)
        built = len(self.tasks)
        self.walk_loop_body(body)
        if len(self.tasks) > built:
            self.not_followed(node, message)
        if orelse is not None:
            self.walk_body(orelse.body)
        self.uncertain = uncertain
        self.merge_names(before, "'{}' is assigned in a loop that runs an unknown number of times")

    def merge_names(self, before: dict[str, Binding], reason: str) -> None:
        """Names changed since ``before`` may or may not have changed: unresolved, with why."""
        for name, bound in list(self.scope.names.items()):
            previous = before.get(name)
            if previous is None or not same_binding(previous, bound):
                self.scope.names[name] = Unknown(reason.format(name))

    def iteration_items(self, value: Binding) -> list[Binding] | Unknown:
        if isinstance(value, CONTAINERS) and value.spoiled is not None:
            value = value.spoiled
        if isinstance(value, ListObject) and self.unrollable(len(value.items)):
            self.unordered_runs += value.unordered is not None
            listed = list(value.items)
            consume(value)
            return listed
        if isinstance(value, SetObject) and self.unrollable(len(value.values)):
            return list(value.values.values())
        if isinstance(value, DictObject):
            entries = dict_entries(value)
            if entries is not None:  # iterating a dict yields its keys
                return [key for key, _ in entries]
        if isinstance(value, Record):  # a named tuple's fields
            items = record_items(value)
            if items is not None:
                return items
        if isinstance(value, TaskHandles):  # ``for t in dag.tasks``
            return [TaskHandles((index,)) for index in value.indexes]
        if isinstance(value, SeqExpr) and self.unrollable(len(value.items)):
            return list(value.items)
        if isinstance(value, DictExpr) and all(
            key is not None for key, _ in value.parts
        ):  # iterating a dict yields its keys
            return [key for key, _ in value.parts if key is not None]
        if isinstance(value, Unknown):  # the items of plain data are plain data
            reason = f"loop over a value that is not a literal sequence: {value.reason}"
            return Unknown(reason, data=value.data)
        return Unknown("loop over a value that is not a literal sequence")

    def walk_if(self, statement: cst.If) -> None:
        test = statement.test
        if is_main_guard(test):
            return
        if is_type_checking(test):
            with self.guarding():
                self.walk_body(statement.body)
            # The else branch is what runs for real.
            self.walk_else(statement.orelse)
            return
        decided = self.condition(test)
        if decided is True:
            self.walk_body(statement.body)
            return
        if decided is False:
            self.walk_else(statement.orelse)
            return
        before = dict(self.scope.names)
        first_import = len(self.imports)
        self.walk_undecided(statement.body)
        after_body = self.scope.names
        self.scope.names = dict(before)
        else_import = len(self.imports)
        if statement.orelse is not None:
            if isinstance(statement.orelse, cst.If):
                self.walk_undecided(statement.orelse)
            else:
                self.walk_undecided(statement.orelse.body)
        after_else = self.scope.names
        if self.bound_by(self.imports[first_import:else_import]) & self.bound_by(
            self.imports[else_import:]
        ):
            # A compatibility shim: both branches import a name of the same spelling
            # (``from airflow.sdk import DAG`` / ``from airflow.models.dag import DAG``). Only
            # one runs on a deployment, chosen by a condition the walk cannot decide (a version
            # flag), so neither branch's import of Airflow itself can be said to fail on the
            # deployment's version: they are judged as the two halves of ``try``/``except
            # ImportError`` are. A provider or another package is the runtime's, not the
            # version's: its import is judged as before, wherever it stands.
            for draft in self.imports[first_import:]:
                draft.guarded = draft.guarded or airflow_core(draft.module)
        self.scope.names = merged_branches([after_body, after_else])

    def walk_match(self, statement: cst.Match) -> None:
        """``match`` on a value the walk knows runs the first case whose pattern matches it
        (literal values, ``None``/``True``/``False``, ``|`` of those, captures and ``_``); from
        the first case it cannot decide on, each remaining case may run, as undecided ``if``
        branches do, and no case at all unless one is irrefutable."""
        subject = self.value_of(statement.subject)
        for index, case in enumerate(statement.cases):
            decided = self.case_matches(case, subject)
            if decided is False:
                continue
            if decided is True:
                self.bind_capture(case.pattern, subject)
                self.walk_body(case.body)
                return
            self.walk_cases(statement.cases[index:], subject)
            return

    def case_matches(self, case: cst.MatchCase, subject: Binding) -> bool | None:
        decided = pattern_matches(case.pattern, subject, self.value_of)
        if decided is not True or case.guard is None:
            return decided
        self.bind_capture(case.pattern, subject)
        return truth(self.value_of(case.guard))

    def walk_cases(self, cases: Sequence[cst.MatchCase], subject: Binding) -> None:
        before = dict(self.scope.names)
        states: list[dict[str, Binding]] = []
        for case in cases:
            self.scope.names = dict(before)
            self.bind_capture(case.pattern, subject)
            self.walk_undecided(case.body)
            states.append(self.scope.names)
        if not any(irrefutable(case) for case in cases):
            states.append(before)  # no case matches
        self.scope.names = merged_branches(states)

    def bind_capture(self, pattern: cst.MatchPattern, subject: Binding) -> None:
        """``case x:`` and ``case ... as x:`` bind the subject."""
        if isinstance(pattern, cst.MatchAs) and pattern.name is not None:
            self.scope.names[pattern.name.value] = subject

    def bound_by(self, drafts: Sequence[DraftImport]) -> set[str]:
        """The local names the module-level imports ``drafts`` bind."""
        return {
            local
            for draft in drafts
            if draft.scope == "module"
            for local, _ in import_bindings(draft.node, self.module_name, self.is_package)[0]
        }

    def walk_else(self, orelse: cst.If | cst.Else | None) -> None:
        if isinstance(orelse, cst.If):
            self.walk_if(orelse)
        elif orelse is not None:
            self.walk_body(orelse.body)

    def walk_undecided(self, branch: cst.BaseSuite | cst.If) -> None:
        """A branch that may or may not run. A ``break``, ``continue`` or ``return`` in it makes
        the rest of the enclosing loop or function undecided too (``self.uncertain`` stays up)."""
        self.uncertain += 1
        try:
            if isinstance(branch, cst.If):
                self.walk_if(branch)
            else:
                self.walk_body(branch)
        except Jump as jump:
            if jump.kind == "return" and self.returns:
                self.returns[-1].append(jump.value if jump.value is not None else Const(None))
            self.uncertain += 1
        self.uncertain -= 1

    def walk_try(self, statement: cst.Try) -> None:
        """The ``try`` body is taken to succeed, as it does where Airflow parses the file; what
        a handler assigns makes the name one of the body's value and the handler's (the handler
        may run instead), except an alternative import of the same name (``try: from new import
        X / except: from old``). A body that cannot raise leaves its handlers dead. An import of
        Airflow the deployment's release certainly fails runs the ``ImportError`` handler
        instead of the rest of the body (``fails_on``)."""
        catches_import = guards_import(statement.handlers)
        body = statement.body.body if isinstance(statement.body, cst.IndentedBlock) else ()
        failing = next(
            (i for i, line in enumerate(body) if fails_on(line, self.airflow_release)), None
        )
        if catches_import and failing is not None:
            self.walk_failed_try(statement, body[:failing])
            return
        if catches_import:
            with self.guarding():
                self.walk_body(statement.body)
        else:
            self.walk_body(statement.body)
        after_body = dict(self.scope.names)
        dead = cannot_raise(statement.body, after_body)
        for handler in () if dead else statement.handlers:
            self.scope.names = dict(after_body)
            with self.guarding():
                self.walk_undecided(handler.body)
            for name, bound in self.scope.names.items():
                kept = after_body.get(name)
                if kept is not None and (
                    same_binding(kept, bound)
                    or (isinstance(kept, Imported) and isinstance(bound, Imported))
                ):
                    continue
                reason = f"'{name}' is assigned in an except handler"
                after_body[name] = (
                    joined((kept, bound), reason) if kept is not None else Unknown(reason)
                )
        self.scope.names = after_body
        if statement.orelse is not None:
            self.walk_body(statement.orelse.body)
        if statement.finalbody is not None:
            self.walk_body(statement.finalbody.body)

    def walk_failed_try(self, statement: cst.Try, ran: Sequence[cst.BaseStatement]) -> None:
        """A ``try`` whose body fails to import on the deployment: the statements before the
        failing import, then the first handler that catches ``ImportError`` (``guards_import``
        found one), then ``finally``; ``else`` does not run."""
        with self.guarding():
            self.walk_block(ran)
            handler = next(h for h in statement.handlers if handles_import_error(h))
            self.walk_body(handler.body)
        if statement.finalbody is not None:
            self.walk_body(statement.finalbody.body)

    @contextmanager
    def guarding(self) -> Iterator[None]:
        previous = self.guarded
        self.guarded = True
        try:
            yield
        finally:
            self.guarded = previous

    @contextmanager
    def inside_dag(self, index: int) -> Iterator[None]:
        """The body of a DAG built by a call (``@dag`` factory, ``@asset``): its tasks join the
        DAG and no group of the caller."""
        self.dag_stack.append(index)
        groups, self.group_stack = self.group_stack, []
        try:
            yield
        finally:
            self.dag_stack.pop()
            self.group_stack = groups


# Dispatch by node type: a new form is one entry and one method.
Handler = Callable[[Any, Any], Any]
STATEMENTS: dict[type[cst.CSTNode], Handler] = {
    cst.SimpleStatementLine: Statements.walk_line,
    cst.FunctionDef: Functions.define_function,
    cst.ClassDef: Functions.define_class,
    cst.With: Statements.walk_with,
    cst.For: Statements.walk_for,
    cst.If: Statements.walk_if,
    cst.Try: Statements.walk_try,
    cst.While: Statements.walk_while,
    cst.Match: Statements.walk_match,
}
SMALL_STATEMENTS: dict[type[cst.CSTNode], Handler] = {
    cst.Expr: Statements.walk_expression_statement,
    cst.Assign: Statements.walk_assign,
    cst.AnnAssign: Statements.walk_annotated_assign,
    cst.AugAssign: Statements.walk_aug_assign,
    cst.Import: Statements.walk_import,
    cst.ImportFrom: Statements.walk_import,
    cst.Del: Statements.walk_del_statement,
    cst.Return: Statements.walk_return,
    cst.Break: Statements.walk_break,
    cst.Continue: Statements.walk_continue,
}


def merged_branches(states: Sequence[dict[str, Binding]]) -> dict[str, Binding]:
    """The names after branches one of which ran, each leaving ``states``: a name every branch
    binds alike (or to Airflow objects of one role: a shim's spellings) keeps it; one bound
    differently is one of those values, and one some branch leaves unbound is unknown."""
    merged: dict[str, Binding] = {}
    for name in {name for state in states for name in state}:
        values = [state.get(name) for state in states]
        first = values[0]
        if first is not None and all(
            value is not None and same_binding(first, value) for value in values
        ):
            merged[name] = first
            continue
        if first is not None and all(same_role(first, value) for value in values[1:]):
            merged[name] = first  # a shim: either spelling builds it
            continue
        reason = f"'{name}' is assigned conditionally"
        present = [value for value in values if value is not None]
        merged[name] = joined(present, reason) if len(present) == len(values) else Unknown(reason)
    return merged


def pattern_matches(
    pattern: cst.MatchPattern, subject: Binding, value_of: Callable[[cst.BaseExpression], Binding]
) -> bool | None:
    """Whether ``pattern`` matches ``subject``, or ``None`` when the walk cannot tell."""
    if isinstance(pattern, cst.MatchAs):
        if pattern.pattern is None:  # ``_`` or a capture: matches anything
            return True
        return pattern_matches(pattern.pattern, subject, value_of)
    if isinstance(pattern, cst.MatchOr):
        found = [pattern_matches(each.pattern, subject, value_of) for each in pattern.patterns]
        if True in found:  # value patterns have no effects: any matching one decides
            return True
        return False if all(each is False for each in found) else None
    if not isinstance(subject, Const):
        return None
    if isinstance(pattern, cst.MatchSingleton):
        return subject.value is {"None": None, "True": True, "False": False}[pattern.value.value]
    if isinstance(pattern, cst.MatchValue):
        value = value_of(pattern.value)
        return subject.value == value.value if isinstance(value, Const) else None
    return None


def irrefutable(case: cst.MatchCase) -> bool:
    """A case that matches whatever the subject is: ``case _:`` or ``case x:`` with no guard."""
    pattern = case.pattern
    return case.guard is None and isinstance(pattern, cst.MatchAs) and pattern.pattern is None


def same_role(left: Binding | None, right: Binding | None) -> bool:
    """Both are Airflow names that build the same object (``names.role``): a shim's two
    spellings."""
    if not isinstance(left, Imported) or not isinstance(right, Imported):
        return False
    role = names.role(left.qualname)
    return role is not None and role == names.role(right.qualname)
