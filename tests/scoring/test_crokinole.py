"""K15-K25 and match play through `scoring.replay`; malformed events; the example log."""

import json
from pathlib import Path

import pytest

from scoring import IllegalStrokeError, InvalidEventError, replay
from scoring.crokinole import CrokinoleEngine

EXAMPLE = Path(__file__).parents[2] / "examples" / "crokinole_match.jsonl"


def match(**fields):
    return {"type": "match", "game": "crokinole", "sides": ["A", "B"], **fields}


def round_(a=(), b=(), ta=0, tb=0):
    return {"type": "round", "discs": {"A": list(a), "B": list(b)}, "twenties": {"A": ta, "B": tb}}


WIN_A, WIN_B, TIE = round_(a=[15]), round_(b=[10]), round_(a=[5], b=[5])


def test_K15_casual_the_higher_side_scores_the_difference():
    result = replay([match(preset="casual"), round_(a=[15, 15, 15, 10, 10, 10], b=[15, 15, 10, 10])])
    r = result["games"][0]["rounds"][0]
    assert r["raw"] == {"A": 75, "B": 50}
    assert r["points"] == {"A": 25, "B": 0}
    assert result["games"][0]["score"] == {"A": 25, "B": 0}


@pytest.mark.parametrize(("preset", "points"), [("casual", {"A": 0, "B": 0}), ("nca", {"A": 1, "B": 1})])
def test_K16_a_tied_round(preset, points):
    result = replay([match(preset=preset), round_(a=[15, 10], b=[5], ta=1, tb=2)])
    assert result["games"][0]["rounds"][0]["raw"] == {"A": 45, "B": 45}
    assert result["games"][0]["rounds"][0]["points"] == points


@pytest.mark.parametrize(("preset", "points"), [("casual", {"A": 0, "B": 10}), ("nca", {"A": 0, "B": 2})])
def test_K17_twenties_decide_the_round(preset, points):
    result = replay([match(preset=preset), round_(a=[15, 10, 5], ta=2, b=[10, 10], tb=3)])
    r = result["games"][0]["rounds"][0]
    assert r["raw"] == {"A": 70, "B": 80}
    assert r["points"] == points


def test_K18_round_points_and_twenties_are_recorded():
    result = replay([match(sides=["Red", "Blue"]),
                     {"type": "round", "discs": {"Red": [15, 10], "Blue": [15]}, "twenties": {"Red": 1, "Blue": 3}}])
    r = result["games"][0]["rounds"][0]
    assert r["raw"] == {"Red": 45, "Blue": 75}
    assert r["points"] == {"Red": 0, "Blue": 2}
    assert r["twenties"] == {"Red": 1, "Blue": 3}
    assert result["twenties"] == {"Red": 1, "Blue": 3}


def test_K19_win_loss_tie_win_is_5_to_3():
    result = replay([match(), WIN_A, WIN_B, TIE, WIN_A])
    assert result["games"][0]["points"] == {"A": 5, "B": 3}
    assert result["games"][0]["winner"] == "A"
    assert result["winner"] == "A"
    assert result["outcome"] == {"termination": "points", "winner": "A"}


def test_K20_four_tied_rounds_are_a_drawn_game():
    result = replay([match(tiebreak="none"), TIE, TIE, TIE, TIE])
    assert result["games"][0]["points"] == {"A": 4, "B": 4}
    assert result["games"][0]["winner"] == "draw"
    assert result["winner"] == "draw"


def test_K21_casual_reaching_the_target_wins_the_game():
    on_95 = [match(preset="casual"), round_(a=[15] * 7, b=[10])]
    before = replay(on_95)
    assert before["games"][0]["score"] == {"A": 95, "B": 0}
    assert before["winner"] is None
    log = on_95 + [round_(a=[15], b=[10])]
    result = replay(log)
    assert result["games"][0]["score"] == {"A": 100, "B": 0}
    assert result["games"][0]["winner"] == "A"
    assert result["winner"] == "A"
    with pytest.raises(IllegalStrokeError, match="after the match ended"):
        replay(log + [WIN_B])


