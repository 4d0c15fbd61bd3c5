"""The one atomic file writer: every file the program writes (scenarios, figures, exports).

:func:`write_atomic` writes to a temporary file in the target's folder, flushes and fsyncs it,
gives it the old file's permissions (or the usual ones under the umask), then renames it over
the target. An interrupted write leaves the old file whole and no temporary file behind.
"""
from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path
from typing import Union


def write_atomic(path: Union[str, os.PathLike], data: Union[bytes, str], *, make_dirs: bool = True) -> None:
    """Write ``data`` (bytes, or str encoded as UTF-8) to ``path`` atomically.

    ``make_dirs`` creates missing parent folders. A symlink is written through (its target
    replaced, the link kept). Raises ``OSError`` naming ``path`` (never the temporary file;
    a folder that is a dangling link is said to be one); the target is then untouched."""
    given = Path(path)
    path = Path(os.path.realpath(given)) if given.is_symlink() else given  # a link: write where it points
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    folder = path.parent if str(path.parent) else Path(".")
    for part in [folder, *folder.parents]:
        if part.is_symlink() and not part.exists():
            raise FileNotFoundError(errno.ENOENT, f"its folder {part} is a link to {os.path.realpath(part)}, "
                                                  "which does not exist", str(given))
    if make_dirs and not folder.exists():
        folder.mkdir(parents=True, exist_ok=True)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(folder))
    except OSError as exc:  # name the file and folder the user asked for, not the temporary file
        raise type(exc)(exc.errno, f"cannot create a file in the folder {folder} "
                                   f"({exc.strerror or exc})", str(given)) from None
    try:
        try:  # mkstemp makes the file private (0600): give it the old file's mode, or the usual one
            mode = path.stat().st_mode & 0o777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
