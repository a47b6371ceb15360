"""Expressions: names, literals, containers, operators, comprehensions, f-strings."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Sequence
from typing import Any

import libcst as cst

from dagroute_lint.catalog import airflow_names as names
from dagroute_lint.extract.bindings import (
    SET,
    SPREAD,
    Binding,
    BoundMethod,
    CallArguments,
    DagHandle,
    DictObject,
    EnumMember,
    Imported,
    ListObject,
    LocalClass,
    Record,
    SetObject,
    TaskDecorator,
    TaskHandles,
    VersionValue,
)
from dagroute_lint.extract.candidates import join, joined
from dagroute_lint.extract.containers import (
    EXPR_TYPES,
    elements,
    list_index,
    live_item,
    not_iterated,
    ordered_sequence,
    set_of,
    snapshot,
)
from dagroute_lint.extract.evaluator.calls import Calls
from dagroute_lint.extract.evaluator.files import as_path, path_text
from dagroute_lint.extract.evaluator.helpers import (
    VALUE_LIBRARIES,
    depth,
    enum_member,
    names_read,
    set_operation,
)
from dagroute_lint.extract.evaluator.state import (
    ARITHMETIC,
    MAX_EXPRESSION_DEPTH,
    MAX_WORK,
    WalkerState,
)
from dagroute_lint.extract.folding import compare, truth, undecided
from dagroute_lint.extract.literals import string_literal
from dagroute_lint.extract.versions import airflow_value
from dagroute_lint.extract.versions import attribute as version_attribute
from dagroute_lint.extract.written import as_written
from dagroute_lint.model import (
    Const,
    Expr,
    OneOf,
    Operation,
    Ref,
    SeqExpr,
    Subscript,
    Unknown,
)


class Expressions(WalkerState):
    def value_of(self, node: cst.BaseExpression) -> Binding:
        """Evaluate an expression to a binding, creating DAGs and tasks as its calls would."""
        handler = EXPRESSIONS.get(type(node))
        if handler is None:
            return Unknown(f"a {type(node).__name__} expression")
        value: Binding = handler(self, node)
        if type(value) is Unknown and id(value) not in self.unknown_at:
            self.unknown_at[id(value)] = (value, node)  # the innermost expression that gave it
        return value

    def name_node_value(self, node: cst.Name) -> Binding:
        return self.name_value(node.value)

    def string_value(self, node: cst.SimpleString | cst.ConcatenatedString) -> Binding:
        value = string_literal(node)
        return Const(value) if isinstance(value, str) else Unknown("a bytes literal")

    def integer_value(self, node: cst.Integer) -> Binding:
        return Const(int(node.value.replace("_", ""), 0))

    def float_value(self, node: cst.Float) -> Binding:
        return Const(float(node.value.replace("_", "")))

    def unary_value(self, node: cst.UnaryOperation) -> Binding:
        operand = self.value_of(node.expression)
        if (
            isinstance(node.operator, cst.Minus)
            and isinstance(operand, Const)
            and isinstance(operand.value, (int, float))
            and not isinstance(operand.value, bool)
        ):
            return Const(-operand.value)
        if isinstance(node.operator, cst.Not):
            decided = truth(operand)
            return Const(not decided) if decided is not None else undecided("'not'")
        return Unknown("an operator expression")

    def if_expression_value(self, node: cst.IfExp) -> Binding:
        decided = self.condition(node.test)
        if decided is not None:
            return self.value_of(node.body if decided else node.orelse)
        self.uncertain += 1  # what either branch builds may not exist
        try:
            body, orelse = self.value_of(node.body), self.value_of(node.orelse)
        finally:
            self.uncertain -= 1
        reason = "a conditional expression"
        if all(isinstance(branch, cst.Dict) for branch in (node.body, node.orelse)):
            # Two fresh dict literals: one new dict holding either's items (no name shares them).
            either = join((snapshot(body), snapshot(orelse)), reason)
            if either is not None:
                return DictObject([(SPREAD, None, either)], self.uncertain)
        return joined((body, orelse), reason)

    def boolean_value(self, node: cst.BooleanOperation) -> Binding:
        left = self.value_of(node.left)
        decided = truth(left)
        if decided is None:
            self.uncertain += 1
            try:
                right = self.value_of(node.right)
            finally:
                self.uncertain -= 1
            # ``a or b`` is ``a`` or ``b``, whichever ``a``'s truth picks: both are candidates,
            # or for each candidate of ``a`` the one its truth picks.
            picked = [left, right]
            if isinstance(left, OneOf) and all(truth(o) is not None for o in left.options):
                picked = [
                    option if truth(option) is isinstance(node.operator, cst.Or) else right
                    for option in left.options
                ]
            return joined(picked, undecided("a boolean operation").reason)
        takes_left = decided if isinstance(node.operator, cst.Or) else not decided
        return left if takes_left else self.value_of(node.right)

    def lambda_value(self, node: cst.Lambda) -> Binding:
        return Unknown("a lambda")

    def set_value(self, node: cst.Set) -> Binding:
        values: list[Binding] = []
        for element in node.elements:
            if isinstance(element, cst.StarredElement):
                items = elements(self.value_of(element.value))
                if items is None:
                    return Unknown("a set with a starred element that is not a literal sequence")
                values += items
            else:
                values.append(self.value_of(element.value))
        return set_of(values, self.uncertain)

    def comparison_value(self, node: cst.Comparison) -> Binding:
        left = self.value_of(node.left)
        result: bool | None = True
        for target in node.comparisons:
            right = self.value_of(target.comparator)
            decided = compare(target.operator, left, right)
            if (
                isinstance(target.operator, (cst.In, cst.NotIn))
                and isinstance(right, Imported)
                and right.qualname in names.DYNAMIC_MAPPINGS
            ):
                decided = self.environ_has(left)  # ``name in os.environ``
                if decided is not None and isinstance(target.operator, cst.NotIn):
                    decided = not decided
            if decided is False:
                return Const(False)
            if decided is None:
                result = None
            left = right
        return Const(True) if result else undecided("a comparison")

    def name_value(self, name: str) -> Binding:
        if name == "None":
            return Const(None)
        if name == "True":
            return Const(True)
        if name == "__file__" and self.scope.lookup(name) is None:
            # Absolute, as DagBag imports a file by its absolute path: what is built from it
            # (``os.path.dirname(__file__)``) names the same folder from any working directory.
            return Const(os.path.abspath(self.path))
        if name == "False":
            return Const(False)
        bound = self.scope.lookup(name)
        if bound is None:
            return Unknown(f"name '{name}' is not bound to a constant")
        if isinstance(bound, Imported):
            known = airflow_value(bound.qualname, self.airflow_release)
            if known is not None:
                return known
        if isinstance(bound, Imported) and self.sources:
            return self.foreign_constant(bound.qualname) or bound
        return bound

    def condition(self, test: cst.BaseExpression) -> bool | None:
        """Whether ``test`` holds, when the walk can decide it. Undecided, the names it reads
        from other modules (the repository's, not Airflow's or the standard library's) are asked
        for (``Module.call_refs``): given those modules' sources, the next walk decides it as
        Python does (a version flag computed in ``common/``)."""
        decided = truth(self.value_of(test))
        if decided is None:
            for name in names_read(test):
                bound = self.scope.lookup(name)
                if not isinstance(bound, Imported) or bound.qualname in self.call_refs:
                    continue
                if bound.qualname.split(".", maxsplit=1)[0] not in VALUE_LIBRARIES:
                    self.call_refs.append(bound.qualname)
        return decided

    def foreign_constant(self, qualname: str) -> Binding | None:
        """A constant of another repository module whose source the walk has (``QUEUES.X``,
        ``DEFAULT_POOL``), so that conditions on it are decided here as they are there."""
        parts = qualname.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:cut])
            if module not in self.sources:
                continue
            scope = self.foreign_module(module)
            found = scope.names.get(parts[cut]) if scope is not None else None
            for attr in parts[cut + 1 :]:
                if isinstance(found, LocalClass) and found.enum and attr in found.attributes:
                    found = enum_member(found, attr)  # a member, not its value
                elif isinstance(found, LocalClass):
                    found = found.attributes.get(attr)
                elif isinstance(found, EnumMember) and attr in ("value", "name"):
                    found = found.value if attr == "value" else Const(found.name)
                else:
                    found = None
            if isinstance(found, (Const, EnumMember, SetObject)):
                return found
            return None
        return None

    def attribute_value(self, node: cst.Attribute) -> Binding:
        base = self.value_of(node.value)
        attr = node.attr.value
        if isinstance(base, Imported):
            qualname = f"{base.qualname}.{attr}"
            known = airflow_value(qualname, self.airflow_release)
            if known is not None:
                return known
            if qualname in names.AIRFLOW_CONSTANTS:
                return Const(names.AIRFLOW_CONSTANTS[qualname])
            if self.sources:
                found = self.foreign_constant(qualname)
                if found is not None:
                    return found
            return Imported(names.canonical(qualname))
        if isinstance(base, Ref):
            return Ref(f"{base.qualname}.{attr}")
        if isinstance(base, TaskDecorator) and not base.arguments.named:
            return TaskDecorator(attr, base.arguments)
        if isinstance(base, Unknown):
            return base
        if isinstance(base, OneOf):  # an attribute of one of several objects
            return Unknown(f"an attribute of one of several values ({base.reason})")
        path = path_text(base) if isinstance(base, Operation) else None
        found = self.path_attribute(path, attr) if path is not None else None
        if found is not None:
            return found
        if isinstance(base, Operation) and base.op == "path" and attr in ("stem", "name"):
            return Operation("path_stem" if attr == "stem" else "path_name", base.operands)
        if isinstance(base, LocalClass) and attr in base.attributes:
            found = base.attributes[attr]
            if base.enum and isinstance(found, EXPR_TYPES):
                return enum_member(base, attr)
            return found
        if isinstance(base, EnumMember) and attr in ("value", "name"):
            return base.value if attr == "value" else Const(base.name)
        if isinstance(base, Record):
            return self.record_attribute(base, attr)
        if isinstance(base, VersionValue) and not base.text:  # the string's are its methods
            found = version_attribute(base, attr)
            return found if found is not None else Unknown(f"a version's '{attr}'", data=True)
        if isinstance(base, DagHandle) and attr == "task":  # ``@dag.task`` on a DAG object
            return TaskDecorator("python", CallArguments(bindings={"dag": base}))
        if isinstance(base, DagHandle) and attr == "dag_id":  # set once, when the DAG is made
            return self.dags[base.index].dag_id
        if isinstance(base, DagHandle) and attr == "default_args":
            return self.dag_defaults(base.index)
        if isinstance(base, DagHandle) and attr == "tasks":
            return TaskHandles(
                tuple(index for index, task in enumerate(self.tasks) if task.dag == base.index)
            )
        return BoundMethod(base, attr)

    def dag_defaults(self, index: int) -> DictObject:
        """The DAG's own ``default_args`` (Airflow deep-copies the dict it is given)."""
        dag = self.dags[index]
        if dag.defaults is None:
            parts: list[tuple[str, Binding | None, Binding]] = []
            if dag.default_args is not None:
                parts.append((SPREAD, None, dag.default_args))
            dag.defaults = DictObject(parts, 0)
        return dag.defaults

    def subscript_value(self, node: cst.Subscript) -> Binding:
        base = self.value_of(node.value)
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Slice):
            return self.slice_value(base, node.slice[0].slice)
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return Unknown("a slice")
        key = self.value_of(node.slice[0].slice.value)
        if isinstance(base, Imported) and base.qualname in names.DYNAMIC_MAPPINGS:
            return self.environ_item(key)
        if isinstance(base, TaskHandles):
            index = list_index(key, len(base.indexes))
            if index is not None:
                return TaskHandles((base.indexes[index],))
            return Unknown("a task picked from a list by a key that is not a literal")
        if isinstance(base, ListObject) and base.unordered is not None:
            return Unknown(f"an item picked by position from {base.unordered}", data=True)
        if isinstance(base, Unknown) and base.data:  # an item of data not known: its reason
            return base
        live = live_item(base, key)
        if live is not None:
            return live
        if isinstance(base, Imported) and isinstance(key, EnumMember) and self.sources:
            found = self.foreign_item(base.qualname, key)
            if found is not None:
                return found
        return Subscript(snapshot(base), snapshot(key))

    def slice_value(self, base: Binding, cut: cst.Slice) -> Binding:
        """``NAMES[:5]``, ``"abc"[1:]``: a slice of a sequence the walk knows, by literal bounds."""
        bounds: list[int | None] = []
        for part in (cut.lower, cut.upper, cut.step):
            value = self.value_of(part) if part is not None else Const(None)
            if not isinstance(value, Const) or not (
                value.value is None or type(value.value) is int
            ):
                return Unknown("a slice by bounds not known statically")
            bounds.append(value.value)
        if bounds[2] == 0:
            return Unknown("a slice with step 0 (ValueError)")
        window = slice(*bounds)
        if isinstance(base, Const) and isinstance(base.value, str):
            return Const(base.value[window])
        ordered = not (isinstance(base, ListObject) and base.unordered)
        items = elements(base) if isinstance(base, (ListObject, SeqExpr)) and ordered else None
        if items is None:
            # A slice of text (an f-string, plain data) is text: its methods build no task.
            text = isinstance(base, Operation) and base.op == "fstring"
            data = text or (isinstance(base, Unknown) and base.data)
            return Unknown("a slice of a value not known statically", data=data)
        return ListObject(items[window], self.uncertain)

    def foreign_item(self, qualname: str, key: EnumMember) -> Binding | None:
        """``TIER_QUEUES[Tier.GOLD]`` of a dict another repository module builds: an item that
        is a value (never a container: a change made to it here would not reach the dict's
        value the rest of the linter reads)."""
        module, _, name = qualname.rpartition(".")
        scope = self.foreign_module(module) if module in self.sources else None
        held = scope.names.get(name) if scope is not None else None
        found = live_item(held, key) if held is not None else None
        return found if isinstance(found, EXPR_TYPES) else None

    def dict_value(self, node: cst.Dict) -> Binding:
        parts: list[tuple[str, Binding | None, Binding]] = []
        for element in node.elements:
            if isinstance(element, cst.DictElement):
                key = self.value_of(element.key)
                parts.append((SET, key, self.value_of(element.value)))
            else:  # ``**x`` copies x's items now
                parts.append((SPREAD, None, snapshot(self.value_of(element.value))))
        return DictObject(parts, self.uncertain)

    def sequence_value(self, node: cst.List | cst.Tuple) -> Binding:
        items: list[Binding] = []
        for element in node.elements:
            if isinstance(element, cst.StarredElement):  # ``[*IDS, "z"]``: spliced when known
                spread = self.value_of(element.value)
                known = elements(spread) if ordered_sequence(spread) else None
                if known is None:
                    return Unknown("a sequence with a starred element not known statically")
                items += known
                continue
            items.append(self.value_of(element.value))
        indexes = [binding.indexes for binding in items if isinstance(binding, TaskHandles)]
        if indexes and len(indexes) == len(items):
            return TaskHandles(tuple(index for group in indexes for index in group))
        return ListObject(items, self.uncertain)

    def binary_value(self, node: cst.BinaryOperation) -> Binding:
        left = self.value_of(node.left)
        right = self.value_of(node.right)
        operator = node.operator
        if isinstance(operator, (cst.RightShift, cst.LeftShift)):
            return self.relate(left, right)
        combined = self.combine(type(operator), left, right)
        return combined if combined is not None else Unknown("an arithmetic expression", data=True)

    def combine(self, operator: type[cst.CSTNode], left: Binding, right: Binding) -> Binding | None:
        """``left <operator> right`` as a value, shared by ``a + b`` and ``a += b``.

        A value built by repeating an operation in a loop (``total = total + 1``) stops being
        a tree once it is deeper than folding goes: unknown, with why."""
        if operator in ARITHMETIC:
            for operand in (left, right):
                if isinstance(operand, Unknown):
                    return operand
        if depth(left) > MAX_EXPRESSION_DEPTH:
            return Unknown("expression nested too deeply")
        if operator in _LITERAL_OPERATIONS and isinstance(left, Const) and isinstance(right, Const):
            computed = _LITERAL_OPERATIONS[operator](left.value, right.value)
            if computed is not None:
                return Const(computed)  # type: ignore[arg-type]
        if operator is cst.Divide and isinstance(left, Operation):  # ``Path(...) / "x"``
            base, added = path_text(left), path_text(right)
            if base is not None and added is not None:
                return as_path(posixpath.join(base, added))
        if operator in ARITHMETIC:
            return Operation(ARITHMETIC[operator], (snapshot(left), snapshot(right)))
        if isinstance(left, SetObject) or isinstance(right, SetObject):
            return set_operation(operator, left, right, self.uncertain)
        if operator is cst.BitOr:  # dict union: a new dict
            return DictObject(
                [(SPREAD, None, snapshot(left)), (SPREAD, None, snapshot(right))], self.uncertain
            )
        return None

    def comprehension_value(
        self, node: cst.ListComp | cst.GeneratorExp | cst.SetComp | cst.DictComp
    ) -> Binding:
        """Unroll ``[Op(task_id=f"t_{x}") for x in LITERAL if ...]``, nested ``for`` clauses
        and dict comprehensions included, as Python runs them. Over a value the walk cannot
        list, the element is walked once under a condition: the tasks it builds are seen, and
        DRL106 says how many is not known; an ``if`` it cannot decide makes the element's tasks
        conditional. Either way the result is unknown."""
        outer, uncertain, unordered = self.scope, self.uncertain, self.unordered_runs
        self.scope = self.new_scope(outer)
        results: list[Binding] = []
        try:
            exact = self.unroll(node, node.for_in, results)
        finally:
            self.scope, self.uncertain = outer, uncertain
        if not exact:
            return Unknown("a comprehension over values not known statically")
        if isinstance(node, cst.DictComp):
            pairs = [results[index : index + 2] for index in range(0, len(results), 2)]
            return DictObject([(SET, key, item) for key, item in pairs], self.uncertain)
        handles = [result for result in results if isinstance(result, TaskHandles)]
        if handles and len(handles) == len(results):
            return TaskHandles(tuple(index for handle in handles for index in handle.indexes))
        if isinstance(node, cst.SetComp):
            return set_of(results, self.uncertain)
        if self.unordered_runs > unordered:  # over a listing: its order is still not known
            why = "a comprehension over a folder's listing, in the file system's order"
            return ListObject(results, self.uncertain, unordered=why)
        return SeqExpr(tuple(snapshot(result) for result in results))

    def unroll(
        self,
        node: cst.ListComp | cst.GeneratorExp | cst.SetComp | cst.DictComp,
        clause: cst.CompFor,
        results: list[Binding],
    ) -> bool:
        """Run ``clause`` and what it holds, appending each element (a dict comprehension's
        key, then value); whether every element is known and certainly made."""
        iterable = self.iterated_value(clause.iter)
        items = self.iteration_items(iterable)
        if isinstance(items, Unknown):
            built = len(self.tasks)
            self.uncertain += 1
            self.bind(clause.target, items)
            self.element(node, clause, [])
            self.uncertain -= 1
            if len(self.tasks) > built:
                why = not_iterated(iterable, "not a sequence")
                self.not_followed(
                    node,
                    f"a comprehension builds tasks over {as_written(clause.iter)}, which is not "
                    f"known statically ({why}); how many tasks, and their ids, are not known",
                )
            return False
        exact = True
        for item in items:
            self.work += 1
            if self.work > MAX_WORK:
                self.bound_reached(node, "the comprehension was not run to its end (work bound)")
                return False
            self.bind(clause.target, item)
            exact = self.element(node, clause, results) and exact
        return exact

    def element(
        self,
        node: cst.ListComp | cst.GeneratorExp | cst.SetComp | cst.DictComp,
        clause: cst.CompFor,
        results: list[Binding],
    ) -> bool:
        """One turn of ``clause``: its ``if`` tests, then the next clause or the element."""
        uncertain = self.uncertain
        try:
            for condition in clause.ifs:
                decided = truth(self.value_of(condition.test))
                if decided is False:
                    return self.uncertain == uncertain
                if decided is None:
                    self.uncertain += 1
            if clause.inner_for_in is not None:
                return self.unroll(node, clause.inner_for_in, results) and (
                    self.uncertain == uncertain
                )
            if isinstance(node, cst.DictComp):
                results += [self.value_of(node.key), self.value_of(node.value)]
            else:
                results.append(self.value_of(node.elt))
            return self.uncertain == uncertain
        finally:
            self.uncertain = uncertain

    def fstring_value(self, node: cst.FormattedString) -> Binding:
        return Operation("fstring", tuple(self.fstring_parts(node.parts)))

    def fstring_parts(self, parts: Sequence[cst.BaseFormattedStringContent]) -> list[Expr]:
        result: list[Expr] = []
        for part in parts:
            if isinstance(part, cst.FormattedStringText):
                result.append(Const(part.value.replace("{{", "{").replace("}}", "}")))
            elif isinstance(part, cst.FormattedStringExpression):
                value = snapshot(self.value_of(part.expression))
                conversion = Const(part.conversion)
                spec: Expr = (
                    Operation("fstring", tuple(self.fstring_parts(part.format_spec)))
                    if part.format_spec
                    else Const("")
                )
                result.append(Operation("field", (value, conversion, spec)))
        return result


