"""``--show-settings``: the settings and inventory that govern a file, and where each came from."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from dagroute_lint.config import Settings
from dagroute_lint.pipeline.targets import STDIN, plan


def describe_settings(
    paths: Sequence[str],
    config: Path | None,
    stdin_filename: str | None,
    flags: Callable[[Settings], Settings],
) -> str:
    """The resolved settings of the first path (or of stdin's file name, or of the working
    directory), one ``key = value`` line each, with the file and key or flag that set it."""
    first = stdin_filename if paths == (STDIN,) and stdin_filename else None
    given = [first] if first else list(paths[:1])
    settings = plan([] if first else given, config, first, flags)[0].settings
    origins = dict(settings.given)

    def origin(name: str) -> str:
        return origins.get(name, "default")

    inventory = settings.default_inventory()
    lines = [
        ("file", given[0] if given else ".", ""),
        ("project", str(settings.root), ""),
        ("settings file", str(settings.config_file or "none"), ""),
        ("extends", " -> ".join(str(path) for path in settings.extends) or "none", ""),
        ("inventory", str(inventory or "none"), settings.inventory_origin()),
        ("baseline", str(settings.baseline or "none"), origin("baseline")),
        ("selected", ", ".join(sorted(settings.selected_codes())), origin("selection")),
    ]
    for name in (
        "select",
        "extend_select",
        "ignore",
        "extend_ignore",
        "exclude",
        "extend_exclude",
        "force_exclude",
        "respect_gitignore",
        "dags",
        "roots",
        "dag_ignore_file_syntax",
        "max_file_size",
    ):
        value = getattr(settings, name)
        shown = (
            "[" + ", ".join(str(item) for item in value) + "]"
            if isinstance(value, tuple)
            else str(value).lower()
            if isinstance(value, bool)
            else str(value)
        )
        lines.append((name.replace("_", "-"), shown, origin(name)))
    patterns = ", ".join(
        f"{glob.pattern}: {' '.join(sorted(codes))}" for glob, codes in settings.per_file_ignores
    )
    lines.append(("per-file-ignores", patterns or "none", origin("per_file_ignores")))
    width = max(len(key) for key, _, _ in lines)
    return "".join(
        f"{key.ljust(width)}  {value}" + (f"  ({where})" if where else "") + "\n"
        for key, value, where in lines
    )
