"""The one striker told from the coins on rendered carrom boards: on a base circle, and beside coins on the base lines."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.geometry import load_board
from simulation.film import film_still
from simulation.scene import PieceState, SceneFrame
from vision.carrom_print import printed_discs_mm
from vision.detect_pieces import detect_pieces
from vision.pieces_read import read_pieces
from vision.rectify_board import BoardView, surface_half_extent_mm

from tests.vision.board_places import carrom_frame

RESOLUTION = (1280, 720)


def _read(places: list[tuple[str, float, float]], *, seed: int, look: str, difficulty: str):
    board = load_board("carrom")
    radius = {"striker": board.striker_diameter_mm / 2}
    frame = SceneFrame(0.0, tuple(PieceState(i, kind, x, y, radius.get(kind, board.coin_diameter_mm / 2))
                                  for i, (kind, x, y) in enumerate(places)))
    image, homography = film_still(frame, board=board, seed=seed, difficulty=difficulty, resolution=RESOLUTION,
                                   look=look)
    return read_pieces(image, homography=homography, board=board)


def _kind_at(reading, x_mm: float, y_mm: float) -> str | None:
    near = [p for p in reading.pieces if np.hypot(p.x_mm - x_mm, p.y_mm - y_mm) < 6.0]
    return near[0].kind if len(near) == 1 else None


@pytest.mark.parametrize("seed", [31, 32])
def test_a_pale_striker_on_a_yellow_base_circle_is_the_striker(seed):
    board = load_board("carrom")
    # On the south-west base circle, a little off its centre, as a player sets it to shoot. (Centred on it, the
    # striker's face sampled is as near the print's colour as the prints are to one another: not yet told apart.)
    bx, by = printed_discs_mm(board)[1:][np.argmin([p[0] + p[1] for p in printed_discs_mm(board)[1:]])]
    x, y = float(bx) + 2.5, float(by) + 1.0
    places = [("striker", x, y), ("white", 60.0, 120.0), ("black", -140.0, 60.0)]
    reading = _read(places, seed=seed, look="painted_blue_red", difficulty="medium")
    assert _kind_at(reading, x, y) == "striker"
    assert reading.counts() == {"white": 1, "black": 1, "queen": 0, "striker": 1}


@pytest.mark.parametrize("seed", [31, 32])
def test_a_yellow_striker_half_over_a_yellow_base_circle_is_the_striker(seed):
    board = load_board("carrom")
    # Still 60055's striker: of the print's colour, 12 mm along the base line from the south-west base circle's
    # centre, as a player sets it to shoot.
    bx, by = printed_discs_mm(board)[1:][np.argmin([p[0] + p[1] for p in printed_discs_mm(board)[1:]])]
    x, y = float(bx) + 12.0, float(by)
    places = [("striker", x, y), ("white", 60.0, 120.0), ("black", -140.0, 60.0)]
    reading = _read(places, seed=seed, look="painted_blue_red", difficulty="medium")
    assert _kind_at(reading, x, y) == "striker"
    assert reading.counts() == {"white": 1, "black": 1, "queen": 0, "striker": 1}


@pytest.mark.parametrize("seed", [41, 42])
def test_coins_on_the_far_base_line_are_not_the_striker(seed):
    board = load_board("carrom")
    across = board.half_side_mm - board.base_line_inset_mm - board.base_line_gap_mm / 2
    # Between two printed lines a coin's rim profile can peak at a striker's size; its own fitted rim cannot.
    places = [("white", -120.0, across), ("black", 40.0, across), ("white", 150.0, across),
              ("striker", 30.0, -across)]
    reading = _read(places, seed=seed, look="birch_black_frame", difficulty="medium")
    assert [_kind_at(reading, x, y) for _, x, y in places] == [kind for kind, _, _ in places]


@pytest.mark.parametrize("look, seed", [("birch_black_frame", 4), ("plywood_brown_frame", 5),
                                        ("plywood_brown_frame", 6)])
def test_a_blurred_white_striker_on_a_base_line_is_the_striker_and_black_coins_stay_coins(look, seed):
    board = load_board("carrom")
    across = board.half_side_mm - board.base_line_inset_mm - board.base_line_gap_mm / 2
    # Blurred on a pale board, the striker's inner ring fits a coin's circle better than its own rim does, and a
    # black coin with its shadow fits a striker's (seed 6).
    places = [("striker", 140.0, -across), ("white", 60.0, 120.0), ("white", -150.0, 40.0), ("white", 200.0, 180.0),
              ("black", -140.0, -60.0), ("black", 20.0, -100.0)]
    reading = _read(places, seed=seed, look=look, difficulty="hard")
    assert _kind_at(reading, 140.0, -across) == "striker"
    counts = reading.counts()
    assert (counts["striker"], counts["black"]) == (1, 2)


@pytest.mark.parametrize("seed", [400, 401, 412])
def test_a_striker_on_the_base_line_beside_a_base_circle_is_the_striker(seed):
    board = load_board("carrom")
    across = board.half_side_mm - board.base_line_inset_mm - board.base_line_gap_mm / 2
    # Its rim clears the east base circle by a few millimetres: faint on a pale board, it is looked for there too
    # (seed 412).
    places = [("striker", 178.0, -across), ("white", 60.0, 120.0), ("white", -150.0, 40.0), ("black", -140.0, -60.0),
              ("black", 20.0, -100.0)]
    reading = _read(places, seed=seed, look=None, difficulty="hard")
    assert [_kind_at(reading, x, y) for _, x, y in places] == [kind for kind, _, _ in places]
    assert len(reading.pieces) == len(places)


@pytest.mark.parametrize("seed", [60087, 60091, 60095])
def test_a_black_coin_grown_by_its_shadow_leaves_room_for_a_faint_striker(seed):
    board = load_board("carrom")
    across = board.half_side_mm - board.base_line_inset_mm - board.base_line_gap_mm / 2
    # Under the light of tuning still 60095 the black coin at the east fits a striker's circle with its shadow, and
    # the pale striker on the base line shows a faint rim only: the grown coin is no striker, so the faint rim is.
    places = [("striker", 86.0, -across), ("black", 262.0, 215.0), ("white", -100.0, 100.0), ("white", 150.0, 20.0),
              ("black", -60.0, -150.0)]
    reading = _read(places, seed=seed, look=None, difficulty="hard")
    assert [_kind_at(reading, x, y) for _, x, y in places] == [kind for kind, _, _ in places]
    assert len(reading.pieces) == len(places)


GROWN_COINS_MM = [(-150.0, 80.0), (40.0, -120.0), (160.0, 150.0), (60.0, 60.0)]


def _black_coins_image(shadow_shift_px: int) -> tuple[np.ndarray, BoardView]:
    """Black coins at `GROWN_COINS_MM` on a plain board (the view's image, unblurred), the last casting a dark
    shadow a few pixels down and right: coin and shadow fit a striker's circle."""
    half_mm = surface_half_extent_mm(load_board("carrom"))
    side_px = int(round(2 * half_mm))
    view = BoardView(np.full((side_px, side_px, 3), (150, 190, 220), np.uint8), 1.0, half_mm)
    shade = view.image.copy()
    u, v = view.to_px(np.array([GROWN_COINS_MM[-1]]))[0]
    cv2.circle(shade, (int(round(u + shadow_shift_px)), int(round(v + shadow_shift_px))), 16, (60, 75, 90), -1,
               cv2.LINE_AA)
    image = cv2.addWeighted(view.image, 0.4, shade, 0.6, 0)
    for u, v in view.to_px(np.array(GROWN_COINS_MM)):
        cv2.circle(image, (int(round(u)), int(round(v))), 15, (40, 40, 45), -1, cv2.LINE_AA)
    return image, view


def _blurred(image: np.ndarray, view: BoardView) -> BoardView:
    return BoardView(cv2.GaussianBlur(image, (0, 0), 0.8), 1.0, view.half_extent_mm)


@pytest.mark.parametrize("shadow_shift_px", [6, 7])
def test_a_black_coin_grown_by_its_shadow_stays_a_coin_where_it_lies(shadow_shift_px):
    image, view = _black_coins_image(shadow_shift_px)
    found = detect_pieces(_blurred(image, view), board=load_board("carrom"))
    assert found.size.tolist() == [0, 0, 0, 0]
    # Told a coin, it is measured on its own rim, not placed at the middle of coin and shadow.
    off_mm = np.hypot(*(found.centres_mm - np.array(GROWN_COINS_MM[-1])).T).min()
    assert off_mm < 2.0


@pytest.mark.parametrize("shadow_shift_px", [6, 7])
def test_a_black_coin_grown_by_its_shadow_larger_than_the_striker_leaves_it_the_striker(shadow_shift_px):
    # The last coin and its shadow fit a circle of 19.2 mm; the pale striker's rim, its edge blurred into the board,
    # measures 18.9 (clip 5206 at 70 s: 20.5 against 19.8). Only one is the striker, and the black coin is none.
    image, view = _black_coins_image(shadow_shift_px)
    striker_mm = (-100.0, -200.0)
    u, v = view.to_px(np.array([striker_mm]))[0]
    cv2.circle(image, (int(round(u)), int(round(v))), 18, (245, 248, 250), -1, cv2.LINE_AA)
    cv2.circle(image, (int(round(u)), int(round(v))), 17, (225, 230, 235), 1, cv2.LINE_AA)
    found = detect_pieces(_blurred(image, view), board=load_board("carrom"))
    assert len(found) == 5
    large = np.flatnonzero(found.size == 1)
    assert len(large) == 1 and np.hypot(*(found.centres_mm[large[0]] - striker_mm)) < 2.0


@pytest.mark.parametrize("resolution", [(1280, 720), (960, 540)])
def test_a_pale_striker_whose_bevel_draws_the_stronger_edge_is_the_striker(resolution):
    from bench.read import synthetic_still, undistorted

    # Tuning still 81054: the striker's rim fits 21.5 mm, but its mean edge profile peaks on the bevel's inner edge
    # at 17.7 (a coin's size and a half); its rim shows more of itself than that ring does.
    image, homography, document, report = synthetic_still("carrom", 81054, resolution=resolution)
    striker = next(p for p in document["pieces"] if p["kind"] == "striker")
    reading = read_pieces(undistorted(image, report), homography=homography, board=load_board("carrom"))
    assert _kind_at(reading, striker["x_mm"], striker["y_mm"]) == "striker"


def test_no_striker_is_read_across_the_break_formation_where_a_white_s_rim_meets_the_centre_print():
    from simulation.play_carrom import break_formation

    # As simulated clip 5208 at 0 s (1080p): a white's rim and the centre circle's print beside it fitted a
    # striker-sized circle, which crowded out the black next to the white (and the white with it).
    board = load_board("carrom")
    places = break_formation(board)
    image, homography = film_still(carrom_frame(places, board), board=board, seed=5208, difficulty="medium",
                                   resolution=(1920, 1080))
    reading = read_pieces(image, homography=homography, board=board)
    assert [_kind_at(reading, x, y) for _, x, y in places] == [kind for kind, _, _ in places]
    assert len(reading.pieces) == len(places)


def test_a_coin_sized_circle_across_the_striker_s_own_rim_does_not_crowd_it_out():
    from tests.vision.kept_views import kept_view, nearest_mm

    # Simulated clip 5208 at 47.6 s (1080p, H.264), in the view the analysis located: a coin-sized circle across the
    # yellow striker's rim and the edge of its highlight, centred 14 mm off the striker's centre, took the striker's
    # place as a white; the events then called the striker pocketed.
    view, true_mm = kept_view("clip_5208_at_47_6s")
    found = detect_pieces(view, board=load_board("carrom"))
    striker_mm = true_mm[-1]
    assert nearest_mm(striker_mm[None], found.centres_mm[found.size == 1])[0] < 3.0
    assert (nearest_mm(found.centres_mm, true_mm) < 6.0).all()


def test_a_pale_striker_lying_across_an_arrow_s_line_is_read_by_its_whole_rim():
    from tests.vision.kept_views import kept_view, nearest_mm

    # Simulated clip 5221 at 57.7 s (1080p, H.264): a white striker on a cream board, across the line of the arrow
    # by the north-west pocket, 0.97 of its rim seen, was taken for the bare board (its face the board's, the board's
    # symmetric places alike); the events then missed it and called a white unread there pocketed.
    view, true_mm = kept_view("clip_5221_at_57_7s")
    found = detect_pieces(view, board=load_board("carrom"))
    assert nearest_mm(true_mm[-1:], found.centres_mm[found.size == 1])[0] < 4.0
    assert (nearest_mm(found.centres_mm, true_mm) < 6.0).all()


def test_a_white_lit_apart_in_a_corner_is_no_striker_where_the_striker_s_colour_was_read_before():
    from tests.vision.kept_views import kept_view, nearest_mm

    # Simulated clip 5211 at 92 s: a white by the north-west pocket, lit yellower than the other whites (b* 154 to
    # their 135-143), shows a striker-sized rim with its shadow; the pale striker (b* 130) is within 10 of the whites'
    # hue. With 0.85 of the striker's rim asked, colour alone took the white for the striker and the striker for a
    # white; the striker's colour as the clip's readings before 92 s named it, (252, 127, 129), told them. The
    # striker's own rim, 0.8 of it seen, now names it alone too: both ways, one striker, where it lies.
    view, true_mm = kept_view("clip_5211_at_92s_frame")
    board = load_board("carrom")
    striker_mm = np.array([[-278.85, 313.72]])
    for seen in (detect_pieces(view, board=board),
                 detect_pieces(view, board=board, striker_lab=np.array([252.0, 127.0, 129.0]))):
        assert (seen.size == 1).sum() == 1
        assert nearest_mm(seen.centres_mm[seen.size == 1], striker_mm)[0] < 6.0
        assert (nearest_mm(seen.centres_mm, true_mm) < 6.0).all()


def test_the_striker_s_colour_is_the_median_of_the_last_readings_with_one_striker():
    from vision.pieces import BoardReading, Piece
    from vision.striker_rim import (STRIKER_COLOUR_MIN_READINGS, STRIKER_COLOUR_READINGS, learnt_striker_colours,
                                    striker_colour)

    def reading(striker_lab, strikers=1):
        pieces = tuple(Piece("striker", 10.0 * k, 0.0, 20.5, 1.0) for k in range(strikers))
        return BoardReading("carrom", pieces, colours_lab={"striker": striker_lab})

    seen = ()
    for k in range(STRIKER_COLOUR_MIN_READINGS - 1):
        seen = learnt_striker_colours(seen, reading((250.0, 127.0, 129.0)))
    assert striker_colour(seen) is None
    seen = learnt_striker_colours(seen, reading((250.0, 120.0, 154.0)))  # one reading named a white lit apart
    assert striker_colour(seen).tolist() == [250.0, 127.0, 129.0]
    assert learnt_striker_colours(seen, reading((250.0, 0.0, 0.0), strikers=2)) == seen
    assert learnt_striker_colours(seen, BoardReading("carrom", ())) == seen
    for k in range(STRIKER_COLOUR_READINGS):
        seen = learnt_striker_colours(seen, reading((240.0, 140.0, 110.0)))
    assert len(seen) == STRIKER_COLOUR_READINGS
    assert striker_colour(seen).tolist() == [240.0, 140.0, 110.0]


@pytest.mark.parametrize("seed", [96191, 96223, 96259])
def test_a_striker_blurred_into_a_pale_board_showing_four_fifths_of_its_rim_is_the_striker(seed):
    # Hard stills of the benchmark (1280x720): the bevel fades into the board, 0.81 to 0.82 of the striker-sized rim
    # shows round a coin-sized circle of a hue of its own, and it was read as a white coin.
    from bench.read import synthetic_still, undistorted

    image, homography, document, report = synthetic_still("carrom", seed, resolution=RESOLUTION)
    reading = read_pieces(undistorted(image, report), homography=homography, board=load_board("carrom"))
    (striker,) = [p for p in document["pieces"] if p["kind"] == "striker"]
    assert _kind_at(reading, striker["x_mm"], striker["y_mm"]) == "striker"
    assert [p.kind for p in reading.pieces].count("striker") == 1
