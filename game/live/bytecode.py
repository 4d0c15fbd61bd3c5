"""The page's Python modules byte-compiled at build time, so the page imports without compiling.

In the browser, compiling the project's sources (and PyYAML's) took most of the time from the
runtime being loaded to the first answer (about 1.5 s of 2 s on a loaded 2-core machine);
imported from bytecode the same modules take a fifth of it. The bytecode must be the page's own
Python's (Pyodide's, not the build's CPython), so :func:`compile_pyc` runs ``compile_pyc.mjs`` in
the pinned Pyodide under Node.

The ``.pyc`` files are unchecked-hash pycs (PEP 552) in ``__pycache__`` beside the sources: the
page's Python never compares them with the sources (a built page never changes) and the sources
stay in the wheel for tracebacks. Results are kept in a cache keyed by the runtime's version
and the sources' bytes (``$XDG_CACHE_HOME/melee-lens/pyc``, else ``~/.cache``), so only the
first build after a change of code pays for Node. Without Node, or when it fails, the wheel
holds the sources only (the page works, it starts slower): :func:`compile_pyc` returns ``{}``.
"""
from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path
from typing import Optional

SCRIPT = Path(__file__).with_name("compile_pyc.mjs")


def cache_dir() -> Path:
    """Where compiled sets are kept (``$XDG_CACHE_HOME/melee-lens/pyc``, else ``~/.cache/...``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "melee-lens" / "pyc"


def _key(runtime: Path, sources: dict[str, bytes]) -> str:
    h = hashlib.sha256((runtime / "package.json").read_bytes() if (runtime / "package.json").is_file() else b"")
    h.update((runtime / "pyodide-lock.json").read_bytes())
    for arc in sorted(sources):
        h.update(arc.encode() + b"\0" + hashlib.sha256(sources[arc]).digest())
    return h.hexdigest()[:32]


def compile_pyc(runtime: Path, sources: dict[str, bytes], node: Optional[str] = None) -> dict[str, bytes]:
    """``{archive path of a .pyc: bytes}`` for ``sources`` ``{archive path of a .py: bytes}``,
    compiled by the Pyodide in ``runtime`` (the npm package folder); ``{}`` when Node is missing
    or the compile fails (never raises for that)."""
    sources = {a: b for a, b in sources.items() if a.endswith(".py")}
    if not sources:
        return {}
    key = _key(runtime, sources)
    cached = cache_dir() / f"{key}.zip"
    try:
        with zipfile.ZipFile(cached) as z:
            return {n: z.read(n) for n in z.namelist()}
    except (OSError, zipfile.BadZipFile):
        pass
    node = node or shutil.which("node")
    if node is None:
        return {}
    with tempfile.TemporaryDirectory(prefix="melee-pyc-") as tmp:
        src, out = Path(tmp) / "src", Path(tmp) / "out"
        for arc, data in sources.items():
            (src / arc).parent.mkdir(parents=True, exist_ok=True)
            (src / arc).write_bytes(data)
        try:
            r = subprocess.run([node, str(SCRIPT), str(runtime), str(src), str(out)], capture_output=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired):
            return {}
        if r.returncode or not out.is_dir():
            return {}
        got = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.pyc"))}
    if len(got) != len(sources):
        return {}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for arc in sorted(got):
            z.writestr(arc, got[arc])
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        part = cached.with_suffix(f".{os.getpid()}.part")
        part.write_bytes(buf.getvalue())
        os.replace(part, cached)
    except OSError:
        pass   # no cache: the next build compiles again
    return got
