"""Observations become the event log, with the rules engine saying whose turn and colour it is."""

from boardreader.recorder import MatchRecorder
from vision.events import Observation
from vision.pieces import BoardReading, Piece

CARROM = {"type": "match", "game": "carrom", "preset": "icf", "sides": ["A", "B"]}


def shot(t_s, piece="striker"):
    return Observation(t_s, "shot", piece)


def test_a_carrom_transition_with_a_shot_is_one_stroke():
    recorder = MatchRecorder(CARROM)
    entries = recorder.add([shot(1.0), Observation(1.4, "pocketed", "white", 2),
                            Observation(1.5, "pocketed", "striker", 3)], None)
    assert entries == [{"type": "stroke", "t": 1.0, "pocketed": ["white"], "striker": True, "foul": False,
                        "id": "v1"}]
    live = recorder.result["live"]
    assert live["to_place"]["white"] == 1 and live["dues"]["A"] == 1  # ICF 73: the coin back, a due owed
    assert recorder.add([Observation(3.0, "placed", "white")], None) == []  # no shot, no stroke


def test_a_carrom_board_the_count_ended_is_no_new_start_for_vision_a_crokinole_round_is():
    # A false pocketing or a missed foul may end a board in the count while it is still played; vision starts a
    # board afresh where it sees the pieces set out.
    recorder = MatchRecorder(CARROM)
    recorder.add([shot(0.0), Observation(0.5, "pocketed", "queen", 0), Observation(0.6, "pocketed", "white", 1)], None)
    for i in range(8):
        before = dict(recorder.result["live"])
        assert recorder.add([shot(10.0 + i), Observation(10.5 + i, "pocketed", "white", 2)], None)
    assert recorder.result["live"]["board"] == before["board"] + 1
    assert not recorder.round_changed(before)
    crokinole = MatchRecorder(CROKINOLE)
    before = dict(crokinole.result["live"])
    for i in range(2 * before["discs_per_side"]):
        crokinole.add([shot(i, "light" if i % 2 else "dark")], EMPTY)
    assert crokinole.add([], EMPTY) and crokinole.round_changed(before)


def test_what_the_rules_refuse_is_held_for_the_referee_not_logged():
    recorder = MatchRecorder(CARROM)
    too_many = [shot(1.0)] + [Observation(1.2, "pocketed", "white", 0)] * 10
    assert recorder.add(too_many, None) == []
    assert len(recorder.log) == 1
    assert "only 9 white" in recorder.held[0]["reason"]


def test_couronne_own_and_opponent_rings_follow_the_turn():
    recorder = MatchRecorder({"type": "match", "game": "couronne", "sides": ["pink", "blue"], "rings": 12})
    entries = recorder.add([shot(1.0, "shooter"), Observation(1.3, "pocketed", "pink", 0),
                            Observation(1.4, "pocketed", "blue", 1)], None)
    assert entries[0]["pocketed"] == {"own": 1, "opponent": 1}


def test_couronne_two_strokes_before_the_board_settled_are_two_entries_each_with_what_followed_its_strike():
    recorder = MatchRecorder({"type": "match", "game": "couronne", "sides": ["pink", "blue"], "rings": 12})
    entries = recorder.add([shot(1.0, "shooter"), Observation(1.3, "pocketed", "pink", 0),
                            shot(3.0, "shooter"), Observation(3.4, "pocketed", "pink", 1),
                            Observation(3.2, "off_board", "shooter")], None)
    assert [(e["t"], e["pocketed"], e["shooter_off_board"]) for e in entries] == [
        (1.0, {"own": 1, "opponent": 0}, False),
        (3.0, {"own": 1, "opponent": 0}, True)]  # pink pocketed its own: pink again


CROKINOLE = {"type": "match", "game": "crokinole", "preset": "nca", "sides": ["A", "B"]}
EMPTY = BoardReading("crokinole", ())


def test_crokinole_round_is_logged_once_its_board_is_cleared_from_where_the_discs_lay_after_removals():
    recorder = MatchRecorder(CROKINOLE)
    per_side = recorder.result["live"]["discs_per_side"]
    board = BoardReading("crokinole", (Piece("dark", 250, 0, 16, 0.9, zone=5),
                                       Piece("light", 0, 50, 16, 0.9, zone=15),
                                       Piece("dark", 150, 0, 16, 0.9, zone=10),
                                       Piece("dark", 0, 290, 16, 0.9, zone=0),
                                       Piece("light", 0, -120, 16, 0.9, zone=10)))
    for i in range(2 * per_side - 1):
        assert recorder.add([shot(i, "light" if i % 2 else "dark")], board) == []
    recorder.add([Observation(40.0, "sunk_20", "dark")], board)  # not a shot: counted for the round
    assert recorder.add([shot(50.0, "light")], board) == [] and recorder.round_ended
    # The last shot was invalid: the rules take its disc off before the round is scored.
    removed = BoardReading("crokinole", board.pieces[:4])
    assert recorder.add([Observation(51.5, "off_board", "light")], removed) == []
    entries = recorder.add([], EMPTY)
    assert entries[0]["type"] == "round" and entries[0]["t"] == 50.0
    assert entries[0]["discs"] == {"A": [15], "B": [10, 5]}  # highest first, as the simulator's truth lists them
    assert entries[0]["twenties"] == {"A": 0, "B": 1}
    assert not recorder.round_ended


def test_crokinole_a_20_taken_out_of_the_hole_again_does_not_count_even_after_the_last_shot():
    board = BoardReading("crokinole", (Piece("light", 0, -120, 16, 0.9, zone=10),))
    for last in (False, True):
        recorder = MatchRecorder(CROKINOLE)
        shots = 2 * recorder.result["live"]["discs_per_side"]
        at = shots - 1 if last else shots - 2
        for i in range(shots):
            observations = [shot(i, "light" if i % 2 else "dark")]
            if i == at:
                observations.append(Observation(i + 0.5, "sunk_20", "dark"))
            recorder.add(observations, board)
            if i == at:
                recorder.add([Observation(i + 0.9, "off_board", "dark", reason="twenty_removed")], board)
        entries = recorder.add([], EMPTY)
        assert entries[0]["type"] == "round" and entries[0]["twenties"] == {"A": 0, "B": 0}, last


def test_crokinole_a_20_of_unknown_colour_goes_to_the_shooter():
    recorder = MatchRecorder(CROKINOLE)
    live = recorder.result["live"]
    second = "B" if live["starter"] == "A" else "A"
    recorder.add([shot(1.0)], EMPTY)  # the starter's shot
    recorder.add([shot(4.0, None), Observation(4.3, "sunk_20", None, needs_review=True)], EMPTY)
    for i in range(2 * live["discs_per_side"] - 3):
        recorder.add([shot(10.0 + i)], EMPTY)
    assert recorder.add([shot(60.0)], EMPTY) == []
    entries = recorder.finish()  # the video ended before the board was cleared
    assert entries[0]["twenties"][second] == 1 and entries[0]["needs_review"]
