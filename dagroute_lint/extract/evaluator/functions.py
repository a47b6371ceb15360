"""Functions and classes of the file: defining them, and running a function with bound arguments."""

from __future__ import annotations

import libcst as cst

from dagroute_lint.catalog import airflow_names as names
from dagroute_lint.extract.bindings import (
    SET,
    SPREAD,
    AssetDecorator,
    Binding,
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
    TaskDecorator,
    TaskFlow,
)
from dagroute_lint.extract.candidates import joined
from dagroute_lint.extract.classes import class_info
from dagroute_lint.extract.evaluator.helpers import (
    BUILTIN_CLASSES,
    ENUM_BASES,
    builds_no_task,
    collect_imports,
    declared_global,
    decorator_callee,
    parameters,
    same_binding,
    task_decorator_kind,
)
from dagroute_lint.extract.evaluator.objects import calls_super
from dagroute_lint.extract.evaluator.records import NAMED_TUPLE, is_frozen, record_fields
from dagroute_lint.extract.evaluator.state import (
    MAX_CALL_DEPTH,
    MAX_WORK,
    DraftImport,
    Jump,
    Scope,
    WalkerState,
)
from dagroute_lint.extract.written import as_written
from dagroute_lint.model import (
    Const,
    OneOf,
    Ref,
    Unknown,
)


