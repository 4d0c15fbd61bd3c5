"""The live page's HTML and its small script (see :mod:`game.live.bundle` for the folder).

The page shows the static figure at once, with the hover texts, then loads Pyodide from
``pyodide/`` while it downloads and unzips the wheels of ``wheels/`` (their files, bytecode
included, go into the runtime's site-packages), starts the session
(:func:`game.live.session.start`) and from then on asks it for every picture. When the engine
answers, ``document.body.dataset.ready`` becomes ``"true"`` (``"static"`` when the ruleset's
engine cannot run in a page: the status line says why, in one line).

The reader: drags a unit (pointer events: mouse, pen and touch), turns the unit last touched
with Q / E or the two buttons (Shift: 1 degree), undoes (U, Ctrl+Z or the button), resets (the
button), switches the ruleset among those offered, and hovers or taps a model for its
explanation (the window's tooltip text). While dragging the page asks for at most one picture
per animation frame, and only when the last one is drawn; the release is analysed exactly.

Start-up is marked (``performance.mark("live:runtime")``, ``live:wheels``, ``live:import``,
``live:session``, ``live:picture``, ``live:ready``) and the ms of each since opening are printed
to the console when ready (``melee-live start ms {...}``; ``bench/bench_live_start.py`` reads them).

``document.body.dataset``: ``readyMs`` (ms from opening to ready), ``dropMs`` (ms from the last
release to its picture drawn), ``ruleset``; ``window.meleeLive``: ``scenario()`` (the board as
scenario YAML), ``picture()`` (the last answer).
"""
from __future__ import annotations

import json
from html import escape
from typing import Any, Optional

from game.render.html_page import _STYLE as PLAYER_STYLE

_STYLE = PLAYER_STYLE + """
#board{position:relative;touch-action:none;user-select:none;-webkit-user-select:none}
#board svg{display:block;margin:0 auto;max-width:100%;height:auto;background:#fff}
g.model{cursor:grab}
body.dragging g.model{cursor:grabbing}
#status{padding:6px 14px;font-size:14px;min-height:1.3em;background:#2d3138}
#stepbar{display:flex;align-items:center;gap:10px;padding:6px 14px;background:#1f2226}
#stepbar[hidden]{display:none}
#caption{flex:1;font-size:15px;white-space:pre-wrap}
header h1{min-width:10em}
#ruleset{max-width:32vw}
select{font:inherit;font-size:15px;padding:4px;border-radius:4px;background:#3a3f47;color:#fff;border:1px solid #777}
@font-face{font-family:"DejaVu Sans";src:url(fonts/DejaVuSans.ttf)}
@font-face{font-family:"DejaVu Sans";font-weight:bold;src:url(fonts/DejaVuSans-Bold.ttf)}
"""

