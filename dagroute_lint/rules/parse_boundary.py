"""DRL201, DRL205, DRL206: a module-level import that stops the DAG processor loading the file.

Loading a DAG file runs its module-level imports and, through the repository's own modules it
imports, theirs (``resolve/parse_imports.py``). The first one that fails raises, and the file is
recorded as an import error: none of its DAGs load. Each cause is reported once, at the file's
own import that leads to it: a provider the DAG processor's runtime lacks (DRL201), a third-party
package it lacks (DRL205), or a module of the repository that Python will not find (DRL206).

"First-party-looking", for DRL206, means one of:

- a relative import in the DAG file itself: Airflow loads a DAG file as a top-level module
  (``unusual_prefix_<sha1>_<name>``, with no parent package), so ``from .x import y`` fails there;
- an import below one of the repository's regular packages or modules (``common.storag`` when
  ``common/__init__.py`` is on an import root and has no ``storag``);
- a top-level name found on no import root but beside the importing file, or in a folder between
  it and the import root it lies under (``dags/team/helpers.py`` imported as ``helpers``), unless
  the DAG processor's runtime has a distribution that provides that name (listed, or brought
  by what it lists).

Everything else that is not the standard library or Airflow is a third-party package.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from dagroute_lint.catalog.distributions import (
    NAMESPACES,
    ImportNeed,
    brought_by,
    import_need,
    imported_modules,
    is_airflow,
    is_stdlib,
    unknown_dependencies,
)
from dagroute_lint.catalog.optional_features import EXCEPTION as OPTIONAL_EXCEPTION
from dagroute_lint.catalog.optional_features import optional_needs
from dagroute_lint.catalog.providers import (
    listed_provider_for,
    provider_for_decorator,
    provider_for_module,
)
from dagroute_lint.deployment.inventory import Inventory, Runtime
from dagroute_lint.diagnostics import Diagnostic, Kind
from dagroute_lint.model import Position
from dagroute_lint.records import record
from dagroute_lint.resolve.parse_imports import ReachedImport, reached_imports
from dagroute_lint.rules.base import Context, DeploymentContext, DeploymentRule, Rule
from dagroute_lint.rules.open_facts import OpenFact, open_fact, undecided
from dagroute_lint.sources.discovery import absolute, processor_imports

# The folder Airflow's ``[core] plugins_folder`` names by default, relative to
# ``$AIRFLOW_HOME``: Airflow 2 and 3 put it on ``sys.path`` (``settings.initialize`` calls
# ``prepare_syspath_for_config_and_plugins``), so a project's ``plugins/`` is often deployed as
# it. Often, not always: it is named in a message, never taken as an import root unasked.
PLUGINS_FOLDER = "plugins"

# ``apache-airflow-core`` 3.x hard-depends on these (semantics §6.2): any Airflow 3 runtime has
# them even when the inventory does not list them.
AIRFLOW3_BUNDLED_PROVIDERS = frozenset(
    "apache-airflow-providers-" + name
    for name in ("standard", "smtp", "common-sql", "common-io", "common-compat")
)


@record
class Need:
    """A provider distribution a task or file needs, and the first reason why."""

    distribution: str
    why: str
    position: Position
    # A module-level import: it breaks every task of the file alike, so one report covers them.
    at_import: bool = False
    module: str | None = None  # the imported module that needs it, for an import


@record
class LoadFailure:
    """One reason the file fails to load, keyed so that each cause is reported once.

    ``kind`` is ``provider`` (``key``: the distribution), ``package`` (``key``: the import name
    that decides the distribution) or ``module`` (``key``: the module Python will not find).
    ``item`` is what the diagnostic's facts name (the key, or for a package its distribution),
    and ``runtime`` the DAG processor's runtime that lacks it, if a runtime decides.
    """

    kind: Kind
    key: str
    position: Position
    message: str
    item: str
    runtime: str | None = None
    cause: str | None = None  # what reports of several files share (``Diagnostic.cause``)
    # ``False``: it fails only if the deployment does what the linter cannot see it do (puts a
    # repository folder that is no import root on sys.path): a warning, not an error.
    certain: bool = True


def has_provider(
    runtime: Runtime, distribution: str, airflow_major: int, module: str | None = None
) -> bool | None:
    """Whether the runtime has the provider: ``None`` when it does not list its providers (and
    Airflow does not bundle this one), which is never taken as "it has none". For ``module``
    (the import that needs it), a listed provider that owns it by Airflow's naming rule where
    the tables know no owner counts too (``listed_provider_for``): the provider's name was
    only a guess."""
    if airflow_major >= 3 and distribution in AIRFLOW3_BUNDLED_PROVIDERS:
        return True
    if runtime.providers is None:
        return None
    names = [requirement.name for requirement in runtime.providers]
    if distribution in names:
        return True
    return module is not None and listed_provider_for(module, names) is not None


def listed_distributions(runtime: Runtime) -> frozenset[str]:
    """The distributions a runtime lists: its ``packages`` and ``providers``."""
    return frozenset(r.name for r in (*(runtime.packages or ()), *(runtime.providers or ())))


def has_package(runtime: Runtime, need: ImportNeed) -> bool | None:
    """A runtime has the modules it says it has (``imports``), what its ``packages`` and
    ``providers`` list, what those require in turn (the shipped dependency tables), and
    everything Airflow brings. A listed distribution no table maps is taken to provide what it
    is named after (``acme-airflow-provider``: ``acme_airflow_provider``, ``ImportNeed.met_by``).

    ``None`` when none of that has it and the lists cannot rule it out: the runtime does not
    list its packages or providers, or no table names the import's distribution and a listed
    distribution requires what no table knows, so that it may bring it (a third party's
    provider and its SDK), unless the runtime says its lists are every distribution installed
    (``complete``). A missing distribution is asserted only where the lists prove it."""
    if need.key in runtime.imports or need.airflow_brings_it:
        return True
    listed = listed_distributions(runtime)
    if need.met_by(listed | brought_by(listed)):
        return True
    if runtime.packages is None or runtime.providers is None:
        return None
    if not need.known and not runtime.complete and unknown_dependencies(listed):
        return None
    return False


_NAMED_UNKNOWN = 3  # distributions a caveat names before it counts the rest


def caveat_for(distributions: Iterable[str]) -> str:
    """What a "missing" verdict cannot rule out in an environment installed from
    ``distributions``: ``; the dependencies of 'a' and 'b' are not known (it may come with
    them)`` when they, or what they bring, include distributions whose requirements no shipped
    table knows; else nothing. Said rather than left out: the verdict is only as good as the
    tables."""
    names = unknown_dependencies(frozenset(distributions))
    if not names:
        return ""
    shown = [f"'{name}'" for name in names[:_NAMED_UNKNOWN]]
    if len(names) > _NAMED_UNKNOWN:
        shown.append(f"{len(names) - _NAMED_UNKNOWN} more")
    listing = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    return f"; the dependencies of {listing} are not known (it may come with them)"


def provider_names(runtime: Runtime) -> str:
    names = sorted(
        r.name.removeprefix("apache-airflow-providers-") for r in runtime.providers or ()
    )
    return ", ".join(names) if names else "none"


def _why(reached: ReachedImport) -> str:
    return f"module-level import of '{reached.site.module}'{reached.chain}"


def processor_runtime(inventory: Inventory | None) -> tuple[str, Runtime] | None:
    """The DAG processor's runtime, when the inventory declares one."""
    if inventory is None or inventory.dag_processor_runtime is None:
        return None
    name = inventory.dag_processor_runtime
    return name, inventory.runtimes[name]


