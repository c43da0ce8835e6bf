import json
from collections import Counter

import pytest

from calibration.geometry import load_board
from simulation import truth
from simulation.play_carrom import play_carrom
from simulation.play_clock import HAND_PLACE_S
from simulation.play_couronne import RINGS_PER_SIDE, play_couronne
from simulation.play_crokinole import DISCS_PER_SIDE, play_crokinole
from simulation.play_still import still_scene

FPS = 10


@pytest.fixture(scope="module")
def carrom():
    return play_carrom(load_board("carrom"), seed=5, fps=FPS, boards=1, max_strokes=14)


@pytest.fixture(scope="module")
def crokinole():
    return play_crokinole(load_board("crokinole"), seed=5, fps=FPS, rounds=1)


@pytest.fixture(scope="module")
def couronne():
    return play_couronne(load_board("couronne"), seed=3, fps=FPS, max_strokes=14)


EXPECTED_KINDS = {
    "carrom": {"white": 9, "black": 9, "queen": 1, "striker": 1},
    "crokinole": {"light": DISCS_PER_SIDE, "dark": DISCS_PER_SIDE},
    "couronne": {"pink": RINGS_PER_SIDE, "blue": RINGS_PER_SIDE, "shooter": 2},
}


@pytest.mark.parametrize("game", ["carrom", "crokinole", "couronne"])
def test_every_piece_is_somewhere_in_every_frame(game, request):
    timeline = request.getfixturevalue(game)
    assert len(timeline.frames) > 10
    for frame in timeline.frames:
        assert Counter(p.kind for p in frame.pieces) == EXPECTED_KINDS[game]
        assert all(p.status in truth.STATUSES for p in frame.pieces)
        assert [p.piece_id for p in frame.pieces] == list(range(len(frame.pieces)))


@pytest.mark.parametrize("game", ["carrom", "crokinole", "couronne"])
def test_frames_are_evenly_spaced_and_pieces_end_at_rest(game, request):
    timeline = request.getfixturevalue(game)
    times = [f.t_s for f in timeline.frames]
    assert times == pytest.approx([k / FPS for k in range(len(times))])
    assert all(p.status != "moving" for p in timeline.frames[-1].pieces)
    assert any(p.status == "moving" for f in timeline.frames for p in f.pieces)


@pytest.mark.parametrize("game", ["carrom", "couronne"])
def test_a_striker_left_lying_leaves_the_board_only_once_the_next_hand_is_over_it(game, request):
    timeline = request.getfixturevalue(game)
    hand_arrives_s = [shot.t_start_s + HAND_PLACE_S for shot in timeline.shots]
    # Lying at rest, then gone or somewhere else without rolling there: taken by a hand.
    lifted_s = [after.t_s for before, after in zip(timeline.frames, timeline.frames[1:])
                for a, b in zip(before.pieces, after.pieces)
                if a.kind in ("striker", "shooter") and a.status == "board"
                and (b.status == "off" or (b.status == "board" and (a.x_mm, a.y_mm) != (b.x_mm, b.y_mm)))]
    assert lifted_s  # the fixtures' strokes leave strikers lying
    for t_s in lifted_s:
        assert min(abs(t_s - arrive_s) for arrive_s in hand_arrives_s) <= 1.0 / FPS


def _split_by_shot(events):
    strokes = []
    for event in events:
        if event["type"] == "shot":
            strokes.append([])
        elif strokes:
            strokes[-1].append(event)
    return strokes


def test_carrom_pocketed_events_match_each_stroke_of_the_log(carrom):
    strokes = [e for e in carrom.event_log if e["type"] == "stroke"]
    groups = _split_by_shot(carrom.events)
    assert len(groups) == len(strokes) == len(carrom.shots)
    for stroke, group in zip(strokes, groups):
        pocketed = [e["piece"] for e in group if e["type"] == "pocketed"]
        assert sorted(p for p in pocketed if p != "striker") == sorted(stroke["pocketed"])
        assert ("striker" in pocketed) == stroke["striker"]
    assert any(strokes_ for strokes_ in (s["pocketed"] for s in strokes))


def test_carrom_board_agrees_with_the_rules_engine(carrom):
    live = carrom.score["live"]
    last = Counter(p.kind for p in carrom.frames[-1].pieces if p.status == "board")
    assert last["white"] == live["on_board"]["white"]
    assert last["black"] == live["on_board"]["black"]
    assert bool(last["queen"]) == (live["on_board"]["queen"] or live["queen"] == "on_board")
    placed = Counter(e["piece"] for e in carrom.events if e["type"] == "placed")
    pocketed = Counter(e["piece"] for e in carrom.events if e["type"] == "pocketed")
    in_pockets = Counter(p.kind for p in carrom.frames[-1].pieces if p.status == "pocket")
    for kind in ("white", "black", "queen"):
        assert pocketed[kind] - placed[kind] == in_pockets[kind]


