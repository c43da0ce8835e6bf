"""Couronne rules engine (rules.md section 3, Micki's rules = S-CO).

Match line: ``{"type": "match", "game": "couronne", "sides": ["pink", "blue"],
"rings": 12, "players": 2, "debt": "outstanding", "break_then_play": false}``. The first side breaks (S-CO:
pink). Events: ``{"type": "stroke", "pocketed": {"own": 1, "opponent": 0},
"shooter_pocketed": false, "shooter_off_board": false, "off_board": {"own": 0,
"opponent": 0}, "defensive_push": false}``, "own" meaning the striking side's
colour; the striking side follows from the rules (an optional ``"side"`` is checked).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from scoring.couronne_strokes import CENTRE, StrokeRuling, rule_stroke, stroke_from_event
from scoring.engine import Engine
from scoring.errors import IllegalStrokeError, InvalidEventError
from scoring.fields import count, field, one_of


class DebtPolicy(str, Enum):
    """A ring must come back but none of the striker's is pocketed (rules.md 3.3 gap)."""

    OUTSTANDING = "outstanding"  # owed until one is pocketed, then returned (default)
    WAIVE = "waive"  # forgotten


class Termination(str, Enum):
    CLEARED = "cleared"  # a side pocketed all its rings first (S-CO Ziel)
    LAST_STROKE = "last_stroke"  # the breaker cleared; the other side's last stroke decided (S-CO)


@dataclass(frozen=True)
class Outcome:
    termination: Termination
    winner: str | None  # None for a draw


@dataclass(frozen=True)
class CouronneMatch:
    sides: tuple[str, str]  # the first breaks (S-CO: pink)
    rings: int
    players: int
    debt: DebtPolicy
    # The seed reads "the first player breaks; then the player picks a ring of his
    # colour": the break may leave the breaker to play on ⚠️ (rules.md is silent).
    break_then_play: bool = False

    @property
    def is_team_game(self) -> bool:
        return self.players > 2  # S-CO: three players play by the 4-player rules


@dataclass(frozen=True)
class CouronneState:
    """Per-side tuples follow `CouronneMatch.sides`."""

    match: CouronneMatch
    turn: int = 0  # index of the side to stroke; S-CO: pink breaks
    pocketed: tuple[int, int] = (0, 0)
    debt: tuple[int, int] = (0, 0)
    pushes: tuple[int, int] = (0, 0)
    turns_started: tuple[int, int] = (1, 0)
    strokes: int = 0
    last_stroke: bool = False  # the breaker has cleared; this is the other side's one stroke
    ended: Outcome | None = None
    to_place: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]] = ((), ())
    last_penalties: tuple[str, ...] = ()

    def rings_on_board(self, side: int) -> int:
        return self.match.rings - self.pocketed[side]

    def is_cleared(self, side: int) -> bool:
        return self.pocketed[side] == self.match.rings and self.debt[side] == 0


