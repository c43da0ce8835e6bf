import cv2
import numpy as np
import pytest

from calibration.geometry import load_board

from tests.vision import scripted_video
from vision.pockets import DitchWatch, approach_mask, board_masks
from vision.settle import SettleGate, SettleSettings, _block_means
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


def test_a_still_board_settles_while_a_lamp_warms_up_or_the_exposure_catches_up():
    gate = SettleGate()
    rng = np.random.default_rng(2)
    board = rng.integers(60, 160, (120, 160, 3)).astype(np.float32)
    # Brighter by 1.2 % a frame: never a change from one frame to the next, a large one over the settle time.
    ramp = [np.clip(board * (1 + 0.012 * i), 0, 255).astype(np.uint8) for i in range(45)]
    settles = [i for i, image in enumerate(ramp) if gate.update(image, i / 30).is_new_settle]
    # Read once, in time: not held for the whole ramp, nor read again and again as the light goes on changing.
    assert len(settles) == 1 and settles[0] <= round(SettleSettings().settle_s * 30) + 3, settles


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


def crokinole_scene(size: int = 800, *, frame_bgr=(60, 110, 170), table_bgr=(150, 140, 120)):
    """A top view of a crokinole board on a table (0.5 px per mm) and its gate's masks."""
    board = load_board("crokinole")
    homography = np.array([[0.5, 0, size / 2], [0, 0.5, size / 2], [0, 0, 1.0]])  # board mm -> px
    surface, rim = board_masks(homography, board=board, image_shape=(size, size))
    table = approach_mask(homography, board=board, image_shape=(size, size))
    scene = np.full((size, size, 3), table_bgr, np.uint8)
    frame_r_px = 0.5 * (board.surface_radius_mm + board.ditch_width_mm + board.frame_width_mm)
    cv2.circle(scene, (size // 2, size // 2), round(frame_r_px), frame_bgr, -1)
    cv2.circle(scene, (size // 2, size // 2), round(0.5 * board.surface_radius_mm), (180, 200, 210), -1)
    return board, scene, (surface, rim, table)


def test_an_arm_coloured_like_the_frame_is_seen_on_the_table_beyond_it():
    size = 800
    board, scene, (surface, rim, table) = crokinole_scene(size)
    arm_bgr = (62, 112, 172)  # skin the colour of the frame
    outer_px = 0.5 * (board.surface_radius_mm + board.ditch_width_mm + board.frame_width_mm)
    gate = SettleGate(board_mask=surface, rim_mask=rim, approach_mask=table)
    t, readings, over_board = 0.0, [], []
    for k in range(40):
        image = scene.copy()
        if k >= 10:
            # An arm reaches in from the right to the surface's edge and holds still there.
            tip_x = round(size / 2 + 0.5 * board.surface_radius_mm + max(0, 30 - k) * 8)
            cv2.rectangle(image, (tip_x, size // 2 - 18), (size, size // 2 + 18), arm_bgr, -1)
            if tip_x < size / 2 + outer_px:
                over_board.append(k)
        readings.append(gate.update(image, t))
        t += 1 / 30
    # Over the frame the arm is all but invisible: the table beyond it shows it.
    assert readings[10].is_settled
    assert over_board and not any(readings[k].is_settled for k in over_board)
    assert all(r.is_occluded for r in readings[31:])
    rim_only = SettleGate(board_mask=surface, rim_mask=rim)
    t = 0.0
    for k in range(40):
        image = scene.copy()
        if k >= 10:
            tip_x = round(size / 2 + 0.5 * board.surface_radius_mm + max(0, 30 - k) * 8)
            cv2.rectangle(image, (tip_x, size // 2 - 18), (size, size // 2 + 18), arm_bgr, -1)
        last = rim_only.update(image, t)
        t += 1 / 30
    assert last.is_settled  # what the table adds: the rim alone reads the board under this arm


def test_a_piece_knocked_onto_the_table_or_a_shaken_view_does_not_hold_the_board():
    size = 800
    board, scene, (surface, rim, table) = crokinole_scene(size)
    gate = SettleGate(board_mask=surface, rim_mask=rim, approach_mask=table)
    beyond_px = round(0.5 * (board.surface_radius_mm + board.ditch_width_mm + board.frame_width_mm) + 12)
    t, settled_at = 0.0, []
    for k in range(60):
        image = scene.copy()
        if k >= 10:
            # A disc lying on the table next to the board, and the table's edges a pixel off.
            cv2.circle(image, (size // 2 + beyond_px, size // 2), 8, (30, 30, 30), -1)
            image = np.roll(image, 1, axis=1)
        reading = gate.update(image, t)
        if reading.is_new_settle:
            settled_at.append(k)
        t += 1 / 30
    settle_frames = round(SettleSettings().settle_s * 30)
    assert settled_at and settled_at[-1] <= 10 + settle_frames + 2


def test_a_key_frame_redrawing_every_edge_is_no_motion_but_a_disc_nudged_is():
    size = 800
    _, scene, (surface, rim, table) = crokinole_scene(size)
    redrawn = scene.copy()
    for r in range(60, 160, 45):  # within the playing surface
        cv2.circle(scene, (size // 2, size // 2), r, (90, 90, 90), 2)  # printed lines
        # The codec's refresh: every line's pixels quantised afresh, a little lighter.
        cv2.circle(redrawn, (size // 2, size // 2), r, (110, 110, 110), 2)
    for image in (scene, redrawn):
        cv2.circle(image, (size // 2 + 100, size // 2), 16, (40, 40, 40), -1)  # a disc
    nudged = scene.copy()
    cv2.circle(nudged, (size // 2 + 100, size // 2), 16, (180, 200, 210), -1)
    cv2.circle(nudged, (size // 2 + 108, size // 2), 16, (40, 40, 40), -1)
    for changed, moves in ((redrawn, False), (nudged, True)):
        gate = SettleGate(board_mask=surface, rim_mask=rim, approach_mask=table)
        for k in range(5):
            gate.update(scene, k / 30)
        assert gate.update(changed, 5 / 30).is_moving == moves


def test_the_made_up_edge_of_a_view_moved_after_a_bump_is_no_arm():
    size = 800
    _, scene, (surface, rim, table) = crokinole_scene(size)
    # The floor beyond the table's edge: that part of the view is unlike the rest of the table in
    # either view, so the gate cannot tell by colour which view is made up there.
    beyond = table.copy()
    beyond[:, :600] = False
    scene[beyond] = (40, 60, 90)
    moved = scene.copy()
    moved[:, 580:] = (20, 20, 20)  # beyond the old picture's edge: made up by the warp
    seen = np.ones((size, size), bool)
    seen[:, 580:] = False
    readings = {}
    for name, known in (("told", seen), ("not told", None)):
        gate = SettleGate(board_mask=surface, rim_mask=rim, approach_mask=table)
        gate.set_reference(moved, seen=known)
        readings[name] = [gate.update(scene, k / 30) for k in range(15)]
    settle_frames = round(SettleSettings().settle_s * 30)
    assert readings["told"][settle_frames + 1].is_settled
    assert not any(r.is_settled for r in readings["not told"])


def test_a_view_moved_a_few_pixels_off_at_its_edges_holds_nothing_but_a_dim_arm_on_a_grainy_table():
    size = 800
    board, scene, (surface, rim, table) = crokinole_scene(size, frame_bgr=(20, 30, 45), table_bgr=(200, 205, 210))
    # An octagonal frame around the round board: its corners reach over the table watched beyond.
    outer_px = 0.5 * (board.surface_radius_mm + board.ditch_width_mm + board.frame_width_mm)
    corner_px = outer_px / np.cos(np.pi / 8)
    angles = np.pi / 8 + np.arange(8) * np.pi / 4
    octagon = np.stack([size / 2 + corner_px * np.cos(angles), size / 2 + corner_px * np.sin(angles)], axis=1)
    cv2.fillPoly(scene, [np.round(octagon).astype(np.int32)], (20, 30, 45), cv2.LINE_AA)
    cv2.circle(scene, (size // 2, size // 2), round(0.5 * board.surface_radius_mm), (180, 200, 210), -1)
    grain = np.random.default_rng(5).normal(0, 4, scene.shape)
    scene = np.clip(scene + grain, 0, 255).astype(np.uint8)
    # The last settled view moved with the board after a bump: the frame's edge lands a few pixels
    # off in the new picture (it stands above the surface the view was moved for).
    moved = cv2.warpAffine(scene, np.float32([[1, 0, 4.0], [0, 1, -2.0]]), (size, size),
                           flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    gate = SettleGate(board_mask=surface, rim_mask=rim, approach_mask=table)
    gate.set_reference(moved, seen=np.ones((size, size), bool))
    readings = [gate.update(scene, k / 30) for k in range(15)]
    settle_frames = round(SettleSettings().settle_s * 30)
    assert readings[settle_frames + 1].is_settled

    # A sleeve only a little darker than the grainy table, resting beyond the frame: the edges a
    # few pixels off must not join it into a patch that passes for the reference's own.
    sleeved = scene.copy()
    sleeve = np.zeros((size, size), bool)
    sleeve[size // 2 - 25: size // 2 + 25, size // 2 + round(corner_px) + 2:] = True
    sleeved[sleeve] = np.clip(sleeved[sleeve].astype(int) - 28, 0, 255).astype(np.uint8)
    gate = SettleGate(board_mask=surface, rim_mask=rim, approach_mask=table)
    gate.set_reference(moved, seen=np.ones((size, size), bool))
    readings = [gate.update(sleeved, k / 30) for k in range(15)]
    assert all(r.is_occluded for r in readings[1:])


def test_on_a_dim_table_a_sleeve_a_little_lighter_is_an_arm_but_on_a_bright_one_a_faint_shade_is_not():
    size = 800
    held = {}
    for name, table_bgr, change in (("dim", (60, 45, 35), 16), ("bright", (200, 205, 210), -16)):
        board, scene, (surface, rim, table) = crokinole_scene(size, frame_bgr=(30, 40, 60), table_bgr=table_bgr)
        outer_px = round(0.5 * (board.surface_radius_mm + board.ditch_width_mm + board.frame_width_mm))
        covered = scene.copy()
        band = (slice(size // 2 - 30, size // 2 + 30), slice(size // 2 + outer_px + 2, size))
        covered[band] = np.clip(covered[band].astype(int) + change, 0, 255).astype(np.uint8)
        gate = SettleGate(board_mask=surface, rim_mask=rim, approach_mask=table)
        gate.update(scene, 0.0)
        held[name] = [gate.update(covered, k / 30).is_occluded for k in range(1, 15)]
    assert all(held["dim"][1:])  # after the one frame it moved in
    assert not any(held["bright"])


PALE_DISC_R_PX = 8  # a crokinole disc at 0.5 px per mm


def pale_disc_frames(scene: np.ndarray, centres_px: list[tuple[int, int] | None]) -> list[np.ndarray]:
    """The scene with a pale disc (7 grey levels above the surface, about a light disc on a cream board) at each centre."""
    frames = []
    for centre in centres_px:
        image = scene.copy()
        if centre is not None:
            cv2.circle(image, centre, PALE_DISC_R_PX, (187, 207, 217), -1, cv2.LINE_AA)
        frames.append(image)
    return frames


def settles_over(frames: list[np.ndarray], gate: SettleGate, *, measure: bool) -> list[int]:
    """The frames the gate reads, having measured the disc at its first read when asked."""
    settles = []
    for k, image in enumerate(frames):
        if gate.update(image, k / 30).is_new_settle:
            settles.append(k)
            if measure and len(settles) == 1:
                gate.set_pieces(image, np.array([[300.0, 400.0]]), np.array([PALE_DISC_R_PX]), ("light",))
    return settles


def test_a_pale_disc_lifted_off_or_sliding_slowly_is_seen_once_the_gate_knows_how_faint_the_discs_are():
    board, scene, (surface, rim, table) = crokinole_scene()
    lifted = pale_disc_frames(scene, [(300, 400)] * 20 + [None] * 20)
    # A disc creeping a pixel a frame, from frame 20 to 40: each frame changes fewer pixels than motion takes.
    sliding = pale_disc_frames(scene, [(300, 400)] * 20 + [(300 + k, 400) for k in range(1, 21)] + [(320, 400)] * 20)
    for measure in (True, False):
        gate = SettleGate(board_mask=surface, rim_mask=rim, approach_mask=table)
        settles = settles_over(lifted, gate, measure=measure)
        assert (settles[-1] > 20) == measure, settles  # read again once the disc is gone
        gate = SettleGate(board_mask=surface, rim_mask=rim, approach_mask=table)
        settles = settles_over(sliding, gate, measure=measure)
        # Read again only once the disc stopped (not while it slid).
        assert (not any(20 < k < 40 for k in settles) and settles[-1] >= 40) == measure, settles


def test_the_gate_measures_a_pale_disc_as_faint_and_a_dark_one_as_plain():
    board, scene, (surface, rim, table) = crokinole_scene()
    gate = SettleGate(board_mask=surface, rim_mask=rim, approach_mask=table)
    image = pale_disc_frames(scene, [(300, 400)])[0]
    cv2.circle(image, (500, 400), PALE_DISC_R_PX, (30, 30, 30), -1, cv2.LINE_AA)
    centres, radii = np.array([[300.0, 400.0], [500.0, 400.0]]), np.array([PALE_DISC_R_PX] * 2)
    faintest = gate.set_pieces(image, centres, radii, ("light", "dark"))
    assert 3 < faintest < 8  # the pale disc's, softened by the gate's small view
    assert gate.set_pieces(image, centres[1:], radii[1:], ("dark",)) > 100
    assert gate.set_pieces(image, np.array([[-50.0, 400.0]]), radii[:1], ("light",)) is None  # off the view



def test_a_hand_reaching_to_the_centre_moves_nothing_on_its_own_but_a_disc_rolling_beside_it_does():
    size = 800
    board, scene, (surface, rim, table) = crokinole_scene(size)
    surface_r_px = 0.5 * board.surface_radius_mm
    gate = SettleGate(board_mask=surface, rim_mask=rim, approach_mask=table)
    t, free = 0.0, []
    for k in range(40):
        image = scene.copy()
        if k >= 12:
            # An even sleeve reaches in from the right towards the hole: only its fingertips change.
            tip_x = round(size / 2 + surface_r_px - (k - 12) * 8)
            cv2.rectangle(image, (tip_x, size // 2 - 20), (size, size // 2 + 20), (70, 90, 160), -1)
        if k >= 30:
            # A disc rolls across the far side of the board, free of the arm.
            cv2.circle(image, (round(size / 2 - 0.6 * surface_r_px), round(size / 2 - 120 + (k - 30) * 8)), 8,
                       (40, 40, 40), -1)
        free.append(gate.update(image, t).free_motion_fraction)
        t += 1 / 30
    assert not any(free[12:30])  # the reaching hand alone
    assert all(f > 0 for f in free[31:])


def test_a_lamp_that_changed_the_table_for_good_does_not_hold_the_board_while_play_goes_on():
    size = 800
    board, scene, (surface, rim, table) = crokinole_scene(size)
    frame_r_px = 0.5 * (board.surface_radius_mm + board.ditch_width_mm + board.frame_width_mm)
    gate = SettleGate(board_mask=surface, rim_mask=rim, approach_mask=table)
    fps = 30
    t, settled_at = 0.0, []
    for k in range(10 * fps):
        image = scene.copy()
        if k >= fps // 2:
            # The lamp's new light on the table beside the board, for good.
            corner = round(size / 2 - 0.8 * frame_r_px)
            cv2.rectangle(image, (size // 2 - 260, size - corner - 100), (corner, size - corner), (175, 168, 150), -1)
        if k >= fps:
            # Play goes on: each second a disc slides for half of it and lies still for the other half,
            # never long enough for an arm held still to time out.
            slid = min(k % fps, fps // 2)
            cv2.circle(image, (size // 2 + 60, size // 2 - 150 + slid * 6), 8, (40, 40, 40), -1)
        reading = gate.update(image, t)
        if reading.is_new_settle:
            settled_at.append(k / fps)
        t += 1 / fps
    absorbed_s = 0.5 + SettleSettings().table_absorb_s
    assert not any(1.0 < s < absorbed_s for s in settled_at)  # the light held the board at first ...
    assert any(absorbed_s <= s < absorbed_s + 1.5 for s in settled_at)  # ... until it lasted longer than any arm


def test_each_spot_is_timed_by_the_hand_that_changed_it_for_good_not_by_one_that_passed_over_it():
    size = 800
    board, scene, (surface, rim, table) = crokinole_scene(size)
    surface_r_px = 0.5 * board.surface_radius_mm
    gate = SettleGate(board_mask=surface, rim_mask=rim, approach_mask=table)
    near, far, untouched = (size // 2 + 100, size // 2), (size // 2 - 60, size // 2), (size // 2, size // 2 - 150)
    fps, t, frames = 30, 0.0, []
    # Two hands in a row from the right, each putting a disc down: the first reaches past `near` to `far`,
    # the second to `near`. Each comes in 8 px a frame, sets its disc down and goes back out.
    for target in (far, near):
        reach = round((size / 2 + surface_r_px - target[0]) / 8)
        frames += [(target, size // 2 + surface_r_px - 8 * k, False) for k in range(reach)]
        frames += [(target, size // 2 + surface_r_px - 8 * k, True) for k in range(reach, -1, -1)]
    discs, put_down_s = [], {}
    for k in range(15):
        gate.update(scene, t)
        t += 1 / fps
    for target, tip_x, down in frames:
        image = scene.copy()
        if down and target not in put_down_s:
            put_down_s[target] = t
            discs.append(target)
        for centre in discs:
            cv2.circle(image, centre, 8, (40, 40, 40), -1)
        cv2.rectangle(image, (round(tip_x), size // 2 - 20), (size, size // 2 + 20), (70, 90, 160), -1)
        gate.update(image, t)
        t += 1 / fps
    settled = False
    while not settled:
        settled = gate.update(image, t).is_new_settle
        t += 1 / fps
    times = gate.alike_times.at(np.array([far, near, untouched], float), np.full(3, 8.0))
    assert abs(times[0] - put_down_s[far]) <= 2 / fps
    assert abs(times[1] - put_down_s[near]) <= 2 / fps  # the first hand passed over it long before
    assert np.isnan(times[2])


@pytest.mark.parametrize("block", [2, 3, 4, 5, 6])
def test_whole_blocks_are_averaged_as_area_shrinking_averages_them(block):
    # The gate's small view takes its blocks' means on a faster path than OpenCV's area shrink:
    # the same view, at most one level of rounding apart.
    image = np.random.default_rng(block).integers(0, 256, (block * 37, block * 53, 3), dtype=np.uint8)
    image = cv2.GaussianBlur(image, (0, 0), 1.5)  # camera-like: neighbours alike, edges kept
    area = cv2.resize(image, (53, 37), interpolation=cv2.INTER_AREA)
    ours = _block_means(image, block)
    assert ours.shape == area.shape
    assert np.abs(ours.astype(int) - area).max() <= 1
