"""K01-K04: where a disc at rest scores, through the board geometry and the shot ruling."""

import math

import pytest

from calibration.geometry import load_board
from scoring.crokinole_shots import RemovalReason, ShotFacts, resolve_shot

BOARD = load_board("crokinole")
DISC_R = BOARD.disc_diameter_mm / 2
HALF_LINE = BOARD.line_width_mm / 2
TOUCH_MM = 0.2  # how far the disc's edge reaches over the line's inner edge


def _at(distance_mm: float) -> int:
    angle = 1.1
    return BOARD.zone_value(distance_mm * math.cos(angle), distance_mm * math.sin(angle), DISC_R)


def _touching(line_value: int) -> float:
    """Centre distance of a disc inside a line whose edge just reaches the line."""
    return BOARD.line_radii_mm()[line_value] - HALF_LINE - DISC_R + TOUCH_MM


def test_K01_touching_the_15_10_line_scores_10():
    assert _at(_touching(15) - 2 * TOUCH_MM) == 15  # just clear of the line: still 15
    assert _at(_touching(15)) == 10


def test_K02_touching_the_10_5_line_scores_5():
    assert _at(_touching(10) - 2 * TOUCH_MM) == 10
    assert _at(_touching(10)) == 5


def test_K03_touching_the_outer_line_goes_to_the_ditch():
    assert _at(_touching(5) - 2 * TOUCH_MM) == 5
    zone = _at(_touching(5))
    assert zone == 0
    facts = ShotFacts(
        shooter="A", shot_disc="a1", owners={"a1": "A", "b1": "B"},
        on_board_before=frozenset({"b1"}), struck=frozenset({"b1"}),
        zones_after={"a1": 15, "b1": zone},
    )
    outcome = resolve_shot(facts)
    assert [(r.disc, r.reason) for r in outcome.removals] == [("b1", RemovalReason.OUTER_LINE)]
    assert "b1" not in outcome.board_after


@pytest.mark.parametrize("offset_mm", [0.0, BOARD.hole_diameter_mm / 2, DISC_R])
def test_K04_a_disc_leaning_into_the_hole_stays_and_scores_15(offset_mm):
    zone = _at(offset_mm)
    assert zone == 15
    facts = ShotFacts(shooter="A", shot_disc="a1", owners={"a1": "A"}, zones_after={"a1": zone})
    outcome = resolve_shot(facts)
    assert outcome.board_after == {"a1": 15}
    assert outcome.twenties == ()