def test_crokinole_round_event_is_the_board_at_the_end_of_the_round(crokinole):
    board = load_board("crokinole")
    (round_event,) = [e for e in crokinole.event_log if e["type"] == "round"]
    (end,) = [e for e in crokinole.events if e["type"] == "round_end"]
    frame = [f for f in crokinole.frames if f.t_s <= end["t"]][-1]
    for side, kind in (("A", "light"), ("B", "dark")):
        zones = sorted((board.zone_value(p.x_mm, p.y_mm, p.radius_mm) for p in frame.pieces
                        if p.kind == kind and p.status == "board"), reverse=True)
        assert round_event["discs"][side] == zones
        set_aside = [e for e in crokinole.events if e["type"] == "twenty_set_aside" and e["piece"] == kind]
        sunk = [e for e in crokinole.events if e["type"] == "sunk_20" and e["piece"] == kind]
        assert round_event["twenties"][side] == len(set_aside) <= len(sunk)
        assert all(z > 0 for z in zones)  # discs touching the outer line were removed
    assert crokinole.score["games"][0]["rounds"][0]["discs"] == round_event["discs"]
    assert len(crokinole.shots) == 2 * DISCS_PER_SIDE


def test_crokinole_sides_alternate_shots(crokinole):
    sides = [e["side"] for e in crokinole.events if e["type"] == "shot"]
    assert sides == ["A", "B"] * DISCS_PER_SIDE


def test_couronne_strokes_match_pocketed_events(couronne):
    strokes = [e for e in couronne.event_log if e["type"] == "stroke"]
    groups = _split_by_shot(couronne.events)
    sides = [e["side"] for e in couronne.events if e["type"] == "shot"]
    for stroke, group, side in zip(strokes, groups, sides, strict=True):
        rings = [e["piece"] for e in group if e["type"] == "pocketed" and e["piece"] != "shooter"]
        assert stroke["pocketed"]["own"] == sum(r == side for r in rings)
        assert stroke["pocketed"]["opponent"] == sum(r != side for r in rings)


def test_couronne_rings_on_board_agree_with_the_rules_engine(couronne):
    live = couronne.score["live"]
    last = couronne.frames[-1].pieces
    for side in ("pink", "blue"):
        on_board = sum(p.kind == side and p.status == "board" for p in last)
        pending = sum(live["to_place"][side].values())
        assert on_board + pending == couronne.score["rings_left"][side]


def _video_truth_text(game):
    board = load_board(game)
    if game == "carrom":
        timeline = play_carrom(board, seed=11, fps=FPS, boards=1, max_strokes=4)
    elif game == "crokinole":
        timeline = play_crokinole(board, seed=11, fps=FPS, rounds=1, max_shots=4)
    else:
        timeline = play_couronne(board, seed=11, fps=FPS, max_strokes=4)
    frames = "".join(json.dumps(truth.frame_record(f), sort_keys=True) for f in timeline.frames)
    return truth.dumps(truth.video_truth(timeline, seed=11, film=None)) + frames


@pytest.mark.parametrize("game", ["carrom", "crokinole", "couronne"])
def test_same_seed_gives_byte_identical_truth(game):
    assert _video_truth_text(game) == _video_truth_text(game)


@pytest.mark.parametrize("game", ["carrom", "crokinole", "couronne"])
def test_still_truth_is_deterministic_and_lists_only_pieces_on_the_surface(game):
    board = load_board(game)
    timeline, cases = still_scene(board, seed=3)
    document = truth.still_truth(timeline, board, seed=3, extra={"hard_cases": cases})
    again = truth.still_truth(*still_scene(board, seed=3)[:1], board, seed=3, extra={"hard_cases": cases})
    assert truth.dumps(document) == truth.dumps(again)
    on_surface = [p for p in timeline.frames[0].pieces if p.status == "board"]
    assert len(document["pieces"]) == len(on_surface) == sum(document["counts"].values())
    if game == "crokinole":
        assert all(p["zone"] in (5, 10, 15) for p in document["pieces"])
        for kind in ("light", "dark"):
            assert document["round_score"][kind] == sum(p["zone"] for p in document["pieces"] if p["kind"] == kind)


def _pieces_overlap(pieces):
    resting = [p for p in pieces if p.status == "board"]
    return any(
        ((a.x_mm - b.x_mm) ** 2 + (a.y_mm - b.y_mm) ** 2) ** 0.5 < a.radius_mm + b.radius_mm - 0.1
        for i, a in enumerate(resting) for b in resting[i + 1:]
    )


