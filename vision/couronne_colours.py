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
from vision.team_colours import colour_distance, learnt_team_colours

KINDS_NEEDED = ("pink", "blue", "shooter")

def knows_colours(samples_lab: dict[str, np.ndarray] | None) -> bool:
    """True when `samples_lab` holds a colour for both teams and the shooter."""
    return bool(samples_lab) and all(kind in samples_lab for kind in KINDS_NEEDED)


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

    A team's colour is its rings' median where it has `vision.team_colours.MIN_TEAM_PIECES` or more;
    the shooter's, its own where one shooter lies among rings of both teams (with
    no rings to compare, a lone piece is named by size alone).
    """
    learnt = learnt_team_colours(samples_lab, reading, teams=("pink", "blue"))
    by_kind = {kind: [p for p in reading.pieces if p.kind == kind] for kind in KINDS_NEEDED}
    if len(by_kind["shooter"]) == 1 and by_kind["pink"] and by_kind["blue"]:
        learnt["shooter"] = np.asarray(reading.colours_lab["shooter"], np.float64)
    return learnt
