"""Properties of the carrom engine over random legal stroke sequences (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import ENGINES, EventLogError, replay

ENGINE = ENGINES["carrom"]
GAME_TO = 25


def random_stroke(data: st.DataObject, live: dict) -> dict:
    """A stroke the board allows, drawn from the pieces that are there."""
    side = live["turn"]
    mine, theirs = live["colours"][side], live["colours"]["B" if side == "A" else "A"]
    available = {c: live["on_board"][c] + live["to_place"][c] for c in ("white", "black")}
    own = data.draw(st.integers(0, min(3, available[mine])))
    opp = data.draw(st.integers(0, min(2, available[theirs])))
    queen = live["queen"] == "on_board" and data.draw(st.booleans())
    striker = data.draw(st.sampled_from([False] * 8 + [True] * 2))
    foul = data.draw(st.sampled_from([False] * 15 + [True]))
    return {"type": "stroke", "pocketed": [mine] * own + [theirs] * opp + ["queen"] * queen,
            "striker": striker, "foul": foul}


def random_match(data: st.DataObject, preset: str, max_events: int) -> tuple[list[dict], list[dict]]:
    """A legal log and the live state after each event."""
    events = [{"type": "match", "game": "carrom", "preset": preset, "sides": ["A", "B"]}]
    state = ENGINE.start(events[0])
    lives = []
    for n in range(max_events):
        if ENGINE.is_over(state):
            break
        live = ENGINE.result(state)["live"]
        if data.draw(st.integers(0, 40)) == 0:
            event = {"type": "board", "winner": data.draw(st.sampled_from("AB")),
                     "opponent_coins_left": data.draw(st.integers(0, 9)),
                     "queen": data.draw(st.sampled_from(["winner", "loser", "none"]))}
        else:
            event = random_stroke(data, live)
        event["id"] = f"e{n}"
        state = ENGINE.apply(state, event)
        events.append(event)
        lives.append(ENGINE.result(state)["live"])
    return events, lives


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(data=st.data(), preset=st.sampled_from(["icf", "icf-qf"]))
def test_board_game_and_match_invariants(data, preset):
    events, lives = random_match(data, preset, max_events=400)
    result = replay(events)
    for live in lives:
        if "on_board" in live:
            for colour in ("white", "black"):
                # Coins are conserved: on the board, in the pockets, or being placed.
                assert live["on_board"][colour] + live["pocketed"][colour] + live["to_place"][colour] == 9
    for game in result["games"]:
        boards = game["boards"]
        for board in boards:
            assert 1 <= board["points"] <= 12
        if game["winner"] is None:
            assert all(v < GAME_TO for v in game["score"].values())
            continue
        winner, loser = game["winner"], "B" if game["winner"] == "A" else "A"
        assert game["score"][winner] > game["score"][loser]  # an ICF game is never drawn
        before_last = boards[-2]["score_after"] if len(boards) > 1 else {"A": 0, "B": 0}
        reached_25 = game["score"][winner] >= GAME_TO and max(before_last.values()) < GAME_TO
        if preset == "icf":
            assert reached_25 or len(boards) == 8 or (len(boards) == 9 and game["extra_board"])
            assert len(boards) <= 9
        else:
            assert reached_25
    won = result["games_won"]
    if result["winner"] is not None:
        assert won[result["winner"]] == 2 and min(won.values()) < 2
    else:
        assert max(won.values()) < 2


@SETTINGS
@given(data=st.data())
def test_a_correction_equals_the_corrected_log(data):
    events, _ = random_match(data, "icf", max_events=60)
    if len(events) < 3:
        return
    index = data.draw(st.integers(1, len(events) - 1))
    prefix_state = ENGINE.start(events[0])
    for event in events[1:index]:
        prefix_state = ENGINE.apply(prefix_state, event)
    live = ENGINE.result(prefix_state)["live"]
    if "turn" not in live:
        return
    replacement = random_stroke(data, live)
    corrected = events[:index] + [{**replacement, "id": events[index]["id"]}] + events[index + 1:]
    with_correction = events + [{"type": "correct", "target": events[index]["id"], "event": replacement}]
    assert outcome(with_correction) == outcome(corrected)
    voided = events[:index] + events[index + 1:]
    assert outcome(events + [{"type": "void", "target": events[index]["id"]}]) == outcome(voided)


def outcome(events: list[dict]) -> object:
    try:
        return replay(events)
    except EventLogError as error:
        return type(error).__name__
