"""Properties of the crokinole engine over generated logs (hypothesis)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import EventLogError, IllegalStrokeError, replay
from scoring.crokinole import CrokinoleEngine
from scoring.crokinole_shots import RemovalReason, ShotFacts, resolve_shot

SIDES = ("A", "B")
ENGINE = CrokinoleEngine()


def side_discs(limit: int):
    """Discs on the board and 20s of one side, within its allocation."""
    return st.integers(0, limit).flatmap(
        lambda n: st.tuples(st.lists(st.sampled_from([5, 10, 15]), max_size=n), st.integers(0, limit - n))
    )


def rounds(limit: int = 8):
    return st.tuples(side_discs(limit), side_discs(limit)).map(
        lambda pair: {
            "type": "round",
            "discs": {"A": pair[0][0], "B": pair[1][0]},
            "twenties": {"A": pair[0][1], "B": pair[1][1]},
        }
    )


def raw(event, side):
    return sum(event["discs"][side]) + 20 * event["twenties"][side]


@given(st.lists(rounds(), min_size=1, max_size=4))
def test_nca_round_points_sum_to_2(events):
    result = replay([{"type": "match", "game": "crokinole", "preset": "nca"}, *events])
    for event, scored in zip(events, result["games"][0]["rounds"]):
        assert sum(scored["points"].values()) == 2
        assert scored["raw"] == {side: raw(event, side) for side in SIDES}


@given(st.lists(rounds(12), min_size=1, max_size=40), st.sampled_from([50, 100, 150]))
def test_casual_only_one_side_scores_and_the_game_ends_at_the_target(events, target):
    match = {"type": "match", "game": "crokinole", "preset": "casual", "target": target}
    state = ENGINE.start(match)
    played = []
    for event in events:
        if ENGINE.is_over(state):
            with pytest.raises(IllegalStrokeError, match="after the match ended"):
                replay([match, *played, event])
            break
        state = ENGINE.apply(state, event)
        played.append(event)
        scored = ENGINE.result(state)["games"][0]["rounds"][-1]
        assert min(scored["points"].values()) == 0
        assert max(scored["points"].values()) == abs(raw(event, "A") - raw(event, "B"))
    result = replay([match, *played])
    score = result["games"][0]["score"]
    if result["winner"] is None:
        assert max(score.values()) < target
    else:
        assert score[result["winner"]] >= target
        assert min(score.values()) < target  # only one side scores a round


def with_ids(events):
    return [{**event, "id": f"e{i}"} for i, event in enumerate(events)]


def outcome(log):
    try:
        return replay(log)
    except EventLogError as error:
        return type(error), str(error)


@given(st.lists(rounds(), min_size=1, max_size=6), st.data())
def test_a_correction_equals_the_corrected_log(events, data):
    match = {"type": "match", "game": "crokinole", "preset": "nca"}
    events = with_ids(events)
    slot = data.draw(st.integers(0, len(events) - 1))
    replacement = data.draw(rounds())
    corrected = [*events[:slot], {**replacement, "id": events[slot]["id"]}, *events[slot + 1 :]]
    correction = {"type": "correct", "target": events[slot]["id"], "event": replacement}
    assert outcome([match, *events, correction]) == outcome([match, *corrected])
    voided = [match, *events, {"type": "void", "target": events[slot]["id"]}]
    assert outcome(voided) == outcome([match, *events[:slot], *events[slot + 1 :]])


SCALAR = st.none() | st.booleans() | st.integers(-30, 30) | st.sampled_from([5.0, 1e9, "5", ""])
JUNK = SCALAR | st.lists(SCALAR, max_size=4) | st.dictionaries(
    st.sampled_from(["A", "B", "C"]), SCALAR | st.lists(SCALAR, max_size=3), max_size=3
)


@given(st.dictionaries(st.sampled_from(["discs", "twenties", "hits"]), JUNK), st.sampled_from(["round", "shootout"]))
def test_malformed_events_raise_event_log_errors_only(fields, kind):
    log = [{"type": "match", "game": "crokinole", "preset": "nca", "rounds": 1, "tiebreak": "shootout"}]
    if kind == "shootout":
        log.append({"type": "round", "discs": {}})  # a tied game: a shoot-out is due
    try:
        replay(log + [{"type": kind, **fields}])
    except EventLogError as error:
        assert str(error)


OWNERS = {**{f"a{i}": "A" for i in range(5)}, **{f"b{i}": "B" for i in range(5)}}


@st.composite
def shots(draw):
    """Facts of a shot by A with disc a0 on a board of up to 9 other discs."""
    before = draw(st.sets(st.sampled_from(sorted(set(OWNERS) - {"a0"}))))
    struck = draw(st.sets(st.sampled_from(sorted(before)))) if before else set()
    in_play = sorted(before | {"a0"})
    zones = {d: z for d in in_play if (z := draw(st.sampled_from([None, 0, 5, 10, 15, 20]))) is not None}
    tens = sorted(d for d, z in zones.items() if z == 10)
    return ShotFacts(
        shooter="A", shot_disc="a0", owners=OWNERS,
        on_board_before=frozenset(before), struck=frozenset(struck), zones_after=zones,
        touching_fifteen_line=frozenset(draw(st.sets(st.sampled_from(tens))) if tens else ()),
        left_surface=frozenset(draw(st.sets(st.sampled_from(in_play)))),
    )


@given(shots(), st.booleans())
def test_every_disc_in_play_ends_on_the_board_as_a_20_or_in_the_ditch(facts, open_board_rule):
    outcome = resolve_shot(facts, open_board_rule=open_board_rule)
    removed = {r.disc: r.reason for r in outcome.removals}
    kept = set(outcome.board_after) | set(outcome.twenties)
    assert kept.isdisjoint(removed)
    assert kept | set(removed) == set(facts.zones_after)
    assert all(facts.zones_after[d] == 20 for d in outcome.twenties)
    assert set(outcome.board_after.values()) <= {5, 10, 15}
    # NCA 3c: an invalid shot only ever costs the shooter's own discs.
    assert all(OWNERS[d] == "A" for d, why in removed.items() if why is RemovalReason.INVALID_SHOT)
    invalidated = {d for d, why in removed.items() if why is RemovalReason.INVALID_SHOT}
    involved_in_play = (facts.struck | {"a0"}) & set(facts.zones_after)
    assert invalidated == (set() if outcome.is_valid else involved_in_play)
