"""Carrom rules engine: being written (issue 2)."""

from scoring.engine import Engine


class CarromEngine(Engine):
    game = "carrom"
    event_types = frozenset()

    def start(self, match):
        raise NotImplementedError

    def apply(self, state, event):
        raise NotImplementedError

    def is_over(self, state):
        raise NotImplementedError

    def result(self, state):
        raise NotImplementedError
