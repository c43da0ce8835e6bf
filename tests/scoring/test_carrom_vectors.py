"""The carrom test vectors C01-C42 of rules.md section 4, played stroke by stroke."""

import pytest

from scoring import IllegalStrokeError, replay
from tests.scoring.carrom_match import CarromMatch


def covered_then_clear(pre: int, opponent_left: int) -> CarromMatch:
    """P covers the queen, leaves O with `opponent_left` coins, then clears."""
    m = CarromMatch(scores={"A": pre})
    m.stroke(own=2).stroke(queen=True).stroke(own=1)  # ICF 97a: covered by the next own C/m
    if opponent_left < 9:
        m.stroke(own=1, opp=9 - opponent_left)  # own + opponent: the turn goes on (ICF 48)
        return m.stroke(own=5)
    return m.stroke(own=6)


@pytest.mark.parametrize(
    ("vector", "pre", "left", "points", "game_won"),
    [
        ("C01", 21, 6, 9, True),
        ("C02", 22, 6, 6, True),
        ("C03", 19, 2, 5, False),
        ("C04", 24, 1, 1, True),
        ("C05", 21, 1, 4, True),
        ("C07", 0, 9, 12, False),
    ],
)
def test_ordinary_board_points(vector, pre, left, points, game_won):
    m = covered_then_clear(pre, left)
    game = m.result["games"][0]
    board = game["boards"][-1]
    assert board["winner"] == "A"
    assert board["points"] == points
    assert game["score"]["A"] == pre + points
    assert (game["winner"] == "A") is game_won


def test_C06_queen_covered_by_the_loser_counts_for_nobody():
    m = CarromMatch()
    m.stroke(own=1).stroke(queen=True).stroke(own=1).miss()  # A covers, then misses
    m.stroke(opp=2)  # B pockets two of A's coins: they stay pocketed, B's turn ends (ICF 48)
    m.miss()
    m.stroke(own=9)
    board = m.last_board()
    assert (board["winner"], board["points"], board["queen"]) == ("B", 5, "loser")


def test_C08_cap_of_12_binds_with_extra_points_ICF_111b():
    m = CarromMatch(scores={"B": 10}, breaker="B")
    m.stroke(own=8).miss()  # B has one coin left; A has all nine on the board
    m.stroke(opp=1, striker=True, foul=True, extra_points=2)
    board = m.last_board()
    assert (board["winner"], board["rule"], board["base_points"], board["points"]) == ("B", "111", 12, 12)
    assert board["score_after"]["B"] == 22


def board_after(strokes, scores=None, breaker="A"):
    m = CarromMatch(scores=scores, breaker=breaker)
    for stroke in strokes:
        m.stroke(**stroke)
    return m.last_board()


@pytest.mark.parametrize(
    ("vector", "scores", "strokes", "winner", "points", "rule"),
    [
        # While covering: P's last + O's last (ICF 102a/b)
        ("C13", {"A": 15}, [dict(own=8, opp=8), dict(queen=True), dict(own=1, opp=1)], "A", 3, "102a"),
        ("C14", {"A": 22}, [dict(own=8, opp=8), dict(queen=True), dict(own=1, opp=1)], "A", 1, "102a"),
        ("C15", {"B": 10},
         [dict(own=8, opp=8), dict(queen=True), dict(own=1, opp=1, foul=True, extra_points=1)], "B", 4, "102b"),
        # While covering, P pockets O's last (ICF 103)
        ("C16", {"B": 10}, [dict(own=5, opp=8), dict(queen=True), dict(opp=1)], "B", 7, "103"),
        ("C17", {"B": 23}, [dict(own=5, opp=8), dict(queen=True), dict(opp=1)], "B", 4, "103"),
        # Queen + P's last + O's last (ICF 104a)
        ("C18", {"A": 20}, [dict(own=8, opp=8), dict(own=1, opp=1, queen=True)], "A", 3, "104a"),
        # P's last + O's last, queen on the board (ICF 105)
        ("C19", {"B": 5}, [dict(own=8, opp=8), dict(own=1, opp=1)], "B", 3, "105"),
        ("C20", {"B": 5}, [dict(own=8, opp=8), dict(own=1, opp=1, foul=True, extra_points=1)], "B", 4, "105"),
        # P pockets O's last, queen on the board (ICF 106)
        ("C21", {"B": 8}, [dict(own=4, opp=8), dict(opp=1)], "B", 8, "106"),
        ("C22", {"B": 22}, [dict(own=4, opp=8), dict(opp=1)], "B", 5, "106"),
        # P pockets his own last, queen on the board (ICF 107)
        ("C23", {"B": 10}, [dict(own=8, opp=3), dict(own=1)], "B", 3, "107"),
        ("C24", {"B": 22}, [dict(own=8, opp=3), dict(own=1)], "B", 1, "107"),
        # P's last + striker, queen on the board, improper (ICF 108b)
        ("C25", {"B": 10}, [dict(own=8, opp=3), dict(own=1, striker=True, foul=True, extra_points=2)], "B", 5, "108"),
        # P's last + O's last + striker, P covered the queen (ICF 110a)
        ("C26", {},
         [dict(own=7, opp=8), dict(queen=True), dict(own=1), dict(own=1, opp=1, striker=True, extra_points=1)],
         "B", 2, "110"),
        # O's last + striker, queen on the board (ICF 111a)
        ("C27", {"B": 10}, [dict(own=6, opp=8), dict(opp=1, striker=True, extra_points=1)], "B", 7, "111"),
    ],
)
def test_last_coin_table(vector, scores, strokes, winner, points, rule):
    board = board_after(strokes, scores)
    assert (board["winner"], board["points"], board["rule"]) == (winner, points, rule)