_SCRIPT = r"""
(function(){
  var T0=performance.now(), marks={script:Math.round(T0)};
  /* start-up phases: performance marks "live:NAME" and ms since opening, printed when ready */
  function mark(name){performance.mark('live:'+name);marks[name]=Math.round(performance.now());}
  var cfg=JSON.parse(document.getElementById('config').textContent);
  var board=document.getElementById('board'), tip=document.getElementById('tip');
  var statusEl=document.getElementById('status'), rsel=document.getElementById('ruleset');
  var hover=JSON.parse(document.getElementById('hover').textContent);
  var units=JSON.parse(document.getElementById('units').textContent);
  var steps=JSON.parse(document.getElementById('steps').textContent), stepAt=0;
  var session=null, last=null, selected=null, drag=null, busy=false, pending=null;
  var roleColour={attack:'#d62728',support:'#1f77b4',none:'#8c8c8c'};
  function say(t){statusEl.textContent=t||'';}
  function svg(){return board.querySelector('svg');}
  function modelOf(t){
    var g=t&&t.closest?t.closest('g.model'):null; if(!g)return null;
    var id=g.id; if(!hover[id]&&!units[id])id=id.replace(/-[0-9]+$/,'');
    return {id:id,g:g,lines:hover[id]||[],unit:units[id]};
  }
  function showTip(m,x,y){
    if(!m||!m.lines.length){tip.style.display='none';return;}
    tip.innerHTML='';
    m.lines.forEach(function(ln){var el=document.createElement(ln[1]?'b':'div');el.textContent=ln[0];tip.appendChild(el);});
    var role=(m.g.getAttribute('class')||'').split(' ')[1]||'none';
    tip.style.borderLeftColor=roleColour[role]||'#888'; tip.style.display='block';
    var w=tip.offsetWidth,h=tip.offsetHeight,px=x+16,py=y+18;
    if(px+w>window.innerWidth)px=x-16-w; if(py+h>window.innerHeight)py=y-12-h;
    tip.style.left=Math.max(0,px)+'px'; tip.style.top=Math.max(0,py)+'px';
  }
  function show(text){
    var p=JSON.parse(text); if(!p||p.ruleset===undefined)return p;
    last=p;
    if(p.svg){board.innerHTML=p.svg; hover=p.hover; units=p.units;}
    if(rsel.options.length!==p.rulesets.length){
      rsel.innerHTML='';
      p.rulesets.forEach(function(r){var o=document.createElement('option');o.value=r[0];o.textContent=r[1];rsel.appendChild(o);});
    }
    rsel.value=p.ruleset; document.body.dataset.ruleset=p.ruleset;
    document.getElementById('undo').disabled=!p.can_undo;
    ['left','right','reset'].forEach(function(id){document.getElementById(id).disabled=!p.live;});
    say(p.live?p.message:p.why);
    return p;
  }
  function toUser(e){
    var s=svg(), pt=s.createSVGPoint(); pt.x=e.clientX; pt.y=e.clientY;
    return pt.matrixTransform((drag&&drag.ctm)||s.getScreenCTM().inverse());
  }
  function call(name){
    if(!session)return null;
    var args=[].slice.call(arguments,1), f=session[name];
    try{return show(f.apply(null,args));}finally{f.destroy();}
  }
  function frame(){
    busy=false; if(!drag||!pending)return;
    var d=pending; pending=null; busy=true;
    call('drag',d[0],d[1],true);
    requestAnimationFrame(frame);
  }
  board.addEventListener('pointerdown',function(e){
    var m=modelOf(e.target); if(!m||!session||!m.unit)return;
    selected=m.unit; e.preventDefault();
    if(!last||!last.live)return;
    if(!JSON.parse(session.begin(m.unit)).ok)return;
    drag={ctm:svg().getScreenCTM().inverse(),moved:false,m:m,x:e.clientX,y:e.clientY};
    drag.start=toUser(e);
    board.setPointerCapture(e.pointerId); document.body.classList.add('dragging');
  });
  board.addEventListener('pointermove',function(e){
    if(!drag){showTip(modelOf(e.target),e.clientX,e.clientY);return;}
    var p=toUser(e); var dx=p.x-drag.start.x, dy=p.y-drag.start.y;
    if(!drag.moved&&Math.abs(e.clientX-drag.x)+Math.abs(e.clientY-drag.y)<3)return;
    drag.moved=true; tip.style.display='none'; pending=[dx,dy];
    if(!busy){busy=true;requestAnimationFrame(frame);}
  });
  function release(e){
    if(!drag)return;
    var t=performance.now(), d=drag, p=toUser(e);
    drag=null; pending=null; document.body.classList.remove('dragging');
    if(d.moved){session.drag(p.x-d.start.x,p.y-d.start.y,false); call('drop');
      document.body.dataset.dropMs=String(Math.round(performance.now()-t));}
    else{session.cancel(); showTip(modelOf(document.elementFromPoint(e.clientX,e.clientY)),e.clientX,e.clientY);}
  }
  board.addEventListener('pointerup',release);
  board.addEventListener('pointercancel',release);
  /* a finger lifted leaves the board: the tip a tap opened stays until the next touch */
  board.addEventListener('pointerleave',function(e){if(!drag&&e.pointerType!=='touch')tip.style.display='none';});
  function stepsShown(){return steps.length>1&&(cfg.demo||(last&&!last.live));}
  function showStep(k){
    if(!steps.length)return;
    stepAt=Math.max(0,Math.min(steps.length-1,k)); var st=steps[stepAt];
    var p=session?call('goto',stepAt):null;
    selected=null; if(!p||!p.svg){board.innerHTML=st.svg; hover=st.hover; units=st.units;}
    paintSteps();
  }
  function paintSteps(){
    var bar=document.getElementById('stepbar'); bar.hidden=!stepsShown(); if(bar.hidden)return;
    document.getElementById('counter').textContent='Step '+(stepAt+1)+' / '+steps.length;
    document.getElementById('caption').textContent=steps[stepAt].caption||'';
    document.getElementById('prev').disabled=stepAt===0;
    document.getElementById('next').disabled=stepAt===steps.length-1;
    document.body.dataset.step=String(stepAt+1); tip.style.display='none';
  }
  document.getElementById('prev').onclick=function(){showStep(stepAt-1);};
  document.getElementById('next').onclick=function(){showStep(stepAt+1);};
  function turn(deg){if(selected)call('turn',selected,deg);else say('Touch a unit first, then turn it.');}
  document.getElementById('left').onclick=function(){turn(-15);};
  document.getElementById('right').onclick=function(){turn(15);};
  document.getElementById('undo').onclick=function(){call('undo');};
  document.getElementById('reset').onclick=function(){call('reset');};
  rsel.onchange=function(){call('set_ruleset',rsel.value);};
  document.addEventListener('keydown',function(e){
    if(e.altKey||e.metaKey||drag)return;
    var k=e.key.toLowerCase();
    if(k==='q')turn(e.shiftKey?-1:-15); else if(k==='e')turn(e.shiftKey?1:15);
    else if(k==='u'||(k==='z'&&e.ctrlKey))call('undo');
    else if(stepsShown()&&(k==='n'||k==='arrowright'||k==='pagedown'))showStep(stepAt+1);
    else if(stepsShown()&&(k==='p'||k==='arrowleft'||k==='pageup'))showStep(stepAt-1); else return;
    e.preventDefault();
  });
  window.meleeLive={scenario:function(){return session?session.scenario():null;},picture:function(){return last;}};
  /* a wheel's files [[path, bytes]]: its zip read here (stored or deflated entries), so the
     page's Python need not import zipfile and unpack while the runtime is still loading */
  async function unzip(buf){
    var v=new DataView(buf), end=buf.byteLength-22;
    while(end>=0&&v.getUint32(end,true)!==0x06054b50)end--;
    if(end<0)throw new Error('not a wheel');
    var n=v.getUint16(end+10,true), at=v.getUint32(end+16,true), out=[];
    for(var k=0;k<n;k++){
      var method=v.getUint16(at+10,true), size=v.getUint32(at+20,true), nlen=v.getUint16(at+28,true);
      var name=new TextDecoder().decode(new Uint8Array(buf,at+46,nlen)), local=v.getUint32(at+42,true);
      at+=46+nlen+v.getUint16(at+30,true)+v.getUint16(at+32,true);
      if(name.endsWith('/'))continue;
      var start=local+30+v.getUint16(local+26,true)+v.getUint16(local+28,true), raw=new Uint8Array(buf,start,size);
      if(method===0)out.push([name,raw]);
      else if(method===8)out.push([name,new Uint8Array(await new Response(new Blob([raw]).stream()
        .pipeThrough(new DecompressionStream('deflate-raw'))).arrayBuffer())]);
      else throw new Error(name+': zip method '+method);
    }
    return out;
  }
  async function boot(){
    say('Loading the rules engine...');
    /* the wheels and files download while the runtime loads */
    var files=[cfg.scenario,cfg.fonts].concat(cfg.steps.map(function(st){return st.scenario;}).filter(Boolean));
    function get(u){
      var r=fetch(u).then(function(res){if(!res.ok)throw new Error(u+': '+res.status);return res.arrayBuffer();});
      r.catch(function(){});   /* reported when awaited below */
      return r;
    }
    var wheels=cfg.wheels.map(function(u){return get(u).then(unzip);}), got=files.map(get);
    var py=await loadPyodide({indexURL:'pyodide/'});
    mark('runtime');
    var site=py.runPython('import sys\n[p for p in sys.path if p.endswith("site-packages")][0]');
    for(var i=0;i<wheels.length;i++){
      (await wheels[i]).forEach(function(e){
        var path=site+'/'+e[0]; py.FS.mkdirTree(path.slice(0,path.lastIndexOf('/'))); py.FS.writeFile(path,e[1]);
      });
    }
    py.FS.mkdirTree('steps');
    for(var j=0;j<files.length;j++)py.FS.writeFile(files[j],new Uint8Array(await got[j]));
    mark('wheels');
    py.globals.set('CONFIG',JSON.stringify(cfg));
    py.runPython('import importlib\nimportlib.invalidate_caches()\nimport game\nimport game.live.session');
    mark('import');
    session=py.runPython('from game.live.session import start\nstart(CONFIG)');
    mark('session');
    var p=show(session.picture());
    mark('picture');
    if(cfg.demo&&stepAt>0)p=show(session.goto(stepAt))||p;   /* the reader stepped on while it loaded */
    if(stepsShown()&&!p.svg)showStep(stepAt); else paintSteps();
    document.body.dataset.readyMs=String(Math.round(performance.now()-T0));
    document.body.dataset.ready=p.live?'true':'static';
    mark('ready');
    console.log('melee-live start ms '+JSON.stringify(marks));
  }
  paintSteps();
  boot().catch(function(err){say('The rules engine could not start: '+err);document.body.dataset.ready='failed';console.error(err);});
})();
"""