def _literal_sum(left: object, right: object) -> object:
    """``left + right`` of two literals of one type, as resolve folds them (anything else is
    left to resolve, which says why it cannot)."""
    if type(left) is type(right) and isinstance(left, (str, int, float)):
        return left + right  # type: ignore[operator]
    return None


# ``+`` of two literals computed while walking, so conditions on the result decide
# (``dag_id += "_daily"`` then ``match dag_id``); ``None``: left to resolve, as every ``*``
# (resolve bounds products).
_LITERAL_OPERATIONS: dict[type[cst.CSTNode], Callable[[object, object], object]] = {
    cst.Add: _literal_sum,
}


# Dispatch by node type: a new form is one entry and one method.
Handler = Callable[[Any, Any], Any]
EXPRESSIONS: dict[type[cst.CSTNode], Handler] = {
    cst.Name: Expressions.name_node_value,
    cst.SimpleString: Expressions.string_value,
    cst.ConcatenatedString: Expressions.string_value,
    cst.Integer: Expressions.integer_value,
    cst.Float: Expressions.float_value,
    cst.FormattedString: Expressions.fstring_value,
    cst.Attribute: Expressions.attribute_value,
    cst.Call: Calls.call_value,
    cst.Subscript: Expressions.subscript_value,
    cst.Dict: Expressions.dict_value,
    cst.List: Expressions.sequence_value,
    cst.Tuple: Expressions.sequence_value,
    cst.BinaryOperation: Expressions.binary_value,
    cst.UnaryOperation: Expressions.unary_value,
    cst.ListComp: Expressions.comprehension_value,
    cst.GeneratorExp: Expressions.comprehension_value,
    cst.SetComp: Expressions.comprehension_value,
    cst.DictComp: Expressions.comprehension_value,
    cst.IfExp: Expressions.if_expression_value,
    cst.Comparison: Expressions.comparison_value,
    cst.BooleanOperation: Expressions.boolean_value,
    cst.Lambda: Expressions.lambda_value,
    cst.Set: Expressions.set_value,
}
