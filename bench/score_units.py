"""Scores compared as the issue counts them: per board (carrom), round (crokinole) or game (couronne).

A carrom board is exact when its result is (winner, points, queen, the score after it);
its stroke count is left out, since a false or missed stroke already counts against the
events. A crokinole round is exact with its discs, 20s, raw scores and points; a couronne
match is one game, exact when the engine's result (less its live state) is.
"""

from __future__ import annotations

from typing import Any

UNIT_NAMES = {"carrom": "boards", "crokinole": "rounds", "couronne": "games"}
NOT_SCORED = ("strokes",)  # carrom board fields that are not the board's score


def score_units(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The finished boards, rounds or games of a rules-engine result, in play order.

    Parameters
    ----------
    result : dict
        A rules engine's result (`score.json`, or `truth.json`'s "score").

    Returns
    -------
    list of dict
        One entry per finished unit; a couronne game counts once it has a winner.
    """
    game = result["game"]
    if game == "carrom":
        return [{k: v for k, v in board.items() if k not in NOT_SCORED}
                for played in result.get("games", []) for board in played["boards"]]
    if game == "crokinole":
        return [played_round for played in result.get("games", []) for played_round in played["rounds"]]
    if result.get("winner") is None:
        return []
    return [{k: v for k, v in result.items() if k != "live"}]


def units_exact(observed: dict[str, Any], truth: dict[str, Any]) -> tuple[int, int]:
    """(units exactly as in the truth, units in the truth), compared in play order."""
    ours, true = score_units(observed), score_units(truth)
    return sum(a == b for a, b in zip(ours, true)), len(true)
