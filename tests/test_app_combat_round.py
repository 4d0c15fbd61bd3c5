"""The window steps through a combat round (N / P) and marks casualties by clicking."""
import pygame

from apputil import SCENARIOS, key, make_app


def _centre(app, mid):
    uid = mid.split(".", 1)[0]
    return next(m.center for m in app.doc.board.unit(uid).models() if m.id == mid)


def test_round_step_through_with_clicked_casualties():
    app = make_app(SCENARIOS / "whfb8_initiative.yaml")
    key(app, pygame.K_n)
    assert app.steps.position() == (0, 3)                          # Initiative 5, Initiative 2, end of round
    assert "Initiative 5" in app.status_line() and "Click a model" in app.status.message
    c = app.recorded()
    assert c.find(None, "dim:orcs.r1f1")               # the Orcs wait at Initiative 5
    for mid in ("orcs.r1f1", "orcs.r1f2", "orcs.r1f3", "orcs.r1f4", "orcs.r2f1", "orcs.r2f2"):
        app.click(_centre(app, mid))
    assert app.doc.board.context["casualties"] == {"Initiative 5": {"orcs": ["r1f1", "r1f2", "r1f3", "r1f4",
                                                                         "r2f1", "r2f2"]}}
    assert app.steps.position() == (0, 4)                          # a removal step now follows
    assert app.recorded().find("line", "fallen:orcs.r1f1")
    key(app, pygame.K_n)                               # casualties removed from the back rank
    b, an, _ = app.app.shown()
    assert len(b.unit("orcs").models()) == 6 and "back rank" in app.steps.caption()
    key(app, pygame.K_n)                               # Initiative 2 on what is left
    b, an, _ = app.app.shown()
    striking = [m for m, r in an.models.items() if m.startswith("orcs.") and r.attacks]
    assert len(striking) == 6 and "Initiative 2" in app.status_line()
    app.click(_centre(app, "orcs.r1f1"))              # marks casualties at this step
    assert app.doc.board.context["casualties"]["Initiative 2"] == {"orcs": ["r1f1"]}
    app.click(_centre(app, "orcs.r1f1"))              # a second click unmarks it
    assert "Initiative 2" not in app.doc.board.context["casualties"]
    key(app, pygame.K_z, pygame.KMOD_CTRL)            # undo goes back to the board, one mark fewer
    assert app.steps.position() is None
    assert len(app.doc.board.context["casualties"]["Initiative 5"]["orcs"]) in (5, 6)
