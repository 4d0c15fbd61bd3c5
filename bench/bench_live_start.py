#!/usr/bin/env python3
"""The live page's start-up in a real browser: ms from opening to the first picture and to ready
(``document.body.dataset.ready`` set), per bundled scenario, with the folder's size.

    python bench/bench_live_start.py [--runs 5] [--only tow]

Builds each page (``python main.py live FILE -o DIR`` of the measured tree, ``BENCH_ROOT``
names another tree for a "before" figure, as in ``bench/compare.py``) for a few bundled
scenarios and a demo, serves it on 127.0.0.1, and opens it ``runs`` times in Debian's
chromium-headless-shell (Playwright), each time in a fresh browser context (an empty cache: a
reader's first visit). Beside each open it opens a bare page in the same folder that only loads
the Pyodide runtime from ``pyodide/``: its time is the machine's cost (load, neighbours), the
difference is ours.

Prints, per scenario, the medians (ms since the page was opened): first picture (the browser's
first contentful paint; the static figure is inline), ready, the bare runtime, and, when the
page marks them (``performance.mark("live:...")``, :mod:`game.live.page`), the phases:
runtime loaded, wheels and files unpacked, the package imported, the session started, the
first picture answered. Wall time in a browser: on a shared machine read the bare runtime
beside it. Needs ``npm ci``, playwright and chromium-headless-shell.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402 (puts the measured tree on sys.path)

ROOT = common.ROOT
HERE = Path(__file__).resolve().parents[1]
SCENARIOS = ("assets/scenarios/whfb8_initiative.yaml", "assets/scenarios/tow_round.yaml",
             "assets/scenarios/slots_flank.yaml", "assets/demos/whfb8_close_combat.yaml")
CHROMIUM = "/usr/lib/chromium/chromium-headless-shell"
PHASES = ("runtime", "wheels", "import", "session", "picture", "ready")
BARE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>bare</title></head>
<body data-ready="false"><p>bare Pyodide</p><script src="pyodide/pyodide.js"></script><script>
loadPyodide({indexURL:'pyodide/'}).then(function(py){py.runPython('1');performance.mark('live:ready');
document.body.dataset.ready='true';});</script></body></html>
"""
MARKS_JS = """() => {const o = {}; for (const e of performance.getEntriesByType('mark'))
  if (e.name.startsWith('live:')) o[e.name.slice(5)] = e.startTime;
  const p = performance.getEntriesByName('first-contentful-paint')[0]; if (p) o.paint = p.startTime;
  o.now = performance.now(); return o;}"""


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def open_once(browser, url: str) -> dict:
    """One cold open of ``url``: ``{phase: ms since opening}`` (``ready`` always)."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_function("document.body.dataset.ready !== 'false'", timeout=120_000)
        got = page.evaluate(MARKS_JS)
        if page.evaluate("document.body.dataset.ready") == "failed":
            raise RuntimeError(f"{url}: the page failed to start")
        got.setdefault("ready", got["now"])   # a page without marks: when the wait saw it
        return got
    finally:
        ctx.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", default="", help="scenario paths containing this")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(HERE))
    from game.cli.live_cmd import serve

    env = dict(os.environ, XDG_DATA_HOME=os.environ.get("XDG_DATA_HOME") or tempfile.mkdtemp(prefix="bench-xdg-"))
    print(f"tree {ROOT}; {args.runs} cold opens each; medians in ms since opening")
    with tempfile.TemporaryDirectory(prefix="live-start-") as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM)
        for rel in SCENARIOS:
            if args.only not in rel:
                continue
            out = Path(tmp) / Path(rel).stem
            r = subprocess.run([sys.executable, "main.py", "live", rel, "-o", str(out)], cwd=ROOT, env=env,
                               capture_output=True, text=True)
            if r.returncode:
                print(f"{rel}: build failed: {r.stderr.strip()[-300:]}", file=sys.stderr)
                return 1
            size_mb = folder_size(out) / 1e6
            (out / "bare.html").write_text(BARE, encoding="utf-8")
            server = serve(out, 0)
            t = threading.Thread(target=server.serve_forever, daemon=True)
            t.start()
            base = f"http://127.0.0.1:{server.server_port}/"
            rows: list[dict] = []
            bare: list[float] = []
            try:
                for _ in range(args.runs):
                    bare.append(open_once(browser, base + "bare.html")["ready"])
                    rows.append(open_once(browser, base + "index.html"))
            finally:
                server.shutdown()
                server.server_close()
                t.join()

            def med(key: str) -> str:
                vals = [row[key] for row in rows if key in row]
                return f"{statistics.median(vals):6.0f}" if vals else "     -"
            phases = "  ".join(f"{p} {med(p)}" for p in PHASES[:-1])
            print(f"{Path(rel).stem:28s} {size_mb:5.1f} MB  picture {med('paint')}  ready {med('ready')}  "
                  f"(worst {max(row['ready'] for row in rows):6.0f})  bare runtime {statistics.median(bare):6.0f}")
            print(f"{'':28s} phases: {phases}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
