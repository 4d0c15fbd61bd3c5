"""The live page starts from bytecode: the wheels carry each module's ``.pyc`` for the page's own
Python (the pinned Pyodide's magic number and cache tag, unchecked-hash pycs beside the
sources), compiled once per set of sources (a cache), and a build without Node still gives a
working wheel of sources; the page's own unzip reads a wheel's files exactly as ``zipfile``."""
from __future__ import annotations

import base64
import json
import subprocess
import zipfile
from pathlib import Path

from game.live import bundle
from game.live.bytecode import compile_pyc
from game.live.page import _SCRIPT
from tests.live_support import RUNTIME, need_node, need_runtime

RUNTIME_JS = """
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
const runtime = process.argv[1];
const { loadPyodide } = await import(pathToFileURL(join(resolve(runtime), "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: resolve(runtime) + "/" });
console.log(py.runPython("import importlib.util, json, sys; json.dumps([importlib.util.MAGIC_NUMBER.hex(), sys.implementation.cache_tag])"));
"""


def _runtime_magic() -> tuple[bytes, str]:
    r = subprocess.run([need_node(), "--input-type=module", "-e", RUNTIME_JS, str(RUNTIME)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-800:]
    magic, tag = json.loads(r.stdout.strip().splitlines()[-1])
    return bytes.fromhex(magic), tag


def test_wheels_carry_the_runtimes_bytecode_for_every_module(tmp_path, monkeypatch):
    need_node()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    magic, tag = _runtime_magic()
    for whl in bundle.wheels(tmp_path, RUNTIME):
        with zipfile.ZipFile(whl) as z:
            names = set(z.namelist())
            sources = [n for n in names if n.endswith(".py")]
            assert sources, whl.name
            for src in sources:
                folder, _, stem = src.rpartition("/")
                pyc = f"{folder}/__pycache__/{stem[:-3]}.{tag}.pyc"
                assert pyc in names, pyc
                head = z.read(pyc)[:8]
                assert head[:4] == magic, pyc
                assert int.from_bytes(head[4:8], "little") == 0b01, pyc   # PEP 552: hash-based, unchecked


def test_compiled_once_per_set_of_sources(tmp_path, monkeypatch):
    need_node()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    sources = {"pkg/__init__.py": b"", "pkg/mod.py": b"X_MM = 25.0\n"}
    first = compile_pyc(RUNTIME, sources)
    assert len(first) == 2 and all(a.startswith("pkg/__pycache__/") and a.endswith(".pyc") for a in first)
    # the same sources again: from the cache, without Node
    assert compile_pyc(RUNTIME, sources, node=str(tmp_path / "no-node")) == first
    # changed sources: compiled again (no Node here, so none)
    assert compile_pyc(RUNTIME, {**sources, "pkg/mod.py": b"X_MM = 26.0\n"}, node=str(tmp_path / "no-node")) == {}


def test_without_node_the_wheel_holds_sources_only(tmp_path, monkeypatch):
    need_runtime()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(bundle, "compile_pyc", lambda runtime, sources: compile_pyc(runtime, sources, node=str(tmp_path / "no-node")))
    own, yml = bundle.wheels(tmp_path, Path(RUNTIME))
    names = zipfile.ZipFile(own).namelist()
    assert "game/live/session.py" in names
    assert not any(n.endswith(".pyc") for n in names)


def test_the_pages_unzip_reads_stored_and_deflated_entries(tmp_path):
    node = need_node()
    whl = tmp_path / "w.zip"
    files = {"a/b.py": b"A = 1\n" * 50, "a/__pycache__/b.tag.pyc": bytes(range(256)) * 3, "top.txt": "é".encode()}
    with zipfile.ZipFile(whl, "w") as z:
        z.writestr("a/", b"")   # a folder entry: skipped
        for i, (name, data) in enumerate(files.items()):
            z.writestr(zipfile.ZipInfo(name), data, compress_type=zipfile.ZIP_DEFLATED if i % 2 else zipfile.ZIP_STORED)
    fn = _SCRIPT[_SCRIPT.index("  async function unzip(buf){"):_SCRIPT.index("  async function boot(){")]
    js = fn + """
import { readFileSync } from "node:fs";
const b = readFileSync(process.argv[1]);
const out = await unzip(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
console.log(JSON.stringify(out.map(([n, d]) => [n, Buffer.from(d).toString("base64")])));
"""
    r = subprocess.run([node, "--input-type=module", "-e", js, str(whl)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-800:]
    got = {n: base64.b64decode(d) for n, d in json.loads(r.stdout)}
    assert got == files
