"""Calls: arguments, builtins, imported callables, methods of the objects the walk models."""

from __future__ import annotations

from collections.abc import Callable, Collection

import libcst as cst
from libcst.helpers import get_full_name_for_node

from dagroute_lint.catalog import airflow_names as names
from dagroute_lint.extract import versions
from dagroute_lint.extract.bindings import (
    DEFAULT,
    REMOVE,
    SET,
    SPREAD,
    AssetDecorator,
    Binding,
    BoundMethod,
    CallArguments,
    DagFactory,
    DagHandle,
    DictObject,
    Function,
    GroupFactory,
    GroupHandle,
    Imported,
    Instance,
    ListObject,
    LocalClass,
    OperatorPartial,
    Partial,
    Pattern,
    Record,
    RegexMatch,
    SetObject,
    Super,
    TaskDecorator,
    TaskFlow,
    TaskHandles,
    VersionValue,
)
from dagroute_lint.extract.containers import (
    CONTAINERS,
    as_set,
    dict_of,
    elements,
    set_of,
    snapshot,
    spoil,
)
from dagroute_lint.extract.evaluator.builtins import (
    fold_builtin,
    fold_str_method,
    result_is_data,
)
from dagroute_lint.extract.evaluator.files import (
    PATH_WRITES,
    path_text,
    reads_utf8,
    sorted_paths,
)
from dagroute_lint.extract.evaluator.helpers import (
    COPIES,
    DICT_CHANGES,
    FOLLOWED_FOREIGN,
    PATH_FUNCTIONS,
    PURE_BUILTINS,
    PURE_CALLS,
    ROUTING_ATTRIBUTES,
    SET_CHANGES,
    SET_RESULTS,
    STDLIB_ROOTS,
    TASK_METHODS_RETURNING_TASK,
    VALUE_LIBRARIES,
    call_reason,
    dict_entries,
    looks_like_class,
    replace_values,
    returns_data,
    set_operation,
    task_decorator_kind,
)
from dagroute_lint.extract.evaluator.library import fold_library, regex_method
from dagroute_lint.extract.evaluator.state import (
    WalkerState,
)
from dagroute_lint.extract.written import as_written
from dagroute_lint.model import (
    Const,
    DictExpr,
    Expr,
    OneOf,
    Operation,
    Ref,
    SeqExpr,
    Subscript,
    Unknown,
)

# Builtins that iterate their one argument to its end, so a ``map()`` given to them runs.
CONSUMERS = ("list", "tuple", "set", "frozenset", "sorted")


