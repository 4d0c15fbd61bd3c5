"""The SVG back end's own text escaping gives what ``xml.sax.saxutils`` gives, byte for byte
(``game/render/svg_canvas.py`` writes it itself so that drawing never imports ``xml.sax``,
which pulls ``urllib``, ``email`` and ``http`` into start-up)."""
from __future__ import annotations

from xml.sax.saxutils import escape as sax_escape
from xml.sax.saxutils import quoteattr as sax_quoteattr

from hypothesis import given, strategies as st

from game.render.svg_canvas import escape, quoteattr

TRICKY = st.text(alphabet=st.sampled_from(list("&<>\"'\n\r\t ab&amp;é\u00a0")) | st.characters(), max_size=40)


@given(TRICKY)
def test_escape_is_saxutils_escape(text):
    assert escape(text) == sax_escape(text)


@given(TRICKY)
def test_quoteattr_is_saxutils_quoteattr(text):
    assert quoteattr(text) == sax_quoteattr(text)


def test_quotes_of_both_kinds():
    assert quoteattr("a\"b'c") == sax_quoteattr("a\"b'c") == "\"a&quot;b'c\""
    assert quoteattr('say "x"') == "'say \"x\"'"
