"""A whole simulated clip through gate, pockets and inference, with the simulator's truth as the eyes.

This measures everything after the reader: settling, stroke timing, pocket
assignment and the event log. The reader itself is measured on its own.
"""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.event_matching import match_events
from boardreader.analysis_run import AnalysisRun
from bench.truth_playback import TruthPlayback
from vision.analysis import (AIM_S, ARM_GONE_S, ARM_MOTION, MIN_STRIKE_MOTION, STRIKE_JOIN_S, _Segment, is_set_out,
                             spots_unchanged)
from vision.events import Motion
from vision.sources import VideoFileSource

CLIP = Path(__file__).resolve().parents[2] / "sample_images" / "simulated" / "carrom" / "video"


@pytest.fixture(scope="module")
def analysed(tmp_path_factory):
    out = tmp_path_factory.mktemp("analysis")
    truth = TruthPlayback(CLIP)
    run = AnalysisRun("carrom", truth.truth["event_log"][0], out=out, locate=truth.locate, read=truth.read)
    for frame in VideoFileSource(CLIP / "video.mp4"):
        truth.t_s = frame.t_s
        run.update(frame)
    return truth.truth, run.finish(report=True), out


def test_every_true_event_is_observed_in_time_and_nothing_else(analysed):
    truth, _, out = analysed
    observed = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    matched, n_observed, n_true = match_events(observed, truth["events"])
    assert n_true > 0
    assert matched == n_true == n_observed


def test_the_log_built_from_the_video_scores_like_the_true_log(analysed):
    truth, summary, out = analysed
    ours = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    strokes = [(e["pocketed"] and sorted(e["pocketed"]), e["striker"]) for e in ours[1:]]
    true_strokes = [(e["pocketed"] and sorted(e["pocketed"]), e["striker"]) for e in truth["event_log"][1:]]
    assert strokes == true_strokes
    assert summary["held_for_review"] == 0


def test_outputs_follow_the_contract(analysed):
    _, summary, out = analysed
    score = json.loads((out / "score.json").read_text())
    assert score["game"] == "carrom" and "games" in score
    assert summary["board_found"] and summary["frames"] > 0
    assert (out / "report.html").read_text().count("<img") >= 2


def test_a_set_out_is_a_reading_no_stroke_led_to_with_most_of_the_set_on_the_board_again():
    by_hand, stroke = Motion(94.3, None), Motion(96.8, 97.9)
    assert is_set_out(19, by_hand, start_pieces=19, last_pieces=4)
    assert is_set_out(18, None, start_pieces=19, last_pieces=4)  # a coin of the rack unread
    assert not is_set_out(19, stroke, start_pieces=19, last_pieces=4)  # pieces that moved on their own: a stroke
    assert not is_set_out(10, by_hand, start_pieces=19, last_pieces=4)  # coins put back, not the set
    assert not is_set_out(18, by_hand, start_pieces=19, last_pieces=17)  # a due put back early in a board


def test_a_spot_is_unchanged_under_a_light_change_and_a_nudge_but_not_when_its_coin_left():
    rng = np.random.default_rng(3)
    board = cv2.GaussianBlur(rng.integers(90, 170, (200, 200, 3)).astype(np.uint8), (5, 5), 0)
    before = board.copy()
    cv2.circle(before, (100, 100), 12, (235, 235, 230), -1)
    cv2.circle(before, (100, 100), 12, (60, 60, 60), 2)
    brighter_nudged = np.clip(np.roll(before, 2, axis=1).astype(np.float32) * 1.2, 0, 255).astype(np.uint8)
    identity = np.eye(3)  # board mm = image px here
    spot = (np.array([[100.0, 100.0]]), np.array([12.0]))
    assert spots_unchanged(before, brighter_nudged, *spot, homography=identity).tolist() == [True]
    assert spots_unchanged(before, board, *spot, homography=identity).tolist() == [False]


def test_a_coin_gone_from_beside_a_pocket_is_a_changed_spot_though_the_mouth_still_matches():
    board = np.full((200, 200, 3), (165, 185, 205), np.uint8)
    board[106:] = (30, 45, 80)  # the frame's dark wood
    cv2.circle(board, (112, 106), 10, (10, 10, 10), -1)  # a pocket's mouth in its corner
    before = board.copy()
    cv2.circle(before, (96, 97), 9, (205, 222, 240), -1)  # a pale coin beside it
    spot = (np.array([[96.0, 97.0]]), np.array([9.0]))
    # The patch's shape is the mouth and the frame's edge: it matches with the coin gone too.
    assert spots_unchanged(before, board, *spot, homography=np.eye(3)).tolist() == [False]
    assert spots_unchanged(before, before, *spot, homography=np.eye(3)).tolist() == [True]


