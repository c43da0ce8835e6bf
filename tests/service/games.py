"""Event scripts per game for the service tests: a match line, an event that changes nothing
decisive (repeatable), and one that changes the score."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameScript:
    game: str
    match: dict[str, Any]
    quiet: dict[str, Any]
    scoring: dict[str, Any]
    #: How many `scoring` events a match takes before it could end.
    scoring_budget: int


SCRIPTS = (
    GameScript(
        game="carrom",
        match={"type": "match", "game": "carrom", "preset": "icf", "sides": ["Asha", "Bilal"]},
        quiet={"type": "stroke", "pocketed": [], "striker": False, "foul": False},
        scoring={"type": "board", "winner": "Asha", "opponent_coins_left": 2, "queen": "none"},
        scoring_budget=5,
    ),
    GameScript(
        game="crokinole",
        match={"type": "match", "game": "crokinole", "preset": "casual", "sides": ["Asha", "Bilal"], "target": 100000},
        quiet={"type": "round", "discs": {"Asha": [], "Bilal": []}, "twenties": {"Asha": 0, "Bilal": 0}},
        scoring={"type": "round", "discs": {"Asha": [15, 5], "Bilal": [10]}, "twenties": {"Asha": 1, "Bilal": 0}},
        scoring_budget=100,
    ),
    GameScript(
        game="couronne",
        match={"type": "match", "game": "couronne", "sides": ["pink", "blue"], "rings": 12},
        quiet={"type": "stroke", "pocketed": {"own": 0, "opponent": 0}, "shooter_pocketed": False,
               "shooter_off_board": False, "off_board": {"own": 0, "opponent": 0}},
        scoring={"type": "stroke", "pocketed": {"own": 1, "opponent": 0}, "shooter_pocketed": False,
                 "shooter_off_board": False, "off_board": {"own": 0, "opponent": 0}},
        scoring_budget=4,
    ),
)
