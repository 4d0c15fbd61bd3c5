"""Hostile inputs: no input crashes, hangs or loses data (alias bombs, numbers a table cannot
hold, untyped optional keys, ruleset ids that are paths, control characters, book option
blocks, files that are not regular files, command-line values, signals, saves;
bench/hostile_inputs.py runs such files under a memory limit).

Each bad input ends with exit status 2 and one line on stderr naming the file (and, where the
file has one, the line and field), within seconds; each save keeps what the user wrote."""
import dataclasses
import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import main
from game.core.scenario import ScenarioError, load_scenario, parse_scenario, save_scenario
from game.core.savefile import SaveError

ROOT = Path(__file__).resolve().parents[1]
GOOD = """title: t
ruleset: wh40k
units:
  - id: a
    player: 1
    base: 32
    models: [[400, 300], [440, 300]]
  - id: b
    player: 2
    base: 32
    models: [[400, 333]]
"""
RANKED = """title: ranked
ruleset: whfb8
units:
  - id: dwarfs
    player: 1
    base: [20, 20]
    files: 5
    models: 15
    front: [600, 400]
    facing: 0
  - id: goblins
    player: 2
    base: [20, 20]
    files: 5
    models: 12
    front: [600, 400]
    facing: 180
"""


def alias_bomb(levels: int = 9, width: int = 10) -> str:
    """Nine nested levels of ten aliases: about 646 bytes, 10**9 leaves if expanded."""
    lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def one_line_error(capsys, code: int, *needles: str) -> str:
    err = capsys.readouterr().err
    assert code == 2, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err and len(lines[0]) < 1600
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


def run(*args, **kw):
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], capture_output=True, text=True,
                          timeout=kw.pop("timeout", 60), cwd=kw.pop("cwd", ROOT), **kw)


# ----- the alias bomb ---------------------------------------------------------------------------
def test_alias_bomb_in_facing_fails_fast_in_one_line(tmp_path):
    bomb = alias_bomb()
    assert 550 < len(bomb.encode()) < 700
    p = tmp_path / "bomb.yaml"
    p.write_text(bomb + RANKED.replace("    facing: 0", "    facing: *l8"))
    out = run("analyse", str(p), "--json", timeout=30)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.count("\n") == 1 and len(out.stderr) < 400, out.stderr
    assert "units[0].facing" in out.stderr and ":" in out.stderr


@pytest.mark.parametrize("where", ["    facing: 0", "    files: 5", "title: ranked", "    front: [600, 400]"])
def test_alias_bomb_anywhere_is_one_short_line(where):
    key = where.split(":")[0]
    text = alias_bomb() + RANKED.replace(where, f"{key}: *l8", 1)
    with pytest.raises(ScenarioError) as e:
        parse_scenario(text, "bomb.yaml")
    assert len(str(e.value)) < 400 and "\n" not in str(e.value)


