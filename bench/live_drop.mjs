// The live page's drop -> picture in the pinned Pyodide (Node): for each live folder given, start the
// page's session as the page does and time begin + drag + drop (the exact analysis and SVG of the
// release) on a unit dragged by a fresh random offset each time. Prints one JSON line per folder.
// usage: node bench/live_drop.mjs RUNTIME_DIR RUNS SEED FOLDER...
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, runs, seed, ...folders] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(resolve(runtime), "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: resolve(runtime) + "/" });
const wheels = join(folders[0], "wheels");
for (const w of readdirSync(wheels).filter((n) => n.endsWith(".whl")).sort()) {
  py.unpackArchive(new Uint8Array(readFileSync(join(wheels, w))), "wheel");
}
py.runPython(`
import json, os, random, statistics, time
import game
from game.live.session import start
def bench(config, runs, seed):
    s = start(config)
    first = json.loads(s.picture())
    if not first.get("live"):
        return {"live": False, "why": first.get("why", "")}
    rnd = random.Random(seed)
    ms = []
    for _ in range(runs):
        s.reset()
        uid = rnd.choice(s.board.units).id
        t = time.perf_counter()
        s.begin(uid); s.drag(rnd.uniform(-40, 40), rnd.uniform(-40, 40), False); s.drop()
        ms.append((time.perf_counter() - t) * 1000)
    return {"live": True, "median_ms": round(statistics.median(ms), 1), "max_ms": round(max(ms), 1), "runs": runs}
`);
for (const folder of folders) {
  const cfg = JSON.parse(readFileSync(join(folder, "live.json"), "utf8"));
  const here = "/b/" + folder.replace(/[^A-Za-z0-9]/g, "_");
  py.FS.mkdirTree(here + "/steps");
  for (const f of [cfg.scenario, cfg.fonts, ...(cfg.steps || []).map((s) => s.scenario).filter(Boolean)]) {
    py.FS.writeFile(here + "/" + f, new Uint8Array(readFileSync(join(folder, f))));
  }
  py.runPython(`os.chdir(${JSON.stringify(here)})`);
  const r = py.globals.get("bench")(JSON.stringify(cfg), Number(runs), Number(seed));
  console.log(JSON.stringify({ folder, ...r.toJs({ dict_converter: Object.fromEntries }) }));
}
