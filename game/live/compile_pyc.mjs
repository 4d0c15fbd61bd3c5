// Byte-compile Python sources with the page's own Python (the pinned Pyodide under Node), so the
// page imports the project's modules without compiling them (game/live/bytecode.py runs this).
// usage: node compile_pyc.mjs RUNTIME_DIR SRC_DIR OUT_DIR
// SRC_DIR holds the .py files (any tree); OUT_DIR receives the same tree of
// __pycache__/NAME.<cache tag>.pyc, unchecked-hash pycs (PEP 552: never compared with the source,
// which a built page never changes). Prints the cache tag.
import { readFileSync, readdirSync, mkdirSync, writeFileSync, statSync } from "node:fs";
import { join, resolve, dirname, relative } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, src, out] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(resolve(runtime), "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: resolve(runtime) + "/" });
const files = [];
(function walk(d) {
  for (const n of readdirSync(d).sort()) {
    const p = join(d, n);
    if (statSync(p).isDirectory()) walk(p); else if (n.endsWith(".py")) files.push(relative(src, p));
  }
})(src);
for (const f of files) {
  py.FS.mkdirTree("/src/" + dirname(f));
  py.FS.writeFile("/src/" + f, new Uint8Array(readFileSync(join(src, f))));
}
py.globals.set("FILES", py.toPy(files));
const done = py.runPython(`
import importlib.util, py_compile, sys
outs = []
for f in FILES:
    cfile = importlib.util.cache_from_source("/src/" + f)
    py_compile.compile("/src/" + f, cfile=cfile, dfile=f, doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    outs.append(cfile[len("/src/"):])
outs`).toJs();
for (const o of done) {
  mkdirSync(dirname(join(out, o)), { recursive: true });
  writeFileSync(join(out, o), py.FS.readFile("/src/" + o));
}
console.log(py.runPython("sys.implementation.cache_tag"));