def test_alias_bomb_kept_as_unknown_key_saves_without_expanding(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(alias_bomb() + RANKED)
    board = load_scenario(p)
    board = dataclasses.replace(board, title="changed")
    save_scenario(board, p)  # the three-way merge compares shared data once per pair
    text = p.read_text()
    assert "*l7" in text and "title: changed" in text and len(text) < 2000


# ----- numbers a table cannot hold ----------------------------------------------------------------
@pytest.mark.parametrize("old,new,field", [
    ("models: [[400, 333]]", "models: [[400, 9223372036854775808]]", "units[1].models[0][1]"),
    ("title: t", "title: t\ntable: {width: 1e308, height: 800}", "table.width"),
    ("    base: 32\n    models: [[400, 333]]", "    base: 1e15\n    models: [[400, 333]]", "units[1].base"),
    ("    base: 32\n    models: [[400, 333]]", "    base: 1.0e+308\n    models: [[400, 333]]", "units[1].base"),
    ("models: [[400, 333]]", "models: [[.nan, 333]]", "units[1].models[0][0]"),
    ("models: [[400, 333]]", "models: [[.inf, 333]]", "units[1].models[0][0]"),
])
def test_unbounded_numbers_are_refused(tmp_path, capsys, old, new, field):
    p = tmp_path / "s.yaml"
    p.write_text(GOOD.replace(old, new))
    one_line_error(capsys, main.main(["analyse", str(p), "--json"]), field, str(p))


def test_huge_slots_base_is_refused_not_nan_json(tmp_path, capsys):
    p = tmp_path / "s.yaml"
    p.write_text(RANKED.replace("whfb8", "slots").replace("base: [20, 20]\n    files: 5\n    models: 12",
                                                           "base: [1e308, 20]\n    files: 5\n    models: 12"))
    one_line_error(capsys, main.main(["analyse", str(p), "--json"]), "units[1].base[0]")


# ----- optional keys are typed ---------------------------------------------------------------------
@pytest.mark.parametrize("extra,field", [
    ("context: {destroyed: 5}", "context.destroyed"),
    ("context: {destroys: {a: 5}}", "context.destroys.a"),
    ("context: {fought: 5}", "context.fought"),
    ("context: {combats: [[a]]}", "context.combats[0]"),
    ("context: {combats: 3}", "context.combats"),
    ("context: {charged: [zz]}", "context.charged[0]"),
    ("context: {charge_moved: {a: -3}}", "context.charge_moved.a"),
    ("context: {charge_moved: {a: .nan}}", "context.charge_moved.a"),
    ("context: {disordered: a}", "context.disordered"),
    ("context: {round_winner: [a]}", "context.round_winner"),
    ("context: {objectives: [[1e400, 0]]}", "context.objectives[0][0]"),
])
def test_optional_context_keys_are_typed(tmp_path, capsys, extra, field):
    p = tmp_path / "s.yaml"
    p.write_text(GOOD + extra + "\n")
    one_line_error(capsys, main.main(["analyse", str(p), "--json"]), field)


@pytest.mark.parametrize("key,value,field", [
    ("embarked_in", "[b]", "units[0].embarked_in"),
    ("embarked_in", "a", "units[0].embarked_in"),
    ("troop_type", "dragon", "units[0].troop_type"),
    ("weapon", "[lance]", "units[0].weapon"),
    ("name", "\"a\\0b\"", "units[0].name"),
    ("keywords", "[\"x\\x07\"]", "units[0].keywords[0]"),
    ("profile", "{movement: .inf}", "units[0].profile.movement"),
    ("profile", "{wounds: [1]}", "units[0].profile.wounds"),
])
def test_optional_unit_keys_are_typed(tmp_path, capsys, key, value, field):
    p = tmp_path / "s.yaml"
    p.write_text(GOOD.replace("  - id: a\n", f"  - id: a\n    {key}: {value}\n"))
    one_line_error(capsys, main.main(["analyse", str(p), "--json"]), field, ":5:")


def test_valid_optional_keys_still_load():
    board = parse_scenario(GOOD.replace("  - id: a\n", "  - id: a\n    embarked_in: b\n")
                           + "context: {destroyed: [b], destroys: {a: [b]}, fought: [a], combats: [[a, b]], "
                             "round_winner: a, charge_moved: {a: 7}, disordered: [a]}\n", "ok.yaml")
    assert board.context["destroys"] == {"a": ["b"]} and board.unit("a").extra["embarked_in"] == "b"


# ----- ruleset ids are registry names, never paths ----------------------------------------------------
@pytest.mark.parametrize("rid", ["../../x", "/etc/passwd", "whfb8.yaml", "nope", "", "WHFB8"])
def test_cli_ruleset_is_a_registry_id(tmp_path, capsys, rid):
    p = tmp_path / "s.yaml"
    p.write_text(RANKED)
    one_line_error(capsys, main.main(["analyse", str(p), "--ruleset", rid]), "shipped rulesets")
    one_line_error(capsys, main.main(["render", str(p), "-o", str(tmp_path / "o.png"), "--ruleset", rid]),
                   "shipped rulesets")
    one_line_error(capsys, main.main(["analyse", str(p), "--compare", f"whfb8,{rid or 'x/y'}"]), "shipped rulesets")


@pytest.mark.parametrize("rid", ["../x", "rulesets/whfb8", "../../../../etc/hostname"])
def test_scenario_demo_and_book_ruleset_is_a_registry_id(tmp_path, capsys, rid):
    s = tmp_path / "s.yaml"
    s.write_text(RANKED.replace("ruleset: whfb8", f"ruleset: {json.dumps(rid)}"))
    one_line_error(capsys, main.main(["analyse", str(s)]), "ruleset", ":2:")
    s.write_text(RANKED)
    d = tmp_path / "d.yaml"
    d.write_text(f"title: d\nsteps:\n  - caption: c\n    actions:\n      - load: s.yaml\n      - ruleset: {json.dumps(rid)}\n")
    one_line_error(capsys, main.main(["demo", str(d), "--export", str(tmp_path / "out")]), "ruleset", ":6:")
    b = tmp_path / "b.yaml"
    b.write_text(f"figures:\n  - {{scenario: s.yaml, output: a.png, options: {{ruleset: {json.dumps(rid)}}}}}\n")
    one_line_error(capsys, main.main(["render-book", str(b), "-o", str(tmp_path / "book"), "--quiet"]), "ruleset")


# ----- control characters -------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["\\0", "\\x1b[31m", "\\x07", "\\u2028"])
def test_control_characters_in_text_are_refused(tmp_path, capsys, bad):
    s = tmp_path / "s.yaml"
    s.write_text(RANKED.replace("title: ranked", f'title: "a{bad}b"'))
    one_line_error(capsys, main.main(["render", str(s), "-o", str(tmp_path / "o.svg")]), "title", ":1:")
    assert not (tmp_path / "o.svg").exists()
    s.write_text(RANKED)
    d = tmp_path / "d.yaml"
    d.write_text(f'title: d\nsteps:\n  - caption: "x{bad}y"\n    actions:\n      - load: s.yaml\n')
    one_line_error(capsys, main.main(["demo", str(d), "--export", str(tmp_path / "out")]), "steps[0].caption", ":3:")
    one_line_error(capsys, main.main(["render", str(s), "-o", str(tmp_path / "o.svg"), "--title",
                                      bad.encode().decode("unicode_escape")]), "--title")


# ----- book files --------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,field", [
    ("defaults: [size]\nfigures:\n  - {scenario: s.yaml, output: a.png}\n", "defaults"),
    ("defaults: 5\nfigures:\n  - {scenario: s.yaml, output: a.png}\n", "defaults"),
    ("figures:\n  - {scenario: s.yaml, output: a.png, options: [crop]}\n", "figures[0].options"),
    ("figures:\n  - {scenario: s.yaml, output: a.png, options: x}\n", "figures[0].options"),
    ("figures:\n  - {scenario: s.yaml, output: a.png, options: {compare: 'whfb8,../x'}}\n", "compare"),
    ("title: \"a\\0\"\nfigures:\n  - {scenario: s.yaml, output: a.png}\n", "title"),
])
def test_book_option_blocks_must_be_mappings(tmp_path, capsys, text, field):
    (tmp_path / "s.yaml").write_text(RANKED)
    b = tmp_path / "b.yaml"
    b.write_text(text)
    one_line_error(capsys, main.main(["render-book", str(b), "-o", str(tmp_path / "out"), "--quiet"]), field)


