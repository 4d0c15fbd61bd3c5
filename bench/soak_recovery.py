"""Soak: scripted editing sessions killed with kill -9 at random points (issue 26).

    python bench/soak_recovery.py [--sessions 200] [--parallel 4] [--autosave-s 0.25] [--seed 1]

Each session is a child process editing a copy of a scenario through the window's document
(:class:`game.window.session.Session`: the same autosave code the window runs), two sessions
at a time on the same file. Edits are undoable moves and turns and drags (the board changed
without a history entry); after every edit the child ticks the autosave and, after each
autosave that returned, appends ``<edit number> <time>`` to its journal (fsynced). The edit
number is in the board's title, so the recovery file says which edit it holds. The parent
kills each child with SIGKILL at a random moment, then checks:

* **nothing autosaved is lost**: the child's recovery file exists and holds the last journaled
  edit or a later one (killed between the write and the journal line);
* **no session's recovery file is overwritten by another's**: each file's header names its own
  session, and both sessions of a pair have their own file;
* **no temporary file is left behind** once a new session starts (stale ones are cleaned).

Prints the numbers (sessions, kills, losses, overwrites, leftover temporary files before and
after the clean-up, the largest stretch of edits not yet autosaved at the kill). Randomness
from ``--seed``. Not part of the test suite (it runs for minutes).
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"

CHILD = r"""
import dataclasses, os, random, sys, time
sys.path.insert(0, {root!r})
from game.core.editor import Editor
from game.core.scenario import load_scenario
from game.window.session import Session
path, rec, journal, seed, every = {path!r}, {rec!r}, {journal!r}, {seed!r}, {every!r}
r = random.Random(seed)
s = Session(load_scenario(path), path, out_dir=rec, autosave_every_s=every, recent_file=None)
fd = os.open(journal, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
os.write(fd, f"session {{s.session_id}} {{s.autosave_path}}\n".encode()); os.fsync(fd)
ed = Editor()
ids = [u.id for u in s.board.units]
n = 0
while True:
    n += 1
    uid = r.choice(ids)
    kind = r.random()
    if kind < 0.4:  # a drag: the board changes, no history entry yet
        ch = ed.forward(s.board, uid, r.uniform(-3, 3))
        if ch.ok:
            moved = ch.board.unit(uid)
            s.board = dataclasses.replace(s.board, units=[moved if u.id == uid else u for u in s.board.units])
    elif kind < 0.8:
        ch = ed.turn(s.board, uid, r.uniform(-5, 5))
        if ch.ok:
            s.apply(ch.board)
    else:
        s.undo() if r.random() < 0.5 else s.redo()
    s.board = dataclasses.replace(s.board, title=f"edit {{n}}")
    p = s.tick()
    if p is not None:
        os.write(fd, f"{{n}} {{time.time():.3f}}\n".encode()); os.fsync(fd)
    time.sleep(r.uniform(0, 0.01))
"""


def run_pair(i: int, work: Path, rng: random.Random, every: float) -> dict:
    """Two sessions on one file, each killed at its own random moment; returns the findings."""
    d = work / f"pair{i}"
    d.mkdir()
    f = d / "battle.yaml"
    shutil.copy(SCENARIO, f)
    rec = d / "recovery"
    procs = []
    for k in range(2):
        j = d / f"journal{k}.txt"
        code = CHILD.format(root=str(ROOT), path=str(f), rec=str(rec), journal=str(j), seed=rng.random(), every=every)
        procs.append((subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE), j, rng.uniform(0.05, 2.0)))
    for p, j, _ in procs:  # the clock starts once both children edit (imports take a while)
        while p.poll() is None and not (j.exists() and j.read_text().count("\n") >= 1):
            time.sleep(0.005)
    start = time.monotonic()
    kill_at = {}
    for p, j, after in sorted(procs, key=lambda x: x[2]):
        while time.monotonic() - start < after and p.poll() is None:
            time.sleep(0.002)
        kill_at[j] = time.time()
        p.send_signal(signal.SIGKILL)
        p.wait()
    out = {"sessions": 2, "lost": 0, "overwritten": 0, "no_autosave_yet": 0, "unsaved_s": [], "errors": []}
    from game.core.scenario import load_scenario
    from game.window import recovery

    files = []
    for p, j, _ in procs:
        lines = j.read_text().splitlines() if j.exists() else []
        if not lines:
            out["no_autosave_yet"] += 1
            continue
        _, sid, auto = lines[0].split(" ", 2)
        saves = [ln.split() for ln in lines[1:] if ln.strip()]
        if not saves:
            out["no_autosave_yet"] += 1
            continue
        last_n, last_t = int(saves[-1][0]), float(saves[-1][1])
        out["unsaved_s"].append(kill_at[j] - last_t)
        ap = Path(auto)
        head = recovery.read_header(ap)
        if head is None:
            out["lost"] += 1
            out["errors"].append(f"{ap.name}: missing or not a recovery file")
            continue
        if head.session != sid:
            out["overwritten"] += 1
        files.append(ap)
        try:
            held = int(load_scenario(ap).title.split()[1])
        except Exception as exc:  # noqa: BLE001
            out["lost"] += 1
            out["errors"].append(f"{ap.name}: {exc}")
            continue
        if held < last_n:
            out["lost"] += 1
            out["errors"].append(f"{ap.name}: holds edit {held}, journal says {last_n}")
    if len(set(files)) != len(files):
        out["overwritten"] += 1
    tmp_before = [p for p in list(rec.glob(".*.tmp")) + list(d.glob(".*.tmp"))]
    from game.window.session import Session

    Session(load_scenario(f), f, out_dir=rec, wall=lambda: time.time() + 120, recent_file=None)  # a later start
    tmp_after = [p for p in list(rec.glob(".*.tmp")) + list(d.glob(".*.tmp"))]
    out["tmp_before"], out["tmp_after"] = len(tmp_before), len(tmp_after)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=200)
    ap.add_argument("--parallel", type=int, default=2, help="pairs run at once")
    ap.add_argument("--autosave-s", type=float, default=0.25, help="the autosave interval (scaled down from 10 s)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="soak-recovery-"))
    os.environ["XDG_DATA_HOME"] = str(work / "data")
    pairs = max(1, args.sessions // 2)
    total = {"sessions": 0, "lost": 0, "overwritten": 0, "no_autosave_yet": 0, "tmp_before": 0, "tmp_after": 0}
    unsaved, errors = [], []
    from concurrent.futures import ThreadPoolExecutor

    seeds = [random.Random(rng.random()) for _ in range(pairs)]
    t0 = time.monotonic()
    with ThreadPoolExecutor(max_workers=args.parallel) as ex:
        for res in ex.map(lambda i: run_pair(i, work, seeds[i], args.autosave_s), range(pairs)):
            for k in total:
                total[k] += res[k]
            unsaved += res["unsaved_s"]
            errors += res["errors"]
    print(f"soak: {total['sessions']} sessions killed with SIGKILL at random points ({pairs} pairs on shared files), "
          f"autosave every {args.autosave_s:g} s, {time.monotonic() - t0:.0f} s")
    print(f"  lost autosaved work: {total['lost']}; recovery files overwritten by another session: "
          f"{total['overwritten']}; killed before a first autosave: {total['no_autosave_yet']}")
    if unsaved:
        unsaved.sort()
        print(f"  edits not yet autosaved at the kill: median {unsaved[len(unsaved) // 2]:.2f} s, "
              f"max {unsaved[-1]:.2f} s (the interval is {args.autosave_s:g} s plus one edit)")
    print(f"  temporary files left by the kills: {total['tmp_before']}; after the next start: {total['tmp_after']}")
    for e in errors[:10]:
        print("  ", e)
    shutil.rmtree(work, ignore_errors=True)
    return 1 if total["lost"] or total["overwritten"] or total["tmp_after"] else 0


if __name__ == "__main__":
    sys.exit(main())