def load_failures(context: Context | DeploymentContext) -> list[LoadFailure]:
    """Why the file fails to load on the DAG processor, one entry per cause, in file order.

    Only files the DAG processor imports are judged: those that define DAGs, and those its
    discovery heuristic picks (``processor_imports``), whose DAGs may be built in ways not seen
    here but whose import fails all the same. Providers and packages are judged only when the
    inventory names the DAG processor's runtime. Worked out once per file for the rules that ask
    (DRL201-DRL203, DRL205, DRL206).
    """
    return [found for found in _load_outcomes(context) if isinstance(found, LoadFailure)]


def parse_open_facts(context: Context | DeploymentContext) -> list[OpenFact]:
    """What the DAG processor's runtime leaves open that decides whether the file loads."""
    return [found for found in _load_outcomes(context) if isinstance(found, OpenFact)]


def _load_outcomes(context: Context | DeploymentContext) -> list[LoadFailure | OpenFact]:
    outcomes: list[LoadFailure | OpenFact] = context.repository.derive(
        "load_failures", context.file, lambda: _judged(context)
    )
    return outcomes


def _judged(context: Context | DeploymentContext) -> list[LoadFailure | OpenFact]:
    module = context.module
    if module.syntax_error is not None:
        return []
    if not module.dags and not processor_imports(context.file.source.path, context.airflow_major):
        return []
    processor = processor_runtime(context.inventory)
    found: dict[object, LoadFailure | OpenFact] = {}
    causes = _failures(context, processor)
    if processor is not None:
        causes = itertools.chain(causes, _decorators(context, processor))
    for cause in causes:
        key = (cause.kind, cause.key) if isinstance(cause, LoadFailure) else cause
        found.setdefault(key, cause)
    return list(found.values())