def test_stills_make_the_hard_cases_without_overlapping_pieces():
    seen = Counter()
    for game in ("carrom", "crokinole", "couronne"):
        board = load_board(game)
        for seed in range(6):
            timeline, cases = still_scene(board, seed=seed)
            pieces = timeline.frames[0].pieces
            assert not _pieces_overlap(pieces)
            seen.update(case["case"] for case in cases)
            for case in cases:
                if case["case"] == "lean":
                    (leaning,) = [p for p in pieces if p.piece_id == case["pieces"][0]]
                    assert leaning.status == "board" and leaning.lean_mm > 0
                if case["case"] == "line_touch":
                    (disc,) = [p for p in pieces if p.piece_id == case["pieces"][0]]
                    assert abs(board.line_clearance_mm(disc.x_mm, disc.y_mm, disc.radius_mm)) < 0.81
    assert {"cluster", "pocket_mouth", "line_touch", "lean"} <= set(seen)


def test_a_whole_carrom_board_ends_when_the_winner_has_pocketed_all_nine():
    timeline = play_carrom(load_board("carrom"), seed=2, fps=0, boards=1)
    (board,) = timeline.score["games"][0]["boards"]
    document = truth.video_truth(timeline, seed=2, film=None)
    assert {e["type"] for e in document["events"]} <= set(truth.OBSERVED_EVENT_TYPES)
    assert [m["type"] for m in document["markers"]] == ["board_start", "board_end"]
    winner_colour = "white" if board["winner"] == board["breaker"] else "black"
    loser_colour = "black" if winner_colour == "white" else "white"
    net = Counter()
    for event in document["events"]:
        if event["type"] in ("pocketed", "placed"):
            net[event["piece"]] += 1 if event["type"] == "pocketed" else -1
    assert net[winner_colour] == 9
    # ICF 52-53: the loser's coins still on the board, plus 3 for a queen the winner covered.
    assert board["rule"] == "52"
    assert board["points"] == 9 - net[loser_colour] + (3 if board["queen"] == "winner" else 0)


def test_events_do_not_depend_on_the_frame_rate():
    board = load_board("crokinole")
    slow = play_crokinole(board, seed=8, fps=5, rounds=1, max_shots=3)
    fast = play_crokinole(board, seed=8, fps=60, rounds=1, max_shots=3)
    assert slow.events == fast.events
    assert len(fast.frames) > 10 * len(slow.frames) > 0


@pytest.mark.parametrize("game", ["carrom", "crokinole", "couronne"])
def test_referee_fed_one_event_at_a_time_agrees_with_a_full_replay(game, request):
    from scoring import replay
    from simulation.play_referee import Referee

    log = request.getfixturevalue(game).event_log
    referee = Referee(log[0])
    for n, event in enumerate(log[1:], start=2):
        assert referee.add(event) == replay(list(log[:n]))


@pytest.mark.parametrize("game", ["carrom", "couronne"])
def test_a_piece_put_back_appears_only_when_a_hand_sets_it_down(game, request):
    timeline = request.getfixturevalue(game)
    placed = [e for e in timeline.events if e["type"] == "placed"]
    assert placed and len(placed) == len(timeline.hands)
    set_down_s = [hand.t_strike_s for hand in timeline.hands]
    assert [e["t"] for e in placed] == pytest.approx(set_down_s)
    # Back on the board from off it or a pocket, without rolling there: put there by a hand.
    appeared_s = [after.t_s for before, after in zip(timeline.frames, timeline.frames[1:])
                  for a, b in zip(before.pieces, after.pieces)
                  if a.kind not in ("striker", "shooter") and a.status in ("pocket", "off") and b.status == "board"]
    assert len(appeared_s) == len(placed)
    for t_s in appeared_s:
        assert min(abs(t_s - s) for s in set_down_s) <= 1.0 / FPS


def test_a_crokinole_disc_leaves_the_board_after_a_shot_only_under_a_hand(crokinole):
    hand_s = [hand.t_strike_s for hand in crokinole.hands]
    # Off the board or out of the hole without rolling: a removal, a 20 set aside, the round's discs cleared.
    taken_s = [after.t_s for before, after in zip(crokinole.frames, crokinole.frames[1:])
               for a, b in zip(before.pieces, after.pieces)
               if a.status in ("board", "hole") and b.status in ("ditch", "off")]
    assert len(taken_s) >= DISCS_PER_SIDE  # at least the round's discs cleared
    for t_s in taken_s:
        assert min(abs(t_s - s) for s in hand_s) <= 1.0 / FPS
    by_rule = [e for e in crokinole.events if e["type"] in ("off_board", "twenty_set_aside")
               and e.get("reason") not in ("left_surface", "jumped")]
    for event in by_rule:
        assert min(abs(event["t"] - s) for s in hand_s) < 1e-6
