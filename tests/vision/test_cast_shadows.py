"""A pale piece on a pale board is told by the shade it casts: on drawn views, and on a simulated clip's frame."""

import cv2
import numpy as np

from calibration.geometry import load_board
from tests.vision.kept_views import kept_view, nearest_mm
from vision.cast_shadows import shadow_vectors, shadowed_as_pale_pieces
from vision.detect_pieces import detect_pieces

RADIUS_PX = 16.0
BOARD_BGR = (225, 240, 245)  # cream
SHADOW_OFFSET_PX = np.array([0.0, 5.0])  # the lamp to the north: shadows fall south (down the view)


def _pale_board(discs_px, *, shadow_offset_px=SHADOW_OFFSET_PX) -> np.ndarray:
    """A cream board with white discs, each casting a soft shadow `shadow_offset_px` away."""
    image = np.full((400, 400, 3), BOARD_BGR, np.uint8)
    shade = np.zeros((400, 400), np.float32)
    for x, y in discs_px:
        cv2.circle(shade, (int(x + shadow_offset_px[0]), int(y + shadow_offset_px[1])), int(RADIUS_PX), 1.0, -1)
    shade = cv2.GaussianBlur(shade, (0, 0), 2.0)
    image = (image * (1 - 0.3 * shade[..., None])).astype(np.uint8)
    for x, y in discs_px:
        cv2.circle(image, (int(x), int(y)), int(RADIUS_PX), (238, 242, 244), -1, lineType=cv2.LINE_AA)
    return cv2.GaussianBlur(image, (3, 3), 0)


def _lab(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2LAB)


def test_the_shade_points_the_way_the_shadow_falls():
    discs = np.array([(100.0, 100.0), (300.0, 120.0)])
    shade = shadow_vectors(_lab(_pale_board(discs)), discs, np.full(2, RADIUS_PX))
    # Down the view (+y), hardly sideways.
    assert (shade[:, 1] > 10).all()
    assert (np.abs(shade[:, 0]) < 0.25 * shade[:, 1]).all()


def test_a_disc_shaded_as_the_others_is_a_piece_but_a_circle_shaded_another_way_or_by_red_letters_is_not():
    pieces = np.array([(80.0, 80.0), (320.0, 80.0), (80.0, 320.0)])
    asked = np.array([(200.0, 200.0), (200.0, 80.0), (320.0, 320.0)])
    image = _pale_board(np.vstack([pieces, asked[:1]]))
    # The board darkened west of the second circle (the shade of something beside it, not the lamp's way).
    smudge = np.zeros(image.shape[:2], np.float32)
    cv2.circle(smudge, (178, 80), 10, 1.0, -1)
    image = (image * (1 - 0.3 * cv2.GaussianBlur(smudge, (0, 0), 2.0)[..., None])).astype(np.uint8)
    # Red lettering south of the third: darker, but not the board's colour darkened.
    cv2.putText(image, "Precise", (288, 344), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (40, 40, 200), 2, cv2.LINE_AA)
    shadowed = shadowed_as_pale_pieces(_lab(image), asked, np.full(3, RADIUS_PX), pieces_px=pieces,
                                       piece_radii_px=np.full(3, RADIUS_PX))
    assert shadowed.tolist() == [True, False, False]


def test_without_a_light_that_casts_shadows_nothing_is_judged_by_them():
    pieces = np.array([(80.0, 80.0), (320.0, 80.0), (80.0, 320.0)])
    asked = np.array([(200.0, 200.0)])
    image = _pale_board(np.vstack([pieces, asked]), shadow_offset_px=np.zeros(2))
    shadowed = shadowed_as_pale_pieces(_lab(image), asked, np.full(1, RADIUS_PX), pieces_px=pieces,
                                       piece_radii_px=np.full(3, RADIUS_PX))
    assert not shadowed.any()


def test_white_coins_on_a_white_board_that_show_only_their_shadow_s_side_are_read():
    # Simulated clip 5209 at 21 s (1080p, H.264): on a white board under a low lamp the white coins' rims show
    # only where their shadows fall; two of them were read only by the way their shade lies.
    view, true_mm = kept_view("clip_5209_at_21s")
    found = detect_pieces(view, board=load_board("carrom"))
    shadow_only_mm = np.array([(-115.56, 300.71), (-336.94, 163.98)])
    assert (nearest_mm(shadow_only_mm, found.centres_mm) < 3.0).all()
    # And nothing where no piece lies (one white is read 8 mm off, where its shadow drew the rim).
    assert (nearest_mm(found.centres_mm, true_mm) < 9.0).all()
