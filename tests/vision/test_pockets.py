"""The pocket watch on drawn frames: a coin dropping in, a bumped board, a view that moves."""

import cv2
import numpy as np

from calibration.geometry import load_board
from vision.pockets import PocketWatch

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


def test_activity_is_kept_when_the_view_moves():
    watch = PocketWatch(homography(), board=BOARD, image_shape=SHAPE)
    for i, image in enumerate([frame(), frame(coin_near_pocket=1), frame()]):
        watch.update(image, i / 30)
    moved = watch.moved(homography(6), board=BOARD, image_shape=SHAPE)
    assert [a.energy > 0 for a in moved.activity()] == [a.energy > 0 for a in watch.activity()]
    assert moved.activity()[1].peak_t_s == watch.activity()[1].peak_t_s