def test_book_output_never_escapes_its_folder_through_a_link(tmp_path, capsys):
    (tmp_path / "s.yaml").write_text(RANKED)
    out, outside = tmp_path / "out", tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    (out / "sub").symlink_to(outside, target_is_directory=True)
    (out / "f.png").symlink_to(outside / "f.png")
    for target in ("sub/a.png", "f.png"):
        b = tmp_path / "b.yaml"
        b.write_text(f"figures:\n  - {{scenario: s.yaml, output: {target}}}\n")
        one_line_error(capsys, main.main(["render-book", str(b), "-o", str(out), "--quiet"]), "figures[0]")
    assert list(outside.iterdir()) == []


# ----- files that are not regular files -------------------------------------------------------------------
def test_fifo_and_devices_fail_fast(tmp_path, capsys):
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    out = run("analyse", str(fifo), timeout=20)  # in a child first: a regression would hang, not block the suite
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "regular file" in out.stderr, out.stderr
    for path in (str(fifo), "/dev/zero", str(tmp_path)):
        for cmd in (["analyse", path], ["render", path, "-o", str(tmp_path / "x.png")],
                    ["demo", path, "--export", str(tmp_path / "o")], ["render-book", path, "-o", str(tmp_path / "b")]):
            line = one_line_error(capsys, main.main(cmd), path)
            assert "regular file" in line or "folder" in line


