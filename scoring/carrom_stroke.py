"""One carrom stroke resolved by the ICF Laws: coins returned, dues, the queen, the turn.

Pure functions over a `BoardState`; the board end itself is decided in
`carrom_points`, and the game and match flow in `carrom`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from scoring.errors import IllegalStrokeError

COLOURS = ("white", "black")
COINS_PER_COLOUR = 9
QueenStatus = Literal["on_board", "pending", "covered"]


@dataclass(frozen=True)
class Stroke:
    """A stroke as vision sees it plus what only an umpire can say (`improper`, ICF 64)."""

    own: int
    opponent: int
    queen: bool
    striker: bool
    improper: bool
    touched: bool  # the striker touched a C/m (break validity, ICF 44/45)
    is_pass: bool  # the player declined to play (ICF 137)
    extra_points: int  # on-demand points claimed if the stroke ends the board (ICF 87b)


@dataclass(frozen=True)
class BoardState:
    """One board in play. Per-colour and per-side counts are dicts that are never mutated."""

    breaker_seat: int
    turn_seat: int
    white_side: str
    on_board: dict[str, int]
    pocketed: dict[str, int]
    to_place: dict[str, int]  # C/m taken out of the pockets, to be placed before the next stroke
    queen: QueenStatus
    queen_side: str | None  # who is covering (pending) or covered it
    queen_to_place: bool
    has_pocketed_own: dict[str, bool]  # the right to take the queen (ICF 92, 95c)
    dues: dict[str, int]  # outstanding dues and penalties (ICF 72c)
    strokes: int = 0
    break_attempts: int = 0
    break_done: bool = False
    passes: int = 0
    due_coins_taken: dict[str, int] | None = None  # per side, taken out for dues by the last stroke (ICF 87a)

    def colour_of(self, side: str) -> str:
        return "white" if side == self.white_side else "black"


def new_board(breaker_seat: int, breaker_side: str, sides: tuple[str, str]) -> BoardState:
    # ICF 43: whoever breaks plays white for the board.
    return BoardState(
        breaker_seat=breaker_seat,
        turn_seat=breaker_seat,
        white_side=breaker_side,
        on_board={c: COINS_PER_COLOUR for c in COLOURS},
        pocketed={c: 0 for c in COLOURS},
        to_place={c: 0 for c in COLOURS},
        queen="on_board",
        queen_side=None,
        queen_to_place=False,
        has_pocketed_own={s: False for s in sides},
        dues={s: 0 for s in sides},
    )


@dataclass(frozen=True)
class StrokeOutcome:
    board: BoardState
    turn_continues: bool
    rule: str


def place_pending(board: BoardState) -> BoardState:
    """Coins and the queen taken out are on the board before the next stroke (ICF 78-83)."""
    if not any(board.to_place.values()) and not board.queen_to_place:
        return board
    return replace(
        board,
        on_board={c: board.on_board[c] + board.to_place[c] for c in COLOURS},
        to_place={c: 0 for c in COLOURS},
        queen_to_place=False,
        due_coins_taken=None,
    )


def check_possible(board: BoardState, side: str, stroke: Stroke) -> None:
    own, opp = board.colour_of(side), board.colour_of(_other(board, side))
    for colour, n in ((own, stroke.own), (opp, stroke.opponent)):
        if n > board.on_board[colour]:
            raise IllegalStrokeError(
                f"{n} {colour} pocketed but only {board.on_board[colour]} {colour} on the board"
            )
    if stroke.queen and board.queen != "on_board":
        raise IllegalStrokeError("queen pocketed but it is not on the board")


def resolve(board: BoardState, side: str, stroke: Stroke) -> StrokeOutcome:
    """Apply a stroke by `side` (the striking side P) that did not end the board."""
    opponent = _other(board, side)
    own, opp = board.colour_of(side), board.colour_of(opponent)
    is_break = not board.break_done
    all_nine_on_board = board.on_board[own] == COINS_PER_COLOUR

    # Everything that went in is pocketed first; returns are taken out again below.
    on_board = {own: board.on_board[own] - stroke.own, opp: board.on_board[opp] - stroke.opponent}
    pocketed = {own: board.pocketed[own] + stroke.own, opp: board.pocketed[opp] + stroke.opponent}
    returned_own = 0
    new_dues = 0
    queen, queen_side, queen_to_place = board.queen, board.queen_side, False
    has_pocketed_own = dict(board.has_pocketed_own)
    if stroke.own:
        has_pocketed_own[side] = True

    if is_break and (stroke.improper or (stroke.striker and not stroke.touched)):
        # ICF 45c: an improper break, or the striker pocketed without touching a C/m:
        # no due, no penalty, turn lost; what the breaker pocketed comes back.
        returned_own = stroke.own
        queen_to_place = stroke.queen
        continues, rule = False, "45c"
    elif stroke.striker or stroke.improper:
        returned_own = stroke.own
        new_dues = 2 if stroke.improper and stroke.striker else 1
        continues = stroke.striker and not stroke.improper and stroke.own > 0
        rule = _striker_or_foul_rule(stroke)
        if stroke.queen:
            queen_to_place = True
            if stroke.striker and not stroke.improper and all_nine_on_board:
                continues, rule = False, "95d"  # queen + striker with all nine on the board
            elif stroke.striker and not stroke.improper:
                continues, rule = True, ("98a" if stroke.own else "99a")
            else:
                rule = "98b" if stroke.striker and stroke.own else ("99b" if stroke.striker else "64b")
        elif board.queen == "pending":
            if stroke.striker and stroke.own and not stroke.improper:
                rule = "101a"  # the queen waits for the next stroke's own C/m
            else:
                queen, queen_side, queen_to_place = "on_board", None, True
                rule = {True: "100b", False: "100a"}[stroke.improper] if stroke.striker and not stroke.own else (
                    "101b" if stroke.striker else "64b"
                )
    else:
        continues = stroke.own > 0
        rule = "48"
        if stroke.queen:
            right = board.has_pocketed_own[side] or stroke.own > 0  # ICF 92, 95c
            if board.dues[side] > 0:
                queen_to_place, continues, rule = True, False, "95b"
            elif not right:
                queen_to_place, continues, rule = True, False, "95a"
            elif stroke.own >= 2 or (stroke.own == 1 and not (is_break or all_nine_on_board)):
                queen, queen_side, rule = "covered", side, "97a"
            else:
                # ICF 96/97b: covered only by an own C/m in the next stroke.
                queen, queen_side, continues, rule = "pending", side, True, "97b" if stroke.own else "96"
        elif board.queen == "pending":
            if stroke.own:
                queen, rule = "covered", "97a"
            else:
                queen, queen_side, queen_to_place, rule = "on_board", None, True, "96"

    if queen_to_place:
        queen, queen_side = "on_board", None
    if returned_own:
        pocketed[own] -= returned_own
    to_place = {own: returned_own, opp: 0}
    dues = {side: board.dues[side] + new_dues, opponent: board.dues[opponent]}
    # ICF 72c, 78a: dues are taken out of the pockets as soon as coins are there.
    due_coins_taken = {}
    for payer, colour in ((side, own), (opponent, opp)):
        paid = min(dues[payer], pocketed[colour])
        pocketed[colour] -= paid
        to_place[colour] += paid
        dues[payer] -= paid
        due_coins_taken[payer] = paid

    next_board = replace(
        board,
        on_board=on_board,
        pocketed=pocketed,
        to_place=to_place,
        queen=queen,
        queen_side=queen_side,
        queen_to_place=queen_to_place,
        has_pocketed_own=has_pocketed_own,
        dues=dues,
        strokes=board.strokes + 1,
        break_done=True,
        passes=board.passes + 1 if stroke.is_pass else 0,
        due_coins_taken=due_coins_taken,
    )
    return StrokeOutcome(next_board, continues, rule)


def forgo_dues(board: BoardState, payer: str) -> BoardState:
    """ICF 87a: the beneficiary forgoes all dues and penalties of `payer` (all or none)."""
    colour = board.colour_of(payer)
    taken = (board.due_coins_taken or {}).get(payer, 0)
    return replace(
        board,
        pocketed={**board.pocketed, colour: board.pocketed[colour] + taken},
        to_place={**board.to_place, colour: board.to_place[colour] - taken},
        dues={**board.dues, payer: 0},
        due_coins_taken={**(board.due_coins_taken or {}), payer: 0},
    )


def _striker_or_foul_rule(stroke: Stroke) -> str:
    if stroke.improper:
        if stroke.striker:
            return "77b" if stroke.own else "72b"
        return "77a" if stroke.own else "76"
    if stroke.own and stroke.opponent:
        return "75"
    if stroke.own:
        return "73"
    return "74" if stroke.opponent else "72a"


def _other(board: BoardState, side: str) -> str:
    return next(s for s in board.dues if s != side)