def _failures(
    context: Context | DeploymentContext, processor: tuple[str, Runtime] | None
) -> Iterator[LoadFailure | OpenFact]:
    module = context.module
    repository = context.repository
    for reached in reached_imports(module, repository.lookup):
        target = reached.target.module
        if is_airflow(target):
            if processor is not None:
                yield from _provider(context, reached, processor)
            continue
        if reached.target.relative and not reached.via:
            yield LoadFailure(
                "module",
                target,
                reached.site.position,
                f"relative import of '{target}' in a DAG file fails: Airflow loads the file as "
                "a top-level module, with no parent package (ImportError: attempted relative "
                "import with no known parent package); import it by its name from an import root",
                target,
            )
            continue
        if context.first_party(target):
            missing = repository.locations.missing_part(target) if repository.locations else None
            if missing is not None:
                parent, _, last = missing.rpartition(".")
                yield LoadFailure(
                    "module",
                    missing,
                    reached.site.position,
                    f"{_why(reached)}: '{missing}' is not found, because the repository's "
                    f"'{parent}' has no module or package '{last}' (ModuleNotFoundError)",
                    missing,
                )
            continue
        if is_stdlib(target):
            continue
        for needed in imported_modules(target, reached.target.names):
            yield from _third_party(context, reached, needed, processor)


def _third_party(
    context: Context | DeploymentContext,
    reached: ReachedImport,
    needed: str,
    processor: tuple[str, Runtime] | None,
) -> Iterator[LoadFailure | OpenFact]:
    """A third-party package the import needs, or a repository name Python will not find."""
    target = reached.target.module
    need = import_need(needed)
    verdict = has_package(processor[1], need) if processor and need else None
    if verdict:
        return
    top = target.partition(".")[0]
    # A namespace's top-level name (``google``) is always found in site-packages first.
    stray = None if top in NAMESPACES else _stray(context, reached)
    # A name a table gives a distribution is that distribution's, whatever the project holds.
    elsewhere = None
    if stray is None and top not in NAMESPACES and not (need and need.known):
        elsewhere = off_roots(context, target)
        if elsewhere is not None and _is_the_importer(elsewhere, top, reached):
            elsewhere = None  # ``import honeybadger`` in honeybadger.py: the installed package
    # The repository's own module off the roots fails whatever the runtime lists: nothing the
    # inventory leaves open decides it.
    if elsewhere is None and verdict is None and processor is not None and need is not None:
        yield open_fact(processor[1], "package", need.key)
    if stray is not None:
        yield LoadFailure(
            "module",
            top,
            reached.site.position,
            f"{_why(reached)}: '{top}' is on no import root; {stray} lies beside the file, "
            "but Airflow puts the DAG folder on sys.path, not the folders inside it "
            "(ModuleNotFoundError)",
            top,
        )
    elif elsewhere is not None:
        yield _off_roots_failure(context, reached, elsewhere)
    elif verdict is False and processor is not None and need is not None:
        name, _ = processor
        which = "" if needed == target else f" ('{needed}')"
        yield LoadFailure(
            "package",
            need.key,
            reached.site.position,
            f"{_why(reached)}{which} needs {need.display}, which the DAG processor runtime "
            f"'{name}' does not list (ModuleNotFoundError)"
            + caveat_for(listed_distributions(processor[1])),
            need.distribution,
            name,
        )


def _provider(
    context: Context | DeploymentContext,
    reached: ReachedImport,
    processor: tuple[str, Runtime],
) -> Iterator[LoadFailure | OpenFact]:
    distribution = provider_for_module(reached.target.module, context.airflow_major)
    name, runtime = processor
    if distribution is None:
        return
    verdict = has_provider(runtime, distribution, context.airflow_major, reached.target.module)
    if verdict is None:
        yield open_fact(runtime, "provider")
        return
    if verdict:
        yield from _optional_features(context, reached, processor)
        return
    yield LoadFailure(
        "provider",
        distribution,
        reached.site.position,
        f"{_why(reached)} needs {distribution}, which the DAG processor runtime "
        f"'{name}' lacks (has: {provider_names(runtime)})",
        distribution,
        name,
    )


