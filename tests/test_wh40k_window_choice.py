"""The window lets the player choose who fights next (seeds/003 Fight: "players alternate
selecting one friendly unit that is eligible to fight"): at a selection step of the Fight
phase steps, a click on another unit the player could select chooses it (an undoable edit of
``context.fight_order``), and the phase is worked out again from there."""
import pygame

from apputil import SCENARIOS, key, make_app


def _model_of(app, uid):
    b, _, _ = app.app.shown()
    return b.unit(uid).models()[0].center


def test_click_chooses_the_unit_that_fights_next():
    app = make_app(SCENARIOS / "wh40k_fight_phase.yaml")
    assert "fight_order" not in app.doc.board.context
    key(app, pygame.K_n)
    for _ in range(6):
        if "1st selection" in app.steps.caption():
            break
        key(app, pygame.K_n)
    assert "1st selection" in app.steps.caption() and "Monster" in app.steps.caption()
    assert "could select Assault squad (B) instead" in app.steps.caption()
    assert app.steps.caption().endswith("Click one of their models to choose it.")  # the window says how
    at = app.steps.position()[0]
    app.click(_model_of(app, "assault_squad"))
    assert app.doc.board.context["fight_order"] == ["assault_squad"]
    assert app.steps.position() is not None and app.steps.position()[0] == at
    assert "1st selection" in app.steps.caption() and "Assault squad" in app.steps.caption()
    key(app, pygame.K_z, pygame.KMOD_CTRL)  # undo: the default reading again
    assert "fight_order" not in app.doc.board.context
