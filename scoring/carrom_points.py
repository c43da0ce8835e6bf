"""Carrom board end: who wins a board and by how many points (ICF 52-55, 102-112).

`last_coin_end` decides the boards that end on a stroke pocketing a last coin;
`board_points` is the general formula every board end goes through.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

QueenBefore = Literal["on_board", "pending", "covered_by_striker", "covered_by_opponent"]
QueenTo = Literal["winner", "loser", "none"]

QUEEN_POINTS = 3  # ICF 52b
QUEEN_VOID_FROM = 22  # ICF 52b(i), 54: the queen counts while the score is 21 or less
BOARD_CAP = 12  # ICF 55
SPECIAL_FLOOR_AT_22 = 1  # ICF 102-112: "3 points, or 1 point if 22 or more"


@dataclass(frozen=True)
class LastCoinStroke:
    """What a stroke did, seen from the striking side P against its opponent O."""

    own_last: bool  # P's last C/m went in
    opponent_last: bool  # O's last C/m went in
    striker: bool
    improper: bool
    queen_pocketed: bool
    queen_before: QueenBefore  # "pending": P is covering the queen with this stroke
    own_left: int  # P's C/m on the board after the stroke's pockets
    opponent_left: int


@dataclass(frozen=True)
class BoardEnd:
    """A board result: `striker_wins` says whether the striking side P won."""

    striker_wins: bool
    base_points: int
    extra_allowed: int  # on-demand points the winner may claim (ICF 87b)
    queen_to: QueenTo
    rule: str


def special_points(winner_score_before: int) -> int:
    """ICF 102-112: 3 points, or 1 if the receiving side has 22 or more."""
    return SPECIAL_FLOOR_AT_22 if winner_score_before >= QUEEN_VOID_FROM else QUEEN_POINTS


def coins_and_queen(coins: int, queen_to_winner: bool, winner_score_before: int) -> int:
    """Loser's coins plus the queen's 3 while the winner had 21 or less (ICF 52b, 53, 54)."""
    queen = QUEEN_POINTS if queen_to_winner and winner_score_before < QUEEN_VOID_FROM else 0
    return coins + queen


def board_points(base_points: int, extra_points: int) -> int:
    """Points written for a board: base plus on-demand extra, capped at 12 (ICF 55, 87b)."""
    return min(base_points + extra_points, BOARD_CAP)


def last_coin_end(stroke: LastCoinStroke, p_score: int, o_score: int) -> BoardEnd | None:
    """The board end of a stroke that pockets a last C/m, or None if the board goes on.

    Covers the special table of ICF 102-112 (DCV Q-11 to Q-21) and the gaps A2/A3
    of rules.md; the ordinary "P pockets his last coin" ends go through
    `ordinary_end`. Scores are those before the board.
    """
    s = stroke
    on_demand = (2 if s.improper else 1) if s.striker else (1 if s.improper else 0)
    covering = s.queen_before == "pending"

    if s.striker:
        if s.own_last and s.opponent_last:
            if s.queen_before == "covered_by_striker":
                # ICF 110: the board goes to O for 1 point.
                return BoardEnd(False, 1, on_demand, "loser", "110")
            if s.queen_before == "covered_by_opponent":
                # ICF 112 (DCV Q-21 omits the 22 clause; rules.md D4 follows ICF).
                return BoardEnd(False, special_points(o_score), on_demand, "winner", "112")
            # ICF 109 (queen pocketed with both lasts); rules.md A3 when it stays on the board.
            return BoardEnd(False, special_points(o_score), on_demand, "none", "109" if s.queen_pocketed else "A3")
        if s.opponent_last and s.queen_before in ("on_board", "pending"):
            # ICF 111: O wins P's coins + 3; coins only once O has 22.
            return BoardEnd(False, coins_and_queen(s.own_left, True, o_score), on_demand, "winner", "111")
        if s.own_last and s.queen_before == "on_board" and not s.queen_pocketed:
            # ICF 108: P's last with the striker while the queen is on the board.
            return BoardEnd(False, special_points(o_score), on_demand, "none", "108")
        return None  # the striker returns P's coins (ICF 73-75): the board goes on

    if s.own_last and s.opponent_last:
        if covering:
            # ICF 102a/b: P wins if proper, O if improper; 3, or 1 at 22 or more.
            return _proper_or_not(s, p_score, o_score, on_demand, "102")
        if s.queen_pocketed:
            return _proper_or_not(s, p_score, o_score, on_demand, "104")  # ICF 104a/b
        if s.queen_before == "on_board":
            return BoardEnd(False, special_points(o_score), on_demand, "none", "105")  # ICF 105a/b
        # rules.md A2: the queen already covered; P wins on the general formula, at least 1.
        covered_by_p = s.queen_before == "covered_by_striker"
        if s.improper:
            return BoardEnd(False, max(1, coins_and_queen(0, not covered_by_p, o_score)), on_demand,
                            "loser" if covered_by_p else "winner", "A2")
        return BoardEnd(True, max(1, coins_and_queen(0, covered_by_p, p_score)), 0,
                        "winner" if covered_by_p else "loser", "A2")
    if s.opponent_last and (covering or s.queen_before == "on_board" or s.queen_pocketed):
        # ICF 103 (while covering) and 106 (queen on the board): O wins P's coins + 3.
        return BoardEnd(False, coins_and_queen(s.own_left, True, o_score), on_demand, "winner",
                        "103" if covering else "106")
    if s.own_last and s.queen_before == "on_board" and not s.queen_pocketed:
        # ICF 107: O wins 3 (not his coins), or 1 at 22 or more.
        return BoardEnd(False, special_points(o_score), on_demand, "none", "107")
    return None


def _proper_or_not(s: LastCoinStroke, p_score: int, o_score: int, on_demand: int, rule: str) -> BoardEnd:
    if s.improper:
        return BoardEnd(False, special_points(o_score), on_demand, "none", rule + "b")
    return BoardEnd(True, special_points(p_score), 0, "winner", rule + "a")


def ordinary_end(loser_coins_left: int, queen_to: QueenTo, winner_score_before: int) -> int:
    """ICF 52-54: the loser's C/m left plus 3 for a queen the winner covered (under 22)."""
    return coins_and_queen(loser_coins_left, queen_to == "winner", winner_score_before)
