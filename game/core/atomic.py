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
from typing import Optional, Union


def refuse_link(path: Union[str, os.PathLike], name: Optional[str] = None) -> None:
    """Raise ``ValueError`` when ``path`` (its last part) is a symbolic link onto a file that
    exists: an output (a figure, a page, a GIF, a demo step, a book figure) is never written
    through a link onto an existing file, which it would replace (another scenario turned into
    PNG bytes). A link to a file not written yet, or a folder that is a link, is followed.
    ``name``: how the message names ``path`` (default: the path)."""
    p = Path(path)
    if not p.is_symlink():
        return
    target = os.path.realpath(p)
    if os.path.exists(target):
        raise ValueError(f"{name or p} is a link to the existing file {target}; an output is never written "
                         "through a link onto a file (remove the link or give another name)")


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
    made = make_folders(folder) if make_dirs else []
    try:
        fd, tmp = tempfile.mkstemp(prefix=tmp_prefix(path.name, folder), suffix=".tmp", dir=str(folder))
    except OSError as exc:  # name the file and folder the user asked for, not the temporary file
        remove_empty(made)
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
        remove_empty(made)  # a failed write (a full disk) leaves no empty folder behind
        raise


#: Letters ``mkstemp`` adds between the prefix and ``.tmp``.
_RANDOM_CHARS = 8


def tmp_prefix(name: str, folder: Union[str, os.PathLike] = ".") -> str:
    """The temporary file's prefix for a file ``name``: ``.NAME.``, its stem shortened (whole
    UTF-8 characters, the suffix kept) so that ``.NAME.XXXXXXXX.tmp`` fits the folder's longest
    file name (``NAME_MAX``, 255 bytes on most file systems): a file of a 242- to 255-byte name
    can be saved."""
    try:
        name_max = int(os.pathconf(str(folder) or ".", "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):
        name_max = 255
    room = name_max - 2 - _RANDOM_CHARS - len(".tmp")  # the leading and trailing dots
    if len(name.encode("utf-8")) <= room:
        return f".{name}."
    stem, dot, ext = name.rpartition(".")
    if not dot or len(ext.encode("utf-8")) > 16:
        stem, ext = name, ""
    keep = room - len(ext.encode("utf-8")) - (1 if ext else 0)
    short = stem.encode("utf-8")[:max(1, keep)].decode("utf-8", errors="ignore") or "f"
    return f".{short}.{ext}." if ext else f".{short}."


def make_folders(folder: Union[str, os.PathLike]) -> list[Path]:
    """Make ``folder`` and its missing parents; returns those made, outermost first (for
    :func:`remove_empty` after a failure). Raises ``OSError`` (none of them left behind)."""
    missing: list[Path] = []
    f = Path(folder)
    while str(f) not in ("", ".") and not f.exists() and not f.is_symlink():
        missing.append(f)
        if f.parent == f:
            break
        f = f.parent
    missing.reverse()
    made: list[Path] = []
    for m in missing:
        try:
            m.mkdir()
        except FileExistsError:
            continue  # made meanwhile by another writer: theirs, not ours
        except OSError:
            remove_empty(made)
            raise
        made.append(m)
    return made


def remove_empty(made: list[Path]) -> None:
    """Remove the folders ``made`` (by :func:`make_folders`), innermost first, while empty."""
    for m in reversed(made):
        try:
            m.rmdir()
        except OSError:
            return
