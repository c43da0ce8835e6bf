"""Couronne: the teams' and the shooter's colours as learnt from a video, and the shooter told by them.

Late in a game a team may have one ring left. Told apart by the colours of one
reading alone, that ring is a group of one, no team, and stands apart like the
shooter; a natural-wood shooter and a pink ring are a few hue units apart. The
colours of the three kinds read earlier in the same video tell them apart: each
reading with both teams on the board brings them up to date, so they follow the
camera's light as it drifts.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from vision.piece_detections import PieceDetections
from vision.pieces import BoardReading

KINDS_NEEDED = ("pink", "blue", "shooter")

LIGHTNESS_WEIGHT = 0.25
"""Weight of L* against a*b* in a colour's distance from a learnt one: the light across the board changes
lightness more than hue (10 simulated clips: weights 0.25 to 0.5 named the shooter best, 1.0 worst)."""

MIN_TEAM_PIECES = 2
"""A team's colour is learnt from at least this many of its rings (one may be the shooter misnamed)."""


def knows_colours(samples_lab: dict[str, np.ndarray] | None) -> bool:
    """True when `samples_lab` holds a colour for both teams and the shooter."""
    return bool(samples_lab) and all(kind in samples_lab for kind in KINDS_NEEDED)


def colour_distance(colour_lab: np.ndarray, sample_lab: np.ndarray) -> np.ndarray:
    """Distance of each 8-bit Lab colour from a sample, lightness weighted down (`LIGHTNESS_WEIGHT`)."""
    d = np.asarray(colour_lab, np.float64).reshape(-1, 3) - np.asarray(sample_lab, np.float64)
    return np.sqrt((LIGHTNESS_WEIGHT * d[:, 0]) ** 2 + d[:, 1] ** 2 + d[:, 2] ** 2)


def shooter_by_samples(found: PieceDetections, samples_lab: dict[str, np.ndarray]) -> PieceDetections:
    """The detections with the shooter named again by the learnt colours (`size` 1 for it, 0 for the rest).

    The shooter is the piece whose colour is nearest the shooter's against the
    nearer team's, if it is nearer the shooter's at all; otherwise none is on the board.

    Parameters
    ----------
    found : PieceDetections of a couronne board.
    samples_lab : kind -> 8-bit Lab colour, with the colours of both teams and the shooter.
    """
    if not knows_colours(samples_lab):
        raise ValueError(f"colours of {', '.join(KINDS_NEEDED)} are needed, got {sorted(samples_lab)}")
    size = np.zeros(len(found), int)
    if len(found):
        to_shooter = colour_distance(found.colour_lab, samples_lab["shooter"])
        to_team = np.minimum(colour_distance(found.colour_lab, samples_lab["pink"]),
                             colour_distance(found.colour_lab, samples_lab["blue"]))
        nearest = int(np.argmin(to_shooter - to_team))
        size[nearest] = int(to_shooter[nearest] < to_team[nearest])
    return dataclasses.replace(found, size=size)


def learnt_colours(samples_lab: dict[str, np.ndarray], reading: BoardReading) -> dict[str, np.ndarray]:
    """The colours known after `reading`: each kind's as read where it can be trusted, the rest as before.

    A team's colour is its rings' median where it has `MIN_TEAM_PIECES` or more;
    the shooter's, its own where one shooter lies among rings of both teams (with
    no rings to compare, a lone piece is named by size alone).
    """
    learnt = dict(samples_lab)
    by_kind = {kind: [p for p in reading.pieces if p.kind == kind] for kind in KINDS_NEEDED}
    for team in ("pink", "blue"):
        if len(by_kind[team]) >= MIN_TEAM_PIECES and team in reading.colours_lab:
            learnt[team] = np.asarray(reading.colours_lab[team], np.float64)
    if len(by_kind["shooter"]) == 1 and by_kind["pink"] and by_kind["blue"]:
        learnt["shooter"] = np.asarray(reading.colours_lab["shooter"], np.float64)
    return learnt
