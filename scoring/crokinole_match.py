"""A crokinole match's settings, read from the match line: preset, seats, discs, who starts.

Match line (design.md, "Event log")::

    {"type": "match", "game": "crokinole", "preset": "nca", "sides": ["A", "B"],
     "rounds": 4, "games": 1, "players": {"A": ["Ann", "Al"], "B": ["Bo", "Bea"]},
     "first": "A", "tiebreak": "shootout", "rotation": "clockwise"}

`target` (casual, default 100) replaces `rounds` (nca, default 4). `discs_per_side`
overrides the preset's allocation.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from scoring.errors import InvalidEventError
from scoring.fields import count, field, one_of


class Preset(str, Enum):
    NCA = "nca"  # games of 4 rounds, round points 2/1/0 (NCA 2)
    CASUAL = "casual"  # difference scoring to a target (S-CK1, S-CK2)


class Rotation(str, Enum):
    """How the start of a round moves in a 4-seat game (rules.md 2.5, K24)."""

    CLOCKWISE = "clockwise"  # NCA 5; S-CK2: to the left of the previous starter
    LAST_SHOOTER = "last_shooter"  # S-CK1: whoever shot last starts, i.e. counter-clockwise ⚠️


class TieBreak(str, Enum):
    """How a match tied on its main count is decided (S-CK1 tournament version)."""

    SHOOTOUT = "shootout"  # more 20s, then a shoot-out at the hole
    TWENTIES = "twenties"  # more 20s, else a draw
    NONE = "none"  # a draw


#: Discs shot at one round's end to decide a tie, per side (S-CK1: 12 for two
#: players, 6 per player for four).
SHOOTOUT_DISCS_PER_SIDE = 12


@dataclass(frozen=True)
class Seat:
    side: str
    player: str | None


@dataclass(frozen=True)
class CrokinoleMatch:
    """Settings of one match; `seats` run clockwise, the order of play (WCC; S-CK2)."""

    preset: Preset
    sides: tuple[str, str]
    seats: tuple[Seat, ...]
    first_seat: int
    rounds_per_game: int | None
    target: int | None
    games: int
    discs_per_side: int
    tiebreak: TieBreak
    rotation: Rotation = Rotation.CLOCKWISE

    @property
    def is_doubles(self) -> bool:
        return len(self.seats) == 4

    def starter(self, game_index: int, round_index: int) -> Seat:
        """The seat that shoots first in a round (0-based game and round).

        NCA 4 (singles): rounds alternate within a game and the first starter
        alternates from game to game. NCA 5 (doubles): the start moves clockwise
        each round and the starting team alternates from game to game; here game
        g opens at seat g (clockwise from the first), so over four games every
        player opens once ⚠️ (the seat that opens later games is not specified).
        S-CK1's "last shooter starts" moves the start counter-clockwise instead.
        """
        step = 1 if self.rotation is Rotation.CLOCKWISE else -1
        return self.seats[(self.first_seat + game_index + step * round_index) % len(self.seats)]

    def other(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]


def match_from_line(match: dict[str, Any]) -> CrokinoleMatch:
    """Validate a crokinole match line into its settings; raises InvalidEventError."""
    preset = Preset(one_of(match, "preset", tuple(p.value for p in Preset), Preset.NCA.value))
    sides = _sides(match)
    if preset is Preset.NCA:
        _reject(match, "target", "the nca preset plays a fixed number of rounds ('rounds')")
        rounds_per_game, target = _positive(match, "rounds", 4), None  # NCA 2
    else:
        _reject(match, "rounds", "the casual preset plays to a 'target' score")
        rounds_per_game, target = None, _positive(match, "target", 100)  # S-CK2
    players = _players(match, sides, preset)
    seats = _seats(sides, players)
    first = one_of(match, "first", sides, sides[0])
    discs = count(match, "discs_per_side", _discs_per_side(preset, players))
    if discs == 0:
        raise InvalidEventError("field 'discs_per_side' must be at least 1")
    return CrokinoleMatch(
        preset=preset,
        sides=sides,
        seats=seats,
        first_seat=next(i for i, seat in enumerate(seats) if seat.side == first),
        rounds_per_game=rounds_per_game,
        target=target,
        games=_positive(match, "games", 1),
        discs_per_side=discs,
        tiebreak=TieBreak(
            one_of(match, "tiebreak", tuple(t.value for t in TieBreak), TieBreak.SHOOTOUT.value)
        ),
        rotation=Rotation(
            one_of(match, "rotation", tuple(r.value for r in Rotation), Rotation.CLOCKWISE.value)
        ),
    )


def _sides(match: dict[str, Any]) -> tuple[str, str]:
    sides = field(match, "sides", list, ["A", "B"])
    if len(sides) != 2 or not all(isinstance(s, str) and s for s in sides) or sides[0] == sides[1]:
        raise InvalidEventError(f"field 'sides' must be two different names, got {sides!r}")
    return sides[0], sides[1]


def _reject(match: dict[str, Any], name: str, why: str) -> None:
    if name in match:
        raise InvalidEventError(f"field {name!r} does not apply: {why}")


def _positive(match: dict[str, Any], name: str, default: int) -> int:
    value = count(match, name, default)
    if value == 0:
        raise InvalidEventError(f"field {name!r} must be at least 1")
    return value


def _players(match: dict[str, Any], sides: tuple[str, str], preset: Preset) -> dict[str, list[str]]:
    players = field(match, "players", dict, None)
    if players is None:
        return {side: [] for side in sides}
    if set(players) != set(sides):
        raise InvalidEventError(f"field 'players' must name the players of both sides {list(sides)}")
    for side, names in players.items():
        if not isinstance(names, list) or not 1 <= len(names) <= 2 or not all(
            isinstance(n, str) and n for n in names
        ):
            raise InvalidEventError(f"players of {side!r} must be a list of 1 or 2 names, got {names!r}")
    sizes = sorted(len(players[side]) for side in sides)
    if sizes == [1, 2] and preset is Preset.NCA:
        raise InvalidEventError("players: a 1-against-2 game is casual only (S-CK1)")
    return {side: list(players[side]) for side in sides}


def _seats(sides: tuple[str, str], players: dict[str, list[str]]) -> tuple[Seat, ...]:
    """Clockwise seats; partners sit opposite (NCA 5); a lone player of a 1-against-2
    game plays both seats of its side (S-CK1)."""
    a, b = (players[side] or [None] for side in sides)
    if len(a) == len(b) == 1:
        return (Seat(sides[0], a[0]), Seat(sides[1], b[0]))
    a, b = (names * 2 if len(names) == 1 else names for names in (a, b))
    return (Seat(sides[0], a[0]), Seat(sides[1], b[0]), Seat(sides[0], a[1]), Seat(sides[1], b[1]))


def _discs_per_side(preset: Preset, players: dict[str, list[str]]) -> int:
    """NCA 4/5: 8 discs each in singles, 6 per player (12 per team) in doubles;
    casual (S-CK1, S-CK2): 12 per side, shared by partners."""
    doubles = any(len(names) == 2 for names in players.values())
    if preset is Preset.NCA:
        return 12 if doubles else 8
    return 12
