"""The window keeps the garbage collector out of the frames the user acts in: held while
active (only the youngest generation collected, every so many frames), a full collection and a
freeze once idle, a freeze after loading (a fake gc module records what is asked)."""
from game.window.collector import Collector


class FakeGC:
    def __init__(self):
        self.calls, self.enabled, self.young = [], True, 0

    def get_count(self):
        return (self.young, 0, 0)

    def collect(self, generation=2):
        self.calls.append(("collect", generation))

    def freeze(self):
        self.calls.append(("freeze",))

    def disable(self):
        self.enabled = False
        self.calls.append(("disable",))

    def enable(self):
        self.enabled = True
        self.calls.append(("enable",))


def test_loading_freezes_what_is_alive():
    fake = FakeGC()
    Collector(fake).loaded()
    assert fake.calls == [("collect", 2), ("freeze",)]


def test_no_full_collection_while_the_user_acts_then_one_when_idle():
    fake = FakeGC()
    c = Collector(fake, young_limit=1000)
    fake.young = 900
    for _ in range(5000):  # a long drag: what is young stays under the limit
        c.frame(active=True)
        assert not fake.enabled
    assert fake.calls == [("disable",)]  # no collection at all while the user acts
    fake.young = 1001  # cyclic garbage piling up after all: the young generation only
    c.frame(active=True)
    assert fake.calls[-1] == ("collect", 0)
    fake.calls.clear()
    c.frame(active=False)
    assert fake.calls == [("collect", 2), ("freeze",), ("enable",)] and fake.enabled
    fake.calls.clear()
    c.frame(active=False)  # still idle: nothing more
    assert fake.calls == []


def test_release_turns_the_collector_back_on():
    fake = FakeGC()
    c = Collector(fake)
    c.frame(active=True)
    c.release()
    assert fake.enabled