def test_an_empty_file_name_or_a_nul_in_it_is_one_line(capsys):
    one_line_error(capsys, main.main(["analyse", ""]), "no file name")
    one_line_error(capsys, main.main(["analyse", "a\0b.yaml"]), "not a valid file name")


def test_too_large_file_fails_fast(tmp_path, capsys):
    p = tmp_path / "big.yaml"
    with open(p, "wb") as fh:
        fh.truncate(9 * 1024 * 1024)
    one_line_error(capsys, main.main(["analyse", str(p)]), "too large")


# ----- command-line values ------------------------------------------------------------------------------
@pytest.mark.parametrize("size", ["12000x12000", "0x0", "-1x5", "100000x100000", "1e3x800", "x", "800x600x2"])
def test_demo_size_values(tmp_path, capsys, size):
    demo = ROOT / "assets" / "demos" / "slots_large_model.yaml"
    one_line_error(capsys, main.main(["demo", str(demo), "--export", str(tmp_path / "o"), f"--size={size}"]), "--size")
    one_line_error(capsys, main.main(["demo", str(demo), "--frames", "1", f"--size={size}"]), "--size")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("seconds", ["nan", "inf", "-1", "0", "1e9"])
def test_demo_gif_seconds_values(tmp_path, capsys, seconds):
    demo = ROOT / "assets" / "demos" / "slots_large_model.yaml"
    one_line_error(capsys, main.main(["demo", str(demo), "--gif", str(tmp_path / "d.gif"), f"--seconds={seconds}"]),
                   "--seconds")


@pytest.mark.parametrize("opt", [["--dpi", "0"], ["--font-scale", "nan"], ["--crop-margin", "inf"],
                                 ["--width", "100000", "--height", "5"], ["--time-budget", "nan"]])
def test_render_option_values(tmp_path, capsys, opt):
    s = tmp_path / "s.yaml"
    s.write_text(RANKED)
    one_line_error(capsys, main.main(["render", str(s), "-o", str(tmp_path / "o.png"), *opt]))


def test_render_refuses_to_overwrite_its_input(tmp_path, capsys):
    s = tmp_path / "s.png"  # a scenario that happens to be called .png
    s.write_text(RANKED)
    one_line_error(capsys, main.main(["render", str(s), "-o", str(s)]), "input")
    link = tmp_path / "l.png"
    link.symlink_to(s)
    one_line_error(capsys, main.main(["render", str(s), "-o", str(link)]), "input")
    assert s.read_text() == RANKED


# ----- clean exits --------------------------------------------------------------------------------------
def test_broken_pipe_ends_quietly(tmp_path):
    s = tmp_path / "s.yaml"
    s.write_text(RANKED.replace("models: 15", "models: 1000").replace("models: 12", "models: 1000"))
    proc = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "analyse", str(s), "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    proc.stdout.read(10)
    proc.stdout.close()  # the reader goes away, as `| head -c 10` does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) in (0, 141) and "Traceback" not in err and "BrokenPipe" not in err, err


def _big_table(tmp_path) -> Path:
    """A tangled table that takes seconds to analyse (units strewn over each other)."""
    import random

    rng = random.Random(5)
    lines = ["ruleset: t9a", "units:"]
    for i in range(202):
        lines.append(f"  - {{id: u{i}, player: {1 + i % 2}, base: [20, 20], files: 5, models: 13, "
                     f"front: [{rng.uniform(0, 1200):.1f}, {rng.uniform(0, 800):.1f}], facing: {rng.choice([0, 90, 180, 270])}}}")
    p = tmp_path / "big.yaml"
    p.write_text("\n".join(lines) + "\n")
    return p


