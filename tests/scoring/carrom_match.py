"""A carrom match built stroke by stroke in a test, with pieces named by role.

`own`/`opp` count the coins of the side to stroke and of its opponent, so a test
reads like the rule ("P pockets his last coin and O's last") whoever plays white.
"""

from __future__ import annotations

from typing import Any

from scoring import replay

SIDES = ("A", "B")


class CarromMatch:
    def __init__(self, preset: str = "icf-qf", scores: dict[str, int] | None = None, breaker: str = "A"):
        self.events: list[dict[str, Any]] = [
            {"type": "match", "game": "carrom", "preset": preset, "sides": list(SIDES)}
        ]
        chunks = {side: _chunks((scores or {}).get(side, 0)) for side in SIDES}
        boards = [(side, n) for side in SIDES for n in chunks[side]]
        if len(boards) % 2:
            # The break alternates board by board (ICF 49a): an even number of
            # scoring boards leaves the break with the toss winner.
            side, n = next(((s, n) for s, n in boards if n >= 2), (None, None))
            if side is None:
                breaker = _other(breaker)
            else:
                boards.remove((side, n))
                boards += [(side, n - 1), (side, 1)]
        self.events.append({"type": "toss", "winner": breaker, "choice": "break"})
        for side, points in boards:
            self.events.append({"type": "board", "winner": side, "opponent_coins_left": points, "queen": "none"})

    @property
    def result(self) -> dict[str, Any]:
        return replay(self.events)

    @property
    def live(self) -> dict[str, Any]:
        return self.result["live"]

    @property
    def striker_side(self) -> str:
        return self.live["turn"]

    def stroke(self, own: int = 0, opp: int = 0, queen: bool = False, **fields: Any) -> "CarromMatch":
        live = self.live
        side = live["turn"]
        mine, theirs = live["colours"][side], live["colours"][_other(side)]
        pocketed = [mine] * own + [theirs] * opp + (["queen"] if queen else [])
        self.events.append({"type": "stroke", "pocketed": pocketed, **fields})
        return self

    def miss(self) -> "CarromMatch":
        return self.stroke()

    def last_board(self, game: int = 0) -> dict[str, Any]:
        return self.result["games"][game]["boards"][-1]


def _other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


def _chunks(points: int) -> list[int]:
    """Board results (opponent coins left, 1-9) that add up to `points`."""
    out = []
    while points > 0:
        out.append(min(9, points))
        points -= out[-1]
    return out