def test_C28_queen_covered_by_O_follows_ICF_not_DCV():
    m = CarromMatch(scores={"B": 23}, breaker="B")
    m.stroke(own=1).stroke(queen=True).stroke(own=1)  # B covers
    m.stroke(own=6, opp=8).miss()  # one coin each left; A to stroke
    m.stroke(own=1, opp=1, striker=True, extra_points=1)
    board = m.last_board()
    assert (board["winner"], board["rule"], board["points"]) == ("B", "112", 2)


def test_extra_points_beyond_the_rule_are_refused():
    m = CarromMatch(scores={"B": 10})
    m.stroke(own=4, opp=8).stroke(opp=1, extra_points=1)  # ICF 106a: proper, nothing on demand
    with pytest.raises(IllegalStrokeError, match="106"):
        m.result


def colour_counts(live, side, key):
    return live[key][live["colours"][side]]


def test_C29_striker_alone_returns_one_own_coin():
    m = CarromMatch().stroke(own=2).stroke(striker=True)
    live = m.live
    assert colour_counts(live, "A", "to_place") == 1
    assert colour_counts(live, "A", "pocketed") == 1
    assert live["turn"] == "B"


def test_C30_due_outstanding_until_a_coin_is_available():
    m = CarromMatch().miss().miss().stroke(striker=True)
    assert m.live["dues"]["A"] == 1 and m.live["turn"] == "B"
    m.miss().stroke(own=1)
    live = m.live
    assert live["dues"]["A"] == 0
    assert colour_counts(live, "A", "to_place") == 1  # taken out after that stroke (ICF 78a)
    assert live["turn"] == "A"


def test_C31_striker_with_own_coins_returns_them_plus_a_due_and_turn_goes_on():
    m = CarromMatch().stroke(own=1).stroke(own=2, striker=True)
    live = m.live
    assert colour_counts(live, "A", "to_place") == 3
    assert live["turn"] == "A"


def test_C32_striker_with_an_opponent_coin():
    m = CarromMatch().stroke(own=1).stroke(opp=1, striker=True)
    live = m.live
    assert colour_counts(live, "B", "pocketed") == 1  # stays pocketed for B (ICF 74)
    assert colour_counts(live, "A", "to_place") == 1
    assert live["turn"] == "B"


def test_C33_queen_before_any_own_coin_goes_back():
    live = CarromMatch().stroke(queen=True).live
    assert live["to_place"]["queen"] == 1 and live["queen"] == "on_board"
    assert live["turn"] == "B"


def test_C34_break_queen_and_one_own_needs_a_cover_stroke():
    assert CarromMatch().stroke(own=1, queen=True).live["queen"] == "pending"
    live = CarromMatch().stroke(own=2, queen=True).live
    assert (live["queen"], live["queen_side"]) == ("covered", "A")


def test_C35_queen_not_covered_goes_back():
    live = CarromMatch().stroke(own=1).stroke(queen=True).miss().live
    assert live["queen"] == "on_board" and live["to_place"]["queen"] == 1
    assert live["turn"] == "B"


def test_C36_queen_with_striker_returns_queen_and_a_due_turn_goes_on():
    live = CarromMatch().stroke(own=1).stroke(queen=True, striker=True).live
    assert live["to_place"]["queen"] == 1
    assert colour_counts(live, "A", "to_place") == 1
    assert live["turn"] == "A"


def test_C37_cover_stroke_with_striker_then_no_own_coin():
    m = CarromMatch().stroke(own=1).stroke(queen=True).stroke(own=1, striker=True)
    live = m.live
    assert live["queen"] == "pending"  # ICF 101a: the next stroke must pocket an own C/m
    assert colour_counts(live, "A", "to_place") == 2
    assert live["turn"] == "A"
    live = m.miss().live
    assert live["queen"] == "on_board" and live["to_place"]["queen"] == 1


def test_C38_outstanding_due_is_written_off_at_board_end():
    m = CarromMatch().miss().stroke(striker=True)  # B owes a due it cannot pay
    m.stroke(own=1).stroke(queen=True).stroke(own=1)  # A covers
    assert m.live["dues"]["B"] == 1
    m.stroke(own=7, opp=2)
    board = m.last_board()
    assert (board["winner"], board["points"]) == ("A", 10)


