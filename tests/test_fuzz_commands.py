"""Fuzzing the whole command surface: ``analyse``, ``render``, ``demo --export``,
``render-book``, the window for a few frames, and saving.

Inputs are valid files with hostile values put anywhere (numbers no table holds, NaN,
control characters, paths for ids, an alias bomb, wrong types, deleted keys), raw YAML
punctuation, and bad option values. Every run must end with status 0 and a usable result,
or status 2 and exactly one ``error:`` line naming the file; never a traceback, never a NaN
in the JSON, never a file written where it should not be. Example counts are bounded so the
whole module stays well under a minute on two cores.
"""
import dataclasses
import contextlib
import io
import json
import math
import tempfile
from pathlib import Path

import yaml
from fuzzutil import leaf_paths, mutate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import main
from game.core.scenario import ScenarioError, board_to_dict, load_scenario, save_scenario

ROOT = Path(__file__).resolve().parents[1]


def fuzz(n):
    return settings(max_examples=n, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


BOMB_DEFS = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'] + [
    f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 9)]
BOMB = "__ALIAS_BOMB__"

SCENARIO = {
    "title": "fuzz", "ruleset": "whfb8", "seed": 3, "table": {"width": 1200, "height": 800},
    "context": {"step": "fight", "active_player": 1, "charged": ["a"], "objectives": [[10, 10]],
                "combats": [["a", "b"]], "destroyed": [], "fought": ["c"], "destroys": {"c": ["b"]},
                "round_winner": "a", "charge_moved": {"a": 5}, "disordered": []},
    "terrain": [{"name": "rock", "kind": "impassable", "points": [[50, 50], [90, 50], [70, 90]]}],
    "units": [
        {"id": "a", "player": 1, "name": "A", "profile": {"attacks": 2, "initiative": 3, "movement": 4},
         "keywords": ["horde"], "troop_type": "heavy_infantry", "weapon": "halberd", "base": [20, 20],
         "files": 5, "models": 12, "last_rank": "left", "empty": ["r1f2"], "front": [600, 400], "facing": 0},
        {"id": "b", "player": 2, "profile": {"attacks": 1, "initiative": 2, "wounds": 1}, "base": [20, 20],
         "files": 4, "models": 8, "front": [600, 400], "facing": 180},
        {"id": "c", "player": 2, "base": 32, "models": [[700, 380], {"at": [700, 420], "base": 40}],
         "embarked_in": "b"},
    ],
}
PATHS = list(leaf_paths(SCENARIO))
RULESETS = ["whfb8", "t9a", "wh40k", "slots", "tow"]

