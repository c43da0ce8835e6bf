"""Couronne stroke rulings (rules.md 3.2, S-CO "Strafen"): what one stroke does to the turn.

A pure function of the stroke and the striking side's count of defensive pushes;
the engine (`scoring.couronne`) keeps the rings, debts and the end of the game.
Several penalties can apply to one stroke and they add up (S-CO).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.errors import InvalidEventError
from scoring.fields import field

#: 2-player games: defensive pushes allowed per player; the next one is penalised (S-CO Sonderregel).
FREE_DEFENSIVE_PUSHES = 4

#: Where a ring is put back on the board, keyed as in the `to_place` live field.
CENTRE = "centre_circle"  # placed by the opponent anywhere in the centre circle
CENTRE_BEST = "centre_circle_best"  # at the spot in the centre circle best for the opponent
CORNER_FIELD = "corner_field"  # a round corner field


@dataclass(frozen=True)
class Stroke:
    """One stroke as seen: counts of rings of the striking side ("own") and of the other."""

    pocketed_own: int = 0
    pocketed_opponent: int = 0
    shooter_pocketed: bool = False
    shooter_off_board: bool = False
    off_board_own: int = 0
    off_board_opponent: int = 0
    defensive_push: bool = False
    pushed: int = 1  # opponent rings moved by a defensive push


@dataclass(frozen=True)
class StrokeRuling:
    """What the rules make of one stroke.

    Attributes
    ----------
    returns : int
        The striker's pocketed rings that must come back to the centre circle.
    ends_turn : bool
        A penalty took away the next stroke.
    earns_stroke : bool
        An own ring went in and nothing ended the turn (S-CO: another stroke).
    placements_own, placements_opponent : tuple[tuple[str, int], ...]
        Rings of each colour put back on the board by where they go (`CENTRE`...),
        not counting `returns`, whose rings may not be in a pocket yet.
    penalties : tuple[str, ...]
        The rules that applied, by name, for the audit trail.
    pushes : int
        The striker's defensive pushes including this stroke.
    """

    returns: int
    ends_turn: bool
    earns_stroke: bool
    placements_own: tuple[tuple[str, int], ...]
    placements_opponent: tuple[tuple[str, int], ...]
    penalties: tuple[str, ...]
    pushes: int


def stroke_from_event(event: dict[str, Any]) -> Stroke:
    """Read a stroke event; raises InvalidEventError naming the bad field."""
    pocketed = _counts(event, "pocketed")
    off_board = _counts(event, "off_board")
    stroke = Stroke(
        pocketed_own=pocketed["own"],
        pocketed_opponent=pocketed["opponent"],
        shooter_pocketed=field(event, "shooter_pocketed", bool, False),
        shooter_off_board=field(event, "shooter_off_board", bool, False),
        off_board_own=off_board["own"],
        off_board_opponent=off_board["opponent"],
        defensive_push=field(event, "defensive_push", bool, False),
        pushed=field(event, "pushed", int, 1),
    )
    if stroke.shooter_pocketed and stroke.shooter_off_board:
        raise InvalidEventError("the striker ring cannot be both pocketed and off the board")
    if stroke.pushed < 1:
        raise InvalidEventError(f"field 'pushed' must be at least 1, got {stroke.pushed}")
    if "pushed" in event and not stroke.defensive_push:
        raise InvalidEventError("field 'pushed' needs 'defensive_push': true")
    return stroke


def rule_stroke(stroke: Stroke, *, team_game: bool, pushes_before: int = 0) -> StrokeRuling:
    """Apply the S-CO penalties to one stroke.

    Parameters
    ----------
    stroke : Stroke
        What the stroke did.
    team_game : bool
        Teams of two (or three players); defensive play is then free and a ring
        knocked off goes to the nearest corner field.
    pushes_before : int
        The striker's defensive pushes before this stroke (2-player games).

    Returns
    -------
    StrokeRuling

    Examples
    --------
    >>> rule_stroke(Stroke(pocketed_own=1), team_game=False).earns_stroke
    True
    >>> rule_stroke(Stroke(pocketed_own=1, shooter_pocketed=True), team_game=False).returns
    1
    """
    returns, ends_turn, penalties = 0, False, []
    own, opponent = {}, {}
    if stroke.pocketed_own and stroke.pocketed_opponent:
        # S-CO Strafen 1: the opponent keeps his rings and puts one of the striker's back.
        returns, ends_turn = returns + 1, True
        penalties.append("own and opponent rings pocketed (S-CO Strafen 1)")
    elif stroke.pocketed_opponent:
        ends_turn = True  # S-CO Strafen 2: credited to the opponent, turn over
        penalties.append("only opponent rings pocketed (S-CO Strafen 2)")
    if stroke.shooter_pocketed:
        # S-CO Strafen 3: a ring out of a pocket into the centre, even if an own ring went in.
        returns, ends_turn = returns + 1, True
        penalties.append("striker ring pocketed (S-CO Strafen 3)")
    if stroke.shooter_off_board:
        # S-CO Strafen 4: "a ring from any pocket"; taken to be the offender's ⚠️.
        returns, ends_turn = returns + 1, True
        penalties.append("striker ring off the board (S-CO Strafen 4)")
    if stroke.off_board_own:
        # S-CO Strafen 5: placed in the centre circle; the seed does not end the turn ⚠️.
        own[CENTRE] = own.get(CENTRE, 0) + stroke.off_board_own
        penalties.append("own ring off the board (S-CO Strafen 5)")
    if stroke.off_board_opponent:
        # S-CO Strafen 6: nearest corner field (teams) or one on the offender's side (2 players).
        opponent[CORNER_FIELD] = opponent.get(CORNER_FIELD, 0) + stroke.off_board_opponent
        ends_turn = True
        penalties.append("opponent ring off the board (S-CO Strafen 6)")
    pushes = pushes_before
    if stroke.defensive_push and not team_game:
        pushes += 1
        if pushes > FREE_DEFENSIVE_PUSHES:
            # S-CO Sonderregel: the 5th push and later; the pushed ring(s) go to the
            # opponent's best spot in the centre, turn over whatever else happened.
            opponent[CENTRE_BEST] = opponent.get(CENTRE_BEST, 0) + stroke.pushed
            ends_turn = True
            penalties.append(f"defensive push number {pushes} (S-CO Sonderregel)")
    return StrokeRuling(
        returns=returns,
        ends_turn=ends_turn,
        earns_stroke=stroke.pocketed_own > 0 and not ends_turn,
        placements_own=tuple(sorted(own.items())),
        placements_opponent=tuple(sorted(opponent.items())),
        penalties=tuple(penalties),
        pushes=pushes,
    )


def _counts(event: dict[str, Any], name: str) -> dict[str, int]:
    value = field(event, name, dict, {})
    unknown = set(value) - {"own", "opponent"}
    if unknown:
        raise InvalidEventError(f"field {name!r}: unknown keys {sorted(unknown)}; expected 'own', 'opponent'")
    out = {}
    for key in ("own", "opponent"):
        n = value.get(key, 0)
        if type(n) is not int or n < 0:
            raise InvalidEventError(f"field {name!r}: {key!r} must be a count >= 0, got {n!r}")
        out[key] = n
    return out