def _optional_features(
    context: Context | DeploymentContext,
    reached: ReachedImport,
    processor: tuple[str, Runtime],
) -> Iterator[LoadFailure | OpenFact]:
    """An installed provider's module that raises ``AirflowOptionalProviderFeatureException``
    at import because the runtime lacks an optional dependency (a provider or a package)."""
    name, runtime = processor
    site = reached.target
    for module in (site.module, *(f"{site.module}.{n}" for n in site.names)):
        for needed in optional_needs(module):
            which = "it" if module == site.module else f"its provider module '{module}'"
            head = f"{_why(reached)}: {which} raises {OPTIONAL_EXCEPTION} without '{needed}'"
            if is_airflow(needed):
                distribution = provider_for_module(needed, context.airflow_major)
                if distribution is None:
                    continue
                verdict = has_provider(runtime, distribution, context.airflow_major, needed)
                if verdict is None:
                    yield open_fact(runtime, "provider")
                if verdict is not False:
                    continue
                yield LoadFailure(
                    "provider",
                    distribution,
                    reached.site.position,
                    f"{head}, which needs {distribution}; the DAG processor runtime '{name}' "
                    f"lacks it (has: {provider_names(runtime)})",
                    distribution,
                    name,
                )
                continue
            need = None if is_stdlib(needed) else import_need(needed)
            found = has_package(runtime, need) if need is not None else True
            if found is None and need is not None:
                yield open_fact(runtime, "package", need.key)
            if need is None or found is not False:
                continue
            yield LoadFailure(
                "package",
                need.key,
                reached.site.position,
                f"{head}, which needs {need.display}; the DAG processor runtime '{name}' does "
                "not list it" + caveat_for(listed_distributions(runtime)),
                need.distribution,
                name,
            )


def off_roots(context: Context | DeploymentContext, module: str) -> Path | None:
    """The project's folder, on no import root, that holds ``module`` (``FirstParty.off_roots``)."""
    locations = context.repository.locations
    return locations.off_roots(module) if locations is not None else None


def _is_the_importer(folder: Path, top: str, reached: ReachedImport) -> bool:
    """Whether the module ``top`` found in ``folder`` is the very file importing it: a file
    never means itself by its own name, so the name is an installed package's."""
    importer = absolute(Path(reached.path))
    return importer == folder / f"{top}.py" or importer == folder / top / "__init__.py"


def _off_roots_failure(
    context: Context | DeploymentContext, reached: ReachedImport, folder: Path
) -> LoadFailure:
    """The repository holds the module, in a folder on no import root: one report per folder
    and file (the cause is the folder, whichever of its modules are imported), naming the
    setting that fixes it, or the name to import it by when the folder lies under a root."""
    locations = context.repository.locations
    # ``off_roots`` found the folder: there is a project it searched.
    assert locations is not None and locations.project is not None
    project = locations.project.root
    relative = folder.relative_to(project).as_posix()
    module = reached.target.module
    top = module.partition(".")[0]
    shown = f"{relative}/{top}/" if (folder / top).is_dir() else f"{relative}/{top}.py"
    setting = f'add "{relative}" to `roots` in [tool.dagroute-lint] (`roots = ["{relative}"]`)'
    under = [root for root in locations.roots if folder.is_relative_to(root) and root != project]
    if under:
        innermost = max(under, key=lambda root: len(root.parts))
        name = ".".join((*folder.relative_to(innermost).parts, module))
        advice = f"import it as '{name}', or {setting} if the deployment puts {relative}/ there"
    elif relative == PLUGINS_FOLDER:
        advice = (
            "Airflow puts its plugins folder ([core] plugins_folder, $AIRFLOW_HOME/plugins by "
            f"default) on sys.path: if {relative}/ is deployed as it, {setting}"
        )
    else:
        advice = (
            f"if the deployment puts {relative}/ on sys.path (PYTHONPATH), {setting}; "
            "otherwise move it under an import root"
        )
    return LoadFailure(
        "module",
        f"roots:{relative}",
        reached.site.position,
        f"{_why(reached)}: '{top}' is on no import root, but lies in {relative}/ ({shown}), "
        f"which is not one (ModuleNotFoundError); {advice}",
        top,
        cause=relative,
        certain=False,
    )


