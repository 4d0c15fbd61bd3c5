"""One self-contained HTML page of a demo (or of one scenario): steps, keys and hover texts.

:func:`demo_page` draws every :class:`game.core.demo.DemoStep` as an inline SVG with the one
drawing routine (:func:`game.render.figure.draw_figure` on
:class:`game.render.svg_canvas.SvgCanvas`, the marks of :mod:`game.render.demo_frames`), and
:func:`scenario_page` does the same for one board (a one-step page). :func:`page_html` puts
the steps into one HTML document: no network, no server and no external reference (no
``src=`` or ``href=`` to any file or address; the script, the style and the font are inline: DejaVu
Sans subset to the page's characters as ``@font-face`` ``data:`` URLs, :mod:`game.render.page_font`). The page has
previous / next / restart buttons, the demo player's keys (Right, Down, Space, Enter,
PageDown = next; Left, Up, Backspace, PageUp = previous; R or Home = restart; a click on the
picture = next, a right click = previous), the step counter ("2 / 7") and the caption, and
shows each model's hover text (:func:`game.render.window_layers.hover_lines`, the window's
tooltip) when the pointer is over its base. ``#3`` at the end of the address opens step 3.

Each step's hover texts are a JSON object ``{svg group id: [[line, bold], ...]}`` in a
``<script type="application/json" class="hover">`` (ids as
:func:`game.render.svg_canvas.group_id` writes them, ``model-<unit>.<slot>``).
Deterministic: the same steps give the same bytes.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from html import escape, unescape
from typing import Any, Optional, Sequence

from game.core.analysis import Analysis
from game.core.board import Board
from game.render.demo_frames import scene_boxes, step_marks
from game.render.figure import FigureOptions, draw_figure, svg_canvas
from game.render.marks import Marks
from game.render.drawn import drawn_models
from game.render.page_font import font_face_css
from game.render.svg_canvas import group_id
from game.render.window_layers import hover_lines

#: Default size (px) of each step's drawing, as the demo window opens.
PAGE_SIZE = (1280, 820)


@dataclass
class PageStep:
    """One step of the page: ``caption`` (plain text), ``svg`` (an ``<svg>`` element, no XML
    declaration) and ``hover`` ``{group id: [(line, bold), ...]}``."""

    caption: str
    svg: str
    hover: dict = field(default_factory=dict)


def step_svg(board: Board, analysis: Optional[Analysis], fo: FigureOptions, size: tuple[int, int], *, marks: Optional[Marks] = None,
             title: Optional[str] = None, box_mm: Optional[tuple] = None) -> str:
    """The ``<svg>`` element of one step, ``size`` px (viewBox), scaled to the page width."""
    c = svg_canvas(board, analysis, fo, size)
    draw_figure(c, board, analysis, fo, marks=marks, title=title, box_mm=box_mm)
    w, h = int(size[0]), int(size[1])
    # sized to the drawing's own proportions (never letterboxed: what lies outside the viewBox stays unseen)
    style = f"aspect-ratio:{w}/{h};width:min(100%,calc((100vh - 150px)*{w / h:.4f}))"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {w} {h}" style="{style}" '
            f'preserveAspectRatio="xMidYMid meet" font-family="DejaVu Sans, sans-serif" role="img">\n'
            + c.body() + "\n</svg>")


def hover_map(board: Board, analysis: Optional[Analysis]) -> dict:
    """``{svg group id of a model: [(line, bold), ...]}`` for every model drawn."""
    out = {}
    for dm in drawn_models(board, analysis):
        out[group_id(f"model:{dm.id}")] = hover_lines(board, analysis, dm.id)
    return out


def demo_page(steps: Sequence[Any], title: str, *, size: tuple[int, int] = PAGE_SIZE,
              options: Optional[FigureOptions] = None) -> str:
    """The HTML page of a built demo (``steps`` from :func:`game.core.demo.build_steps`)."""
    fo = replace(options or FigureOptions(style="screen"), caption=False)  # the page's header carries title, counter, caption
    boxes = scene_boxes(steps)
    out = []
    for i, st in enumerate(steps):
        marks = step_marks(st)
        caption, marks.caption = marks.caption, ""
        svg = step_svg(st.board, st.analysis, fo, size, marks=marks, box_mm=boxes[i])
        out.append(PageStep(caption, svg, hover_map(st.board, st.analysis)))
    return page_html(title, out)


def scenario_page(board: Board, analysis: Optional[Analysis], *, size: tuple[int, int] = PAGE_SIZE,
                  options: Optional[FigureOptions] = None) -> str:
    """A one-step HTML page of ``board`` analysed as ``analysis``."""
    fo = replace(options or FigureOptions(style="screen"), caption=False)
    svg = step_svg(board, analysis, fo, size)
    return page_html(board.title or "Melee Lens", [PageStep("", svg, hover_map(board, analysis))])


def _json(v: Any) -> str:
    """JSON safe inside ``<script>``: ``<``, ``>`` and ``&`` escaped."""
    s = json.dumps(v, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return s.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


_STYLE = """
html,body{margin:0;padding:0;background:#23262b;color:#eee;font-family:"DejaVu Sans",Verdana,sans-serif}
header{display:flex;align-items:center;gap:12px;padding:8px 14px;background:#1b1d21}
header h1{font-size:17px;margin:0;flex:1;font-weight:bold}
button{font:inherit;font-size:15px;padding:5px 14px;border-radius:4px;border:1px solid #777;background:#3a3f47;color:#fff;cursor:pointer}
button:disabled{opacity:.4;cursor:default}
#counter{font-size:15px;min-width:70px;text-align:center;font-variant-numeric:tabular-nums}
#caption{padding:8px 14px;font-size:16px;min-height:1.3em;background:#2d3138;white-space:pre-wrap}
#caption[hidden]{display:none}
main{padding:6px}
.step svg{display:block;margin:0 auto;height:auto;overflow:hidden;background:#fff}
.hint{font-size:12px;color:#aaa;padding:4px 14px}
#tip{position:fixed;display:none;max-width:420px;background:#fffbe6;color:#191919;border:1px solid #555;
 border-left:6px solid #888;padding:6px 10px;font-size:13px;line-height:1.35;pointer-events:none;z-index:10;
 box-shadow:0 2px 6px rgba(0,0,0,.4)}
#tip b{display:block}
g.model{cursor:help}
"""

_SCRIPT = """
(function(){
  var steps=[].slice.call(document.querySelectorAll('section.step'));
  var n=steps.length, i=0;
  var counter=document.getElementById('counter'), caption=document.getElementById('caption');
  var prev=document.getElementById('prev'), next=document.getElementById('next');
  var tip=document.getElementById('tip');
  var roleColour={attack:'#d62728',support:'#1f77b4',none:'#8c8c8c'};
  var hovers=steps.map(function(s){var j=s.querySelector('script.hover');return j?JSON.parse(j.textContent):{};});
  function show(k){
    i=Math.max(0,Math.min(n-1,k));
    steps.forEach(function(s,j){s.hidden=(j!==i);});
    counter.textContent=(i+1)+' / '+n;
    var words=steps[i].getAttribute('data-caption')||'';
    caption.textContent=words; caption.hidden=!words;
    prev.disabled=(i===0); next.disabled=(i===n-1);
    document.body.setAttribute('data-step',String(i+1));
    tip.style.display='none';
  }
  function go(d){show(i+d);}
  prev.onclick=function(){go(-1);}; next.onclick=function(){go(1);};
  document.getElementById('restart').onclick=function(){show(0);};
  document.addEventListener('keydown',function(e){
    if(e.altKey||e.ctrlKey||e.metaKey)return;
    var k=e.key;
    if(k==='ArrowRight'||k==='ArrowDown'||k===' '||k==='Spacebar'||k==='Enter'||k==='PageDown'){go(1);}
    else if(k==='ArrowLeft'||k==='ArrowUp'||k==='Backspace'||k==='PageUp'){go(-1);}
    else if(k==='r'||k==='R'||k==='Home'){show(0);}
    else return;
    e.preventDefault();
  });
  function modelOf(t){
    var g=t&&t.closest?t.closest('g.model'):null;
    if(!g)return null;
    var h=hovers[i], id=g.id;
    if(h[id])return [id,h[id],g];
    id=id.replace(/-[0-9]+$/,'');
    return h[id]?[id,h[id],g]:null;
  }
  document.addEventListener('mousemove',function(e){
    var m=modelOf(e.target);
    if(!m){tip.style.display='none';return;}
    tip.innerHTML='';
    m[1].forEach(function(ln){var el=document.createElement(ln[1]?'b':'div');el.textContent=ln[0];tip.appendChild(el);});
    var role=(m[2].getAttribute('class')||'').split(' ')[1]||'none';
    tip.style.borderLeftColor=roleColour[role]||'#888';
    tip.style.display='block';
    var x=e.clientX+16, y=e.clientY+18, w=tip.offsetWidth, h=tip.offsetHeight;
    if(x+w>window.innerWidth)x=e.clientX-16-w;
    if(y+h>window.innerHeight)y=e.clientY-12-h;
    tip.style.left=Math.max(0,x)+'px'; tip.style.top=Math.max(0,y)+'px';
  });
  steps.forEach(function(s){
    var svg=s.querySelector('svg');
    svg.addEventListener('click',function(){go(1);});
    svg.addEventListener('contextmenu',function(e){e.preventDefault();go(-1);});
  });
  var h=parseInt((location.hash||'').replace('#',''),10);
  show(isNaN(h)?0:h-1);
})();
"""


def page_html(title: str, steps: Sequence[PageStep]) -> str:
    """The whole page (UTF-8 text) from its steps; the first step shows when it opens."""
    if not steps:
        raise ValueError("a page needs at least one step")
    t = escape(title or "Melee Lens")
    one = len(steps) == 1
    parts = ['<!DOCTYPE html>', '<html lang="en">', '<head>', '<meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f'<meta name="generator" content="Melee Lens">', f'<title>{t}</title>',
             '<style>', '</style>', '</head>', f'<body data-step="1" data-steps="{len(steps)}">',
             '<header>', f'<h1>{t}</h1>',
             '<button id="prev" type="button" title="Previous step (Left)">&#9664; Previous</button>',
             f'<span id="counter">1 / {len(steps)}</span>',
             '<button id="next" type="button" title="Next step (Right, Space)">Next &#9654;</button>',
             '<button id="restart" type="button" title="Back to the first step (R)">Restart</button>',
             # a step without a caption shows no band for it (hidden, not an empty dark strip)
             '</header>', f'<div id="caption"{"" if steps[0].caption else " hidden"}>{escape(steps[0].caption)}</div>',
             '<main>']
    for i, st in enumerate(steps):
        hidden = "" if i == 0 else " hidden"
        parts.append(f'<section class="step" id="step-{i + 1}" data-caption="{escape(st.caption, quote=True)}"{hidden}>')
        parts.append(st.svg)
        parts.append(f'<script type="application/json" class="hover">{_json(st.hover)}</script>')
        parts.append('</section>')
    hint = ("Hover a model to read why it fights." if one else
            "Right, Space, Enter or a click: next. Left or a right click: previous. R: restart. "
            "Hover a model to read why it fights.")
    parts += ['</main>', f'<div class="hint">{hint}</div>', '<div id="tip" role="tooltip"></div>',
              f'<script>{_SCRIPT}</script>', '</body>', '</html>', '']
    # the font the drawings name, inside the page: the same letters on any machine
    at = parts.index('<style>')
    parts[at] = f'<style>{font_face_css(unescape("".join(parts)))}\n{_STYLE}'
    return "\n".join(parts)