def test_C39_three_missed_breaks_pass_the_break_with_colours_kept():
    m = CarromMatch()
    for _ in range(3):
        m.stroke(touched=False)
    live = m.live
    assert live["turn"] == "B"
    assert live["colours"] == {"A": "white", "B": "black"}
    assert live["dues"] == {"A": 0, "B": 0}


def test_C40_three_passes_each_void_the_board():
    m = CarromMatch(preset="icf")
    for _ in range(6):
        m.stroke(**{"pass": True})
    game = m.result["games"][0]
    assert game["boards"] == [] and len(game["void_boards"]) == 1
    assert m.live["breaker"] == "A" and m.live["board"] == 1


def win_board(m: CarromMatch, winner: str, points: int) -> None:
    m.events.append({"type": "board", "winner": winner, "opponent_coins_left": points, "queen": "none"})


def test_C41_break_order_across_games():
    m = CarromMatch(preset="icf")
    for winner in "AB":
        for points in (9, 9, 7):
            win_board(m, winner, points)
    win_board(m, "A", 1)
    result = m.result
    breakers = [[b["breaker"] for b in g["boards"]] for g in result["games"]]
    assert breakers == [["A", "B", "A"], ["B", "A", "B"], ["A"]]
    assert result["live"]["colours"]["B"] == "white"  # board 2 of game 3: B breaks, B plays white


def test_C42_best_of_three():
    m = CarromMatch(preset="icf")
    for winner, points in [("A", 9), ("A", 9), ("A", 7), ("B", 9), ("B", 9), ("B", 7), ("A", 9), ("A", 9), ("A", 7)]:
        win_board(m, winner, points)
    result = m.result
    assert result["winner"] == "A"
    assert result["games_won"] == {"A": 2, "B": 1}


def test_C42_no_third_game_after_two_nil():
    m = CarromMatch(preset="icf")
    for _ in range(2):
        for points in (9, 9, 7):
            win_board(m, "A", points)
    assert m.result["winner"] == "A"
    m.events.append({"type": "stroke", "pocketed": []})
    with pytest.raises(IllegalStrokeError, match="after the match ended"):
        m.result


def test_C09_leader_wins_after_eight_boards_pre_quarter_final():
    m = CarromMatch(preset="icf")
    for winner, points in [("A", 4), ("B", 3), ("A", 4), ("B", 3), ("A", 3), ("B", 3), ("A", 3), ("B", 2)]:
        win_board(m, winner, points)
    game = m.result["games"][0]
    assert game["score"] == {"A": 14, "B": 11} and game["winner"] == "A"
    assert len(game["boards"]) == 8
    assert m.live["game"] == 2


def tied_after_eight(preset):
    m = CarromMatch(preset=preset)
    for winner, points in [("A", 3), ("B", 3)] * 4:
        win_board(m, winner, points)
    return m


def test_C10_tie_after_eight_boards_plays_one_extra_board_after_a_toss():
    m = tied_after_eight("icf")
    assert m.result["games"][0]["winner"] is None and m.live["extra_board"]
    m.events.append({"type": "toss", "winner": "B", "choice": "break"})
    assert m.live["breaker"] == "B"
    win_board(m, "B", 1)
    game = m.result["games"][0]
    assert (game["winner"], len(game["boards"])) == ("B", 9)


def test_C11_no_board_limit_from_the_quarter_finals():
    m = tied_after_eight("icf-qf")
    win_board(m, "A", 2)
    game = m.result["games"][0]
    assert game["winner"] is None and len(game["boards"]) == 9
    assert not m.live["extra_board"]


def test_C12_game_ends_as_soon_as_25_is_reached():
    m = CarromMatch(preset="icf")
    for points in (9, 9, 7):
        win_board(m, "A", points)
    result = m.result
    assert result["games"][0]["winner"] == "A" and len(result["games"][0]["boards"]) == 3
    assert result["live"]["game"] == 2


def test_score_is_raw_with_a_capped_display_value():
    game = covered_then_clear(21, 6).result["games"][0]
    assert game["score"]["A"] == 30 and game["display_score"]["A"] == 25


def test_events_after_board_entry_follow_the_break_order():
    m = CarromMatch(preset="icf")
    win_board(m, "B", 4)
    assert m.live["breaker"] == "B" and m.live["colours"]["B"] == "white"


def test_doubles_turn_passes_to_the_right_and_break_rotates_through_seats():
    events = [
        {"type": "match", "game": "carrom", "preset": "icf", "sides": ["A", "B"],
         "players": {"A": ["Ann", "Al"], "B": ["Bea", "Bo"]}},
        {"type": "stroke", "pocketed": []},
    ]
    live = replay(events)["live"]
    assert (live["turn_player"], live["turn"]) == ("Bea", "B")
    events += [{"type": "stroke", "pocketed": []}, {"type": "board", "winner": "A", "opponent_coins_left": 3}]
    assert replay(events)["live"]["breaker"] == "Bea"
    events += [{"type": "board", "winner": "A", "opponent_coins_left": 3}]
    assert replay(events)["live"]["breaker"] == "Al"