def _stray(context: Context | DeploymentContext, reached: ReachedImport) -> str | None:
    """Where the imported name lies off the import roots, shown beside the importer's path."""
    locations = context.repository.locations
    if locations is None:
        return None
    importer = absolute(Path(reached.path))
    found = locations.stray(reached.target.module, importer)
    if found is None or absolute(Path(found)) == importer:
        # ``import honeybadger`` in honeybadger.py: a file never means itself by its own name,
        # so the name is the installed package's (judged as any third-party import).
        return None
    relative = os.path.relpath(found, importer.parent)
    return os.path.normpath(os.path.join(os.path.dirname(reached.path), relative))


def dag_ids(context: Context | DeploymentContext) -> str:
    """The file's DAG ids: of its tasks, and of DAGs that build none."""
    ids = {task.dag_id for task in context.tasks if task.dag_id}
    ids.update(dag_id for dag_id in context.file.dag_ids if dag_id)
    return ", ".join(sorted(ids)) or "?"


def consequence(context: Context | DeploymentContext) -> str:
    """What the failed import costs: the file's DAGs, or (none seen) whatever it would build."""
    if not context.module.dags and not context.tasks:
        return (
            "the file fails to import: the DAG processor records an import error for it, and no "
            "DAG it builds loads"
        )
    return f"the file fails to import and its DAGs ({dag_ids(context)}) never load"


def _decorators(
    context: Context | DeploymentContext, processor: tuple[str, Runtime]
) -> Iterator[LoadFailure | OpenFact]:
    """``@task.<kind>`` raises ``AttributeError`` while the file loads when the provider that
    registers the kind is missing."""
    name, runtime = processor
    for task in context.module.tasks:
        if task.taskflow is None:
            continue
        distribution = provider_for_decorator(task.taskflow, context.airflow_major)
        if distribution is None:
            continue
        verdict = has_provider(runtime, distribution, context.airflow_major)
        if verdict is None:
            yield open_fact(runtime, "provider")
        if verdict is not False:
            continue
        yield LoadFailure(
            "provider",
            distribution,
            task.position,
            f"the @task.{task.taskflow} decorator needs {distribution}, which the DAG processor "
            f"runtime '{name}' lacks (has: {provider_names(runtime)})",
            distribution,
            name,
        )


def failing_at_parse(context: DeploymentContext, kind: Kind) -> frozenset[str]:
    """The keys of one kind of cause that already stop the file loading: startup rules leave
    them alone, since a file that does not load sends no task to a worker."""
    return frozenset(f.key for f in load_failures(context) if f.kind == kind)


def _report(context: Context | DeploymentContext, kind: Kind) -> Iterator[Diagnostic]:
    for failure in load_failures(context):
        if failure.kind == kind:
            outcome = consequence(context) if failure.certain else f"if not, {consequence(context)}"
            yield context.report(
                failure.position,
                f"{failure.message}; {outcome}",
                kind=kind,
                item=failure.item,
                runtime=failure.runtime,
                cause=failure.cause,
                severity=None if failure.certain else "warning",
            )


def _undecided_at_parse(context: DeploymentContext, kind: Kind) -> Iterator[Diagnostic]:
    """The runtime facts left open that would decide whether the file loads: every task of the
    file is left unchecked by them."""
    for fact in parse_open_facts(context):
        if fact.kind == kind:
            yield undecided(context, fact, context.tasks)


def check_provider_at_parse(context: DeploymentContext) -> Iterator[Diagnostic]:
    yield from _report(context, "provider")
    yield from _undecided_at_parse(context, "provider")


def check_package_at_parse(context: DeploymentContext) -> Iterator[Diagnostic]:
    yield from _report(context, "package")
    yield from _undecided_at_parse(context, "package")


def check_module_not_found(context: Context) -> Iterator[Diagnostic]:
    return _report(context, "module")


PROVIDER_MISSING_AT_PARSE = DeploymentRule(
    code="DRL201",
    name="provider-missing-at-parse",
    summary="module-level import of a provider the DAG processor runtime lacks",
    boundary="parse",
    check=check_provider_at_parse,
)
PACKAGE_MISSING_AT_PARSE = DeploymentRule(
    code="DRL205",
    name="package-missing-at-parse",
    summary="module-level import of a third-party package the DAG processor runtime lacks",
    boundary="parse",
    check=check_package_at_parse,
)
MODULE_NOT_FOUND = Rule(
    code="DRL206",
    name="module-not-found",
    summary="a module-level import of the repository's own code that Python will not find",
    boundary="parse",
    check=check_module_not_found,
)
