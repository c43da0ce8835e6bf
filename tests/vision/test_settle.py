import numpy as np
import pytest

from tests.vision import scripted_video
from vision.settle import SettleGate, SettleSettings
from vision.sources import VideoFileSource


@pytest.fixture(scope="module")
def readings(tmp_path_factory):
    clip = scripted_video.write(tmp_path_factory.mktemp("settle") / "clip.mp4")
    gate = SettleGate(board_mask=scripted_video.board_mask())
    return [gate.update(frame.image, frame.t_s) for frame in VideoFileSource(clip)]


def frame_of(t_s):
    return round(t_s * scripted_video.FPS)


def test_reads_once_after_each_movement_once_still_for_the_settle_time(readings):
    script = scripted_video.Script()
    settles = [frame_of(r.t_s) for r in readings if r.is_new_settle]
    settle_frames = round(SettleSettings().settle_s * scripted_video.FPS)
    # Before the disc moves, after it stops, after the arm has gone: three reads.
    assert len(settles) == 3
    assert settles[0] <= script.disc_moving[0]
    assert script.disc_moving[1] + settle_frames - 1 <= settles[1] <= script.disc_moving[1] + settle_frames + 3
    assert script.arm_in[1] <= settles[2] <= script.arm_in[1] + settle_frames + 3


def test_never_settled_while_something_moves_or_an_arm_is_over_the_board(readings):
    script = scripted_video.Script()
    for r in readings:
        frame = frame_of(r.t_s)
        if script.disc_moving[0] < frame < script.disc_moving[1] or scripted_video.arm_over_board(frame, script):
            assert not r.is_settled, frame


def test_an_arm_held_still_is_seen_as_occlusion():
    script = scripted_video.Script(frames=90, arm_in=(30, 80))
    gate = SettleGate(board_mask=scripted_video.board_mask())
    occluded = []
    for i in range(script.frames):
        image = scripted_video.render(i, script)
        reading = gate.update(image, i / scripted_video.FPS)
        if 45 <= i < 65:
            occluded.append(reading.is_moving or reading.is_occluded)
    assert all(occluded)


def test_a_light_change_is_divided_out_and_does_not_hold_the_board():
    gate = SettleGate()
    rng = np.random.default_rng(1)
    board = rng.integers(60, 160, (120, 160, 3)).astype(np.uint8)
    t = 0.0
    for _ in range(20):
        gate.update(board, t)
        t += 1 / 30
    brighter = np.clip(board.astype(np.float32) * 1.3, 0, 255).astype(np.uint8)
    settled_after_s = None
    for i in range(60):
        reading = gate.update(brighter, t)
        assert not reading.is_occluded
        if reading.is_new_settle and settled_after_s is None:
            settled_after_s = i / 30
        t += 1 / 30
    assert settled_after_s is not None
    assert settled_after_s <= SettleSettings().settle_s + 0.1