class Calls(WalkerState):
    def call_arguments(self, node: cst.Call) -> tuple[list[Binding], CallArguments, Unknown | None]:
        """Evaluate arguments in Python's order; return positionals, keywords, and a star-arg."""
        positional: list[Binding] = []
        named: dict[str, Expr] = {}
        bound: dict[str, Binding] = {}
        nodes: dict[str, cst.CSTNode] = {}
        spreads: list[Expr] = []
        spread_bindings: list[Binding] = []
        star: Unknown | None = None
        for arg in node.args:
            value = self.value_of(arg.value)
            if arg.keyword is not None:
                key = arg.keyword.value
                named[key] = snapshot(value)
                bound[key] = value
                nodes[key] = arg
            elif arg.star == "**":
                spreads.append(snapshot(value))
                spread_bindings.append(value)
            elif arg.star == "*":
                star = Unknown("positional arguments unpacked with *")
            else:
                positional.append(value)
        arguments = CallArguments(named, tuple(spreads), bound, nodes, tuple(spread_bindings))
        return positional, arguments, star

    def call_value(self, node: cst.Call) -> Binding:
        if (
            self.builtin_called(node, CONSUMERS)
            and len(node.args) == 1
            and isinstance(node.args[0].value, cst.Call)
            and self.builtin_called(node.args[0].value, ("map",))
        ):  # ``list(map(f, xs))``: the map is run
            mapped = self.iterated_value(node.args[0].value)
            name = node.func.value  # type: ignore[attr-defined]
            return fold_builtin(name, [mapped], {}, self.uncertain) or Unknown(
                f"result of calling {name}() on {as_written(node.args[0].value)}"
            )
        callee = self.value_of(node.func)
        positional, arguments, star = self.call_arguments(node)
        if isinstance(node.func, cst.Name) and self.scope.lookup(node.func.value) is None:
            builtin = self.call_builtin(node.func.value, positional, arguments, star)
            if builtin is None and star is None and not arguments.spreads:
                named = arguments.bindings
                builtin = fold_builtin(node.func.value, positional, named, self.uncertain)
            if builtin is not None:
                return builtin
        return self.apply(node, callee, positional, arguments)

    def builtin_called(self, node: cst.Call, names: Collection[str]) -> bool:
        """``node`` calls one of the builtins ``names`` (not a name bound in the file), with
        plain positional arguments."""
        func = node.func
        return (
            isinstance(func, cst.Name)
            and func.value in names
            and self.scope.lookup(func.value) is None
            and all(arg.keyword is None and not arg.star for arg in node.args)
        )

    def iterated_value(self, node: cst.BaseExpression) -> Binding:
        """What a loop, a comprehension or ``list()`` iterates: ``map(f, xs)`` is run there (a
        bare ``map()`` builds nothing until something iterates it), anything else evaluated."""
        if not (
            isinstance(node, cst.Call)
            and self.builtin_called(node, ("map",))
            and len(node.args) == 2
        ):
            return self.value_of(node)
        function, iterable = (arg.value for arg in node.args)
        call_one = self.one_argument_caller(node, function)
        if call_one is None:
            return self.value_of(node)
        items = self.iteration_items(self.value_of(iterable))
        if isinstance(items, Unknown):
            built = len(self.tasks)
            self.uncertain += 1
            call_one(items)
            self.uncertain -= 1
            if len(self.tasks) > built:
                self.not_followed(
                    node,
                    f"map() builds tasks over {as_written(iterable)}, which is not known "
                    f"statically ({items.reason}); how many tasks, and their ids, are not known",
                )
            return Unknown("map() over values not known statically")
        return ListObject([call_one(item) for item in items], self.uncertain)

    def one_argument_caller(
        self, node: cst.Call, function: cst.BaseExpression
    ) -> Callable[[Binding], Binding] | None:
        """How ``map`` calls ``function`` on one item: a one-parameter ``lambda``'s body
        evaluated with the parameter bound, or any other callable applied."""
        if not isinstance(function, cst.Lambda):
            callee = self.value_of(function)
            return lambda item: self.apply(node, callee, [item], CallArguments())
        params = function.params
        if (
            len(params.params) != 1
            or params.params[0].default is not None
            or (
                params.star_arg is not cst.MaybeSentinel.DEFAULT
                or params.kwonly_params
                or params.star_kwarg is not None
                or params.posonly_params
            )
        ):
            return None
        name = params.params[0].name.value

        def call_lambda(item: Binding) -> Binding:
            outer = self.scope
            self.scope = self.new_scope(outer)
            try:
                self.scope.names[name] = item
                return self.value_of(function.body)
            finally:
                self.scope = outer

        return call_lambda

    def apply(
        self, node: cst.Call, callee: Binding, positional: list[Binding], arguments: CallArguments
    ) -> Binding:
        """Call ``callee`` with evaluated arguments; ``node`` is the call as written."""
        if isinstance(callee, OneOf):  # ``(A if x else B)(...)``: which one runs is not known
            callee = Unknown(f"one of several callables ({callee.reason})")
        if isinstance(callee, Partial):  # functools.partial(Operator, queue=...)(task_id=...)
            merged = callee.arguments.merged(arguments)
            return self.apply(node, callee.callee, [*callee.positional, *positional], merged)
        if isinstance(callee, BoundMethod):
            return self.call_method(node, callee, positional, arguments)
        if isinstance(callee, Imported):
            adopted = self.imported_dict_change(node)
            if adopted is not None:
                method = node.func.attr.value  # type: ignore[attr-defined]
                return self.call_dict_method(node, adopted, method, positional, arguments)
            return self.call_imported(node, callee.qualname, positional, arguments)
        if isinstance(callee, TaskDecorator):
            function = self.as_function(positional[0]) if positional else None
            if function is not None:
                return TaskFlow(function, callee.kind, callee.arguments.merged(arguments))
            return TaskDecorator(callee.kind, callee.arguments.merged(arguments))
        if isinstance(callee, TaskFlow):
            return self.create_taskflow_task(node, callee, mapped=False)
        if isinstance(callee, (DagFactory, GroupFactory)):
            return self.call_factory(node, callee, positional, arguments)
        if isinstance(callee, LocalClass) and callee.dag:
            return self.construct_dag(node, callee, positional, arguments)
        if isinstance(callee, LocalClass) and callee.fields is not None:
            return self.build_record(callee, positional, arguments)
        if isinstance(callee, LocalClass):
            made = (
                None if callee.operator else self.build_object(node, callee, positional, arguments)
            )
            if made is not None:
                return made
            if not callee.operator:
                instance = Unknown(f"an instance of {callee.qualname}, not an operator")
                self.class_instances[id(instance)] = (instance, callee)
                return instance
            return self.construct(node, callee, positional, arguments)
        read = self.file_method(node, callee, positional)
        if read is not None:
            return read
        method = self.instance_method(node, callee)
        if method is not None:  # ``Pool(conn_id="pg").pool()``: the class's own code is run
            return self.call_function(node, method, [callee, *positional], arguments)
        if isinstance(callee, Function):
            return self.call_function(node, callee, positional, arguments)
        if "task_id" in arguments.named:
            return self.maybe_operator(node, get_full_name_for_node(node.func), arguments)
        written = as_written(node.func)
        builtin = isinstance(node.func, cst.Name) and self.scope.lookup(node.func.value) is None
        if not (isinstance(node.func, cst.Name) and node.func.value in PURE_BUILTINS):
            self.escape(positional, arguments, f"it is passed to {written}()")
        if isinstance(callee, Unknown) and not builtin and _names_a_dag(written):
            self.not_followed(
                node,
                f"{written}() is not known to be Airflow's DAG ({callee.reason}): the DAG "
                "and the tasks it holds are not seen",
            )
        elif (
            isinstance(callee, Unknown)
            and not builtin
            and not callee.data
            and not self.on_a_named_place(node)
        ):
            self.unfollowed_call(
                node, positional, arguments, f"calls what is not known ({callee.reason})"
            )
        if builtin:  # ``str(x)`` of an unknown ``x``: unknown for x's reason
            return Unknown(
                call_reason(written, positional), data=result_is_data(written, positional)
            )
        if isinstance(callee, Unknown):
            return callee
        return Unknown("result of a call")

    def instance_method(self, node: cst.Call, callee: Binding) -> Function | None:
        """The method ``instance.name(...)`` runs, for an instance of a repository class made
        here (``callee`` is the instance itself: ``instance.name`` evaluates to it). Looked up
        in the class, then its repository bases left to right; a decorated method (static,
        class, property) is not followed."""
        func = node.func
        if not isinstance(callee, Unknown) or not isinstance(func, cst.Attribute):
            return None
        held = self.class_instances.get(id(callee))
        if held is None or held[0] is not callee:
            return None
        if isinstance(func.value, cst.Name):
            if self.scope.lookup(func.value.value) is not callee:
                return None
        elif not isinstance(func.value, cst.Call):  # ``instance.a.b()``: not a method of it
            return None
        pending: list[Binding] = [held[1]]
        while pending:
            cls = pending.pop(0)
            if not isinstance(cls, LocalClass):
                continue
            found = cls.attributes.get(func.attr.value)
            if isinstance(found, Function):
                if found.node is None or found.node.decorators:
                    return None
                return found
            pending.extend(cls.bases)
        return None

    def on_a_named_place(self, node: cst.Call) -> bool:
        """``lib.lookup("a").build()``: a method of what a call already named as a DRL106 place
        returns is the same cause, said once."""
        func = node.func
        return (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Call)
            and id(self.here(func.value)) in self.unmodelled
        )

    def imported_dict_change(self, node: cst.Call) -> DictObject | None:
        """``BASE.update(...)`` on a dict imported from another module: this file's object."""
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in DICT_CHANGES:
            return None
        if get_full_name_for_node(func.value) is None:
            return None
        receiver = self.value_of(func.value)
        if not isinstance(receiver, Imported) or receiver.qualname.split(".")[0] in STDLIB_ROOTS:
            return None
        return self.adopt(receiver)

    def call_builtin(
        self,
        name: str,
        positional: list[Binding],
        arguments: CallArguments,
        star: Unknown | None,
    ) -> Binding | None:
        """``dict(BASE, queue=...)`` and ``range(n)``: the builtins routing code is built with."""
        if star is not None:
            return None
        if name == "open" and positional:
            return self.open_file(positional, arguments)
        if name == "super" and not arguments.named:
            return self.super_of(positional)
        if (
            name in ("list", "tuple")
            and len(positional) == 1
            and not arguments.named
            and isinstance(positional[0], TaskHandles)
        ):  # ``list(dag.tasks) >> watcher()``: the tasks ``dag.tasks`` held when it was read
            return positional[0]
        if name == "setattr" and len(positional) == 3 and not arguments.named:
            owner, attr, value = positional
            if isinstance(attr, Const) and isinstance(attr.value, str):
                self.store_attribute(owner, attr.value, value, f"setattr(..., '{attr.value}', ...)")
            elif isinstance(owner, Record):
                spoil(owner, "setattr() of a name not known")
            else:
                for field_name in ROUTING_ATTRIBUTES:
                    self.store_attribute(
                        owner, field_name, Unknown("setattr() of a name not known"), "setattr()"
                    )
            return Const(None)
        if name == "type" and len(positional) == 1 and isinstance(positional[0], Record):
            return positional[0].cls  # ``type(obj).queue = ...`` changes the class
        if name == "dict" and len(positional) <= 1:
            parts: list[tuple[str, Binding | None, Binding]] = [
                (SPREAD, None, snapshot(value)) for value in positional
            ]
            parts += [(SPREAD, None, spread) for spread in arguments.spreads]
            parts += [(SET, Const(key), value) for key, value in arguments.bindings.items()]
            return DictObject(parts, self.uncertain)
        if name in ("set", "frozenset") and len(positional) <= 1 and not arguments.named:
            made = as_set(positional[0]) if positional else set_of([], 0)
            if isinstance(made, SetObject):
                made.level = self.uncertain
            return made
        if name == "sorted" and len(positional) == 1 and not arguments.named:
            items = elements(positional[0])
            literals = [item.value for item in items or () if isinstance(item, Const)]
            paths = sorted_paths(items, self.uncertain) if items else None
            if paths is not None:  # ``Path`` objects
                return paths
            if items is None or len(literals) != len(items):
                return Unknown("sorted() of a value that is not a collection of literals")
            try:
                ordered = sorted(literals)  # type: ignore[type-var]
            except TypeError:
                return Unknown("sorted() of values that cannot be compared")
            return ListObject([Const(item) for item in ordered], self.uncertain)
        if name == "len" and len(positional) == 1 and not arguments.named:
            items = elements(positional[0])
            if items is not None:
                return Const(len(items))
            if isinstance(positional[0], (Imported, Ref, Subscript, Operation)):
                return Operation("len", (snapshot(positional[0]),))  # folded by resolve
            return None
        if name == "range" and 1 <= len(positional) <= 3 and not arguments.named:
            bounds = [value.value for value in positional if isinstance(value, Const)]
            if len(bounds) != len(positional) or not all(
                isinstance(bound, int) and not isinstance(bound, bool) for bound in bounds
            ):
                return Unknown("a range() whose bounds are not known")
            try:
                numbers = range(*bounds)  # type: ignore[arg-type]
            except ValueError:  # range(0, 5, 0): Python raises
                return Unknown("a range() that Python refuses")
            if not self.unrollable(len(numbers)):
                return Unknown(
                    f"a range() of {len(numbers)} numbers, more than the work left for the file"
                )
            return SeqExpr(tuple(Const(number) for number in numbers))
        return None

    def call_factory(
        self,
        node: cst.Call,
        factory: DagFactory | GroupFactory,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding:
        """Apply ``dag(...)``/``task_group(...)`` to a function, or call the decorated function."""
        if factory.function is None:
            if positional and isinstance(positional[0], Function):
                return type(factory)(positional[0], factory.arguments)
            return Unknown("a decorator applied to something that is not a function")
        if isinstance(factory, DagFactory):
            return self.create_dag_from_factory(node, factory)
        return self.create_group_from_factory(node, factory)

    def call_imported(
        self,
        node: cst.Call,
        qualname: str,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding:
        if qualname in names.DAG_CLASSES:
            return self.create_dag(node, positional, arguments, own_class=True)
        if qualname in names.TASK_GROUP_CLASSES:
            handle = self.create_group_from_call(node, positional, arguments)
            self.groups[handle.index].exit_task = names.GROUP_EXIT_TASKS.get(qualname)
            return handle
        record_class = self.named_tuple_class(qualname, positional, arguments)
        if record_class is not None:
            return record_class
        function = self.as_function(positional[0]) if positional else None
        if qualname in names.DAG_DECORATORS:
            return DagFactory(function, arguments)
        if qualname in names.TASK_GROUP_DECORATORS:
            return GroupFactory(function, arguments)
        if qualname in names.SETUP_TEARDOWN_KEYWORDS:
            self.check_keywords(node, qualname, arguments, names.SETUP_TEARDOWN_KEYWORDS[qualname])
        kind = task_decorator_kind(qualname)
        if kind is not None:
            if function is not None:
                return TaskFlow(function, kind, arguments)
            return TaskDecorator(kind, arguments)
        if qualname in names.ASSET_DECORATORS and not positional:
            return AssetDecorator(arguments)
        if qualname in versions.VERSION_CALLS and len(positional) == 1 and not arguments.named:
            version = versions.called(qualname, positional[0], self.airflow_release)
            if version is not None:
                return version
        if qualname == names.TIMEDELTA and not arguments.spreads:
            # Sensor timeouts are durations; symbols.py folds only literal numbers.
            return Operation(
                "timedelta",
                (
                    SeqExpr(tuple(snapshot(value) for value in positional)),
                    DictExpr(tuple((Const(key), value) for key, value in arguments.named.items())),
                ),
            )
        read = self.file_call(qualname, positional, arguments)
        if read is not None:
            return read
        if qualname in names.PATH_CONSTRUCTORS and len(positional) == 1:
            return Operation("path", (snapshot(positional[0]),))
        if qualname in PATH_FUNCTIONS and len(positional) == 1 and not arguments.named:
            return Operation(PATH_FUNCTIONS[qualname], (snapshot(positional[0]),))
        folded = (
            None
            if arguments.spreads
            else fold_library(qualname, positional, arguments.bindings, self.uncertain)
        )
        if folded is not None:
            return folded
        if qualname.endswith(".format"):
            return self.format_call(Ref(qualname[: -len(".format")]), positional, arguments)
        deployed = self.deployed_call(qualname, positional, arguments)
        if deployed is not None:
            return deployed
        if qualname == names.PARTIAL and positional:
            return Partial(positional[0], tuple(positional[1:]), arguments)
        if qualname.split(".", maxsplit=1)[0] not in VALUE_LIBRARIES:
            if qualname not in self.call_refs:
                self.call_refs.append(qualname)  # followed when the runner gives its module
            foreign = self.foreign_binding(qualname)
        else:
            foreign = None
        if foreign is not None:
            site, self.foreign_site = self.foreign_site, self.foreign_site or node
            try:
                return self.apply(node, foreign, positional, arguments)
            finally:
                self.foreign_site = site
        operator, _, method = qualname.rpartition(".")
        if method == "partial" and looks_like_class(operator):
            return OperatorPartial(operator, arguments, node)
        if "task_id" in arguments.named:
            return self.maybe_operator(node, qualname, arguments)
        if qualname in COPIES and len(positional) == 1 and not arguments.named:
            copied = snapshot(positional[0])
            if isinstance(copied, SeqExpr):
                return ListObject(list(copied.items), self.uncertain)
            return dict_of(copied, self.uncertain)
        if qualname not in PURE_CALLS:
            self.escape(positional, arguments, f"it is passed to {qualname}()")
        if _names_a_dag(qualname) and qualname.split(".", maxsplit=1)[0] not in VALUE_LIBRARIES:
            self.not_followed(
                node,
                f"{qualname}() is not known to be Airflow's DAG (its module is not followed): "
                "the DAG and the tasks it holds are not seen",
            )
            return Unknown(call_reason(qualname, positional))
        self.unfollowed_call(
            node, positional, arguments, f"({qualname}) is not followed into its module", qualname
        )
        return Unknown(call_reason(qualname, positional), data=returns_data(qualname))

    def foreign_binding(self, qualname: str) -> Binding | None:
        """What ``qualname`` is bound to in another repository module whose source the walk
        was given: a function, a ``@task``, a factory, a class."""
        parts = qualname.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:cut])
            if module not in self.sources:
                continue
            scope = self.foreign_module(module)
            found = scope.names.get(parts[cut]) if scope is not None else None
            rest = parts[cut + 1 :]
            for position, attr in enumerate(rest):
                if isinstance(found, LocalClass):
                    found = found.attributes.get(attr)
                elif (
                    isinstance(found, (TaskFlow, DagFactory, GroupFactory))
                    and position == len(rest) - 1
                ):  # ``extract.override(...)`` of another module's @task
                    found = BoundMethod(found, attr)
                else:
                    found = None
            if isinstance(found, FOLLOWED_FOREIGN):
                return found
            if isinstance(found, Imported) and names.role(found.qualname) is not None:
                return found  # a compatibility module's ``DAG``: Airflow's, re-exported
            return None
        return None

    def call_method(
        self,
        node: cst.Call,
        method: BoundMethod,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding:
        target, name = method.target, method.name
        if isinstance(target, Super) and name == "__init__":
            return self.super_init(node, target, positional, arguments)
        if isinstance(target, Instance):
            return self.call_instance_method(node, target, name, positional, arguments)
        if isinstance(target, Operation) and target.op == "path" and name in PATH_WRITES:
            self.wrote_files(f"the file calls {as_written(node.func)}() before")
        path = path_text(target) if isinstance(target, Operation) else None
        if path is not None and reads_utf8(arguments):
            found = self.path_method(path, name, positional)
            if found is not None:
                return found
        if isinstance(target, Record):
            called = self.call_record_method(
                target, name, positional, arguments
            ) or self.call_object_method(node, target, name, positional, arguments)
            if called is not None:
                return called
        if isinstance(target, TaskFlow):
            if name == "override":
                return TaskFlow(
                    target.function,
                    target.kind,
                    target.arguments.merged(arguments),
                    target.partial_keys,
                    target.is_partial,
                )
            if name == "partial":
                return TaskFlow(
                    target.function,
                    target.kind,
                    target.arguments,
                    target.partial_keys + tuple(arguments.named),
                    True,
                )
            if name in names.MAPPED_OPERATOR_METHODS:
                keys = tuple(arguments.named) if name == "expand" else ()
                return self.create_taskflow_task(node, target, mapped=True, expand_keys=keys)
        if isinstance(target, LocalClass) and name == "partial":
            return OperatorPartial(target.qualname, arguments, node)
        if isinstance(target, OperatorPartial) and name in names.MAPPED_OPERATOR_METHODS:
            keys = tuple(arguments.named) if name == "expand" else ()
            return self.create_operator_task(
                node, target.operator, target.arguments, mapped=True, expand_keys=keys
            )
        if isinstance(target, DagHandle) and name in ("add_task", "add_tasks"):
            for value in positional:
                if isinstance(value, TaskHandles):
                    self.attach(value, target.index)
            return Const(None)
        if isinstance(target, (DagFactory, GroupFactory)) and name == "override":
            merged = target.arguments.merged(arguments)
            if isinstance(target, DagFactory):
                return DagFactory(target.function, merged)
            return GroupFactory(target.function, merged, target.partial)
        if isinstance(target, GroupFactory) and target.function is not None:
            if name == "partial" and not positional and not arguments.spreads:
                return GroupFactory(
                    target.function, target.arguments, {**target.partial, **arguments.bindings}
                )
            if name in names.MAPPED_OPERATOR_METHODS:
                return self.create_mapped_group(node, target, name, arguments)
        if isinstance(target, (Pattern, RegexMatch)) and not arguments.named:
            folded = regex_method(target, name, positional, self.uncertain)
            if folded is not None:
                return folded
        if isinstance(target, Const) and isinstance(target.value, str) and not arguments.named:
            folded = fold_str_method(target.value, name, positional, self.uncertain)
            if folded is not None:
                return folded
        if isinstance(target, VersionValue) and not arguments.named:
            known = versions.method(target, name, positional, self.uncertain)
            if known is not None:
                return known
        if isinstance(target, (Const, Operation, Ref, Subscript)) and name == "format":
            return self.format_call(target, positional, arguments)
        if (
            isinstance(target, (Const, Operation, Ref, Subscript))
            and name == "replace"
            and len(positional) == 2
        ):
            old, new = (snapshot(value) for value in positional)
            return Operation("replace", (target, old, new))
        if isinstance(target, (DictExpr, Ref)) and name == "copy" and not positional:
            return dict_of(target, self.uncertain)
        if isinstance(target, DictObject):
            return self.call_dict_method(node, target, name, positional, arguments)
        if isinstance(target, ListObject):
            return self.call_list_method(node, target, name, positional, arguments)
        if isinstance(target, SetObject):
            return self.call_set_method(node, target, name, positional, arguments)
        if isinstance(target, TaskHandles) and name in TASK_METHODS_RETURNING_TASK:
            return target
        described = as_written(node.func)
        if isinstance(target, TaskHandles):
            return Unknown(f"result of calling {described}()")
        self.escape(positional, arguments, f"it is passed to {described}()")
        if any(isinstance(value, (DagHandle, GroupHandle)) for value in positional):
            self.unfollowed_call(node, positional, arguments, "is a method not followed")
        return Unknown(f"result of calling {described}()")

    def call_dict_method(
        self,
        node: cst.Call,
        target: DictObject,
        name: str,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding:
        """The dict methods routing code is written with; any other spoils the dict."""
        written = as_written(node.func)
        if name == "copy" and not positional:
            return dict_of(snapshot(target), self.uncertain)
        if name == "get" and 1 <= len(positional) <= 2:
            default = snapshot(positional[1]) if len(positional) == 2 else Const(None)
            return Operation("get", (snapshot(target), snapshot(positional[0]), default))
        if name in ("keys", "values", "items") and not positional:
            entries = dict_entries(target)
            if entries is None:
                return Unknown(f"{written}() of a dict whose keys are not all literal")
            picked: list[Binding] = [
                key
                if name == "keys"
                else item
                if name == "values"
                else ListObject([key, item], self.uncertain)
                for key, item in entries
            ]
            return ListObject(picked, self.uncertain)
        if name == "update" and len(positional) <= 1:
            added: list[tuple[str, Binding | None, Binding]] = [
                (SPREAD, None, snapshot(value)) for value in positional
            ]
            added += [(SPREAD, None, spread) for spread in arguments.spreads]
            added += [(SET, Const(key), value) for key, value in arguments.bindings.items()]
            self.change(target, lambda: target.parts.extend(added))
            return Const(None)
        if name == "setdefault" and len(positional) in (1, 2) and not arguments.named:
            key = positional[0]
            fallback: Binding = positional[1] if len(positional) == 2 else Const(None)
            self.change(target, lambda: target.parts.append((DEFAULT, key, fallback)))
            return Subscript(snapshot(target), snapshot(key))
        if name == "pop" and len(positional) in (1, 2) and not arguments.named:
            key = positional[0]
            before = snapshot(target)
            self.change(target, lambda: target.parts.append((REMOVE, key, Const(None))))
            if len(positional) == 2:
                return Operation("get", (before, snapshot(key), snapshot(positional[1])))
            return Subscript(before, snapshot(key))
        if name == "clear" and not positional:
            self.change(target, target.parts.clear)
            return Const(None)
        spoil(target, f"changed by {written}()")
        self.escape(positional, arguments, f"it is passed to {written}()")
        return Unknown(f"result of calling {written}()")

    def call_list_method(
        self,
        node: cst.Call,
        target: ListObject,
        name: str,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding:
        written = as_written(node.func)
        if name == "append" and len(positional) == 1:
            item = positional[0]
            self.change(target, lambda: target.items.append(item))
            return Const(None)
        if name == "extend" and len(positional) == 1:
            self.extend(target, positional[0])
            return Const(None)
        if name == "copy" and not positional:
            return ListObject(list(target.items), self.uncertain)
        if name in ("index", "count"):
            return Unknown(f"result of calling {written}()")
        spoil(target, f"changed by {written}()")
        self.escape(positional, arguments, f"it is passed to {written}()")
        return Unknown(f"result of calling {written}()")

    def call_set_method(
        self,
        node: cst.Call,
        target: SetObject,
        name: str,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding:
        """The set methods of literals: new sets, and changes in place; any other spoils it."""
        written = as_written(node.func)
        method = SET_RESULTS.get(name) or SET_CHANGES.get(name)
        if target.spoiled is None and method is not None and not arguments.named:
            operands: list[Binding] = [as_set(value) for value in positional]
            if name in ("add", "discard"):
                operands = [set_of(positional, 0) if len(positional) == 1 else Unknown("")]
            result: Binding = target
            for operand in operands:
                result = set_operation(method, result, operand, self.uncertain)
            if isinstance(result, SetObject) and name in SET_RESULTS:
                return SetObject(dict(result.values), self.uncertain)
            if isinstance(result, SetObject):
                changed = result
                self.change(target, lambda: replace_values(target, changed))
                return Const(None)
        spoil(target, f"changed by {written}()")
        self.escape(positional, arguments, f"it is passed to {written}()")
        return Unknown(f"result of calling {written}()")

    def escape(self, positional: list[Binding], arguments: CallArguments, why: str) -> None:
        """Containers handed to a call the walk does not follow may be changed by it, and so may
        ``os.environ``."""
        for value in [*positional, *arguments.bindings.values(), *arguments.spread_bindings]:
            if isinstance(value, Instance):
                self.instance_escaped(value, f"the operator is given to code not followed: {why}")
            # An object or a container, or one of its methods (which may change it) that may be
            # called there.
            owner = value.target if isinstance(value, BoundMethod) else value
            if isinstance(owner, Record):
                spoil(owner, f"an object that may have been changed: {why}")
            if isinstance(owner, CONTAINERS):
                spoil(owner, f"a dict or list that may have been changed: {why}")
            if isinstance(value, Imported) and value.qualname == names.ENVIRON:
                self.spoil_environ(f"os.environ may have been changed before: {why}")
                self.note_change(f"os.environ: {why}")

    def format_call(
        self, template: Expr, positional: list[Binding], arguments: CallArguments
    ) -> Binding:
        args = SeqExpr(tuple(snapshot(value) for value in positional))
        kwargs = DictExpr(
            tuple((Const(key), value) for key, value in arguments.named.items())
            + tuple((None, spread) for spread in arguments.spreads)
        )
        return Operation("format", (template, args, kwargs))

    def as_function(self, value: Binding) -> Function | None:
        """A function given to ``task(fn)``: defined here, or imported from elsewhere."""
        if isinstance(value, Function):
            return value
        if isinstance(value, Imported):
            return Function(None, value.qualname)
        return None


def _names_a_dag(written: str) -> bool:
    """``DAG(...)``, ``models.DAG(...)``, ``dag(...)``: a call written as Airflow's DAG class
    or decorator. When the walk cannot tell what the name holds, the file's DAG would go
    unseen without a word (a file with no DAG and no place named reads as clean)."""
    return written.rpartition(".")[2] in ("DAG", "dag")
