"""The pocket watch on drawn frames: a coin dropping in, a bumped board, a view that moves."""

import cv2
import numpy as np

from calibration.geometry import load_board
import pytest

from vision.pockets import DitchWatch, PocketWatch, board_masks
from vision.settle import SettleGate

BOARD = load_board("carrom")
SHAPE = (500, 500)


def homography(shift_px=0.0):
    """Board mm -> px: the board's 740 mm square over most of the picture, moved right by `shift_px`."""
    return np.array([[0.6, 0.0, 250.0 + shift_px], [0.0, 0.6, 250.0], [0.0, 0.0, 1.0]])


def frame(*, shift_px=0, coin_near_pocket=None):
    """A textured board (so a shift shows), with a coin beside a pocket if asked."""
    image = np.full((*SHAPE, 3), 200, np.uint8)
    for x in range(-400, 900, 23):
        cv2.line(image, (x + shift_px, 0), (x + shift_px + 150, 500), (120, 150, 170), 3)
    if coin_near_pocket is not None:
        cx, cy = BOARD.pocket_centres_mm()[coin_near_pocket]
        u, v = 250 + shift_px + 0.6 * cx * 0.93, 250 + 0.6 * cy * 0.93
        cv2.circle(image, (round(u), round(v)), 9, (30, 30, 30), -1)
    return image


def test_a_coin_at_one_pocket_makes_it_busy_and_a_bump_moving_every_pocket_does_not():
    watch = PocketWatch(homography(), board=BOARD, image_shape=SHAPE)
    for i, image in enumerate([frame(), frame(coin_near_pocket=2), frame(), frame(shift_px=6), frame(shift_px=6)]):
        watch.update(image, i / 30)
    busy = [a.pocket for a in watch.activity() if a.energy > 0]
    assert busy == [2]


def test_a_pale_coin_dropping_in_is_a_glimpse_of_its_pocket_but_no_busy_pocket():
    watch = PocketWatch(homography(), board=BOARD, image_shape=SHAPE)
    pale = frame()
    cx, cy = BOARD.pocket_centres_mm()[3]
    # A pale coin on a pale board: for one frame only a few of its pixels differ enough to count.
    cv2.circle(pale, (round(250 + 0.6 * cx * 0.93), round(250 + 0.6 * cy * 0.93)), 2, (235, 235, 235), -1)
    for i, image in enumerate([frame(), pale, frame()]):
        watch.update(image, i / 30)
    activity = watch.activity()
    assert [a.energy for a in activity] == [0.0] * 4
    assert [a.glimpse_t_s for a in activity] == [None, None, None, 1 / 30]


def test_a_pocket_busy_twice_a_second_apart_tells_each_spell_with_its_own_time():
    watch = PocketWatch(homography(), board=BOARD, image_shape=SHAPE)
    busy_frames = {10, 11, 40, 41, 42}  # a coin dropping in, then another a second later
    for i in range(60):
        watch.update(frame(coin_near_pocket=2) if i in busy_frames else frame(), i / 30)
    spells = watch.activity()[2].spells
    assert [round(b.peak_t_s * 30) for b in spells] == [10, 40]
    assert sum(b.energy for b in spells) == pytest.approx(watch.activity()[2].energy)
    assert [a.spells for a in watch.activity() if a.pocket != 2] == [(), (), ()]
    watch.reset()
    assert watch.activity()[2].spells == ()


def test_activity_is_kept_when_the_view_moves():
    watch = PocketWatch(homography(), board=BOARD, image_shape=SHAPE)
    for i, image in enumerate([frame(), frame(coin_near_pocket=1), frame()]):
        watch.update(image, i / 30)
    moved = watch.moved(homography(6), board=BOARD, image_shape=SHAPE)
    assert [a.energy > 0 for a in moved.activity()] == [a.energy > 0 for a in watch.activity()]
    assert moved.activity()[1].peak_t_s == watch.activity()[1].peak_t_s


CROKINOLE = load_board("crokinole")
DITCH_SIZE = 500
DITCH_HOMOGRAPHY = np.array([[0.6, 0.0, 250.0], [0.0, 0.6, 250.0], [0.0, 0.0, 1.0]])  # board mm -> px


def crokinole_frame(*, ditch_discs=(), surface_discs=(), light=1.0, hand_over_rim_at=None):
    """A drawn crokinole board: wood, a red ditch, a frame; discs at (bearing, colour) in the ditch or (x, y) on the surface."""
    image = np.full((DITCH_SIZE, DITCH_SIZE, 3), (90, 100, 110), np.uint8)
    rim_r = CROKINOLE.surface_radius_mm + CROKINOLE.ditch_width_mm + CROKINOLE.frame_width_mm
    cv2.circle(image, (250, 250), round(0.6 * rim_r), (60, 110, 170), -1)
    cv2.circle(image, (250, 250), round(0.6 * (CROKINOLE.surface_radius_mm + CROKINOLE.ditch_width_mm)), (40, 40, 150), -1)
    cv2.circle(image, (250, 250), round(0.6 * CROKINOLE.surface_radius_mm), (170, 210, 230), -1)
    ditch_r = 0.6 * (CROKINOLE.surface_radius_mm + CROKINOLE.ditch_width_mm / 2)
    for bearing, colour in ditch_discs:
        at = (round(250 + ditch_r * np.cos(bearing)), round(250 + ditch_r * np.sin(bearing)))
        cv2.circle(image, at, round(0.6 * 15.9), colour, -1)
    for x, y in surface_discs:
        cv2.circle(image, (round(250 + 0.6 * x), round(250 + 0.6 * y)), round(0.6 * 15.9), (30, 30, 30), -1)
    if hand_over_rim_at is not None:
        # Fingers over the ditch, the hand on the frame beyond: one patch from the ditch outwards.
        inner = 0.6 * (CROKINOLE.surface_radius_mm + 5)
        c, s = np.cos(hand_over_rim_at), np.sin(hand_over_rim_at)
        cv2.line(image, (round(250 + inner * c), round(250 + inner * s)), (round(250 + 245 * c), round(250 + 245 * s)),
                 (80, 140, 200), 14)
    return np.clip(image * light, 0, 255).astype(np.uint8)


