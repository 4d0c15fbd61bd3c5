// Run the rules engine inside the pinned Pyodide (Node) from a live folder's wheels, and print
// `analyse FILE --json`'s text for each scenario as one JSON object {file: text or {"error": ...}}.
// usage: node pyodide_analyse.mjs RUNTIME_DIR WHEELS_DIR SCENARIO...
//        node pyodide_analyse.mjs RUNTIME_DIR WHEELS_DIR --picture LIVE_FOLDER
//          (the live session's first picture, as the page starts it: {"svg": ..., "live": ...})
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, wheels, ...files] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(resolve(runtime), "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: resolve(runtime) + "/" });
for (const w of readdirSync(wheels).filter((n) => n.endsWith(".whl")).sort()) {
  py.unpackArchive(new Uint8Array(readFileSync(join(wheels, w))), "wheel");
}
py.runPython(`
import json, sys
import game
from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.core.arrays import USING_NUMPY
assert not USING_NUMPY
def analyse_text(path):
    try:
        b = load_scenario(path)
        return json.dumps(analyse(b, load_ruleset(b.ruleset)).to_json(), indent=1, allow_nan=False) + "\\n"
    except ImportError as exc:
        return {"error": f"ImportError: {exc.name}"}
`);
if (files[0] === "--picture") {
  const folder = files[1];
  const cfg = JSON.parse(readFileSync(join(folder, "live.json"), "utf8"));
  for (const f of [cfg.scenario, cfg.fonts]) py.FS.writeFile(f, new Uint8Array(readFileSync(join(folder, f))));
  py.globals.set("CONFIG", JSON.stringify(cfg));
  const session = py.runPython("from game.live.session import start\nstart(CONFIG)");
  process.stdout.write(session.picture());
  process.exit(0);
}
const out = {};
for (const f of files) {
  py.FS.writeFile("/tmp/s.yaml", new Uint8Array(readFileSync(f)));
  const r = py.globals.get("analyse_text")("/tmp/s.yaml");
  out[f] = typeof r === "string" ? r : r.toJs({ dict_converter: Object.fromEntries });
}
process.stdout.write(JSON.stringify(out));