@pytest.mark.parametrize(("players", "limit"), [(None, 12), ({"A": ["N", "S"], "B": ["E", "W"]}, 12)])
def test_K22_a_tie_on_points_and_twenties_goes_to_a_shootout(players, limit):
    extra = {"players": players} if players else {}
    log = [match(**extra), WIN_A, WIN_B, round_(a=[5], b=[5], ta=1, tb=1), TIE]
    tied = replay(log)
    assert tied["winner"] is None
    assert tied["live"]["shootout_required"]
    with pytest.raises(IllegalStrokeError, match="shootout"):
        replay(log + [WIN_A])
    again = replay(log + [{"type": "shootout", "hits": {"A": 3, "B": 3}}])
    assert again["winner"] is None
    result = replay(log + [{"type": "shootout", "hits": {"A": 3, "B": 3}}, {"type": "shootout", "hits": {"A": 2, "B": 4}}])
    assert result["winner"] == "B"
    assert result["outcome"]["termination"] == "shootout"
    with pytest.raises(IllegalStrokeError, match=f"only {limit} discs"):
        replay(log + [{"type": "shootout", "hits": {"A": limit + 1, "B": 0}}])


def test_K22_twenties_decide_before_a_shootout():
    result = replay([match(), WIN_A, WIN_B, round_(a=[5], ta=1, b=[15, 10]), TIE])
    assert result["games"][0]["points"] == {"A": 4, "B": 4}
    assert result["winner"] == "A"
    assert result["outcome"]["termination"] == "twenties"


def test_K22_a_shootout_is_refused_while_the_match_is_undecided_or_decided():
    with pytest.raises(IllegalStrokeError, match="after every game"):
        replay([match(), WIN_A, {"type": "shootout", "hits": {"A": 1, "B": 0}}])
    with pytest.raises(IllegalStrokeError, match="after the match ended"):
        replay([match(), WIN_A, WIN_A, WIN_A, WIN_A, {"type": "shootout", "hits": {"A": 1, "B": 0}}])
    with pytest.raises(IllegalStrokeError, match="after the match ended"):
        replay([match(tiebreak="twenties"), TIE, TIE, TIE, TIE, {"type": "shootout", "hits": {"A": 1, "B": 0}}])


def test_K23_singles_the_other_player_starts_round_2_and_game_2():
    log = [match(games=2, players={"A": ["Ann"], "B": ["Bob"]})]
    assert replay(log)["live"] == {
        "discs_per_side": 8, "shootout_required": False, "game": 1, "round": 1,
        "starter": "A", "starter_player": "Ann",
    }
    after_one = replay(log + [WIN_A])
    assert after_one["live"]["starter"] == "B"
    game_two = replay(log + [WIN_A] * 4)
    assert game_two["live"]["game"] == 2
    assert game_two["live"]["starter"] == "B"  # NCA 4: the first starter alternates game to game
    assert [r["starter"] for r in game_two["games"][0]["rounds"]] == ["A", "B", "A", "B"]


def test_K24_doubles_the_start_moves_clockwise():
    log = [match(games=2, players={"A": ["N", "S"], "B": ["E", "W"]})]
    result = replay(log + [WIN_A] * 4 + [WIN_B])
    first = [r["starter_player"] for r in result["games"][0]["rounds"]]
    assert first == ["N", "E", "S", "W"]
    assert result["games"][1]["first_starter"] == "B"  # NCA 5: the starting team alternates
    assert result["games"][1]["rounds"][0]["starter_player"] == "E"
    assert result["live"]["starter_player"] == "S"


def test_K24_s_ck1_last_shooter_rotation_gives_w():
    seats = {"A": ["N", "S"], "B": ["E", "W"]}
    result = replay([match(players=seats, rotation="last_shooter"), WIN_A])
    assert result["live"]["starter_player"] == "W"
    singles = replay([match(rotation="last_shooter"), WIN_A])
    assert singles["live"]["starter"] == "B"  # with two players both rules alternate


def test_first_names_who_starts_the_match():
    assert replay([match(first="B")])["live"]["starter"] == "B"


