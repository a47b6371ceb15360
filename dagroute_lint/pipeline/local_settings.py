"""Find and read ``airflow_local_settings.py`` where the deployment's Airflow imports it from.

Airflow imports ``airflow_local_settings`` once, when ``airflow`` is imported
(``settings.initialize`` → ``import_local_settings``), from ``sys.path`` as it is then: the
``PYTHONPATH`` entries and installed packages, then ``$AIRFLOW_HOME/config`` and the plugins
folder, which ``prepare_syspath_for_config_and_plugins`` appends. The DAG folder is not on
``sys.path`` yet (Airflow 2 appends it after the import; 3.x when it parses), so a settings
file there is never Airflow's. Here: the inventory's ``[deployment] local_settings`` when it says
(a path, or ``false`` for none), else the first file found in the extra import roots of the
settings (``roots``, which stand for ``PYTHONPATH``), the repository root, and the project's
``config/`` and ``plugins/`` folders (``$AIRFLOW_HOME/config`` and ``plugins`` when the
repository is mounted as ``AIRFLOW_HOME``, as Airflow's docker-compose quick start does).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from dagroute_lint.config import Settings
from dagroute_lint.deployment.inventory import LOCAL_SETTINGS_MODULE, Inventory
from dagroute_lint.model import TASK_POLICY, ClusterPolicy, Condition, PolicyEffect, Unknown
from dagroute_lint.pipeline.world import World
from dagroute_lint.records import replace
from dagroute_lint.resolve.policies import SettingsPolicy
from dagroute_lint.sources.discovery import SourceFile, cwd_relative

FILENAME = f"{LOCAL_SETTINGS_MODULE}.py"


def settings_file(settings: Settings, inventory: Inventory | None) -> Path | None:
    """The ``airflow_local_settings.py`` the deployment imports, if the run can see one."""
    declared = inventory.local_settings if inventory is not None else None
    if isinstance(declared, str):
        return Path(declared)
    if declared is False:
        return None
    root = settings.root
    for folder in (*settings.roots, root, root / "config", root / "plugins"):
        candidate = folder / FILENAME
        if candidate.is_file():
            return candidate.resolve()
    return None


def read_policy(path: Path | None, world: World) -> tuple[SettingsPolicy | None, str]:
    """The cluster policy of the settings file at ``path``, and its identity for the result
    cache (its path and content): every task's routing depends on it."""
    if path is None:
        return None, ""
    source = SourceFile(str(cwd_relative(path)), str(path))
    data = world.read(source)
    if not isinstance(data, bytes):
        return None, f"{path}\0unreadable"
    # as Airflow imports it: by its module name, in the deployment's version and environment
    request = replace(world.request(source, data), module_name=LOCAL_SETTINGS_MODULE)
    module = world.extractor.extract([replace(request, is_package=False)])[0]
    identity = f"{path}\0{hashlib.sha256(data).hexdigest()}"
    problem = module.syntax_error
    if problem is not None:
        # Airflow cannot start with it; whatever it meant for routing is not known
        why = Unknown(f"{FILENAME} cannot be analysed: {problem.message}")
        effect = PolicyEffect(TASK_POLICY, Condition("true"), "*", why, problem.position.line)
        return SettingsPolicy(source.display, ClusterPolicy((effect,))), identity
    if module.policy is None:
        return None, identity
    return SettingsPolicy(source.display, module.policy), identity
