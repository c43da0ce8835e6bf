"""Crokinole rules engine (rules.md section 2): rounds, games and the match.

Events after the match line (design.md, "Event log"):

- ``{"type": "round", "discs": {"A": [15, 10, 10, 5], "B": [15]}, "twenties": {"A": 1}}``:
  the discs each side has on the board when the round ends, and its 20s.
- ``{"type": "shootout", "hits": {"A": 7, "B": 5}}``: the S-CK1 tie-break, allowed
  only when every game is played and the match is tied on points and 20s.

Shot-level rulings (which discs go to the ditch) are in `scoring.crokinole_shots`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from scoring.crokinole_match import (
    SHOOTOUT_DISCS_PER_SIDE,
    CrokinoleMatch,
    Preset,
    Seat,
    TieBreak,
    match_from_line,
)
from scoring.engine import Engine
from scoring.errors import IllegalStrokeError, InvalidEventError
from scoring.fields import field

DISC_VALUES = (5, 10, 15)  # NCA 6; a 20 is counted in "twenties"


class Termination(str, Enum):
    """What decided the match."""

    POINTS = "points"  # nca: more round points over all games (NCA 2; S-CK1)
    GAMES = "games"  # casual: more games won
    TWENTIES = "twenties"  # tied, more 20s (S-CK1)
    SHOOTOUT = "shootout"  # tied on 20s too, more shoot-out hits (S-CK1)
    DRAW = "draw"  # tied, and the match settings allow a draw


@dataclass(frozen=True)
class Outcome:
    termination: Termination
    winner: str | None  # None for a draw


@dataclass(frozen=True)
class RoundRecord:
    """One scored round; per-side tuples follow `CrokinoleMatch.sides`."""

    starter: Seat
    discs: tuple[tuple[int, ...], tuple[int, ...]]
    twenties: tuple[int, int]
    raw: tuple[int, int]
    points: tuple[int, int]


@dataclass(frozen=True)
class CrokinoleState:
    match: CrokinoleMatch
    games: tuple[tuple[RoundRecord, ...], ...]  # the last one is in play unless all are over
    shootouts: tuple[tuple[int, int], ...] = ()


class CrokinoleEngine(Engine[CrokinoleState]):
    game = "crokinole"
    event_types = frozenset({"round", "shootout"})

    def start(self, match: dict[str, Any]) -> CrokinoleState:
        return CrokinoleState(match=match_from_line(match), games=((),))

    def apply(self, state: CrokinoleState, event: dict[str, Any]) -> CrokinoleState:
        if event["type"] == "shootout":
            return _apply_shootout(state, event)
        return _apply_round(state, event)

    def is_over(self, state: CrokinoleState) -> bool:
        return outcome(state) is not None

    def result(self, state: CrokinoleState) -> dict[str, Any]:
        match = state.match
        decided = outcome(state)
        return {
            "game": self.game,
            "preset": match.preset.value,
            "sides": list(match.sides),
            "winner": _winner_name(decided),
            "outcome": None if decided is None else {
                "termination": decided.termination.value, "winner": _winner_name(decided)
            },
            "games": [_game_result(match, index, rounds) for index, rounds in enumerate(state.games)],
            "points": _by_side(match, match_totals(state)[0]) if match.preset is Preset.NCA else None,
            "games_won": _by_side(match, games_won(state)),
            "twenties": _by_side(match, match_totals(state)[1]),
            "shootouts": [_by_side(match, hits) for hits in state.shootouts],
            "live": _live(state, decided),
        }


def outcome(state: CrokinoleState) -> Outcome | None:
    """The match result, or None while rounds or a shoot-out remain."""
    match = state.match
    if len(state.games) < match.games or not is_game_over(match, state.games[-1]):
        return None
    main = match_totals(state)[0] if match.preset is Preset.NCA else games_won(state)
    main_termination = Termination.POINTS if match.preset is Preset.NCA else Termination.GAMES
    ladder = [(main_termination, main)]
    if match.tiebreak is not TieBreak.NONE:
        ladder.append((Termination.TWENTIES, match_totals(state)[1]))  # S-CK1
    if match.tiebreak is TieBreak.SHOOTOUT:
        ladder.extend((Termination.SHOOTOUT, hits) for hits in state.shootouts)  # S-CK1
    for termination, (a, b) in ladder:
        if a != b:
            return Outcome(termination, match.sides[0] if a > b else match.sides[1])
    if match.tiebreak is TieBreak.SHOOTOUT:
        return None  # a shoot-out (or another, after a tied one) decides
    return Outcome(Termination.DRAW, None)


def is_game_over(match: CrokinoleMatch, rounds: tuple[RoundRecord, ...]) -> bool:
    if match.preset is Preset.NCA:
        return len(rounds) >= match.rounds_per_game  # NCA 2: a game is 4 rounds
    return max(game_points(rounds)) >= match.target  # S-CK1, S-CK2: first to the target


def game_points(rounds: tuple[RoundRecord, ...]) -> tuple[int, int]:
    """Round points (nca) or the casual score of one game."""
    return (sum(r.points[0] for r in rounds), sum(r.points[1] for r in rounds))


def game_winner(match: CrokinoleMatch, rounds: tuple[RoundRecord, ...]) -> str | None:
    """The winning side, "draw" (NCA 2: e.g. 4-4), or None while the game goes on."""
    if not is_game_over(match, rounds):
        return None
    a, b = game_points(rounds)
    if a == b:
        return "draw"
    return match.sides[0] if a > b else match.sides[1]


def match_totals(state: CrokinoleState) -> tuple[tuple[int, int], tuple[int, int]]:
    """(round points, 20s) summed over every round of the match."""
    rounds = [r for game in state.games for r in game]
    points = (sum(r.points[0] for r in rounds), sum(r.points[1] for r in rounds))
    twenties = (sum(r.twenties[0] for r in rounds), sum(r.twenties[1] for r in rounds))
    return points, twenties


def games_won(state: CrokinoleState) -> tuple[int, int]:
    winners = [game_winner(state.match, rounds) for rounds in state.games]
    return tuple(winners.count(side) for side in state.match.sides)


def score_round(match: CrokinoleMatch, raw: tuple[int, int]) -> tuple[int, int]:
    """Points of one round from the raw totals (NCA 2; S-CK1)."""
    a, b = raw
    if match.preset is Preset.NCA:
        return (2, 0) if a > b else (0, 2) if b > a else (1, 1)  # NCA 2: 2/1/0
    # S-CK1: only the higher side scores, the difference; a tie scores nothing.
    return (a - b, 0) if a > b else (0, b - a)


def _apply_round(state: CrokinoleState, event: dict[str, Any]) -> CrokinoleState:
    match = state.match
    if is_game_over(match, state.games[-1]):
        raise IllegalStrokeError(
            "every game is played and the match is tied on points and 20s: "
            "a 'shootout' event decides it (S-CK1)"
        )
    field(event, "discs", dict)  # required, even if empty: a forgotten field is not a 0-0 round
    discs = _per_side(match, event, "discs", list, [])
    twenties = _per_side(match, event, "twenties", int, 0)
    for side, values, sunk in zip(match.sides, discs, twenties):
        bad = [v for v in values if type(v) is not int or v not in DISC_VALUES]
        if bad:
            hint = "; 20s go in 'twenties'" if 20 in bad else (
                "; a disc touching the outer line is in the ditch (WCC): leave it out" if 0 in bad else ""
            )
            raise InvalidEventError(f"discs of {side!r}: values must be 5, 10 or 15, got {bad}{hint}")
        if sunk < 0:
            raise InvalidEventError(f"twenties of {side!r} must be >= 0, got {sunk}")
        if len(values) + sunk > match.discs_per_side:
            raise IllegalStrokeError(
                f"{side!r} has {len(values)} discs on the board and {sunk} 20s, but shoots only "
                f"{match.discs_per_side} discs a round (NCA 4/5; S-CK1)"
            )
    # NCA 6: discs score their zone, each 20 scores 20.
    raw = tuple(sum(values) + 20 * sunk for values, sunk in zip(discs, twenties))
    game_index, rounds = len(state.games) - 1, state.games[-1]
    record = RoundRecord(
        starter=match.starter(game_index, len(rounds)),
        discs=tuple(tuple(values) for values in discs),
        twenties=tuple(twenties),
        raw=raw,
        points=score_round(match, raw),
    )
    games = (*state.games[:-1], (*rounds, record))
    if is_game_over(match, games[-1]) and len(games) < match.games:
        games = (*games, ())
    return replace(state, games=games)


def _apply_shootout(state: CrokinoleState, event: dict[str, Any]) -> CrokinoleState:
    match = state.match
    if not is_game_over(match, state.games[-1]) or len(state.games) < match.games:
        raise IllegalStrokeError("a shoot-out comes only after every game is played (S-CK1)")
    field(event, "hits", dict)
    hits = _per_side(match, event, "hits", int, None)
    for side, n in zip(match.sides, hits):
        if n < 0:
            raise InvalidEventError(f"hits of {side!r} must be >= 0, got {n}")
        if n > SHOOTOUT_DISCS_PER_SIDE:
            raise IllegalStrokeError(
                f"{side!r} scored {n} hits with only {SHOOTOUT_DISCS_PER_SIDE} discs to shoot (S-CK1)"
            )
    return replace(state, shootouts=(*state.shootouts, tuple(hits)))


def _per_side(match: CrokinoleMatch, event: dict[str, Any], name: str, kind: type, default: Any) -> list:
    """An object keyed by side; a side left out takes `default` (None: required)."""
    values = field(event, name, dict, {})
    unknown = set(values) - set(match.sides)
    if unknown:
        raise InvalidEventError(
            f"field {name!r}: unknown sides {sorted(unknown)}; the sides are {list(match.sides)}"
        )
    out = []
    for side in match.sides:
        if side not in values:
            if default is None:
                raise InvalidEventError(f"field {name!r} needs a value for {side!r}")
            out.append(default)
            continue
        value = values[side]
        if type(value) is not kind:
            expected = "a list of disc values" if kind is list else "an integer"
            raise InvalidEventError(
                f"field {name!r}: the value for {side!r} must be {expected}, got {value!r}"
            )
        out.append(value)
    return out


def _by_side(match: CrokinoleMatch, values: tuple) -> dict[str, Any]:
    return dict(zip(match.sides, values))


def _winner_name(decided: Outcome | None) -> str | None:
    if decided is None:
        return None
    return decided.winner if decided.winner is not None else "draw"


def _seat_fields(seat: Seat) -> dict[str, Any]:
    fields = {"starter": seat.side}
    if seat.player is not None:
        fields["starter_player"] = seat.player
    return fields


def _game_result(match: CrokinoleMatch, index: int, rounds: tuple[RoundRecord, ...]) -> dict[str, Any]:
    points = game_points(rounds)
    raw = (sum(r.raw[0] for r in rounds), sum(r.raw[1] for r in rounds))
    return {
        "winner": game_winner(match, rounds),
        "points": _by_side(match, points),
        # nca: raw totals of the game; casual: the score that runs to the target
        "score": _by_side(match, raw if match.preset is Preset.NCA else points),
        "raw_total": _by_side(match, raw),
        "twenties": _by_side(match, (sum(r.twenties[0] for r in rounds), sum(r.twenties[1] for r in rounds))),
        "first_starter": _seat_fields(match.starter(index, 0))["starter"],
        "rounds": [
            {
                "raw": _by_side(match, r.raw),
                "points": _by_side(match, r.points),
                "twenties": _by_side(match, r.twenties),
                "discs": _by_side(match, tuple(list(values) for values in r.discs)),
                **_seat_fields(r.starter),
            }
            for r in rounds
        ],
    }


def _live(state: CrokinoleState, decided: Outcome | None) -> dict[str, Any]:
    match = state.match
    live: dict[str, Any] = {"discs_per_side": match.discs_per_side, "shootout_required": False}
    if decided is not None:
        return {**live, "game": None, "round": None, "starter": None}
    game_index, rounds = len(state.games) - 1, state.games[-1]
    if is_game_over(match, rounds):
        return {**live, "game": None, "round": None, "starter": None, "shootout_required": True}
    return {
        **live,
        "game": game_index + 1,
        "round": len(rounds) + 1,
        **_seat_fields(match.starter(game_index, len(rounds))),
    }