def ditch_watch(empty):
    surface, rim = board_masks(DITCH_HOMOGRAPHY, board=CROKINOLE, image_shape=empty.shape[:2])
    gate = SettleGate(board_mask=surface, rim_mask=rim)
    return gate, DitchWatch(DITCH_HOMOGRAPHY, board=CROKINOLE, shrink=gate.shrink, image_shape=empty.shape[:2],
                            empty=empty)


def test_discs_lying_in_the_ditch_are_counted_in_their_sector_whatever_the_light():
    empty = crokinole_frame()
    _, watch = ditch_watch(empty)
    assert max(watch.discs(crokinole_frame(light=1.25))) < 0.3
    bearing = 7.5 * 2 * np.pi / 24  # the middle of sector 7
    discs = np.array(watch.discs(crokinole_frame(ditch_discs=[(bearing, (235, 235, 235)), (bearing + np.pi, (25, 25, 25))],
                                                 light=0.85)))
    assert 0.6 < discs[7] < 1.4 and 0.6 < discs[19] < 1.4
    assert np.delete(discs, [7, 19]).max() < 0.3


def test_a_landing_after_other_motion_in_the_same_sector_is_still_seen():
    empty = crokinole_frame()
    gate, watch = ditch_watch(empty)
    bearing = 3.5 * 2 * np.pi / 24
    edge = CROKINOLE.surface_radius_mm - 8
    passing = crokinole_frame(surface_discs=[(edge * np.cos(bearing), edge * np.sin(bearing))])
    # A disc rolls along the surface's edge and away; a while later one crosses it into the ditch there
    # (where, touching the frame, its change is no longer free).
    frames = ([empty] * 3 + [passing] + [empty] * 11 + [passing]
              + [crokinole_frame(ditch_discs=[(bearing, (25, 25, 25))])] * 4)
    for i, image in enumerate(frames):
        gate.update(image, i / 30)
        watch.update(gate.free_change, i / 30)
    spells = sorted(t_s for t_s, angle in watch.landings() if abs(angle - bearing) < 0.2)
    assert spells[0] == pytest.approx(3 / 30) and spells[-1] == pytest.approx(15 / 30)


def test_a_disc_put_into_the_ditch_by_hand_is_a_change_of_the_ditch_though_not_free_motion():
    empty = crokinole_frame()
    gate, watch = ditch_watch(empty)
    bearing = 11.5 * 2 * np.pi / 24
    put = crokinole_frame(ditch_discs=[(bearing, (235, 235, 235))])
    for i, image in enumerate([empty] * 5 + [put] * 5):
        gate.update(image, i / 30)
        watch.update(gate.free_change, i / 30, image)
    assert [(t_s, angle) for t_s, angle in watch.changes()] == [pytest.approx((5 / 30, bearing))]
    assert not [t_s for t_s, angle in watch.landings() if abs(angle - bearing) < 0.2]


def coin_by_pocket(pocket, along_px, across_px):
    """A frame with a dark coin `along_px` from a pocket's centre towards the board's centre, `across_px` sideways."""
    image = frame()
    cx, cy = 250 + 0.6 * np.array(BOARD.pocket_centres_mm()[pocket])
    inward = -np.array([cx - 250, cy - 250]) / np.hypot(cx - 250, cy - 250)
    sideways = np.array([-inward[1], inward[0]])
    u, v = np.array([cx, cy]) + along_px * inward + across_px * sideways
    cv2.circle(image, (round(u), round(v)), 9, (30, 30, 30), -1)
    return image


def spells_of(frames, pocket=2):
    watch = PocketWatch(homography(), board=BOARD, image_shape=SHAPE)
    for i, image in enumerate(frames):
        watch.update(image, i / 30)
    return watch.activity()[pocket].spells


def test_a_spell_tells_a_coin_dropping_in_from_one_passing_by_and_two_dropping_in_one_after_the_other():
    # Rolling in, the coin changes the ring a little each frame; gone into the pocket, it changes all it covered.
    rolling_in = [coin_by_pocket(2, d, 0) for d in (48, 42, 36, 30, 24, 18, 12, 6)]
    (dropped,) = spells_of([frame(), *rolling_in, frame(), frame()])
    assert dropped.ended_at_peak and dropped.bursts == 1
    passing = [coin_by_pocket(2, 20, across) for across in range(-60, 61, 6)]
    (passed,) = spells_of([frame(), *passing, frame()])
    assert not passed.ended_at_peak
    (both,) = spells_of([frame(), *rolling_in, frame(), *rolling_in, frame(), frame()])
    assert both.bursts == 2 and both.ended_at_peak
