"""Build one file's model: walk the parsed file as Python runs it, then freeze what was found.

The walk (``extract.evaluator``: statements, expressions, calls, functions, stores, over the
shared state) follows execution order, so a name holds the value it has when a task is built; it
runs the file's own functions with their arguments, folds only what the file fixes, and turns
every value a statement it cannot model may change into an unknown with the reason. The Airflow
layer (``extract.airflow``) recognises DAGs, TaskGroups, operators and TaskFlow by qualified name.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

import libcst as cst

from dagroute_lint.deployment.parse_environment import ParseEnvironment
from dagroute_lint.extract.airflow import AirflowObjects
from dagroute_lint.extract.bindings import (
    DagHandle,
    Function,
    Imported,
    LocalClass,
)
from dagroute_lint.extract.bound_names import module_bindings
from dagroute_lint.extract.causes import Placement, kept
from dagroute_lint.extract.containers import (
    CONTAINERS,
    EXPR_TYPES,
    snapshot,
)
from dagroute_lint.extract.evaluator.calls import Calls
from dagroute_lint.extract.evaluator.deployed import Deployed
from dagroute_lint.extract.evaluator.expressions import Expressions
from dagroute_lint.extract.evaluator.files import Files
from dagroute_lint.extract.evaluator.functions import Functions
from dagroute_lint.extract.evaluator.helpers import (
    class_constants,
)
from dagroute_lint.extract.evaluator.instances import Instances
from dagroute_lint.extract.evaluator.objects import Objects
from dagroute_lint.extract.evaluator.records import Records
from dagroute_lint.extract.evaluator.state import (
    MAX_FOREIGN_MODULES,
    DraftDag,
    DraftImport,
    DraftTask,
    Scope,
)
from dagroute_lint.extract.evaluator.statements import Statements
from dagroute_lint.extract.evaluator.stores import Stores
from dagroute_lint.extract.imports import imported_names, is_relative
from dagroute_lint.extract.policies import (
    SETTINGS_MODULE,
    DraftEffect,
    PolicyReader,
    policy_functions,
)
from dagroute_lint.extract.positions import anchored_positions
from dagroute_lint.extract.source import Parsed, decode, noqa_comments, parse
from dagroute_lint.extract.versions import deployment_release
from dagroute_lint.model import (
    Arguments,
    ClusterPolicy,
    Dag,
    DictExpr,
    Expr,
    ImportSite,
    Module,
    PolicyEffect,
    Position,
    Ref,
    RejectedCall,
    Site,
    Source,
    SyntaxProblem,
    Task,
    TaskGroup,
    Unmodelled,
)
from dagroute_lint.sources.data_files import DataFiles


def extract_module(
    data: bytes,
    path: str,
    module_name: str,
    is_package: bool = False,
    externals: Mapping[str, Expr] | None = None,
    sources: Mapping[str, Source] | None = None,
    airflow_version: str | None = None,
    data_roots: Sequence[str] = (),
    parse_environment: ParseEnvironment | None = None,
) -> Module:
    """Build the model of one file. Never raises on bad input: problems become ``syntax_error``.

    ``externals`` gives the values of names from other modules that the file loops over (see
    ``Module.loop_refs``), folded by the caller from the repository's symbol table; ``sources``
    the repository modules whose functions it calls (``Module.call_refs``), run where called;
    ``airflow_version`` the inventory's, which decides the conditions on Airflow's version;
    ``data_roots`` the folders whose data files the walk may read (``Module.data_reads``).
    ``parse_environment`` what ``os.getenv`` and ``Variable.get`` return (the inventory's).
    """
    text = decode(data)
    if isinstance(text, SyntaxProblem):
        return Module(path=path, module_name=module_name, syntax_error=text)
    parsed = parse(text)
    noqa, file_noqa = noqa_comments(text)
    if isinstance(parsed, SyntaxProblem):
        return Module(
            path=path, module_name=module_name, syntax_error=parsed, noqa=noqa, file_noqa=file_noqa
        )
    release = deployment_release(airflow_version)
    walker = _Walker(
        module_name,
        is_package,
        path,
        externals or {},
        sources,
        release,
        DataFiles(data_roots),
        parse_environment,
    )
    try:
        return _walked(walker, parsed, path, noqa, file_noqa)
    finally:
        walker.release()


def _walked(
    walker: _Walker,
    parsed: Parsed,
    path: str,
    noqa: dict[int, frozenset[str] | None],
    file_noqa: dict[int, frozenset[str] | None],
) -> Module:
    try:
        with warnings.catch_warnings():
            # libcst folds strings with ast.literal_eval, which warns about the user's invalid
            # escapes (a SyntaxWarning on Python 3.12+): not ours to print, nor to fail on.
            warnings.simplefilter("ignore")
            walker.walk_block(parsed.module.body)
            drafts = PolicyReader(walker).read() if walker.module_name == SETTINGS_MODULE else None
    except RecursionError:
        return Module(
            path=path,
            module_name=walker.module_name,
            noqa=noqa,
            file_noqa=file_noqa,
            syntax_error=SyntaxProblem(
                "too deeply nested to analyse", Position(1, 1), skipped=True
            ),
        )
    return walker.build(parsed, path, noqa, file_noqa, drafts)


_FIRST_LINE = Position(1, 1)


class _Walker(
    Statements,
    Functions,
    Expressions,
    Calls,
    Files,
    AirflowObjects,
    Instances,
    Records,
    Objects,
    Stores,
    Deployed,
):
    """The whole walk; what it learned becomes the file's model in ``build``."""

    def foreign_module(self, name: str) -> Scope | None:
        """The module-level names of another repository module, from walking its source once
        (what it builds itself is not this file's); ``None`` when it is not available."""
        if name in self.foreign_scopes:
            return self.foreign_scopes[name]
        self.foreign_scopes[name] = None  # also guards against modules importing each other
        source = self.sources.get(name)
        if source is None or len(self.foreign_scopes) > MAX_FOREIGN_MODULES:
            return None
        text = decode(source.data)
        parsed = parse(text) if isinstance(text, str) else text
        if isinstance(parsed, SyntaxProblem):
            return None
        other = _Walker(
            name,
            source.is_package,
            source.path,
            {},
            self.sources,
            self.airflow_release,
            self.data_files,
            self.parse_environment,
        )
        other.foreign_scopes = self.foreign_scopes
        self.scopes += other.scopes
        other.scopes = self.scopes
        try:
            other.walk_block(parsed.module.body)
        except RecursionError:
            return None
        if other.deployment_changed_by is not None:
            what = (
                f"module {name}, which the file imports, changes the environment or the "
                f"Variables ({other.deployment_changed_by})"
            )
            self.spoil_environ(what)
            self.variables_spoiled = what
            self.note_change(f"{other.deployment_changed_by} (in {name})")
        if other.files_written is not None:
            self.wrote_files(
                f"module {name}, imported before, writes files ({other.files_written})"
            )
        self.foreign_scopes[name] = other.module_scope
        return other.module_scope

    def unregistered(self, task: DraftTask, held: set[int]) -> bool:
        """The task's DAG may not be collected by Airflow: neither registered nor held."""
        return task.dag is not None and not (self.dags[task.dag].registered or task.dag in held)

    def task_dag_defaults(self, task: DraftTask) -> Expr | None:
        """The DAG's default_args the task got, when they changed after it was built."""
        if task.dag is None or not task.applies_default_args:
            return None
        version, defaults = task.dag_defaults
        if version == self.dags[task.dag].current_defaults()[0]:
            return None
        return defaults if defaults is not None else DictExpr(())

    def constants(self) -> dict[str, Expr]:
        """The module-level names the model keeps, as expressions."""
        constants: dict[str, Expr] = {}
        for name, binding in self.module_scope.names.items():
            if isinstance(binding, (*EXPR_TYPES, *CONTAINERS)):
                constants[name] = snapshot(binding)
            elif isinstance(binding, Imported):
                constants[name] = Ref(binding.qualname)
            elif isinstance(binding, LocalClass):
                constants.update(class_constants(name, binding))
        return constants

    def model_values(self, constants: Mapping[str, Expr]) -> Iterator[Expr]:
        """Every expression ``build`` puts in the model: what its unknowns are placed in."""
        yield from constants.values()
        for dag in self.dags:
            yield dag.dag_id
            defaults = dag.current_defaults()[1]
            if defaults is not None:
                yield defaults
            if dag.arguments is not None:
                yield from dag.arguments.named.values()
        for group in self.groups:
            yield group.group_id
            yield group.prefix_group_id
            if group.default_args is not None:
                yield group.default_args
        for task in self.tasks:
            yield task.task_id
            yield from task.arguments.named.values()
            yield from task.arguments.spreads
            yield from task.overridden.values()
            defaults = self.task_dag_defaults(task)
            if defaults is not None:
                yield defaults

    def build(
        self,
        parsed: Parsed,
        path: str,
        noqa: dict[int, frozenset[str] | None],
        file_noqa: dict[int, frozenset[str] | None],
        drafts: list[DraftEffect] | None = None,
    ) -> Module:
        wanted: list[cst.CSTNode] = [dag.node for dag in self.dags]
        if drafts is not None:
            wanted += [draft.node for draft in drafts if draft.node is not None]
            wanted += list(_hook_nodes(self.module_scope))
        wanted += [group.node for group in self.groups]
        wanted += [task.node for task in self.tasks]
        wanted += [site.node for site in self.imports]
        wanted += [node for node, _ in self.unmodelled.values()]
        wanted += [node for node, *_ in self.rejected_calls.values()]
        cause = self.no_dag_cause()
        if cause is not None:
            wanted.append(cause[0])
        tree = parsed.module
        bindings = list(module_bindings(tree))
        wanted += [node for _, node in bindings]
        for task in self.tasks:
            wanted += [site.node for site in task.imports]
            wanted += list(task.arguments.nodes.values())
        for dag in self.dags:
            wanted += list(dag.arguments.nodes.values()) if dag.arguments is not None else []
        constants = self.constants()
        causes = kept(self.model_values(constants), self.unknown_at)
        wanted += causes.values()
        positions = anchored_positions(tree, wanted, parsed.anchors)
        place = Placement(
            {
                key: Site(path, positions[id(node)])
                for key, node in causes.items()
                if id(node) in positions  # not another module's code the walk ran
            }
        )

        def at(node: cst.CSTNode, fallback: Position = _FIRST_LINE) -> Position:
            """Where a node is; a node of another module's code (a decorator's arguments, a
            closure it returned) is placed at what it belongs to in this file."""
            return positions.get(id(node), fallback)

        def argument_positions(task: DraftTask) -> dict[str, Position]:
            return {key: at(node, at(task.node)) for key, node in task.arguments.nodes.items()}

        def dag_arguments(dag: DraftDag) -> Arguments | None:
            """The keywords of Airflow's own ``DAG``/``@dag`` call; spreads are not judged."""
            if dag.arguments is None:
                return None
            named = dag.arguments.named
            nodes = dag.arguments.nodes
            return Arguments(
                {key: place(value) for key, value in named.items()},
                tuple(place(spread) for spread in dag.arguments.spreads),
                {key: at(node, at(dag.node)) for key, node in nodes.items()},
            )

        def import_site(draft: DraftImport) -> ImportSite:
            return ImportSite(
                draft.module,
                at(draft.node),
                draft.scope,
                draft.guarded,
                imported_names(draft.node),
                is_relative(draft.node),
            )

        bound_at = _first_lines((name, at(node).line) for name, node in bindings)
        held = {
            binding.index
            for binding in self.module_scope.names.values()
            if isinstance(binding, DagHandle)
        }
        return Module(
            path=path,
            module_name=self.module_name,
            constants={name: place(value) for name, value in constants.items()},
            imports=tuple(import_site(site) for site in self.imports),
            dags=tuple(
                Dag(
                    place(dag.dag_id),
                    at(dag.node),
                    _placed(place, dag.current_defaults()[1]),
                    dag.registered or index in held,
                    dag.level > 0,
                    dag_arguments(dag),
                )
                for index, dag in enumerate(self.dags)
            ),
            groups=tuple(
                TaskGroup(
                    place(group.group_id),
                    at(group.node),
                    group.dag,
                    group.parent,
                    _placed(place, group.default_args),
                    place(group.prefix_group_id),
                    group.suffix_on_collision,
                    group.created,
                    group.level > 0,
                )
                for group in self.groups
            ),
            tasks=tuple(
                Task(
                    task_id=place(task.task_id),
                    position=at(task.node),
                    operator=task.operator,
                    dag=task.dag,
                    group=task.group,
                    arguments=Arguments(
                        {key: place(value) for key, value in task.arguments.named.items()},
                        tuple(place(spread) for spread in task.arguments.spreads),
                        argument_positions(task),
                        _literal_keywords(task),
                    ),
                    applies_default_args=task.applies_default_args,
                    taskflow=task.taskflow,
                    mapped=task.mapped,
                    expand_keys=task.expand_keys,
                    partial_keys=task.partial_keys,
                    imports=tuple(import_site(site) for site in task.imports),
                    overridden={key: place(value) for key, value in task.overridden.items()},
                    dag_default_args=_placed(place, self.task_dag_defaults(task)),
                    conditional=task.level > 0 or self.unregistered(task, held),
                    positional=task.positional,
                    wrapped=task.wrapped,
                    constructed=task.constructed,
                    created=task.created,
                    group_expanded=task.group_expanded,
                )
                for task in self.tasks
            ),
            noqa=noqa,
            file_noqa=file_noqa,
            loop_refs=tuple(self.loop_refs),
            call_refs=tuple(self.call_refs),
            data_reads=self.data_files.recorded(),
            reads_deployment=self.deployment_read,
            changes_deployment=self.deployment_changed_by,
            classes=dict(self.classes),
            unmodelled=tuple(
                Unmodelled(at(node), message) for node, message in self.unmodelled.values()
            ),
            bound_at=bound_at,
            rejected_calls=tuple(
                RejectedCall(at(node), callee, keywords, level > 0)
                for node, callee, keywords, level in self.rejected_calls.values()
            ),
            policy=None if drafts is None else self.policy(drafts, at, bound_at),
            no_dag_cause=None if cause is None else Unmodelled(at(cause[0]), cause[1]),
        )

    def policy(
        self,
        drafts: list[DraftEffect],
        at: Callable[[cst.CSTNode], Position],
        bound_at: Mapping[str, int],
    ) -> ClusterPolicy:
        """The settings module's cluster policy: its effects placed, and its hooks' lines (a
        function's ``def``; a hook bound otherwise, the line binding it)."""
        hooks = {
            hook: at(bound.node).line
            if isinstance(bound, Function) and bound.node is not None
            else bound_at.get(hook, 1)
            for hook, bound in policy_functions(self.module_scope)
        }
        effects = tuple(
            PolicyEffect(
                draft.hook,
                draft.when,
                draft.field,
                draft.value,
                at(draft.node).line if draft.node is not None else hooks.get(draft.hook, 1),
            )
            for draft in drafts
        )
        return ClusterPolicy(effects, hooks)

    def no_dag_cause(self) -> tuple[cst.CSTNode, str] | None:
        """In a file where no DAG was found, the call that may have built them (see
        ``Module.no_dag_cause``): the first one named like a DAG builder, else the first."""
        if self.dags or not self.suspects:
            return None
        found = list(self.suspects.values())
        node, message, _ = next((each for each in found if each[2]), found[0])
        return node, message


def _hook_nodes(module: Scope) -> Iterator[cst.CSTNode]:
    """The ``def`` of each hook the settings module defines, to place it."""
    for _, bound in policy_functions(module):
        if isinstance(bound, Function) and bound.node is not None:
            yield bound.node


def _placed(place: Placement, expr: Expr | None) -> Expr | None:
    return None if expr is None else place(expr)


def _literal_keywords(task: DraftTask) -> frozenset[str]:
    """The keywords written as a plain string literal on the task's own call, or on a
    ``.override()`` chained onto it (``fit.override(queue="q")()``); not those of a decorator,
    a ``functools.partial`` or another module's code, which other tasks may share."""
    calls = [task.node] if isinstance(task.node, cst.Call) else []
    if calls and isinstance(calls[0].func, cst.Call):
        calls.append(calls[0].func)
    own = {id(arg) for call in calls for arg in call.args}
    return frozenset(
        key
        for key, node in task.arguments.nodes.items()
        if id(node) in own
        and isinstance(node, cst.Arg)
        and isinstance(node.value, cst.SimpleString)
        and "b" not in node.value.prefix.lower()
    )


def _first_lines(bindings: Iterable[tuple[str, int]]) -> dict[str, int]:
    """The first line binding each name."""
    first: dict[str, int] = {}
    for name, line in bindings:
        first.setdefault(name, line)
    return first