@pytest.mark.parametrize(
    ("fields", "limit"),
    [
        ({"preset": "nca"}, 8),
        ({"preset": "nca", "players": {"A": ["a1", "a2"], "B": ["b1", "b2"]}}, 12),
        ({"preset": "casual"}, 12),
        ({"preset": "casual", "players": {"A": ["solo"], "B": ["b1", "b2"]}}, 12),
        ({"preset": "nca", "discs_per_side": 6}, 6),
    ],
)
def test_K25_discs_per_side(fields, limit):
    assert replay([match(**fields)])["live"]["discs_per_side"] == limit
    replay([match(**fields), round_(a=[5] * (limit - 1), ta=1)])
    with pytest.raises(IllegalStrokeError, match=f"only {limit} discs"):
        replay([match(**fields), round_(a=[5] * limit, ta=1)])


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"type": "round"}, "needs field 'discs'"),
        ({"type": "round", "discs": [15]}, "'discs' must be an object"),
        ({"type": "round", "discs": {"A": 15}}, "must be a list"),
        ({"type": "round", "discs": {"C": [15]}}, "unknown sides"),
        ({"type": "round", "discs": {"A": [20]}}, "20s go in 'twenties'"),
        ({"type": "round", "discs": {"A": [0]}}, "leave it out"),
        ({"type": "round", "discs": {"A": [7]}}, "5, 10 or 15"),
        ({"type": "round", "discs": {"A": [15.0]}}, "5, 10 or 15"),
        ({"type": "round", "discs": {"A": [True]}}, "5, 10 or 15"),
        ({"type": "round", "discs": {}, "twenties": {"A": -1}}, ">= 0"),
        ({"type": "round", "discs": {}, "twenties": {"A": "1"}}, "must be an integer"),
        ({"type": "round", "discs": {}, "twenties": {"A": True}}, "must be an integer"),
        ({"type": "shot"}, "unknown event type 'shot'"),
        ({"type": 3}, "'type' must be a string"),
    ],
)
def test_malformed_round_events_are_rejected(event, message):
    with pytest.raises(InvalidEventError, match=message):
        replay([match(), event])


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"preset": "open"}, "'preset' must be one of nca, casual"),
        ({"preset": "nca", "target": 100}, "'target' does not apply"),
        ({"preset": "casual", "rounds": 4}, "'rounds' does not apply"),
        ({"rounds": 0}, "at least 1"),
        ({"games": -1}, ">= 0"),
        ({"sides": ["A", "A"]}, "two different names"),
        ({"players": {"A": ["x"]}}, "both sides"),
        ({"players": {"A": ["x", "y", "z"], "B": ["u"]}}, "1 or 2 names"),
        ({"players": {"A": ["x"], "B": ["u", "v"]}}, "casual only"),
        ({"first": "C"}, "'first' must be one of A, B"),
        ({"tiebreak": "coin"}, "'tiebreak' must be one of"),
        ({"rotation": "left"}, "'rotation' must be one of clockwise, last_shooter"),
    ],
)
def test_malformed_match_lines_are_rejected(fields, message):
    with pytest.raises(InvalidEventError, match=message):
        replay([match(**fields)])


def test_a_shootout_needs_hits_for_both_sides():
    log = [match(tiebreak="shootout"), TIE, TIE, TIE, TIE]
    with pytest.raises(InvalidEventError, match="needs field 'hits'"):
        replay(log + [{"type": "shootout"}])
    with pytest.raises(InvalidEventError, match="needs a value for 'B'"):
        replay(log + [{"type": "shootout", "hits": {"A": 2}}])


def test_engine_states_are_not_changed_in_place():
    engine = CrokinoleEngine()
    state = engine.start(match())
    after = engine.apply(state, WIN_A)
    assert state.games == ((),)
    assert len(after.games[0]) == 1


def test_an_nca_match_of_two_games_adds_round_points_over_both():
    result = replay([match(games=2), WIN_A, WIN_A, WIN_B, TIE, WIN_B, WIN_B, WIN_B, WIN_A])
    assert [g["winner"] for g in result["games"]] == ["A", "B"]
    assert result["points"] == {"A": 7, "B": 9}
    assert result["games_won"] == {"A": 1, "B": 1}
    assert result["winner"] == "B"


def test_the_example_log_replays():
    lines = [json.loads(line) for line in EXAMPLE.read_text().splitlines() if line.strip()]
    result = replay(lines)
    assert result["game"] == "crokinole"
    assert result["winner"] in ("A", "B", "draw")
