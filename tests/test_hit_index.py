"""The hover hit-test goes through a spatial index (a grid of base boxes) and finds the same
model as testing every base, last drawn first: overlapping bases, round and square, big ones."""
import random

from game.core import geometry as g
from game.render import drawn
from game.render.drawn import DrawnModel, HitIndex, model_at


def brute(models, p):
    for dm in reversed(models):
        s = dm.shape
        if isinstance(s, g.Circle):
            if g.dist(p, s.center) <= s.radius_mm:
                return dm
        elif g.point_in_poly(p, s.points):
            return dm
    return None


def table(r: random.Random, n: int) -> list:
    out = []
    for i in range(n):
        c = (r.uniform(0, 600), r.uniform(0, 400))
        if r.random() < 0.3:
            shape = g.Circle(c, r.choice([12.5, 20.0, 60.0]))
        else:
            shape = g.rect(c, r.choice([20.0, 25.0, 150.0]), r.choice([20.0, 50.0]), r.uniform(0, 360))
        out.append(DrawnModel(f"u{i % 7}.m{i}", None, shape, "none"))
    return out


def test_the_index_finds_what_testing_every_base_finds():
    r = random.Random(25)
    for n in (64, 300, 2000):
        models = table(r, n)
        for _ in range(400):
            p = (r.uniform(-20, 620), r.uniform(-20, 420))
            assert model_at(models, p) is brute(models, p)


def test_one_index_per_list_of_drawn_models(monkeypatch):
    built = []
    real = HitIndex.__init__

    def counting(self, models):
        built.append(1)
        real(self, models)
    monkeypatch.setattr(HitIndex, "__init__", counting)
    monkeypatch.setattr(drawn, "_INDEXES", [])
    models = table(random.Random(3), 500)
    for k in range(50):
        model_at(models, (k * 7.0, 100.0))
    assert len(built) == 1
    models2 = table(random.Random(4), 500)  # a new list (the table changed): a new index
    model_at(models2, (1.0, 1.0))
    assert len(built) == 2