def test_time_budget_stops_a_long_analysis_with_one_line(tmp_path):
    p = _big_table(tmp_path)
    out = run("analyse", str(p), "--json", "--time-budget", "0.3", timeout=60)
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr, out.stderr
    assert "time budget" in out.stderr.splitlines()[-1]


@pytest.mark.parametrize("sig,code,word", [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")])
def test_signals_end_a_command_cleanly(tmp_path, sig, code, word):
    p = _big_table(tmp_path)
    # the child starts with the signal's default disposition: a runner started in the background of a
    # script (`.ci/run &`) passes SIGINT on ignored, and the command rightly leaves an ignored signal alone
    proc = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "analyse", str(p), "--json", "--time-budget", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            preexec_fn=lambda: signal.signal(sig, signal.SIG_DFL))
    first = proc.stderr.readline()  # the overlap warning: the handlers are installed, analysis under way
    assert first.startswith("warning:"), first
    proc.send_signal(sig)
    out, rest = proc.communicate(timeout=60)  # (both pipes read: a child that went on to print cannot block)
    assert proc.returncode == code, rest
    assert word in rest and "Traceback" not in rest and out == ""


# ----- saving loses nothing -------------------------------------------------------------------------------
LOSSLESS = """# my battle, keep this comment
title: 'Lossless'   # and this one
ruleset: wh40k
seed: 7
table: {width: 1.2e3, height: 800.0}
my_notes: {who: me, when: 2026-01-01}
terrain:
  - {name: rock, kind: impassable, points: [[0, 0], [10, 0], [0, 10]], colour: grey}
units:
  - id: a
    player: 1
    base: 32
    painted: true          # unknown unit key
    models:
      - [400.123456789, 300]
      - {at: [440, 300], base: 40, nickname: sarge}
  - id: b
    player: 2
    base: 32
    models: [[400, 340.5]]
expect:
  attack: {a: [m1]}
"""


def test_edit_and_save_changes_only_the_changed_value(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(LOSSLESS)
    board = load_scenario(p)
    u = board.unit("b")
    board = board.with_unit(u.translated(0.25, 0))
    save_scenario(board, p)
    after = p.read_text()
    assert after == LOSSLESS.replace("[[400, 340.5]]", "[[400.25, 340.5]]")


def test_save_without_changes_keeps_the_file_byte_for_byte(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(LOSSLESS)
    save_scenario(load_scenario(p), p)
    assert p.read_text() == LOSSLESS
    copy = tmp_path / "copy.yaml"  # a new file keeps the layout of the file the board came from
    save_scenario(load_scenario(p), copy)
    assert copy.read_text() == LOSSLESS


def test_save_through_a_symlink_writes_the_target(tmp_path):
    real = tmp_path / "real.yaml"
    real.write_text(LOSSLESS)
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    board = load_scenario(link)
    board = dataclasses.replace(board, title="new")
    save_scenario(board, link)
    assert link.is_symlink() and load_scenario(real).title == "new"


def test_read_only_file_is_refused(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(LOSSLESS)
    p.chmod(stat.S_IRUSR | stat.S_IRGRP)
    board = load_scenario(p)
    board = dataclasses.replace(board, title="new")
    with pytest.raises(SaveError) as e:
        save_scenario(board, p)
    assert "read-only" in str(e.value)
    assert p.read_text() == LOSSLESS
    p.chmod(0o644)


def test_save_refuses_folders_and_devices(tmp_path):
    board = parse_scenario(RANKED, "r.yaml")
    with pytest.raises(OSError):
        save_scenario(board, tmp_path)
    with pytest.raises(SaveError):
        save_scenario(board, "/dev/null")


# ----- rulesets ------------------------------------------------------------------------------------
def _inline_bomb() -> str:
    items = ['&l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    items += [f"&l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 9)]
    return "[" + ", ".join(items) + "]"


@pytest.mark.parametrize("where", ["summary", "sources", "param"])
def test_alias_bomb_in_a_ruleset_fails_fast(tmp_path, where):
    from game.core.ruleset import RulesetError, load_ruleset

    lines = (ROOT / "rulesets" / "whfb8.yaml").read_text().splitlines()
    out, skip = [], False
    for ln in lines:
        if where in ("summary", "sources") and ln.startswith(f"{where}:"):
            out.append(f"{where}: {_inline_bomb()}")
            skip = True
            continue
        if skip and (ln.startswith(" ") or not ln.strip()):
            continue
        skip = False
        out.append(ln)
    text = "\n".join(out) + "\n"
    if where == "param":
        text = text.replace("    value: 0.5", f"    value: {_inline_bomb()}", 1)
        assert _inline_bomb() in text
    (tmp_path / "whfb8.yaml").write_text(text)
    with pytest.raises(RulesetError) as e:
        load_ruleset("whfb8", tmp_path)
    assert len(str(e.value)) < 600 and "\n" not in str(e.value)


def test_a_key_given_twice_is_refused_not_silently_dropped(capsys, tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(RANKED.replace("ruleset: whfb8", "ruleset: whfb8\nruleset: t9a"))
    one_line_error(capsys, main.main(["analyse", str(p)]), ":3:", "ruleset", "twice", "line 2")
    p.write_text(RANKED.replace("    facing: 180", "    facing: 180\n    facing: 90"))
    one_line_error(capsys, main.main(["analyse", str(p)]), "units[1].facing", "twice")


def test_outputs_that_are_devices_or_pipes_are_refused(tmp_path, capsys):
    s = tmp_path / "s.yaml"
    s.write_text(RANKED)
    fifo = tmp_path / "out.png"
    os.mkfifo(fifo)
    one_line_error(capsys, main.main(["render", str(s), "-o", str(fifo)]), "not a regular file")
    link = tmp_path / "null.gif"
    link.symlink_to("/dev/null")
    demo = ROOT / "assets" / "demos" / "slots_large_model.yaml"
    one_line_error(capsys, main.main(["demo", str(demo), "--gif", str(link)]), "not a regular file")


def test_editing_one_unit_never_changes_another_through_a_shared_alias(tmp_path):
    p = tmp_path / "al.yaml"
    p.write_text(RANKED.replace("  - id: dwarfs\n    player: 1\n", "  - id: dwarfs\n    player: 1\n"
                                "    profile: &p {attacks: 1, initiative: 3}\n")
                 .replace("    front: [600, 400]\n    facing: 0", "    front: &f [600, 400]\n    facing: 0")
                 .replace("  - id: goblins\n    player: 2\n", "  - id: goblins\n    player: 2\n    profile: *p\n")
                 .replace("    front: [600, 400]\n    facing: 180", "    front: *f\n    facing: 180")
                 + "notes: *f\n")
    board = load_scenario(p)
    u = dataclasses.replace(board.unit("dwarfs"), profile=dict(board.unit("dwarfs").profile, attacks=3))
    board = board.with_unit(u.translated(0, -5))
    save_scenario(board, p)
    again = load_scenario(p)
    assert again.unit("goblins").profile == {"attacks": 1, "initiative": 3}
    assert again.unit("goblins").front == (600, 400) and again.extra["notes"] == [600, 400]
    assert again.unit("dwarfs").profile["attacks"] == 3 and again.unit("dwarfs").front == (600, 395)


def test_memory_budget_stops_a_runaway_analysis_with_one_line(tmp_path, capsys):
    """2 x 10,000 skirmish models under wh40k once took 22 GB; now at most --memory-budget more."""
    def pts(y0, n=10000):
        return "[" + ", ".join(f"[{100 + (j % 100) * 33}, {y0 + (j // 100) * 33}]" for j in range(n)) + "]"
    p = tmp_path / "w40.yaml"
    p.write_text(f"ruleset: wh40k\nunits:\n  - {{id: a, player: 1, base: 32, models: {pts(100)}}}\n"
                 f"  - {{id: b, player: 2, base: 32, models: {pts(3400)}}}\n")
    line = one_line_error(capsys, main.main(["analyse", str(p), "--json", "--memory-budget", "60",
                                             "--time-budget", "60"]), str(p))
    assert "memory" in line or "time budget" in line
