"""The rules engine as the referee of a simulated match, fed one event at a time.

Replaying the whole log after every stroke would cost time growing with the
square of the match length; the referee keeps the engine's state and applies
each new event once. The final score is still `scoring.replay` of the whole
log (see `Referee.final_score`), the same function `boardreader score` uses.
"""

from __future__ import annotations

from typing import Any

from scoring import replay, replay_state


class Referee:
    """The event log of a match and the rules engine's result after its last event.

    Parameters
    ----------
    match_line : dict
        The first line of the log (`{"type": "match", ...}`).
    """

    def __init__(self, match_line: dict[str, Any]):
        self.log: list[dict[str, Any]] = [match_line]
        self._engine, self._state = replay_state(self.log)
        self.result: dict[str, Any] = self._engine.result(self._state)

    @property
    def is_over(self) -> bool:
        return self._engine.is_over(self._state)

    def add(self, event: dict[str, Any]) -> dict[str, Any]:
        """Append `event` to the log and return the engine's result after it."""
        self._state = self._engine.apply(self._state, event)
        self.log.append(event)
        self.result = self._engine.result(self._state)
        return self.result

    def final_score(self) -> dict[str, Any]:
        """The score of the whole log replayed from the start."""
        return replay(self.log)
