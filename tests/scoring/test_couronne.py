"""R01-R10 and play through `scoring.replay`; malformed strokes; the example log."""

import json
from pathlib import Path

import pytest

from scoring import IllegalStrokeError, InvalidEventError, replay
from scoring.couronne import CouronneEngine

EXAMPLE = Path(__file__).parents[2] / "examples" / "couronne_match.jsonl"


def match(**fields):
    return {"type": "match", "game": "couronne", "sides": ["pink", "blue"], "rings": 12, **fields}


def stroke(own=0, opp=0, **fields):
    return {"type": "stroke", "pocketed": {"own": own, "opponent": opp}, **fields}


MISS = stroke()


def test_R01_an_own_ring_earns_another_stroke():
    result = replay([match(), stroke(own=1)])
    assert result["turn"] == "pink"
    assert result["pocketed"] == {"pink": 1, "blue": 0}
    assert result["rings_left"] == {"pink": 11, "blue": 12}


def test_R02_own_and_opponent_rings_return_one_own_ring_and_end_the_turn():
    result = replay([match(), stroke(own=1), stroke(own=1, opp=1)])
    assert result["pocketed"] == {"pink": 1, "blue": 1}  # 2 in, 1 back; blue keeps its credit
    assert result["live"]["to_place"]["pink"] == {"centre_circle": 1}
    assert result["turn"] == "blue"


def test_R03_only_an_opponent_ring_is_credited_to_the_opponent_and_ends_the_turn():
    result = replay([match(), stroke(opp=2)])
    assert result["pocketed"] == {"pink": 0, "blue": 2}
    assert result["turn"] == "blue"
    assert result["live"]["to_place"] == {"pink": {}, "blue": {}}


def test_R04_striker_and_own_ring_return_a_ring_and_end_the_turn():
    result = replay([match(), stroke(own=1), stroke(own=1, shooter_pocketed=True)])
    assert result["pocketed"] == {"pink": 1, "blue": 0}
    assert result["live"]["to_place"]["pink"] == {"centre_circle": 1}
    assert result["turn"] == "blue"


def test_R05_striker_off_the_board_returns_a_ring_and_ends_the_turn():
    result = replay([match(), stroke(own=2), stroke(shooter_off_board=True)])
    assert result["pocketed"] == {"pink": 1, "blue": 0}
    assert result["live"]["to_place"]["pink"] == {"centre_circle": 1}
    assert result["turn"] == "blue"


def test_R06_an_opponent_ring_off_the_board_goes_to_a_corner_field_and_ends_the_turn():
    result = replay([match(players=2), stroke(own=1, off_board={"opponent": 1})])
    assert result["live"]["to_place"]["blue"] == {"corner_field": 1}
    assert result["rings_left"] == {"pink": 11, "blue": 12}
    assert result["turn"] == "blue"


def test_R07_the_fifth_defensive_push_is_penalised_and_ends_the_turn():
    push = stroke(own=1, defensive_push=True)
    log = [match(players=2)] + [push] * 4
    four = replay(log)
    assert four["turn"] == "pink"  # four pushes are free; the own rings earn strokes
    assert four["live"]["defensive_pushes"] == {"pink": 4, "blue": 0}
    five = replay(log + [push])
    assert five["turn"] == "blue"
    assert five["live"]["to_place"]["blue"] == {"centre_circle_best": 1}
    assert five["pocketed"]["pink"] == 5  # the push penalty takes no own ring back
    assert any("Sonderregel" in p for p in five["live"]["penalties"])


def test_R07_defensive_play_is_free_in_a_team_game():
    push = stroke(own=1, defensive_push=True)
    result = replay([match(players=4)] + [push] * 6)
    assert result["turn"] == "pink"
    assert result["live"]["to_place"]["blue"] == {}


def test_R08_blue_ties_with_its_last_stroke():
    log = [match(rings=3), stroke(own=2), MISS, MISS, stroke(own=1)]
    waiting = replay(log)
    assert waiting["winner"] is None
    assert waiting["turn"] == "blue"
    assert waiting["live"]["last_stroke"]
    result = replay(log + [stroke(own=3)])
    assert result["winner"] == "draw"
    assert result["outcome"] == {"termination": "last_stroke", "winner": "draw"}
    assert result["turn"] is None


def test_R09_pink_wins_when_blue_fails_its_last_stroke():
    log = [match(rings=3), stroke(own=2), MISS, MISS, stroke(own=1), stroke(own=2)]
    result = replay(log)
    assert result["winner"] == "pink"
    assert result["rings_left"] == {"pink": 0, "blue": 1}
    with pytest.raises(IllegalStrokeError, match="after the match ended"):
        replay(log + [stroke(own=1)])


def test_R09_the_last_stroke_is_one_stroke_only():
    result = replay([match(rings=3), stroke(own=3), stroke(own=1)])
    assert result["winner"] == "pink"
    assert result["rings_left"]["blue"] == 2


def test_R10_opponent_ring_and_striker_both_penalise():
    result = replay([match(), stroke(own=1), stroke(opp=1, shooter_pocketed=True)])
    assert result["pocketed"] == {"pink": 0, "blue": 1}
    assert result["live"]["to_place"]["pink"] == {"centre_circle": 1}
    assert len(result["live"]["penalties"]) == 2
    assert result["turn"] == "blue"


def test_several_penalties_add_up():
    result = replay([match(), stroke(own=3), stroke(own=1, opp=1, shooter_pocketed=True)])
    assert result["pocketed"] == {"pink": 2, "blue": 1}  # 4 in, 2 back
    assert result["live"]["to_place"]["pink"] == {"centre_circle": 2}