def test_an_arm_reaching_in_after_none_was_seen_is_a_hand_come_and_the_striking_one_withdrawing_is_not():
    segment = _Segment()
    strike_s = 1.0
    for i in range(30, 60):  # the striking hand seen every other frame as it lingers and withdraws
        t_s = i / 30
        segment.arm_motion.append((t_s, 2 * ARM_MOTION if t_s < strike_s + 0.5 and i % 2 else 0.0))
    assert segment.hand_came_after(strike_s) is False
    segment.arm_motion.append((1.5 + ARM_GONE_S, 1.0))  # an arm held in over the board (occluded) to pick a piece up
    assert segment.hand_came_after(strike_s) is True
    assert segment.hand_came_after(None) is None


def test_the_arm_motion_running_straight_into_a_strike_began_when_the_hand_held_over_the_board_lifted():
    # As couronne clip 5126 at 84.2 s: struck under the hand's last frames, a ring rolls along the cushion
    # with the hand leaving (both reach the rim) before free motion shows.
    segment = _Segment()
    for i in range(0, 30):
        t_s = 83.5 + i / 30
        held = t_s < 84.2
        segment.arm_motion.append((t_s, 1.0 if held else 2 * ARM_MOTION))
    assert segment.arm_ran_in_s(84.5) == pytest.approx(83.5 + 21 / 30)
    assert segment.arm_ran_in_s(83.9) == pytest.approx(83.9)  # struck while the hand was held: no run into it
    segment.arm_motion.append((85.0, 2 * ARM_MOTION))  # arm motion after a pause is not the strike's
    assert segment.arm_ran_in_s(85.2) == pytest.approx(85.2)


def test_pieces_first_rolled_at_the_first_run_of_free_motion_however_short():
    segment = _Segment()
    for i in range(30):
        segment.free_motion.append((i / 30, 0.01 if i in (10, 11, 20) else 0.0))
    assert segment.first_rolled_s(min_motion=0.003) == pytest.approx(10 / 30)
    assert _Segment().first_rolled_s(min_motion=0.003) is None


def test_a_second_strong_run_of_motion_after_a_new_arm_is_a_second_stroke_and_without_one_is_not():
    def segment(*, arm_between):  # None, 'new' or 'lingering'
        made = _Segment()
        for i in range(30, 120):
            t_s = i / 30
            rolling = 1.0 <= t_s < 1.5 or 3.0 <= t_s < 3.5
            made.free_motion.append((t_s, 0.01 if rolling else 0.0))
            if arm_between == "new":
                arm = 2.5 <= t_s < 2.9  # the striker's hand gone, the next player's reaching in
            elif arm_between == "knock":
                arm = 2.95 <= t_s < 3.0
            else:
                arm = arm_between == "lingering" and i % 3 == 0  # one hand fiddling on from first to last
            made.arm_motion.append((t_s, 1.0 if arm else 0.0))
        return made

    assert segment(arm_between="new").strikes_s(min_motion=0.003) == pytest.approx([1.0, 3.0])
    assert segment(arm_between="lingering").strikes_s(min_motion=0.003) == pytest.approx([1.0])
    assert segment(arm_between=None).strikes_s(min_motion=0.003) == pytest.approx([1.0])
    # A piece knocking the board's frame just before it rolls on is seen a frame or two: no hand that aimed.
    assert segment(arm_between="knock").strikes_s(min_motion=0.003) == pytest.approx([1.0])


def test_pieces_stirring_in_single_frames_between_still_ones_are_no_strike():
    # As carrom clip 5133 at 69.5 s: a piece vanishes in one frame, two others stir a few frames apart.
    segment = _Segment()
    for i in range(60):
        t_s = i / 30
        if i in (3, 8, 12):
            segment.begin(t_s)
            segment.free_motion.append((t_s, 0.05))
            segment.arm_motion.append((t_s, 0.0))
        else:
            segment.still(t_s)
    assert segment.strikes_s(min_motion=0.003) == []


def test_the_striker_set_down_before_an_aim_is_no_strike_the_motion_after_the_aim_is():
    fps = 30

    def segment(*, aim_frames, strike_share):
        made = _Segment()
        for i in range(30, 120):
            set_down = 30 <= i < 33  # the hand slides the striker onto the base line
            aiming = 33 <= i < 33 + aim_frames  # ... and holds still over the board
            # The stroke rolls on; a soft one's striker alone flickers over the motion that counts.
            rolling = 33 + aim_frames <= i < 48 + aim_frames and (strike_share > 0.005 or (i - aim_frames) % 2)
            made.free_motion.append((i / fps, 0.03 if set_down else strike_share if rolling else 0.0))
            made.arm_motion.append((i / fps, 1.0 if aiming else 0.0))
        return made

    aim_frames = round(AIM_S * fps) + 9
    struck_s = (33 + aim_frames) / fps
    aimed = segment(aim_frames=aim_frames, strike_share=0.008)
    assert aimed.strikes_s(min_motion=0.003, aimed=True) == pytest.approx([struck_s])
    # A soft stroke after the aim, only ever a frame in a row over the motion that counts, is still the strike.
    soft = segment(aim_frames=aim_frames, strike_share=0.0031)
    assert soft.strikes_s(min_motion=0.003, aimed=True) == pytest.approx([struck_s])
    # Without an aim after it, the first run is the strike; so it is in games that set no striker down (crokinole).
    assert segment(aim_frames=0, strike_share=0.008).strikes_s(min_motion=0.003, aimed=True) == pytest.approx([1.0])
    assert aimed.strikes_s(min_motion=0.003) == pytest.approx([1.0])


