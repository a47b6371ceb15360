"""The Airflow layer: DAGs, TaskGroups, operators and TaskFlow tasks, recognised from tables."""

from __future__ import annotations

import libcst as cst

from dagroute_lint.catalog import airflow_names as names
from dagroute_lint.extract.bindings import (
    AssetDecorator,
    Binding,
    CallArguments,
    DagFactory,
    DagHandle,
    Function,
    GroupFactory,
    GroupHandle,
    Instance,
    TaskFlow,
    TaskHandles,
)
from dagroute_lint.extract.containers import (
    snapshot,
)
from dagroute_lint.extract.evaluator.helpers import (
    default_args,
    keyword,
    looks_like_class,
    parameters,
    refreshed,
)
from dagroute_lint.extract.evaluator.state import (
    MAX_TASKS,
    DraftDag,
    DraftGroup,
    DraftTask,
    WalkerState,
)
from dagroute_lint.model import (
    Const,
    Expr,
    Unknown,
)
from dagroute_lint.records import replace

# Routing arguments Airflow's operators check the type of when they are built.
TYPE_CHECKED_ROUTING = ("queue", "pool", "pool_slots", "executor")


class AirflowObjects(WalkerState):
    def create_dag(
        self,
        node: cst.Call,
        positional: list[Binding],
        arguments: CallArguments,
        own_class: bool = False,
    ) -> DagHandle:
        dag_id = arguments.named.get("dag_id")
        if dag_id is None and positional:
            dag_id = snapshot(positional[0])
        if dag_id is None:
            dag_id = keyword(arguments, "dag_id", Unknown("DAG without dag_id"))
            assert dag_id is not None
        judged = arguments if own_class else None
        self.dags.append(
            DraftDag(dag_id, self.here(node), default_args(arguments), arguments=judged)
        )
        self.dags[-1].level = self.uncertain
        return DagHandle(len(self.dags) - 1)

    def create_asset(
        self, node: cst.FunctionDef, decorator: AssetDecorator, target: Binding
    ) -> None:
        """``@asset``: a DAG named ``dag_id``, else ``name``, else the function's name."""
        arguments = decorator.arguments
        name = node.name.value
        dag_id = arguments.named.get("dag_id", arguments.named.get("name", Const(name)))
        self.dags.append(DraftDag(dag_id, self.here(node.name), None, registered=True))
        self.dags[-1].level = self.uncertain
        with self.inside_dag(len(self.dags) - 1):
            if isinstance(target, TaskFlow):
                self.create_taskflow_task(node.name, target, mapped=False)
            else:
                task = DraftTask(
                    task_id=Const(name),
                    node=self.here(node.name),
                    operator=names.ASSET_OPERATOR,
                    dag=len(self.dags) - 1,
                    group=None,
                    arguments=CallArguments(),
                    applies_default_args=True,
                )
                if isinstance(target, Function):
                    task.imports = self.function_imports_of(target)
                self.add_task(task)

    def create_dag_from_factory(self, node: cst.Call, factory: DagFactory) -> Binding:
        assert factory.function is not None
        arguments = refreshed(factory.arguments)
        dag_id = keyword(arguments, "dag_id", Const(factory.function.name))
        assert dag_id is not None
        self.dags.append(
            DraftDag(
                dag_id,
                self.here(node),
                default_args(arguments),
                registered=True,
                arguments=arguments,
            )
        )
        self.dags[-1].level = self.uncertain
        index = len(self.dags) - 1
        with self.inside_dag(index):
            self.run_factory_body(factory.function)
        return DagHandle(index)

    def create_group_from_call(
        self, node: cst.Call, positional: list[Binding], arguments: CallArguments
    ) -> GroupHandle:
        group_id = arguments.named.get("group_id")
        if group_id is None:
            group_id = snapshot(positional[0]) if positional else Const(None)
        return self.create_group(node, group_id, arguments)

    def create_group_from_factory(
        self, node: cst.Call, factory: GroupFactory, bound: dict[str, Binding] | None = None
    ) -> Binding:
        assert factory.function is not None
        arguments = refreshed(factory.arguments)
        group_id = arguments.named.get("group_id", Const(factory.function.name))
        handle = self.create_group(node, group_id, arguments, suffix_on_collision=True)
        self.group_stack.append(handle.index)
        try:
            self.run_factory_body(factory.function, bound)
        finally:
            self.group_stack.pop()
        return handle

    def create_mapped_group(
        self, node: cst.Call, factory: GroupFactory, method: str, arguments: CallArguments
    ) -> Binding:
        """``group.partial(a=1).expand(b=[...])``: Airflow's ``_TaskGroupFactory`` calls the
        function once, with the ``.partial()`` values as they are and a ``MappedArgument`` for
        each expanded parameter (every parameter not bound by ``.partial()``, for
        ``expand_kwargs``), which only the run decides."""
        assert factory.function is not None and factory.function.node is not None
        expanded = (
            tuple(arguments.bindings)
            if method == "expand"
            else tuple(
                name for name in parameters(factory.function.node) if name not in factory.partial
            )
        )
        bound: dict[str, Binding] = dict(factory.partial)
        for name in expanded:
            argument = Unknown(
                f"'{name}' is expanded by the mapped task group: one value per map index"
            )
            self.expanded_arguments[id(argument)] = argument
            bound[name] = argument
        return self.create_group_from_factory(node, factory, bound)

    def create_group(
        self,
        node: cst.Call,
        group_id: Expr,
        arguments: CallArguments,
        suffix_on_collision: bool = False,
    ) -> GroupHandle:
        dag = self.current_dag(arguments)
        parent_binding = arguments.bindings.get("parent_group")
        parent = (
            parent_binding.index
            if isinstance(parent_binding, GroupHandle)
            else self.current_group(dag)
        )
        self.groups.append(
            DraftGroup(
                group_id,
                self.here(node),
                dag,
                parent,
                default_args(arguments),
                arguments.named.get("prefix_group_id", Const(True)),
                suffix_on_collision,
                self.next_made(),
                self.uncertain,
            )
        )
        return GroupHandle(len(self.groups) - 1)

    def leave_group(self, index: int, node: cst.CSTNode) -> None:
        """Leaving a ``with`` block of a group whose class adds a task on exit
        (``names.GROUP_EXIT_TASKS``): the task, in the group and its DAG, with no keyword of
        its own (the DAG's and the group's ``default_args`` apply)."""
        group = self.groups[index]
        if group.exit_task is None:
            return
        task_id, operator = group.exit_task
        self.add_task(
            DraftTask(
                task_id=Const(task_id),
                node=self.here(node),
                operator=operator,
                dag=group.dag,
                group=index,
                arguments=CallArguments(),
                applies_default_args=group.dag is not None,
            )
        )

    def check_keywords(
        self, node: cst.Call, qualname: str, arguments: CallArguments, takes: frozenset[str]
    ) -> None:
        """Record a call of ``qualname`` given keywords outside ``takes``: it raises TypeError."""
        rejected = tuple(key for key in arguments.named if key not in takes)
        if rejected:
            site = self.foreign_site or node
            self.rejected_calls[id(site)] = (site, qualname, rejected, self.uncertain)

    def maybe_operator(
        self, node: cst.Call, operator: str | None, arguments: CallArguments
    ) -> Binding:
        if operator is not None and looks_like_class(operator):
            return self.create_operator_task(node, operator, arguments)
        return Unknown(f"result of calling {operator}()")

    def create_operator_task(
        self,
        node: cst.Call,
        operator: str,
        arguments: CallArguments,
        mapped: bool = False,
        expand_keys: tuple[str, ...] = (),
    ) -> Binding:
        dag = self.current_dag(arguments)
        task_id = keyword(arguments, "task_id", Unknown("task without task_id"))
        assert task_id is not None
        task = DraftTask(
            task_id=task_id,
            node=self.here(node),
            operator=operator,
            dag=dag,
            group=self.task_group_for(arguments, dag),
            arguments=arguments,
            applies_default_args=dag is not None,
            mapped=mapped,
            expand_keys=expand_keys,
            positional=0
            if mapped
            else sum(arg.keyword is None and not arg.star for arg in node.args),
            group_expanded=() if mapped else self.expanded_routing(arguments),
        )
        callable_binding = arguments.bindings.get("python_callable")
        if isinstance(callable_binding, Function):
            task.imports = self.function_imports_of(callable_binding)
        return self.add_task(task)

    def create_taskflow_task(
        self,
        node: cst.CSTNode,
        flow: TaskFlow,
        mapped: bool,
        expand_keys: tuple[str, ...] = (),
    ) -> Binding:
        arguments = flow.arguments
        dag = self.current_dag(arguments)
        task = DraftTask(
            task_id=arguments.named.get("task_id", Const(flow.function.name)),
            node=self.here(node),
            operator=None,
            dag=dag,
            group=self.task_group_for(arguments, dag),
            arguments=arguments,
            applies_default_args=dag is not None,
            taskflow=flow.kind,
            mapped=mapped,
            expand_keys=expand_keys,
            partial_keys=flow.partial_keys,
            imports=self.function_imports_of(flow.function),
            group_expanded=() if mapped else self.expanded_routing(arguments),
        )
        return self.add_task(task)

    def expanded_routing(self, arguments: CallArguments) -> tuple[str, ...]:
        """The routing fields ``arguments`` give an argument a mapped task group expands."""
        return tuple(
            key
            for key in TYPE_CHECKED_ROUTING
            if (bound := arguments.bindings.get(key)) is not None
            and self.expanded_arguments.get(id(bound)) is bound
        )

    def add_task(self, task: DraftTask) -> Binding:
        if len(self.tasks) >= MAX_TASKS:
            self.bound_reached(task.node, f"more than {MAX_TASKS} tasks in one file")
            return Unknown("too many tasks in one file")
        task.level = self.uncertain
        task.wrapped = self.wrapped_depth > 0
        task.created = self.next_made()
        if self.foreign_site is not None:  # built by another module's code: placed at the call
            site = self.foreign_site
            task.arguments = replace(
                task.arguments, nodes=dict.fromkeys(task.arguments.nodes, site)
            )
        if task.dag is not None:
            task.dag_defaults = self.dags[task.dag].current_defaults()
        self.tasks.append(task)
        return TaskHandles((len(self.tasks) - 1,))

    def next_made(self) -> int:
        self.made += 1
        return self.made

    def current_dag(self, arguments: CallArguments) -> int | None:
        explicit = arguments.bindings.get("dag")
        if isinstance(explicit, Instance) and explicit.dag is not None:  # ``dag=self``
            explicit = explicit.dag
        if isinstance(explicit, DagHandle):
            return explicit.index
        group = arguments.bindings.get("task_group")
        if isinstance(group, GroupHandle):
            return self.groups[group.index].dag
        return self.dag_stack[-1] if self.dag_stack else None

    def current_group(self, dag: int | None) -> int | None:
        if self.group_stack and self.groups[self.group_stack[-1]].dag == dag:
            return self.group_stack[-1]
        return None

    def task_group_for(self, arguments: CallArguments, dag: int | None) -> int | None:
        explicit = arguments.bindings.get("task_group")
        if isinstance(explicit, GroupHandle):
            return explicit.index
        return self.current_group(dag)

    def relate(self, left: Binding, right: Binding) -> Binding:
        """``a >> b`` adds a DAG-less side to the other side's DAG, without its default_args."""
        handles = [value for value in (left, right) if isinstance(value, TaskHandles)]
        dags = {
            self.tasks[index].dag
            for handle in handles
            for index in handle.indexes
            if self.tasks[index].dag is not None
        }
        if len(dags) == 1:
            (dag,) = dags
            for handle in handles:
                self.attach(handle, dag)
        return right

    def attach(self, handles: TaskHandles, dag: int | None) -> None:
        for index in handles.indexes:
            task = self.tasks[index]
            if task.dag is None and dag is not None:
                task.dag = dag
                task.applies_default_args = False
