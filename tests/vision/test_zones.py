"""Crokinole zone values and review flags from a measured disc centre."""

from __future__ import annotations

import pytest

from calibration.geometry import load_board
from vision.zones import REVIEW_TOLERANCE_MM, disc_zone, hole_mask

BOARD = load_board("crokinole")
R = BOARD.disc_diameter_mm / 2
HALF_LINE = BOARD.line_width_mm / 2


def _just_inside(value: int, gap_mm: float) -> float:
    """Distance from the centre of a disc whose edge is `gap_mm` inside the line around zone `value`."""
    return BOARD.line_radii_mm()[value] - HALF_LINE - R - gap_mm


@pytest.mark.parametrize(
    ("distance_mm", "zone", "review"),
    [
        (20.0, 15, False),
        (_just_inside(15, 3.0), 15, False),
        (_just_inside(15, 0.4), 15, True),
        (_just_inside(15, -0.4), 10, True),
        (_just_inside(10, 5.0), 10, False),
        (_just_inside(5, 2.0), 5, False),
        (_just_inside(5, -1.5), 0, False),
        (_just_inside(5, -0.2), 0, True),
    ],
)
def test_zone_and_review(distance_mm, zone, review):
    value, clearance, needs_review = disc_zone(0.0, -distance_mm, board=BOARD)
    assert value == zone
    assert needs_review is review
    assert (abs(clearance) < REVIEW_TOLERANCE_MM) is review


def test_the_hole_is_told_from_a_leaning_disc():
    mask = hole_mask([[0.5, -1.0], [14.0, 5.0], [100.0, 0.0]], board=BOARD)
    assert mask.tolist() == [True, False, False]
    assert disc_zone(14.0, 5.0, board=BOARD)[0] == 15