def test_an_aim_is_seen_though_the_hand_that_set_the_striker_down_still_stirred_a_frame_after():
    fps = 30
    made = _Segment()
    for i in range(30, 90):
        set_down = 30 <= i < 33
        settling = i == 33  # the hand still moving a little, no longer moving the striker
        aiming = 34 <= i < 52
        rolling = 52 <= i < 70
        made.free_motion.append((i / fps, 0.03 if set_down else 0.001 if settling else 0.008 if rolling else 0.0))
        made.arm_motion.append((i / fps, 1.0 if aiming else 0.002 if settling else 0.0))
    assert made.strikes_s(min_motion=0.003, aimed=True) == pytest.approx([52 / fps])


def test_a_faint_shot_is_timed_by_the_run_of_free_motion_with_the_most_of_it_and_flickers_are_no_run():
    segment = _Segment()
    # As the light disc of tuning clip 5002 at 107 s: a hand's flicker, then the pale disc sliding, too faint to strike.
    shares = {106.30: 0.0014, 107.30: 0.0032, 107.33: 0.0020, 107.37: 0.0016, 107.40: 0.0011, 107.43: 0.0006}
    for i in range(3180, 3240):
        t_s = round(i / 30, 2)
        segment.free_motion.append((t_s, shares.get(t_s, 0.0)))
    assert segment.strikes_s(min_motion=MIN_STRIKE_MOTION["crokinole"]) == []
    assert segment.faint_strike_s() == pytest.approx(107.30)
    assert _Segment().faint_strike_s() is None


def test_a_stroke_seen_as_no_strike_struck_when_the_hand_aiming_before_the_pieces_dropped_in_let_go():
    # As couronne clip 5107 at 100.8 s: the arm came in (a frame of free motion), the hand held still to aim,
    # then everything rolled along the cushions (taken for the arm) into a pocket; another hand came later.
    segment = _Segment()
    for i in range(2990, 3090):
        t_s = i / 30
        aiming, placing = 3007 <= i < 3025, 3060 <= i < 3072
        segment.free_motion.append((t_s, 0.0065 if i == 2998 else 0.0))
        segment.arm_motion.append((t_s, 1.0 if aiming or placing else 0.01))
    assert segment.last_hold_end_s(101.0) == pytest.approx(3024 / 30)
    assert segment.last_hold_end_s() == pytest.approx(3071 / 30)
    assert segment.last_hold_end_s(3010 / 30) is None  # the hold had not lasted an aim by then


def test_a_strike_begins_at_its_first_free_motion_though_the_withdrawing_hand_hid_the_next_frames():
    fps = 30

    def segment(*, hidden_frames):
        made = _Segment()
        for i in range(20, 80):
            aiming = i < 30  # the hand held still over the board: no free motion
            first = 30 <= i < 32  # the striker leaves the finger, a coin beside it struck at once ...
            hidden = 32 <= i < 32 + hidden_frames  # ... then the withdrawing hand joins them to the rim
            made.free_motion.append((i / fps, 0.0 if aiming or hidden else 0.008 if first or i < 70 else 0.0))
            made.arm_motion.append((i / fps, 1.0 if aiming or hidden else 0.0))
        return made

    joined = segment(hidden_frames=4)
    (strike_s,) = joined.strikes_s(min_motion=0.003, aimed=True)
    assert strike_s == pytest.approx(36 / fps)  # the first run of three frames and more
    assert joined.began_s(strike_s, min_motion=0.003) == pytest.approx(30 / fps)
    # Free motion that stopped for longer is another movement (the striker set down, then an aim).
    apart = segment(hidden_frames=round(STRIKE_JOIN_S * fps) + 3)
    (strike_s,) = apart.strikes_s(min_motion=0.003)
    assert apart.began_s(strike_s, min_motion=0.003) == pytest.approx(strike_s)



def test_a_soft_stroke_after_an_aim_is_struck_though_the_striker_was_set_down_under_the_hand():
    # As carrom clip 5002 at 64.7 s: the striker set down moved with the hand (no motion of its own), the hand
    # held still aiming, then the striker barely rolled: single frames of motion after the aim.
    segment = _Segment()
    for i in range(60, 120):
        t_s = i / 30
        segment.begin(t_s)
        held = 2.2 <= t_s < 2.9
        rolling = i in (88, 89, 92, 95)
        segment.free_motion.append((t_s, 0.006 if rolling else 0.0))
        segment.arm_motion.append((t_s, 1.0 if held else (0.02 if t_s < 2.2 else 0.0)))
    assert segment.strikes_s(min_motion=0.003, aimed=True) == pytest.approx([88 / 30])
    assert segment.strikes_s(min_motion=0.003) == []  # without aiming (crokinole, couronne) no strike is seen
