"""The docs name only what exists: every file path, folder and ``game.`` module that README.md
and docs/*.md name (in backticks, table cells, code blocks and links) is in this tree.

What counts as a path: a backticked word with a ``/`` that ends in a file suffix or ``/``, or
starts with a top-level entry of the project (``game/``, ``tests/``, ...); a bare file name
(``figure.py``), looked for beside the last path named earlier in the same table cell or line
(``game/render/figure.py``, ``figure_compare.py``), else anywhere in the tree; a path not
starting at the root (``rank_and_file/policy.py``) is the end of some path of the tree. ``<id>``
and ``*`` stand for any name (one match needed). A dotted ``game.x.y`` name is a module, or a
module and a name its top level defines (``game.core.combat_round.at_step``). Paths outside
the project (``../shared/...``, ``~/...``, ``/...``) and the names of a user's outputs (after
``-o``, ``--export``, ``--gif``, ``--html``, ``--only``, in ``out/``) are not checked; the few
other deliberate non-paths are listed in :data:`NOT_PATHS`, each with its reason."""
from __future__ import annotations

import ast
import fnmatch
import re
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Names the docs give that are deliberately not files of this tree.
NOT_PATHS = {
    ".venv/bin/activate": "the virtual environment the README has the reader make",
    ".melee_lens_steps.json": "the list `demo --export` writes into the user's output folder",
    "step_01.png": "a step file `demo --export` writes",
    "demo-<name>.<session>.<n>.autosave.yaml": "a recovery file in the user's data folder",
    "game/_data": "made by `pip install .` (rulesets/ and assets/ copied in), not in a checkout",
    "game/_data/": "as above",
    "assets/demos/x.yaml": "the example of an error line a broken demo gets",
    "panels/t9a_marker_in_the_gap_steps.png": "a figure `render-book` writes into its output folder",
    "index.html": "the page `live FILE -o DIR` writes into the user's folder",
}
# Capital stems are placeholders a user replaces (FILE, OUT.png, SCENARIO.yaml, BOOK.yaml).
PLACEHOLDER = re.compile(r"^[A-Z]+(\.[a-z]+)?$")
# Options whose value is the name of a user's output.
OUTPUT_OPTIONS = {"-o", "--output", "--export", "--gif", "--html", "--only", "output:"}
SUFFIX = re.compile(r"\.(py|ya?ml|md|toml|txt|json|png|svg|pdf|html|gif|ttf|otf|cfg|in|sh|ini)$")
MODULE = re.compile(r"^game(\.[A-Za-z_]\w*)+")
#: not read as the tree: caches, the user's outputs and builds, hidden folders (a virtual
#: environment) but the CI script's
SKIP_DIRS = {"__pycache__", "out", "build", "dist", "node_modules"}
KEEP_HIDDEN = {".ci", ".gitignore"}


