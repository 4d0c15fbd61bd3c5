"""What the live page's tests share: the tools they need (skipped outside CI with one line saying
what to install; under CI, env ``CI`` set, a missing tool fails the test), building a live
folder, serving it on 127.0.0.1, the browser, and ``analyse --json`` of a board as CPython sees it."""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Iterator, Optional

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = ROOT / "node_modules" / "pyodide"
HEADLESS = ("/usr/lib/chromium/chromium-headless-shell",)


def need(ok: bool, what: str) -> None:
    """Skip (a developer's run) or fail (CI) when ``ok`` is false; ``what`` says what to install."""
    if ok:
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI needs {what}")
    pytest.skip(f"needs {what}")


def need_runtime() -> None:
    need((RUNTIME / "pyodide.asm.wasm").is_file(), "the pinned Pyodide: run `npm ci` at the project root")


def need_node() -> str:
    node = shutil.which("node")
    need(node is not None, "Node.js (`apt-get install -y nodejs npm`)")
    need_runtime()
    return str(node)


def chromium_path() -> Optional[str]:
    """Debian's chromium-headless-shell binary (the one ``dpkg -L chromium-headless-shell`` lists), or None."""
    for p in HEADLESS:
        if os.access(p, os.X_OK):
            return p
    try:
        listed = subprocess.run(["dpkg", "-L", "chromium-headless-shell"], capture_output=True, text=True).stdout
    except OSError:
        return None
    for line in listed.splitlines():
        if line.endswith("/chromium-headless-shell") and "/bin/" not in line and os.access(line, os.X_OK):
            return line
    return None


def need_browser() -> str:
    need_runtime()
    try:
        import playwright  # noqa: F401
    except ImportError:
        need(False, "playwright (`pip install -r requirements-live.txt`)")
    path = chromium_path()
    need(path is not None, "Debian's chromium-headless-shell (`apt-get install -y chromium-headless-shell`)")
    return str(path)


def build(scenario: Path, out: Path) -> Path:
    """``python main.py live scenario -o out`` (checked), the folder."""
    r = subprocess.run([sys.executable, "main.py", "live", str(scenario), "-o", str(out)], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-600:]
    return out


@contextlib.contextmanager
def serving(folder: Path) -> Iterator[str]:
    """The folder served on 127.0.0.1 (a free port) while the block runs; yields the address."""
    from game.cli.live_cmd import serve

    server = serve(folder, 0)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        t.join()


def analyse_json(path: Path) -> dict:
    """``analyse FILE --json`` in CPython (numpy present), parsed."""
    r = subprocess.run([sys.executable, "main.py", "analyse", str(path), "--json"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-600:]
    return json.loads(r.stdout)


# -- the browser (Playwright driving Debian's chromium-headless-shell) -----------------------------
#: the id of the first model whose base centre is not covered by a label (a press there grabs it)
GRABBABLE_JS = """(prefix => [...document.querySelectorAll('#board g.model')].filter(g => g.id.startsWith(prefix || '')).map(g => {
  const r = g.getBoundingClientRect(), hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return hit && hit.closest('g.model') === g ? g.id : null; }).find(x => x))"""


def grabbable(page, prefix: str = "") -> str:
    """The id of the first model group (its id starting ``prefix``) a press at its centre grabs."""
    gid = page.evaluate(GRABBABLE_JS, prefix)
    assert gid, f"no model {prefix}* can be grabbed at its centre"
    return gid
ROLES_JS = ("Object.fromEntries([...document.querySelectorAll('#board g.model')].map(g => "
            "[g.id, (g.getAttribute('class') || '').split(' ')[1] || 'none']))")


@pytest.fixture(scope="module")
def browser():
    """A chromium-headless-shell for the module's tests (skipped, or failed under CI, when missing)."""
    path = need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path)
        yield b
        b.close()


def open_page(browser, url: str, **context):
    """The page at ``url`` once its engine answered (or said why it cannot); ``context``: Playwright
    context options (``has_touch=True`` for a touch screen). Fails on a script error."""
    ctx = browser.new_context(viewport={"width": 1200, "height": 900}, **context)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_function("document.body.dataset.ready !== 'false'", timeout=90_000)
    assert not errors, errors
    page.errors = errors
    return page


def centre(page, gid: str) -> tuple[float, float]:
    box = page.locator(f"[id='{gid}']").first.bounding_box()
    assert box is not None, gid
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def tip_lines(page, gid: str) -> list[str]:
    """The hover text shown with the mouse over model group ``gid``."""
    x, y = centre(page, gid)
    page.mouse.move(x + 1, y + 1)
    page.mouse.move(x, y)
    return [ln for ln in page.locator("#tip").inner_text().splitlines() if ln.strip()]


def drag(page, gid: str, dx: float, dy: float, steps: int = 12) -> None:
    """A real mouse drag of model ``gid`` by ``(dx, dy)`` CSS px; waits for the drop's picture."""
    page.evaluate("delete document.body.dataset.dropMs")
    x, y = centre(page, gid)
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(1, steps + 1):
        page.mouse.move(x + dx * i / steps, y + dy * i / steps)
    page.mouse.up()
    page.wait_for_function("document.body.dataset.dropMs !== undefined", timeout=30_000)
