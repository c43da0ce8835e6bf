"""The teams' colours as a video has read them so far.

The colours of one reading tell the teams apart where both lie on the board in
numbers. A video can do better: each reading with enough pieces of a team brings
that team's colour up to date, so it follows the camera's light as it drifts, and
later readings may ask it what a faint or lone piece is.
"""

from __future__ import annotations

import numpy as np

from vision.pieces import BoardReading

MIN_TEAM_PIECES = 2
"""A team's colour is learnt from at least this many of its pieces (one may be another kind misnamed)."""

LIGHTNESS_WEIGHT = 0.25
"""Weight of L* against a*b* in a colour's distance from a learnt one: the light across the board changes
lightness more than hue (10 simulated clips: weights 0.25 to 0.5 named the shooter best, 1.0 worst)."""


def learnt_team_colours(team_lab: dict[str, np.ndarray], reading: BoardReading, *, teams: tuple[str, ...],
                        min_pieces: int = MIN_TEAM_PIECES) -> dict[str, np.ndarray]:
    """The colours known after `reading`: each of `teams` as read now where it has `min_pieces` or more pieces, the
    rest (other kinds too) as before."""
    learnt = dict(team_lab)
    for team in teams:
        if sum(p.kind == team for p in reading.pieces) >= min_pieces and team in reading.colours_lab:
            learnt[team] = np.asarray(reading.colours_lab[team], np.float64)
    return learnt


def colour_distance(colour_lab: np.ndarray, sample_lab: np.ndarray) -> np.ndarray:
    """Distance of each 8-bit Lab colour from a sample, lightness weighted down (`LIGHTNESS_WEIGHT`)."""
    d = np.asarray(colour_lab, np.float64).reshape(-1, 3) - np.asarray(sample_lab, np.float64)
    return np.sqrt((LIGHTNESS_WEIGHT * d[:, 0]) ** 2 + d[:, 1] ** 2 + d[:, 2] ** 2)
