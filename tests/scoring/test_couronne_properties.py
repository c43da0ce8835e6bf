"""Properties of the couronne engine over generated strokes (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import EventLogError, replay
from scoring.couronne import CouronneEngine

ENGINE = CouronneEngine()


@st.composite
def strokes_for(draw, state):
    """A stroke that the rings on the board allow, in the shape of the event log."""
    own_left = state.rings_on_board(state.turn)
    opp_left = state.rings_on_board(1 - state.turn)
    own = draw(st.integers(0, own_left))
    opp = draw(st.integers(0, opp_left))
    shooter = draw(st.sampled_from(["none", "pocketed", "off_board"]))
    return {
        "type": "stroke",
        "pocketed": {"own": own, "opponent": opp},
        "off_board": {"own": draw(st.integers(0, own_left - own)), "opponent": draw(st.integers(0, opp_left - opp))},
        "shooter_pocketed": shooter == "pocketed",
        "shooter_off_board": shooter == "off_board",
        "defensive_push": draw(st.booleans()),
    }


@st.composite
def games(draw, max_strokes=40):
    """A match line and a playable log, with the engine states after each stroke."""
    match = {
        "type": "match", "game": "couronne",
        "rings": draw(st.integers(1, 6)),
        "players": draw(st.sampled_from([2, 4])),
        "debt": draw(st.sampled_from(["outstanding", "waive"])),
    }
    state, events, states = ENGINE.start(match), [], []
    for _ in range(draw(st.integers(1, max_strokes))):
        if ENGINE.is_over(state):
            break
        event = draw(strokes_for(state))
        state = ENGINE.apply(state, event)
        events.append(event)
        states.append(state)
    return match, events, states


@settings(deadline=None)
@given(games())
def test_rings_are_conserved(game):
    """Every ring is on the board or in a pocket, and a pocket changes only by the rings
    the stroke put in and the rings the penalties took out to the centre circle."""
    match, events, states = game
    before = ENGINE.result(ENGINE.start(match))
    for event, state in zip(events, states):
        after = ENGINE.result(state)
        striker = before["turn"]
        for side in ("pink", "blue"):
            assert after["rings_left"][side] + after["pocketed"][side] == match["rings"]
            assert after["rings_left"][side] >= 0 and after["pocketed"][side] >= 0
            own = side == striker
            went_in = event["pocketed"]["own" if own else "opponent"]
            knocked_off_own = event["off_board"]["own"] if own else 0
            taken_out = after["live"]["to_place"][side].get("centre_circle", 0) - knocked_off_own
            assert after["pocketed"][side] == before["pocketed"][side] + went_in - taken_out
        if after["winner"] is not None:
            assert after["turn"] is None
        before = after
    assert replay([match, *events]) == before


@settings(deadline=None)
@given(games(max_strokes=60))
def test_a_finished_game_has_a_side_with_no_rings_left(game):
    _, _, states = game
    result = ENGINE.result(states[-1])
    if result["winner"] is not None:
        if result["winner"] == "draw":
            assert set(result["rings_left"].values()) == {0}
        else:
            assert result["rings_left"][result["winner"]] == 0
            assert result["live"]["debt"][result["winner"]] == 0


def outcome(log):
    try:
        return replay(log)
    except EventLogError as error:
        return type(error), str(error)


@settings(deadline=None)
@given(games(max_strokes=12), st.data())
def test_a_correction_equals_the_corrected_log(game, data):
    match, events, _ = game
    events = [{**event, "id": f"s{i}"} for i, event in enumerate(events)]
    slot = data.draw(st.integers(0, len(events) - 1))
    replacement = data.draw(strokes_for(ENGINE.start(match)))
    target = events[slot]["id"]
    corrected = [*events[:slot], {**replacement, "id": target}, *events[slot + 1 :]]
    assert outcome([match, *events, {"type": "correct", "target": target, "event": replacement}]) == outcome(
        [match, *corrected]
    )
    assert outcome([match, *events, {"type": "void", "target": target}]) == outcome(
        [match, *events[:slot], *events[slot + 1 :]]
    )


SCALAR = st.none() | st.booleans() | st.integers(-3, 30) | st.sampled_from([1.0, "1", "own", ""])
JUNK = SCALAR | st.lists(SCALAR, max_size=3) | st.dictionaries(
    st.sampled_from(["own", "opponent", "other"]), SCALAR, max_size=3
)
FIELDS = ["pocketed", "off_board", "shooter_pocketed", "shooter_off_board", "defensive_push", "pushed", "side"]


@given(st.dictionaries(st.sampled_from(FIELDS), JUNK))
def test_malformed_strokes_raise_event_log_errors_only(fields):
    try:
        replay([{"type": "match", "game": "couronne", "rings": 12}, {"type": "stroke", **fields}])
    except EventLogError as error:
        assert str(error)