def docs() -> list[Path]:
    """README.md and every docs/*.md."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@lru_cache(maxsize=1)
def tree() -> tuple[frozenset, frozenset]:
    """(files, folders) of the project as '/'-joined paths relative to the root."""
    files, dirs = set(), set()
    stack = [ROOT]
    while stack:
        d = stack.pop()
        for p in d.iterdir():
            if p.name in SKIP_DIRS or p.name.endswith(".egg-info") or \
                    (p.name.startswith(".") and p.name not in KEEP_HIDDEN):
                continue
            rel = p.relative_to(ROOT).as_posix()
            if p.is_dir():
                dirs.add(rel)
                stack.append(p)
            else:
                files.add(rel)
    return frozenset(files), frozenset(dirs)


def _roots() -> set[str]:
    files, dirs = tree()
    return {p.split("/", 1)[0] for p in files | dirs}


def _exists(path: str, anywhere: bool = False) -> bool:
    """Whether ``path`` ('/'-joined; a trailing '/' asks for a folder; ``<x>`` and ``*`` match any
    name) is a file or folder of the tree: from the root, or, when ``anywhere``, as the end of
    some path."""
    files, dirs = tree()
    want_dir = path.endswith("/")
    path = path.rstrip("/")
    pool = dirs if want_dir else files | dirs
    pattern = re.sub(r"<[^<>/]+>", "*", path)
    if pattern == path and "*" not in path:
        return path in pool or (anywhere and any(p.endswith("/" + path) for p in pool))
    return any(fnmatch.fnmatchcase(p, pattern) or (anywhere and fnmatch.fnmatchcase(p, "*/" + pattern))
               for p in pool)


@lru_cache(maxsize=None)
def _top_names(module_file: str) -> frozenset:
    """Names a module's top level defines (def, class, assignment, import)."""
    tree_ = ast.parse((ROOT / module_file).read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in tree_.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                out.update(n.id for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(out)


def module_problem(name: str) -> str | None:
    """None when ``game.a.b[.attr]`` is a module of the tree, or a module and a name it defines
    at top level; else what is missing."""
    parts = name.split(".")
    files, _ = tree()
    for n in range(len(parts), 0, -1):
        base = "/".join(parts[:n])
        f = next((c for c in (base + ".py", base + "/__init__.py") if c in files), None)
        if f is None:
            continue
        rest = parts[n:]
        if not rest or rest[0] in _top_names(f):
            return None
        return f"{f} defines no {rest[0]}"
    return "no such module"


def _clean(token: str) -> str:
    token = token.strip("()[]{},;\"'")
    return re.sub(r":(LINE|\d+)$", "", token.rstrip(":")).rstrip(".:")


def _path_like(token: str) -> bool:
    if token.startswith(("../", "~", "/", "-", "http:", "https:")) or "://" in token:
        return False
    last = token.rstrip("/").rsplit("/", 1)[-1]
    if "/" not in token:
        return bool(SUFFIX.search(last))
    return bool(SUFFIX.search(last)) or token.endswith("/") or token.split("/", 1)[0] in _roots()


def problems_in(text: str, name: str = "doc", folder: Path = ROOT) -> list[str]:
    """Every path or module ``text`` (markdown) names that the tree does not hold, as
    ``'name:line: token: why'``. ``folder``: where the markdown's relative links start."""
    out: list[str] = []
    in_fence = False
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        for target in re.findall(r"\]\(([^)\s]+)\)", line):
            if target.startswith(("http:", "https:", "#", "mailto:")):
                continue
            full = (folder / target.split("#", 1)[0]).resolve()
            if not full.exists():
                out.append(f"{name}:{lineno}: {target}: the link goes nowhere")
        for mod, names in re.findall(r"from (game(?:\.\w+)+) import ([\w, ]+)", line):
            for n in (n.strip() for n in names.split(",")):
                why = module_problem(f"{mod}.{n}") if n else None
                if why:
                    out.append(f"{name}:{lineno}: from {mod} import {n}: {why}")
        # Fenced lines are read whole; elsewhere only code spans, cell by cell of a table row.
        cells = [line] if in_fence else line.replace("\\|", "\0").split("|") \
            if line.lstrip().startswith("|") else [line]
        row_context = ""  # folder of the first path of a table row (its subject)
        for cell in cells:
            spans = [cell] if in_fence else re.findall(r"`([^`]+)`", cell.replace("\0", "|"))
            context = ""  # folder of the last path named in this cell
            for span in spans:
                words = span.split()
                for i, word in enumerate(words):
                    if i and words[i - 1] in OUTPUT_OPTIONS:
                        continue  # a user's output name
                    for token in (_clean(w) for w in word.split("|")):
                        why = _problem(token, in_fence, (context, row_context))
                        if why:
                            out.append(f"{name}:{lineno}: {token}: {why}")
                        if "/" in token and _path_like(token) and not why:
                            d = token if token.endswith("/") else token.rsplit("/", 1)[0] + "/"
                            context = d if _exists(d, anywhere=True) else context
                            row_context = row_context or context
    return out


def _problem(token: str, in_fence: bool, contexts: tuple[str, str]) -> str | None:
    """Why ``token`` names nothing in the tree (None: it does, or it is no path). A bare file
    name is looked for in ``contexts`` (the folders of the last path named in its cell and of
    its table row's first path) when there are any, else anywhere."""
    if not token or token in NOT_PATHS or PLACEHOLDER.match(token.rsplit("/", 1)[-1]):
        return None
    m = MODULE.match(token)
    if m and "/" not in token and not SUFFIX.search(token):
        return module_problem(m.group(0))
    if not _path_like(token) or token.startswith("out/"):
        return None
    if in_fence and token.split("/", 1)[0] not in _roots():
        return None  # in a code block only paths from the project root are read
    if "/" not in token:
        folders = [c for c in contexts if c]
        if folders and not _exists(token):  # a file of the root may be named bare anywhere
            return None if any(_exists(c + token) for c in folders) else f"not in {' or '.join(folders)}"
        return None if _exists(token, anywhere=True) else "no such file anywhere in the tree"
    root_first = token.split("/", 1)[0] in _roots() or token.startswith(".")
    if _exists(token) or (not root_first and _exists(token, anywhere=True)):
        return None
    return "no such path"


def test_every_path_and_module_the_docs_name_exists():
    found = []
    for doc in docs():
        found += problems_in(doc.read_text(encoding="utf-8"), doc.relative_to(ROOT).as_posix(), doc.parent)
    assert not found, "the docs name what the tree does not hold:\n" + "\n".join(found)


def test_a_missing_path_module_or_name_is_reported():
    """The check fires: each planted line below names something absent."""
    planted = [
        "| `game/core/gone.py` | x |",
        "| `game/render/figure.py`, `nothing_here.py` | y |",
        "see `rank_and_file/gone_policy.py`",
        "run `python -m game.core.no_such_module`",
        "`game.core.combat_round.no_such_name`",
        "[a link](../tests/baselines/none.png)",
        "```\npython bench/no_bench.py\n```",
        "`rules/ranked.py`",
        "```python\nfrom game.render.figure import no_such_function\n```",
        "| `game/render/figure.py` | `figure_fit.py` and `tests/test_docs.py`, `nowhere.py` |",
    ]
    for text in planted:
        assert problems_in(text, "planted", ROOT / "docs"), text
    for text in ("`game/core/board.py`, `geometry.py`", "`game.core.combat_round.at_step`",
                 "| `game/render/figure.py` | `figure_fit.py` and `tests/test_docs.py`, `canvas.py` |",
                 "```\nfrom game.render.figure import FigureSpec, draw_figure\n```",
                 "`rulesets/<id>.yaml`", "`python main.py render FILE -o fig.png`", "`on/off`",
                 "`../shared/conformance/check.py`", "`out/book`"):
        assert problems_in(text, "planted", ROOT / "docs") == [], text
