"""The frame watch on drawn frames: a ring flying off over the frame, one rolling along the cushion, the light."""

import cv2
import numpy as np

from calibration.geometry import load_board
from vision.jumps import FrameWatch

BOARD = load_board("couronne")
SHAPE = (600, 600)
SCALE = 0.6  # px per mm


def homography(shift_px=0.0):
    """Board mm -> px: the board and its frame over most of the picture, moved right by `shift_px`."""
    return np.array([[SCALE, 0.0, 300.0 + shift_px], [0.0, SCALE, 300.0], [0.0, 0.0, 1.0]])


def frame(*, ring_mm=None, light=1.0):
    """A board with its green frame on a grey table, a blue ring at `ring_mm` (x, y) if asked."""
    image = np.full((*SHAPE, 3), 150, np.uint8)
    outer = BOARD.half_side_mm + BOARD.frame_width_mm
    cv2.rectangle(image, *[(round(300 + SCALE * s * outer),) * 2 for s in (-1, 1)], (40, 110, 30), -1)
    inner = BOARD.half_side_mm
    cv2.rectangle(image, *[(round(300 + SCALE * s * inner),) * 2 for s in (-1, 1)], (170, 210, 230), -1)
    if ring_mm is not None:
        centre = (round(300 + SCALE * ring_mm[0]), round(300 + SCALE * ring_mm[1]))
        cv2.circle(image, centre, round(SCALE * 15), (200, 60, 40), -1)
    return np.clip(image * light, 0, 255).astype(np.uint8)


def play(watch, images):
    for i, image in enumerate(images):
        watch.update(image, i / 30)
    return watch.flights()


def test_a_ring_flying_off_over_the_frame_beside_a_pocket_is_seen_there_when_it_crosses():
    watch = FrameWatch(homography(), board=BOARD, image_shape=SHAPE)
    # Rolling along the east cushion towards pocket 2 (north-east), then off over the frame at 30 mm a frame.
    path = [(344, 150), (344, 200), (344, 250), (374, 270), (404, 290), (434, 310), None, None]
    flights = play(watch, [frame(ring_mm=p) for p in path])
    assert flights, "the flight over the frame was not seen"
    t_s, x_mm, y_mm = flights[0]
    assert round(t_s * 30) in (3, 4)  # over the frame, not before it left the cushion
    assert x_mm > BOARD.half_side_mm and np.hypot(x_mm - 329, y_mm - 329) < 150


def test_a_ring_rolling_along_the_cushion_is_no_flight_nor_is_the_light_changing():
    watch = FrameWatch(homography(), board=BOARD, image_shape=SHAPE)
    rolling = [frame(ring_mm=(344, y)) for y in range(-300, 300, 40)]
    lamp = [frame(light=level) for level in (1.0, 1.3, 1.0, 0.7)]
    assert play(watch, rolling + lamp) == ()


def test_flights_are_kept_when_the_view_moves_and_forgotten_at_a_reset():
    watch = FrameWatch(homography(), board=BOARD, image_shape=SHAPE)
    play(watch, [frame(ring_mm=(344, 40)), frame(ring_mm=(390, 40)), frame()])
    moved = watch.moved(homography(shift_px=5), board=BOARD, image_shape=SHAPE)
    assert len(moved.flights()) == 1
    moved.reset()
    assert moved.flights() == ()


def test_a_shadow_reaching_along_the_frame_is_no_flight_though_a_ring_flying_off_beside_it_is():
    # Along the east side towards pocket 2, over three of its stretches at once: no ring is that wide.
    stretch_mm = 2 * BOARD.half_side_mm / 8
    outer = BOARD.half_side_mm + BOARD.frame_width_mm
    shadowed = frame()
    px = lambda x_mm, y_mm: (round(300 + SCALE * x_mm), round(300 + SCALE * y_mm))
    cv2.rectangle(shadowed, px(BOARD.half_side_mm, BOARD.half_side_mm - 3 * stretch_mm + 10),
                  px(outer, BOARD.half_side_mm - 10), (20, 50, 15), -1)
    watch = FrameWatch(homography(), board=BOARD, image_shape=SHAPE)
    assert play(watch, [frame(), frame(), shadowed]) == ()
    watch = FrameWatch(homography(), board=BOARD, image_shape=SHAPE)
    assert len(play(watch, [frame(), frame(), frame(ring_mm=(390, 250))])) == 1


def arm(fingers_to_mm=120):
    """The sleeve across the table south of the board (x 10-60 mm), the fingers over the frame beside it."""
    image = frame()
    px = lambda x_mm, y_mm: (round(300 + SCALE * x_mm), round(300 + SCALE * y_mm))
    cv2.rectangle(image, px(10, -560), px(60, -420), (60, 80, 200), -1)
    cv2.rectangle(image, px(60, -420), px(fingers_to_mm, -385), (90, 120, 220), -1)
    return image


def test_fingers_over_the_frame_with_the_arm_on_the_table_beyond_are_no_flight():
    watch = FrameWatch(homography(), board=BOARD, image_shape=SHAPE)
    assert play(watch, [frame(), frame(), arm()]) == ()


def test_the_table_beyond_is_compared_with_the_settled_view_given_at_a_reset():
    # The arm is already in when the board starts moving after the settled view: its fingers moving on are no flight.
    watch = FrameWatch(homography(), board=BOARD, image_shape=SHAPE)
    watch.reset(frame())
    assert play(watch, [arm(), arm(fingers_to_mm=160)]) == ()