class Functions(WalkerState):
    def define_function(self, node: cst.FunctionDef) -> None:
        defaults = {
            param.name.value: self.value_of(param.default)
            for param in (
                *node.params.posonly_params,
                *node.params.params,
                *node.params.kwonly_params,
            )
            if param.default is not None
        }
        function = Function(node, self.qualify(node.name.value), self.scope, defaults)
        binding: Binding = function
        for decorator in reversed(node.decorators):
            decorator_value = self.value_of(decorator.decorator)
            if isinstance(decorator_value, Imported) and (
                decorator_value.qualname in names.ASSET_DECORATORS
            ):
                decorator_value = AssetDecorator(CallArguments())
            if isinstance(decorator_value, AssetDecorator):
                self.create_asset(node, decorator_value, binding)
                continue
            binding = self.apply_decorator(decorator_value, binding)
        self.scope.names[node.name.value] = binding

    def define_class(self, node: cst.ClassDef) -> None:
        """Run the class body (Python runs it at definition) for its constants, and note what
        the class may do to tasks built from it."""
        name = node.name.value
        base_values = tuple(self.value_of(arg.value) for arg in node.bases if arg.keyword is None)
        bases = tuple(
            self.base_name(arg, value)
            for arg, value in zip([arg for arg in node.bases if arg.keyword is None], base_values)
        )
        decorators = tuple(
            value.qualname
            for value in (self.value_of(decorator_callee(each)) for each in node.decorators)
            if isinstance(value, Imported)
        )
        info = class_info(node, bases, decorators)
        path = f"{self.class_prefix}{name}"
        outer, prefix = self.scope, self.class_prefix
        self.scope, self.class_prefix = self.new_scope(outer, class_body=True), f"{path}."
        try:
            self.walk_body(node.body)
        except Jump:
            pass
        finally:
            attributes, self.scope, self.class_prefix = self.scope.names, outer, prefix
        local = LocalClass(
            self.qualify(path),
            info,
            attributes,
            enum=any(base in ENUM_BASES for base in bases),
            operator=info.operator and self.operator_bases(bases),
            dag=any(base in names.DAG_CLASSES or self.local_dag(base) for base in bases),
            bases=base_values,
            fields=record_fields(node, bases, decorators),
            frozen=is_frozen(node, bases),
            sequence=bases == (NAMED_TUPLE,),
            plain=not node.decorators
            and all(arg.keyword is None and not arg.star for arg in node.bases)
            and not calls_super(node),
        )
        self.local_classes[local.qualname] = local
        if self.scope is self.module_scope or self.class_prefix:
            self.classes[path] = info
        self.scope.names[name] = local

    def base_name(self, arg: cst.Arg, value: Binding) -> str:
        if isinstance(value, (Imported, LocalClass)):
            return value.qualname
        if isinstance(arg.value, cst.Name) and arg.value.value in BUILTIN_CLASSES:
            return f"builtins.{arg.value.value}"
        return "?"

    def local_dag(self, base: str) -> bool:
        local = self.local_classes.get(base)
        return local is not None and local.dag

    def operator_bases(self, bases: tuple[str, ...]) -> bool:
        """A class can be an operator only through a base that can: a class of this file
        that can, or any class named elsewhere except the known non-operator ones."""
        for base in bases:
            local = self.local_classes.get(base)
            if local is not None:
                if local.operator:
                    return True
            elif base not in names.NOT_OPERATOR_BASES:
                return True
        return False

    def apply_decorator(self, decorator: Binding, target: Binding) -> Binding:
        if not isinstance(target, Function):
            return target
        if isinstance(decorator, Imported):
            qualname = decorator.qualname
            if qualname in names.DAG_DECORATORS:
                return DagFactory(target, CallArguments())
            if qualname in names.TASK_GROUP_DECORATORS:
                return GroupFactory(target, CallArguments())
            kind = task_decorator_kind(qualname)
            if kind is not None:
                return TaskFlow(target, kind, CallArguments())
            if qualname in names.TRANSPARENT_DECORATORS:
                return target
            return Unknown(f"a function decorated by '{qualname}', which may wrap it")
        if isinstance(decorator, TaskDecorator):
            return TaskFlow(target, decorator.kind, decorator.arguments)
        if isinstance(decorator, (DagFactory, GroupFactory)) and decorator.function is None:
            return type(decorator)(target, decorator.arguments)
        if isinstance(decorator, OneOf):
            # ``task_group`` imported from one module or another, under a condition the walk
            # cannot decide: followed when every candidate decorates alike.
            applied = [
                self.apply_decorator(Imported(option.qualname), target)
                if isinstance(option, Ref)
                else Unknown(decorator.reason)
                for option in decorator.options
            ]
            kinds = {_decoration(each) for each in applied}
            if len(kinds) == 1 and None not in kinds:
                return applied[0]
            return Unknown(f"a function decorated by one of several values ({decorator.reason})")
        if isinstance(decorator, Unknown):
            # It may be ``task_group`` or ``dag`` imported in a way the walk cannot follow:
            # running the body as a plain function could give its tasks wrong ids.
            return Unknown(f"a function decorated by a value not known ({decorator.reason})")
        # A decorator of the repository's own, or another object: it may wrap the function in
        # a TaskGroup or call it differently, which running the body as written would miss.
        return Unknown("a function decorated by a decorator the walk does not model")

    def function_imports_of(self, function: Function) -> list[DraftImport]:
        """Imports anywhere in a function body: they run only where the function runs."""
        if function.node is None or self.foreign_site is not None:
            return []  # (another module's code: its imports are not placed in this file)
        key = id(function.node)
        if key not in self.function_imports:
            found: list[DraftImport] = []
            collect_imports(function.node.body, found, self, guarded=False)
            self.function_imports[key] = found
        return self.function_imports[key]

    def call_function(
        self,
        node: cst.Call,
        function: Function,
        positional: list[Binding],
        arguments: CallArguments,
    ) -> Binding:
        """Run a function of the file with its arguments bound, as the call does; its return
        value is the result. Bounded in depth and in the file's total work."""
        if function.node is None:
            self.escape(positional, arguments, f"it is passed to {function.name}()")
            self.unfollowed_call(node, positional, arguments, "is defined in another module")
            return Unknown(f"result of calling {function.name}(), defined in another module")
        if self.call_depth >= MAX_CALL_DEPTH or self.work > MAX_WORK:
            what = "calls nested too deeply" if self.call_depth >= MAX_CALL_DEPTH else "work"
            self.bound_reached(node, f"{function.name}() was not followed: bound on {what} reached")
            self.escape(positional, arguments, f"it is passed to {function.name}()")
            return Unknown(f"result of calling {function.name}(), not followed (bound reached)")
        outer, uncertain = self.scope, self.uncertain
        closure = function.closure if isinstance(function.closure, Scope) else self.module_scope
        self.scope = self.new_scope(closure.enclosing(), declared=declared_global(function.node))
        self.bind_parameters(function, positional, arguments)
        returns: list[Binding] = []
        self.returns.append(returns)
        self.call_depth += 1
        wrapped = bool(function.node.decorators)
        self.wrapped_depth += wrapped
        result: Binding = Const(None)
        try:
            self.walk_body(function.node.body)
        except Jump as jump:
            if jump.kind == "return" and jump.value is not None:
                result = jump.value
        finally:
            self.call_depth -= 1
            self.wrapped_depth -= wrapped
            self.returns.pop()
            self.scope, self.uncertain = outer, uncertain
        if any(not same_binding(each, result) for each in returns):
            reason = f"{function.name}() returns different values under conditions"
            return joined((*returns, result), reason)
        return result

    def bind_parameters(
        self, function: Function, positional: list[Binding], arguments: CallArguments
    ) -> None:
        assert function.node is not None
        params = function.node.params
        ordered = [*params.posonly_params, *params.params]
        given = list(positional)
        for param in ordered:
            name = param.name.value
            if given:
                self.scope.names[name] = given.pop(0)
            elif name in arguments.bindings:
                self.scope.names[name] = arguments.bindings[name]
            elif name in function.defaults:
                self.scope.names[name] = function.defaults[name]
            else:
                self.scope.names[name] = Unknown(f"parameter '{name}' of {function.name}()")
        for param in params.kwonly_params:
            name = param.name.value
            self.scope.names[name] = arguments.bindings.get(
                name, function.defaults.get(name, Unknown(f"parameter '{name}' not given"))
            )
        if isinstance(params.star_arg, cst.Param):
            self.scope.names[params.star_arg.name.value] = ListObject(given, self.uncertain)
        taken = {param.name.value for param in (*ordered, *params.kwonly_params)}
        if params.star_kwarg is not None:
            extra: list[tuple[str, Binding | None, Binding]] = [
                (SET, Const(key), value)
                for key, value in arguments.bindings.items()
                if key not in taken
            ]
            extra += [(SPREAD, None, spread) for spread in arguments.spreads]
            self.scope.names[params.star_kwarg.name.value] = DictObject(extra, self.uncertain)
        elif arguments.spreads:
            for name in taken - set(arguments.bindings):
                self.scope.names[name] = Unknown(f"parameter '{name}' may come from a ** spread")

    def bound_reached(self, node: cst.CSTNode, message: str) -> None:
        self.not_followed(node, f"{message}; tasks it builds may be missing")

    def not_followed(self, node: cst.CSTNode, message: str) -> None:
        """Say where tasks may be built that the walk does not see, once per place."""
        node = self.here(node)
        if id(node) not in self.unmodelled:
            self.unmodelled[id(node)] = (node, message)

    def in_dag_context(self, positional: list[Binding], arguments: CallArguments) -> bool:
        values = [*positional, *arguments.bindings.values()]
        return bool(self.dag_stack or self.group_stack) or any(
            isinstance(value, (DagHandle, GroupHandle))
            or (isinstance(value, Instance) and value.builds_dag)
            for value in values
        )

    def unfollowed_call(
        self,
        node: cst.Call,
        positional: list[Binding],
        arguments: CallArguments,
        why: str,
        qualname: str | None = None,
    ) -> None:
        """A call the walk does not follow, made where it could build tasks (inside a DAG, or
        given a DAG, a TaskGroup or the module's ``globals()``): DRL106 names it. Calls into the
        standard library and the libraries DAG files compute values with are not suspected."""
        if qualname is not None and builds_no_task(qualname):
            return
        written = as_written(node.func)
        if self.given_globals(node):  # dag-factory: ``load_yaml_dags(globals_dict=globals())``
            self.not_followed(
                node,
                f"{written}() {why} and is given globals(): the DAGs it may define there "
                "(dag-factory builds them from YAML files) and their tasks are not seen",
            )
            return
        if not self.in_dag_context(positional, arguments):
            self.suspect(node, written if qualname is None else qualname, f"{written}() {why}")
            return
        self.not_followed(node, f"{written}() {why}; tasks it may build are not seen")

    def suspect(self, node: cst.CSTNode, name: str, message: str) -> None:
        """Note a call outside any DAG that the walk did not follow: where a file in which no
        DAG is found may have built its DAGs (``Module.no_dag_cause``), once per place."""
        node = self.here(node)
        if id(node) not in self.suspects:
            self.suspects[id(node)] = (node, message, "dag" in name.lower())

    def given_globals(self, node: cst.Call) -> bool:
        """The module's namespace is an argument: the callee may define DAGs in it."""
        return self.scope.lookup("globals") is None and any(
            isinstance(arg.value, cst.Call)
            and isinstance(arg.value.func, cst.Name)
            and arg.value.func.value == "globals"
            for arg in node.args
        )

    def run_factory_body(self, function: Function, bound: dict[str, Binding] | None = None) -> None:
        """Walk an ``@dag``/``@task_group`` body where it is called; parameters are unknown,
        but those ``bound`` gives (a mapped group's ``.partial()`` values and expanded ones)."""
        if function.node is None:
            return
        outer = self.scope
        closure = function.closure if isinstance(function.closure, Scope) else self.module_scope
        self.scope = self.new_scope(closure.enclosing(), declared=declared_global(function.node))
        for param in parameters(function.node):
            self.scope.names[param] = Unknown(f"function parameter '{param}'")
        self.scope.names.update(bound or {})
        uncertain = self.uncertain
        self.returns.append([])
        try:
            self.walk_body(function.node.body)
        except Jump:
            pass
        finally:
            self.returns.pop()
            self.scope = outer
            self.uncertain = uncertain


def _decoration(applied: Binding) -> tuple[object, ...] | None:
    """What applying a decorator made of a function, to compare candidates (``None``: unknown)."""
    if isinstance(applied, TaskFlow):
        return (TaskFlow, applied.kind)
    if isinstance(applied, (DagFactory, GroupFactory, Function)):
        return (type(applied),)
    return None