def test_a_ring_owed_with_none_pocketed_is_paid_once_one_goes_in():
    log = [match(), stroke(shooter_pocketed=True)]
    owing = replay(log)
    assert owing["live"]["debt"] == {"pink": 1, "blue": 0}
    assert owing["turn"] == "blue"
    paid = replay(log + [MISS, stroke(own=2)])
    assert paid["live"]["debt"] == {"pink": 0, "blue": 0}
    assert paid["pocketed"]["pink"] == 1
    assert paid["live"]["to_place"]["pink"] == {"centre_circle": 1}
    assert paid["turn"] == "pink"


def test_a_ring_owed_can_be_paid_from_a_ring_the_opponent_pocketed():
    result = replay([match(), stroke(shooter_off_board=True), stroke(opp=1)])
    assert result["live"]["debt"]["pink"] == 0
    assert result["pocketed"]["pink"] == 0


def test_waive_forgets_a_ring_owed():
    result = replay([match(debt="waive"), stroke(shooter_pocketed=True), MISS, stroke(own=1)])
    assert result["live"]["debt"] == {"pink": 0, "blue": 0}
    assert result["pocketed"]["pink"] == 1


def test_owing_a_ring_keeps_a_side_from_clearing():
    log = [match(rings=2), MISS, stroke(shooter_pocketed=True), MISS, stroke(own=2)]
    result = replay(log)
    assert result["rings_left"]["blue"] == 1
    assert result["winner"] is None


def test_own_ring_off_the_board_goes_to_the_centre_and_keeps_the_turn():
    result = replay([match(), stroke(own=1, off_board={"own": 1})])
    assert result["live"]["to_place"]["pink"] == {"centre_circle": 1}
    assert result["rings_left"]["pink"] == 11
    assert result["turn"] == "pink"


def test_blue_clearing_first_wins_at_once():
    result = replay([match(rings=2), MISS, stroke(own=2)])
    assert result["winner"] == "blue"
    assert result["outcome"]["termination"] == "cleared"


def test_pocketing_the_opponents_last_ring_makes_the_opponent_win():
    result = replay([match(rings=2), MISS, stroke(own=1), MISS, stroke(opp=1)])
    assert result["winner"] == "blue"


def test_the_break_can_leave_the_breaker_to_play_on():
    assert replay([match(), MISS])["turn"] == "blue"
    assert replay([match(break_then_play=True), MISS])["turn"] == "pink"
    assert replay([match(break_then_play=True), MISS, MISS])["turn"] == "blue"
    assert replay([match(break_then_play=True), stroke(opp=1)])["turn"] == "blue"  # a penalty still ends it


def test_the_side_field_is_checked_against_the_turn():
    replay([match(), stroke(side="pink")])
    with pytest.raises(IllegalStrokeError, match="out of turn"):
        replay([match(), stroke(side="blue")])


def test_team_players_alternate_within_a_team():
    players = [replay([match(players=4)] + [MISS] * n)["live"]["player"] for n in range(5)]
    assert players == [1, 1, 2, 2, 1]


@pytest.mark.parametrize(
    ("event", "error", "message"),
    [
        (stroke(own=13), IllegalStrokeError, "only 12 are on the board"),
        (stroke(own=12, off_board={"own": 1}), IllegalStrokeError, "only 12 are on the board"),
        (stroke(opp=7, off_board={"opponent": 6}), IllegalStrokeError, "13 blue rings"),
        (stroke(own=-1), InvalidEventError, "'own' must be a count"),
        (stroke(own=1.0), InvalidEventError, "'own' must be a count"),
        (stroke(own=True), InvalidEventError, "'own' must be a count"),
        ({"type": "stroke", "pocketed": 1}, InvalidEventError, "'pocketed' must be an object"),
        ({"type": "stroke", "pocketed": {"mine": 1}}, InvalidEventError, "unknown keys"),
        (stroke(shooter_pocketed="yes"), InvalidEventError, "'shooter_pocketed' must be true or false"),
        (stroke(shooter_pocketed=True, shooter_off_board=True), InvalidEventError, "both pocketed and off"),
        (stroke(pushed=2), InvalidEventError, "needs 'defensive_push'"),
        (stroke(defensive_push=True, pushed=0), InvalidEventError, "at least 1"),
        (stroke(side=1), InvalidEventError, "'side' must be a string"),
        ({"type": "round"}, InvalidEventError, "unknown event type 'round'"),
    ],
)
def test_malformed_strokes_are_rejected(event, error, message):
    with pytest.raises(error, match=message):
        replay([match(), event])


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"rings": 0}, "at least 1"),
        ({"rings": "12"}, "'rings' must be an integer"),
        ({"players": 5}, "2, 3 or 4"),
        ({"sides": ["pink"]}, "two different names"),
        ({"debt": "never"}, "'debt' must be one of"),
        ({"break_then_play": "yes"}, "'break_then_play' must be true or false"),
    ],
)
def test_malformed_match_lines_are_rejected(fields, message):
    with pytest.raises(InvalidEventError, match=message):
        replay([match(**fields)])


def test_engine_states_are_not_changed_in_place():
    engine = CouronneEngine()
    state = engine.start(match())
    after = engine.apply(state, stroke(own=1))
    assert state.pocketed == (0, 0) and after.pocketed == (1, 0)


def test_the_example_log_replays():
    lines = [json.loads(line) for line in EXAMPLE.read_text().splitlines() if line.strip()]
    result = replay(lines)
    assert result["game"] == "couronne"
    assert result["winner"] in ("pink", "blue", "draw")