class CouronneEngine(Engine[CouronneState]):
    game = "couronne"
    event_types = frozenset({"stroke"})

    def start(self, match: dict[str, Any]) -> CouronneState:
        sides = field(match, "sides", list, ["pink", "blue"])
        if len(sides) != 2 or not all(isinstance(s, str) and s for s in sides) or sides[0] == sides[1]:
            raise InvalidEventError(f"field 'sides' must be two different names, got {sides!r}")
        rings = count(match, "rings", 12)  # the seed leaves N open (rules.md 3.1)
        if rings == 0:
            raise InvalidEventError("field 'rings' must be at least 1")
        players = count(match, "players", 2)
        if players not in (2, 3, 4):
            raise InvalidEventError(f"field 'players' must be 2, 3 or 4, got {players}")
        policies = tuple(p.value for p in DebtPolicy)
        debt = DebtPolicy(one_of(match, "debt", policies, DebtPolicy.OUTSTANDING.value))
        break_then_play = field(match, "break_then_play", bool, False)
        return CouronneState(match=CouronneMatch((sides[0], sides[1]), rings, players, debt, break_then_play))

    def apply(self, state: CouronneState, event: dict[str, Any]) -> CouronneState:
        match = state.match
        striker, other = state.turn, 1 - state.turn
        named = field(event, "side", str, match.sides[striker])
        if named != match.sides[striker]:
            raise IllegalStrokeError(
                f"{named!r} strokes out of turn: it is {match.sides[striker]!r}'s stroke"
            )
        stroke = stroke_from_event(event)
        for side, k in ((striker, stroke.pocketed_own + stroke.off_board_own),
                        (other, stroke.pocketed_opponent + stroke.off_board_opponent)):
            if k > state.rings_on_board(side):
                raise IllegalStrokeError(
                    f"the stroke moves {k} {match.sides[side]} rings into pockets or off the board, "
                    f"but only {state.rings_on_board(side)} are on the board"
                )
        ruling = rule_stroke(stroke, team_game=match.is_team_game, pushes_before=state.pushes[striker])
        pocketed = _pair(striker, state.pocketed[striker] + stroke.pocketed_own,
                         state.pocketed[other] + stroke.pocketed_opponent)
        owed = _pair(striker, state.debt[striker] + ruling.returns, state.debt[other])
        # Rules.md 3.3 default: a ring owed is returned as soon as one is in a pocket.
        paid = tuple(min(o, p) for o, p in zip(owed, pocketed))
        pocketed = tuple(p - q for p, q in zip(pocketed, paid))
        debt = tuple(o - q for o, q in zip(owed, paid))
        if match.debt is DebtPolicy.WAIVE:
            debt = (0, 0)
        to_place = tuple(
            _placements(placed, returned)
            for placed, returned in zip(
                _pair(striker, ruling.placements_own, ruling.placements_opponent), paid
            )
        )
        after = replace(
            state,
            pocketed=pocketed,
            debt=debt,
            pushes=_pair(striker, ruling.pushes, state.pushes[other]),
            strokes=state.strokes + 1,
            to_place=to_place,
            last_penalties=ruling.penalties,
        )
        return _next_turn(after, striker, ruling)

    def is_over(self, state: CouronneState) -> bool:
        return state.ended is not None

    def result(self, state: CouronneState) -> dict[str, Any]:
        match = state.match
        winner = None
        if state.ended is not None:
            winner = state.ended.winner if state.ended.winner is not None else "draw"
        turn = None if state.ended is not None else match.sides[state.turn]
        live: dict[str, Any] = {
            "turn": turn,
            "to_place": {side: dict(places) for side, places in zip(match.sides, state.to_place)},
            "debt": dict(zip(match.sides, state.debt)),
            "strokes": state.strokes,
            "last_stroke": state.last_stroke,
            "penalties": list(state.last_penalties),
        }
        if not match.is_team_game:
            live["defensive_pushes"] = dict(zip(match.sides, state.pushes))
        elif turn is not None:
            # S-CO: team players alternate clockwise, the turn passing between the teams.
            live["player"] = (state.turns_started[state.turn] - 1) % 2 + 1
        return {
            "game": self.game,
            "sides": list(match.sides),
            "rings": match.rings,
            "winner": winner,
            "outcome": None if state.ended is None else {
                "termination": state.ended.termination.value, "winner": winner
            },
            "rings_left": {side: state.rings_on_board(i) for i, side in enumerate(match.sides)},
            "pocketed": dict(zip(match.sides, state.pocketed)),
            "turn": turn,
            "live": live,
        }


def _next_turn(state: CouronneState, striker: int, ruling: StrokeRuling) -> CouronneState:
    """Who strokes next, or the end of the game (S-CO; rules.md 3.3)."""
    match, other = state.match, 1 - striker
    if state.last_stroke:
        # S-CO: the other side's last stroke after the breaker cleared can only tie.
        winner = None if state.is_cleared(striker) else match.sides[other]
        return replace(state, ended=Outcome(Termination.LAST_STROKE, winner))
    # A stroke that pockets the striker's last ring together with the other side's
    # returns one of the striker's (S-CO Strafen 1), so at most one side clears here.
    cleared = [state.is_cleared(i) for i in (0, 1)]
    if cleared[striker] and striker == 0:
        # S-CO: pink always starts, so blue gets one last stroke that can tie.
        return _pass_turn(replace(state, last_stroke=True), other)
    if any(cleared):
        return replace(state, ended=Outcome(Termination.CLEARED, match.sides[cleared.index(True)]))
    if ruling.earns_stroke:
        return state  # S-CO: another stroke for an own ring
    if state.strokes == 1 and match.break_then_play and not ruling.ends_turn:
        return state  # S-CO: after the break the breaker plays a ring of his colour
    return _pass_turn(state, other)


def _pass_turn(state: CouronneState, side: int) -> CouronneState:
    started = _pair(side, state.turns_started[side] + 1, state.turns_started[1 - side])
    return replace(state, turn=side, turns_started=started)


def _pair(first: int, value_first: Any, value_second: Any) -> tuple[Any, Any]:
    """A per-side pair, given the value of side `first` and of the other side."""
    return (value_first, value_second) if first == 0 else (value_second, value_first)


def _placements(placed: tuple[tuple[str, int], ...], returned: int) -> tuple[tuple[str, int], ...]:
    places = dict(placed)
    if returned:
        places[CENTRE] = places.get(CENTRE, 0) + returned
    return tuple(sorted(places.items()))
