import cv2
import numpy as np
import pytest

from calibration.geometry import load_board

from tests.vision import scripted_video
from vision.pockets import DitchWatch, board_masks
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


def test_a_disc_landing_in_the_crokinole_ditch_is_timed_in_its_sector():
    board = load_board("crokinole")
    size = 800
    homography = np.array([[0.5, 0, size / 2], [0, 0.5, size / 2], [0, 0, 1.0]])  # board mm -> px
    surface, rim = board_masks(homography, board=board, image_shape=(size, size))
    gate = SettleGate(board_mask=surface, rim_mask=rim)
    ditch = DitchWatch(homography, board=board, shrink=gate.shrink, image_shape=(size, size))
    empty = np.full((size, size, 3), 150, np.uint8)
    ditch_r_px = 0.5 * (board.surface_radius_mm + board.ditch_width_mm / 2)
    landed = empty.copy()
    bearing = np.pi / 24  # the middle of a sector
    at = (round(size / 2 + ditch_r_px * np.cos(bearing)), round(size / 2 + ditch_r_px * np.sin(bearing)))
    cv2.circle(landed, at, 8, (40, 40, 40), -1)  # in the ditch
    cv2.circle(landed, (size // 2, size // 2 + 60), 8, (240, 240, 240), -1)  # another disc rolls on the surface
    for i, image in enumerate([empty, empty, landed, landed]):
        gate.update(image, i / 30)
        ditch.update(gate.free_change, i / 30)
    landings = ditch.landings()
    assert len(landings) == 1
    t_s, angle = landings[0]
    assert t_s == 2 / 30 and abs(angle - bearing) < 1e-6


def test_a_view_settled_with_an_arm_in_the_rim_does_not_hold_the_board_for_ever():
    gate = SettleGate()
    stripes = np.where((np.arange(160) // 4) % 2 == 0, 100, 160).astype(np.uint8)
    board = np.repeat(np.repeat(stripes[None, :, None], 120, axis=0), 3, axis=2)
    with_arm = board.copy()
    # An arm over the left edge when the video starts, coloured like the edge but not the same picture.
    with_arm[40:80, :12] = np.roll(board, 4, axis=1)[40:80, :12]
    t, settles_after_arm = 0.0, []
    for _ in range(20):
        gate.update(with_arm, t)
        t += 1 / 30
    left_s = t
    for i in range(150):
        # A piece moves now and then: the board is never still for the occlusion timeout.
        frame = board.copy()
        frame[60:66, 60 + 8 * (i // 20):66 + 8 * (i // 20)] = 250
        if gate.update(frame, t).is_new_settle:
            settles_after_arm.append(t - left_s)
        t += 1 / 30
    assert settles_after_arm and settles_after_arm[0] < SettleSettings().rim_absorb_s + 0.2
