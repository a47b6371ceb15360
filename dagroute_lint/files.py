"""Write files atomically, so a reader or a crash never sees half of one."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_atomically(path: Path, data: bytes) -> None:
    """Write to a temporary file beside ``path``, then rename it over ``path``.

    A file that exists keeps its permission bits (the temporary file starts as owner-only).
    """
    directory = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        if path.exists():
            os.chmod(temporary, stat.S_IMODE(path.stat().st_mode))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
