"""K05-K14: shot validity and removals (rules.md 2.3) through `resolve_shot`."""

import pytest

from scoring.crokinole_shots import Removal, RemovalReason, Requirement, ShotFacts, resolve_shot
from scoring.errors import InvalidEventError

OWNERS = {"a1": "A", "a2": "A", "a3": "A", "b1": "B", "b2": "B"}


def shot(**kwargs) -> ShotFacts:
    return ShotFacts(shooter="A", shot_disc="a1", owners=OWNERS, **kwargs)


def removed(outcome) -> dict[str, RemovalReason]:
    return {r.disc: r.reason for r in outcome.removals}


def test_K05_a_flat_disc_fully_in_the_hole_is_a_20_for_its_owner():
    outcome = resolve_shot(shot(zones_after={"a1": 20}))
    assert outcome.is_valid
    assert outcome.twenties == ("a1",)
    assert outcome.twenties_by_side(OWNERS) == {"A": 1}
    assert outcome.board_after == {}
    assert outcome.removals == ()


def test_K06_open_board_shot_short_of_the_15_line_is_removed():
    outcome = resolve_shot(shot(zones_after={"a1": 10}))
    assert not outcome.is_valid
    assert outcome.requirement is Requirement.PLAY_TO_MIDDLE
    assert removed(outcome) == {"a1": RemovalReason.INVALID_SHOT}
    assert outcome.board_after == {}


def test_K07_open_board_shot_touching_the_15_line_stays_and_scores_10():
    outcome = resolve_shot(shot(zones_after={"a1": 10}, touching_fifteen_line=frozenset({"a1"})))
    assert outcome.is_valid
    assert outcome.board_after == {"a1": 10}


def test_K08_open_board_shot_that_knocks_an_own_disc_into_the_15_zone_is_valid():
    outcome = resolve_shot(shot(
        on_board_before=frozenset({"a2"}), struck=frozenset({"a2"}), zones_after={"a1": 10, "a2": 15},
    ))
    assert outcome.is_valid
    assert outcome.board_after == {"a1": 10, "a2": 15}


def test_K09_open_board_shot_leaving_both_discs_outside_the_15_line_removes_both():
    outcome = resolve_shot(shot(
        on_board_before=frozenset({"a2", "a3"}), struck=frozenset({"a2"}),
        zones_after={"a1": 10, "a2": 5, "a3": 15},
    ))
    assert not outcome.is_valid
    assert removed(outcome) == {"a1": RemovalReason.INVALID_SHOT, "a2": RemovalReason.INVALID_SHOT}
    assert outcome.board_after == {"a3": 15}  # an own disc not struck stays


def test_K10_missing_the_opponent_but_hitting_an_own_disc_removes_both():
    outcome = resolve_shot(shot(
        on_board_before=frozenset({"a2", "b1"}), struck=frozenset({"a2"}),
        zones_after={"a1": 15, "a2": 15, "b1": 10},
    ))
    assert not outcome.is_valid
    assert outcome.requirement is Requirement.OPPONENT_CONTACT
    assert removed(outcome) == {"a1": RemovalReason.INVALID_SHOT, "a2": RemovalReason.INVALID_SHOT}
    assert outcome.board_after == {"b1": 10}


def test_K11_straight_into_the_hole_with_opponents_on_the_board_is_no_20():
    outcome = resolve_shot(shot(on_board_before=frozenset({"b1"}), zones_after={"a1": 20, "b1": 5}))
    assert not outcome.is_valid
    assert outcome.twenties == ()
    assert removed(outcome) == {"a1": RemovalReason.INVALID_SHOT}


def test_K12_an_own_disc_knocked_into_an_opponent_disc_is_a_valid_combination():
    outcome = resolve_shot(shot(
        on_board_before=frozenset({"a2", "b1"}), struck=frozenset({"a2", "b1"}),
        zones_after={"a1": 10, "a2": 15, "b1": 5},
    ))
    assert outcome.is_valid
    assert outcome.removals == ()
    assert outcome.board_after == {"a1": 10, "a2": 15, "b1": 5}


def test_K13_an_opponent_disc_knocked_into_the_hole_is_the_opponents_20():
    outcome = resolve_shot(shot(
        on_board_before=frozenset({"b1"}), struck=frozenset({"b1"}), zones_after={"a1": 15, "b1": 20},
    ))
    assert outcome.is_valid
    assert outcome.twenties_by_side(OWNERS) == {"B": 1}
    assert outcome.board_after == {"a1": 15}


def test_K14_a_disc_that_left_the_surface_goes_to_the_ditch_and_what_it_moved_stays():
    outcome = resolve_shot(shot(
        on_board_before=frozenset({"b1", "b2"}), struck=frozenset({"b1", "b2"}),
        zones_after={"a1": 5, "b1": 10, "b2": 15}, left_surface=frozenset({"b1"}),
    ))
    assert outcome.is_valid
    assert removed(outcome) == {"b1": RemovalReason.LEFT_SURFACE}
    assert outcome.board_after == {"a1": 5, "b2": 15}


def test_an_opponents_20_stands_when_the_shot_disc_then_touches_the_outer_line():
    # rules.md 2.7: 4a and 4c apply independently.
    outcome = resolve_shot(shot(
        on_board_before=frozenset({"b1"}), struck=frozenset({"b1"}), zones_after={"a1": 0, "b1": 20},
    ))
    assert outcome.is_valid
    assert removed(outcome) == {"a1": RemovalReason.OUTER_LINE}
    assert outcome.twenties_by_side(OWNERS) == {"B": 1}


def test_an_invalid_shot_that_knocks_an_own_disc_into_the_hole_loses_that_20():
    outcome = resolve_shot(shot(
        on_board_before=frozenset({"a2", "b1"}), struck=frozenset({"a2"}),
        zones_after={"a1": 15, "a2": 20, "b1": 10},
    ))
    assert not outcome.is_valid
    assert outcome.twenties == ()
    assert removed(outcome) == {"a1": RemovalReason.INVALID_SHOT, "a2": RemovalReason.INVALID_SHOT}


def test_a_struck_disc_already_in_the_ditch_needs_no_removal():
    outcome = resolve_shot(shot(
        on_board_before=frozenset({"a2", "b1"}), struck=frozenset({"a2"}), zones_after={"a1": 15, "b1": 10},
    ))
    assert not outcome.is_valid
    assert outcome.removals == (Removal("a1", RemovalReason.INVALID_SHOT),)


def test_casual_play_without_the_open_board_rule_keeps_a_short_shot():
    outcome = resolve_shot(shot(zones_after={"a1": 5}), open_board_rule=False)
    assert outcome.is_valid
    assert outcome.requirement is Requirement.NONE
    assert outcome.board_after == {"a1": 5}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"shot_disc": "b1"}, "not to the shooter"),
        ({"shot_disc": "zz"}, "no owner"),
        ({"on_board_before": frozenset({"a1"})}, "shot from the line"),
        ({"struck": frozenset({"b1"})}, "were not on the board"),
        ({"zones_after": {"b2": 10}}, "were not in play"),
        ({"zones_after": {"a1": 12}}, "values must be one of"),
        ({"zones_after": {"a1": 15}, "touching_fifteen_line": frozenset({"a1"})}, "only discs of zone 10"),
        ({"left_surface": frozenset({"b2"})}, "only discs in play"),
    ],
)
def test_inconsistent_shot_facts_are_rejected(kwargs, message):
    base = {"shooter": "A", "shot_disc": "a1", "owners": OWNERS}
    with pytest.raises(InvalidEventError, match=message):
        ShotFacts(**{**base, **kwargs})