hostile = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([2 ** 63, -2 ** 63, 10 ** 30, 10 ** 400 // 10 ** 370]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([1e308, -1e308, 1e15, 5e-324, 1e6, -0.0]),
    st.text(max_size=6), st.sampled_from(["\x00", "a\x1bb", "\u2028", "x" * 300, "../../x", "/etc/passwd",
                                          "r0f0", "r99f99", "m0", "left", "b", "a", "t9a", "large", "1e999"]),
    st.lists(st.integers(-2, 2), max_size=3), st.just([[0, 0]]), st.just({"a": 5}), st.just({"oval": [1e308, 2]}),
    st.just(BOMB),
)


def scenario_text(mutations, ruleset) -> str:
    data = dict(SCENARIO, ruleset=ruleset)
    for path, value, delete in mutations:
        try:
            data = mutate(data, path, value, delete)
        except (KeyError, IndexError, TypeError):
            continue
    text = yaml.safe_dump(data, allow_unicode=False, sort_keys=False, width=1000)
    if BOMB in text:
        text = "\n".join(BOMB_DEFS) + "\n" + text.replace(BOMB, "*l8")
    return text


gentle = st.one_of(st.integers(0, 40), st.floats(-1500, 1500), st.sampled_from(["a", "b", "c", "left", "horde", "fight"]))
values = st.one_of(hostile, gentle)  # about half the files still load, so the engines and drawing run too
mutations = st.lists(st.tuples(st.sampled_from(PATHS), values, st.booleans()), min_size=0, max_size=3)


def call(argv):
    """``main.main(argv)`` in process: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main.main(argv)
        except SystemExit as exc:  # argparse's own usage errors
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def assert_clean(code, out, err, name):
    assert "Traceback" not in err and "Traceback" not in out, err
    assert code in (0, 2), (code, err)
    if code == 2:
        errors = [ln for ln in err.splitlines() if ln.startswith("error:") or ln.startswith("usage:")]
        assert len(errors) == 1 and len(errors[0]) < 1600, err
        assert name is None or name in err or "usage:" in err, err
    else:
        assert "error:" not in err, err


def _strict(c):
    raise ValueError(f"non-finite number {c} in the JSON")


# ----- analyse ---------------------------------------------------------------------------------------
@fuzz(80)
@given(mutations, st.sampled_from(RULESETS))
def test_analyse_any_mutation(muts, ruleset):
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "s.yaml"
        p.write_text(scenario_text(muts, ruleset))
        code, out, err = call(["analyse", str(p), "--json", "--compact", "--time-budget", "20"])
        assert_clean(code, out, err, str(p))
        if code == 0:
            data = json.loads(out, parse_constant=_strict)
            assert data["ruleset"] == ruleset and isinstance(data["models"], dict)


@fuzz(60)
@given(st.binary(max_size=12), st.integers(0, 10 ** 6), st.booleans())
def test_analyse_raw_byte_damage(noise, at, cut):
    text = yaml.safe_dump(SCENARIO, sort_keys=False).encode()
    at %= len(text)
    data = text[:at] + noise + (b"" if cut else text[at:])
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "s.yaml"
        p.write_bytes(data)
        assert_clean(*call(["analyse", str(p), "--json"]), str(p))


@fuzz(40)
@given(st.text(alphabet="{}[]:,- \n'\"&*!|>#%@`\\\t\x00\x85abc01.eE+", max_size=100))
def test_analyse_yaml_punctuation(text):
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "s.yaml"
        p.write_text(text, errors="surrogatepass")
        assert_clean(*call(["analyse", str(p)]), str(p))


# ----- render -------------------------------------------------------------------------------------------
@fuzz(20)
@given(mutations, st.sampled_from(RULESETS), st.sampled_from([".png", ".svg"]))
def test_render_any_mutation(muts, ruleset, suffix):
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "s.yaml"
        p.write_text(scenario_text(muts, ruleset))
        o = Path(d) / f"o{suffix}"
        code, out, err = call(["render", str(p), "-o", str(o), "--size", "300x200"])
        assert_clean(code, out, err, str(p))
        assert o.exists() == (code == 0)
        if code == 0 and suffix == ".svg":
            import xml.etree.ElementTree as ET

            ET.parse(o)  # well-formed XML whatever the text held


option_values = st.one_of(st.sampled_from(["0", "-1", "nan", "inf", "1e9", "12000x12000", "0x0", "-1x5", "x",
                                           "100000x100000", "300x200", "180x120mm", "1e3x5", "../x", "whfb8,../x",
                                           "whfb8", "\x01", "", "2", "30"]), st.text(max_size=5))


@fuzz(40)
@given(st.sampled_from(["--size", "--dpi", "--width", "--height", "--scale", "--ruleset", "--compare",
                        "--font-scale", "--crop-margin", "--title", "--time-budget", "--legend"]), option_values)
def test_render_option_values(option, value):
    src = ROOT / "assets" / "scenarios" / "whfb8_rear_gap.yaml"
    with tempfile.TemporaryDirectory() as d:
        o = Path(d) / "o.png"
        extra = ["--height", "200"] if option == "--width" else (["--width", "300"] if option == "--height" else [])
        code, out, err = call(["render", str(src), "-o", str(o), f"{option}={value}", *extra])
        assert_clean(code, out, err, None)


# ----- demo -----------------------------------------------------------------------------------------------
DEMO = {"title": "fuzz demo", "steps": [
    {"caption": "start", "actions": [{"load": "s.yaml"}]},
    {"caption": "move", "actions": [{"move": {"unit": "a", "forward_mm": 10}}, {"turn": {"unit": "c", "deg": 15}},
                                    {"context": {"step": "fight"}}, {"highlight": ["a"]}]},
    {"caption": "more", "actions": [{"wheel": {"unit": "a", "deg": 10, "pivot": "left"}},
                                    {"remove": {"unit": "b", "count": 1}}, {"ruleset": "t9a"},
                                    {"annotate": {"model": "a.r1f1", "text": "here"}}]},
]}
DEMO_PATHS = list(leaf_paths(DEMO))
demo_hostile = st.one_of(hostile, st.sampled_from([{"unit": "a", "by": [1e308, 0]}, {"unit": "a", "deg": 1e300},
                                                   {"destroyed": 5}, {"round_winner": ["a"]}, {"charged": ["zz"]},
                                                   "../../../etc/passwd", "/dev/zero", ".", "s.yaml"]))


@fuzz(25)
@given(st.lists(st.tuples(st.sampled_from(DEMO_PATHS), demo_hostile, st.booleans()), min_size=1, max_size=2))
def test_demo_export_any_mutation(muts):
    data = DEMO
    for path, value, delete in muts:
        try:
            data = mutate(data, path, value, delete)
        except (KeyError, IndexError, TypeError):
            continue
    text = yaml.safe_dump(data, sort_keys=False)
    if BOMB in text:
        text = "\n".join(BOMB_DEFS) + "\n" + text.replace(BOMB, "*l8")
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "s.yaml").write_text(scenario_text([], "whfb8"))
        p = Path(d) / "d.yaml"
        p.write_text(text)
        out_dir = Path(d) / "frames"
        code, out, err = call(["demo", str(p), "--export", str(out_dir), "--size", "320x240"])
        assert_clean(code, out, err, str(p))
        if code == 0:
            from game.window.demo_view import STEPS_LIST  # the list of the steps it wrote

            files = [x for x in out_dir.iterdir() if x.name != STEPS_LIST]
            assert sorted(x.suffix for x in files) == [".png"] * len(files)


@fuzz(25)
@given(st.sampled_from(["--size", "--seconds", "--frames", "--time-budget"]), option_values)
def test_demo_option_values(option, value):
    demo = ROOT / "assets" / "demos" / "slots_large_model.yaml"
    with tempfile.TemporaryDirectory() as d:
        code, out, err = call(["demo", str(demo), "--gif", str(Path(d) / "d.gif"), f"{option}={value}",
                               *([] if option == "--size" else ["--size", "240x200"])])
        assert_clean(code, out, err, None)


# ----- render-book ----------------------------------------------------------------------------------------
BOOK = {"title": "fuzz book", "defaults": {"size": "300x200", "dpi": 100, "crop": True},
        "figures": [{"scenario": "s.yaml", "output": "one.png", "options": {"palette": "colourblind"}},
                    {"scenario": "s.yaml", "output": "sub/two.svg", "options": {"compare": "whfb8,t9a", "ruleset": "t9a"}}]}
BOOK_PATHS = list(leaf_paths(BOOK))


@fuzz(20)
@given(st.lists(st.tuples(st.sampled_from(BOOK_PATHS), demo_hostile, st.booleans()), min_size=1, max_size=2))
def test_render_book_any_mutation(muts):
    data = BOOK
    for path, value, delete in muts:
        try:
            data = mutate(data, path, value, delete)
        except (KeyError, IndexError, TypeError):
            continue
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "s.yaml").write_text(scenario_text([], "whfb8"))
        p = Path(d) / "b.yaml"
        p.write_text(yaml.safe_dump(data, sort_keys=False))
        out_dir = Path(d) / "out"
        code, out, err = call(["render-book", str(p), "-o", str(out_dir), "--quiet"])
        assert_clean(code, out, err, str(p))
        written = [x for x in Path(d).rglob("*") if x.suffix in (".png", ".svg")]
        assert all(out_dir.resolve() in x.resolve().parents for x in written), written


# ----- the window, a few frames ----------------------------------------------------------------------------
@fuzz(8)
@given(mutations, st.sampled_from(RULESETS))
def test_window_runs_a_few_frames_on_whatever_loads(muts, ruleset):
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "s.yaml"
        p.write_text(scenario_text(muts, ruleset))
        code, out, err = call([str(p), "--frames", "2", "--size", "640x480"])
        assert_clean(code, out, err, str(p))


# ----- saving --------------------------------------------------------------------------------------------
@fuzz(25)
@given(mutations, st.sampled_from(RULESETS), st.floats(-500, 500), st.floats(-500, 500))
def test_save_keeps_everything_and_reloads(muts, ruleset, dx, dy):
    text = "# a comment to keep\n" + scenario_text(muts, ruleset) + "expect: {attack: {a: [r1f1]}}\nmine: {x: 1e3}\n"
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "s.yaml"
        p.write_text(text)
        try:
            board = load_scenario(p)
        except ScenarioError:
            return
        save_scenario(board, p)
        assert p.read_text() == text, "a save without changes rewrote the file"
        if board.units:
            board = board.with_unit(board.units[0].translated(dx, dy))
        board = dataclasses.replace(board, title="edited")
        save_scenario(board, p)
        again = load_scenario(p)
        assert board_to_dict(again) == board_to_dict(board)
        saved = p.read_text()
        assert saved.startswith("# a comment to keep\n") and "expect:" in saved and "mine: {x: 1e3}" in saved
        assert all(math.isfinite(c) for u in again.units for c in (u.front if u.is_ranked else u.placed[0][0]))
