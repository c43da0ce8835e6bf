"""Crokinole shot validity and removals (rules.md 2.3), resolved after everything has stopped.

A pure function for the vision layer and the simulator: given what a shot did
(`ShotFacts`), say which discs go to the ditch and which 20s are scored
(`ShotOutcome`). Zone values follow NCA 6: a disc scores the lowest zone it
touches, 20 only for a disc lying flat and fully in the hole, 0 for a disc
touching the outer (shooting) line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from scoring.errors import InvalidEventError

ZONE_VALUES = (0, 5, 10, 15, 20)


class Requirement(str, Enum):
    """What made a shot valid (or what it failed)."""

    OPPONENT_CONTACT = "opponent_contact"  # NCA 3a
    PLAY_TO_MIDDLE = "play_to_middle"  # NCA 3b
    NONE = "none"  # casual play without the open-board rule (S-CK1)


class RemovalReason(str, Enum):
    INVALID_SHOT = "invalid_shot"  # NCA 3c
    LEFT_SURFACE = "left_surface"  # WCC; S-CK1, S-CK2
    OUTER_LINE = "outer_line"  # WCC; S-CK1, S-CK2


@dataclass(frozen=True)
class ShotFacts:
    """What one shot did, as seen once every disc has stopped.

    Attributes
    ----------
    shooter : str
        The side that shot.
    shot_disc : str
        Id of the disc shot (not on the board before the shot).
    owners : Mapping[str, str]
        Owner side of every disc named anywhere below, the shot disc included.
    on_board_before : frozenset[str]
        Discs on the playing surface before the shot (not the ditch, not 20s set aside).
    struck : frozenset[str]
        Discs the shot disc moved, directly or through a chain of struck discs
        (combination); pegs do not count.
    zones_after : Mapping[str, int]
        Zone value of every disc still on the surface or in the hole afterwards:
        20 (flat, fully in the hole), 15, 10, 5, or 0 (touching the outer line).
        A disc that is not listed ended in the ditch.
    touching_fifteen_line : frozenset[str]
        Discs of zone 10 whose edge touches the 15 line (they count as "in" for NCA 3b).
    left_surface : frozenset[str]
        Discs that left the raised surface at any moment, even if they came back.
    """

    shooter: str
    shot_disc: str
    owners: Mapping[str, str]
    on_board_before: frozenset[str] = frozenset()
    struck: frozenset[str] = frozenset()
    zones_after: Mapping[str, int] = field(default_factory=dict)
    touching_fifteen_line: frozenset[str] = frozenset()
    left_surface: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        for name in ("on_board_before", "struck", "touching_fifteen_line", "left_surface"):
            object.__setattr__(self, name, frozenset(getattr(self, name)))
        known = set(self.owners)
        named = (
            {self.shot_disc} | self.on_board_before | self.struck | set(self.zones_after)
            | self.touching_fifteen_line | self.left_surface
        )
        if named - known:
            raise InvalidEventError(f"owners: no owner given for discs {sorted(named - known)}")
        if self.owners[self.shot_disc] != self.shooter:
            raise InvalidEventError(
                f"shot_disc: {self.shot_disc!r} belongs to {self.owners[self.shot_disc]!r}, "
                f"not to the shooter {self.shooter!r}"
            )
        if self.shot_disc in self.on_board_before:
            raise InvalidEventError("on_board_before: the shot disc is shot from the line, not the board")
        if not self.struck <= self.on_board_before:
            raise InvalidEventError(
                f"struck: discs {sorted(self.struck - self.on_board_before)} were not on the board"
            )
        moved = self.on_board_before | {self.shot_disc}
        if not set(self.zones_after) <= moved:
            raise InvalidEventError(
                f"zones_after: discs {sorted(set(self.zones_after) - moved)} were not in play"
            )
        bad = {d: z for d, z in self.zones_after.items() if z not in ZONE_VALUES}
        if bad:
            raise InvalidEventError(f"zones_after: values must be one of {ZONE_VALUES}; got {bad}")
        if any(self.zones_after.get(d) != 10 for d in self.touching_fifteen_line):
            raise InvalidEventError("touching_fifteen_line: only discs of zone 10 can touch the 15 line")
        if not self.left_surface <= moved:
            raise InvalidEventError("left_surface: only discs in play can leave the surface")


@dataclass(frozen=True)
class Removal:
    disc: str
    reason: RemovalReason


@dataclass(frozen=True)
class ShotOutcome:
    """The ruling on one shot.

    Attributes
    ----------
    is_valid : bool
        False when NCA 3a or 3b was not met (the shot disc and every disc it
        struck went to the ditch, NCA 3c).
    requirement : Requirement
        The rule the shot had to meet.
    removals : tuple[Removal, ...]
        Discs still on the surface or in the hole that this ruling puts in the
        ditch, in disc id order.
    twenties : tuple[str, ...]
        Discs set aside as 20s (each scores 20 for its owner, NCA 2).
    board_after : Mapping[str, int]
        Zone value of every disc left on the playing surface.
    """

    is_valid: bool
    requirement: Requirement
    removals: tuple[Removal, ...]
    twenties: tuple[str, ...]
    board_after: Mapping[str, int]

    def twenties_by_side(self, owners: Mapping[str, str]) -> dict[str, int]:
        """Count of 20s per owner side."""
        counts: dict[str, int] = {}
        for disc in self.twenties:
            counts[owners[disc]] = counts.get(owners[disc], 0) + 1
        return counts


def resolve_shot(facts: ShotFacts, *, open_board_rule: bool = True) -> ShotOutcome:
    """Rule on one shot: is it valid, which discs go to the ditch, which 20s count.

    Parameters
    ----------
    facts : ShotFacts
        What the shot did.
    open_board_rule : bool
        Apply NCA 3b when no opponent disc is on the board (NCA, WCC, S-CK2).
        Casual play after S-CK1 has no such rule.

    Returns
    -------
    ShotOutcome

    Examples
    --------
    A shot into the hole on an empty board scores a 20 for its owner:

    >>> facts = ShotFacts(shooter="A", shot_disc="a1", owners={"a1": "A"}, zones_after={"a1": 20})
    >>> resolve_shot(facts).twenties
    ('a1',)
    """
    opponent_on_board = any(facts.owners[d] != facts.shooter for d in facts.on_board_before)
    involved = facts.struck | {facts.shot_disc}
    if opponent_on_board:
        # NCA 3a: an opponent disc must be hit, directly or by combination through own
        # discs; any opponent disc in the contact chain was first hit by a shooter's disc.
        requirement = Requirement.OPPONENT_CONTACT
        is_valid = any(facts.owners[d] != facts.shooter for d in facts.struck)
    elif open_board_rule:
        # NCA 3b: the shot disc or a disc it struck ends in or touching the 15 line;
        # the hole counts as inside.
        requirement = Requirement.PLAY_TO_MIDDLE
        is_valid = any(
            facts.zones_after.get(d, 0) >= 15 or d in facts.touching_fifteen_line for d in involved
        )
    else:
        requirement, is_valid = Requirement.NONE, True

    reasons: dict[str, RemovalReason] = {}
    if not is_valid:
        # NCA 3c: the shot disc and all discs it struck go to the ditch, 20s included;
        # only the shooter's colour can be among them.
        for disc in involved:
            reasons[disc] = RemovalReason.INVALID_SHOT
    for disc in sorted(facts.left_surface):
        # WCC; S-CK1: off the surface means the ditch, even after bouncing back.
        reasons.setdefault(disc, RemovalReason.LEFT_SURFACE)
    for disc, zone in facts.zones_after.items():
        if zone == 0:
            # WCC; S-CK1, S-CK2: touching the outer line after a shot.
            reasons.setdefault(disc, RemovalReason.OUTER_LINE)

    kept = {d: z for d, z in facts.zones_after.items() if d not in reasons}
    # NCA 2: a flat disc fully in the hole is set aside; the 20 belongs to its owner.
    twenties = tuple(sorted(d for d, z in kept.items() if z == 20))
    board_after = {d: z for d, z in sorted(kept.items()) if z != 20}
    # A disc that already lies in the ditch needs no removal.
    removals = tuple(Removal(d, r) for d, r in sorted(reasons.items()) if d in facts.zones_after)
    return ShotOutcome(is_valid, requirement, removals, twenties, board_after)