def _json(v: Any) -> str:
    s = json.dumps(v, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return s.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def page_html(title: str, svg: str, hover: dict, units: dict, config: dict, steps: Optional[list] = None) -> str:
    """The page: ``svg`` the static figure (an SVG document: its XML declaration is dropped),
    ``hover`` / ``units`` its models' texts and units by group id, ``config`` what the script
    reads, ``steps`` each step drawn ``{caption, svg, hover, units}`` (:mod:`game.live.steps`;
    a demo's first step is the opening picture)."""
    steps = list(steps or [])
    body = svg[svg.index("<svg"):] if "<svg" in svg else svg
    t = escape(title or "Melee Lens")
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="Melee Lens">', f"<title>{t}</title>", f"<style>{_STYLE}</style>",
        "</head>", '<body data-ready="false">', "<header>", f"<h1>{t}</h1>",
        '<select id="ruleset" title="Rules"></select>',
        '<button id="left" type="button" title="Turn the unit 15 deg left (Q)">&#8630; Turn</button>',
        '<button id="right" type="button" title="Turn the unit 15 deg right (E)">Turn &#8631;</button>',
        '<button id="undo" type="button" title="Undo (U, Ctrl+Z)" disabled>Undo</button>',
        '<button id="reset" type="button" title="Back to the start">Reset</button>',
        "</header>",
        '<nav id="stepbar" hidden><button id="prev" type="button" title="Previous step (P, Left)">&#9664; Prev</button>'
        '<span id="counter"></span><button id="next" type="button" title="Next step (N, Right)">Next &#9654;</button>'
        '<span id="caption"></span></nav>',
        '<div id="status">Loading the rules engine...</div>',
        f'<main><div id="board">{body}</div></main>',
        '<div class="hint">Drag a unit; Q / E turn the unit last touched; hover or tap a model to read why it fights'
        + ('; N / P (or the arrows) step.' if len(steps) > 1 else '.') + '</div>',
        '<div id="tip" role="tooltip"></div>',
        f'<script type="application/json" id="config">{_json(config)}</script>',
        f'<script type="application/json" id="hover">{_json(hover)}</script>',
        f'<script type="application/json" id="units">{_json(units)}</script>',
        f'<script type="application/json" id="steps">{_json(steps)}</script>',
        '<script src="pyodide/pyodide.js"></script>',
        f"<script>{_SCRIPT}</script>", "</body>", "</html>", ""])
