"""Carrom's centre figure: its red centre circle is as large as a coin, and bare it is print, not the queen; a coin
lying on it is read all the same, and the figure's red print seen beside the queen is no second one.

The queen starts on the circle and may be put back on it, as may a due coin; the rest of the board the circle lies
bare. The star's points run under a coin lying there and break its rim; its red points, seen through a gap among
coins, draw a coin-sized red circle.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration.geometry import load_board
from simulation.film import camera_report, film_still
from simulation.play_still import still_scene
from simulation.scene import SceneFrame
from vision.carrom_print import second_queens_on_figure
from vision.piece_detections import PieceDetections
from vision.pieces_read import read_pieces

from bench.read import DIFFICULTIES, synthetic_still, undistorted


def test_the_bare_centre_circle_redder_than_the_base_circles_but_as_flat_is_print():
    # Tuning still 81019: the queen is pocketed; the centre circle's face stands 16 Lab units from the base
    # circles' (beyond the 14 that calls a face their print) yet is as flat as theirs.
    image, homography, document, report = synthetic_still("carrom", 81019, resolution=(1280, 720))
    assert "queen" not in [p["kind"] for p in document["pieces"]]
    reading = read_pieces(undistorted(image, report), homography=homography, board=load_board("carrom"))
    assert [p.kind for p in reading.pieces if np.hypot(p.x_mm, p.y_mm) < 16.0] == []
    assert len(reading.pieces) == len(document["pieces"])


def _read_still(seed: int):
    """The benchmark's still of `seed`, read; and its true pieces as (kind, x_mm, y_mm)."""
    image, homography, document, report = synthetic_still("carrom", seed, resolution=(1280, 720))
    reading = read_pieces(undistorted(image, report), homography=homography, board=load_board("carrom"))
    return reading, [(p["kind"], p["x_mm"], p["y_mm"]) for p in document["pieces"]]


def _near_centre(pieces, reach_mm: float = 10.0) -> list[str]:
    """Kinds of the pieces, as (kind, x_mm, y_mm) or `Piece`, within `reach_mm` of the board's centre."""
    places = [p if isinstance(p, tuple) else (p.kind, p.x_mm, p.y_mm) for p in pieces]
    return [kind for kind, x_mm, y_mm in places if np.hypot(x_mm, y_mm) < reach_mm]


@pytest.mark.parametrize("seed", [96045, 96103, 96254])
def test_a_black_on_the_centre_circle_whose_rim_the_star_breaks_is_read(seed):
    reading, truth = _read_still(seed)
    assert _near_centre(truth) == ["black"]
    assert _near_centre(reading.pieces) == ["black"]


@pytest.mark.parametrize("seed", [96045, 96103])
def test_the_bare_centre_circle_of_the_same_boards_is_no_coin(seed):
    # The still's own look, light and camera, with the coin on the centre taken away.
    board = load_board("carrom")
    frame = still_scene(board, seed=seed)[0].frames[-1]
    bare = SceneFrame(frame.t_s, tuple(p for p in frame.pieces if np.hypot(p.x_mm, p.y_mm) > 20.0))
    difficulty = DIFFICULTIES[seed % len(DIFFICULTIES)]
    image, homography = film_still(bare, board=board, seed=seed, difficulty=difficulty, resolution=(1280, 720))
    report = camera_report(board=board, seed=seed, difficulty=difficulty, resolution=(1280, 720))
    assert len(bare.pieces) == len(frame.pieces) - 1
    reading = read_pieces(undistorted(image, report), homography=homography, board=board)
    assert _near_centre(reading.pieces, reach_mm=20.0) == []


@pytest.mark.parametrize("seed", [96099, 96155])
def test_the_star_seen_through_a_gap_in_the_break_is_no_second_queen(seed):
    reading, truth = _read_still(seed)
    assert _near_centre(truth) == ["queen"] and [kind for kind, _, _ in truth].count("queen") == 1
    queens = [p for p in reading.pieces if p.kind == "queen"]
    assert len(queens) == 1 and np.hypot(queens[0].x_mm, queens[0].y_mm) < 3.0


def _detections(centres_mm, support, is_faint) -> PieceDetections:
    n = len(centres_mm)
    return PieceDetections(np.array(centres_mm, float), np.full(n, 15.5), np.zeros(n, int), np.array(support, float),
                           np.zeros((n, 3)), np.zeros((n, 3)), np.array(is_faint, bool))


def test_of_two_queens_on_the_figure_the_one_with_the_clearer_rim_stays():
    board = load_board("carrom")
    found = _detections([(0.0, 29.0), (0.0, 0.0), (200.0, 0.0)], [0.99, 0.97, 1.0], [True, False, False])
    dropped = second_queens_on_figure(found, ("queen", "queen", "white"), board)
    # A clear rim beats a faint one however much of the faint one is seen.
    assert dropped.tolist() == [True, False, False]


def test_a_second_queen_off_the_figure_is_left_for_it_is_no_print():
    board = load_board("carrom")
    found = _detections([(0.0, 0.0), (200.0, 100.0)], [1.0, 0.9], [False, False])
    assert second_queens_on_figure(found, ("queen", "queen"), board).tolist() == [False, False]
    assert second_queens_on_figure(found, ("queen", "black"), board).tolist() == [False, False]


def test_a_black_on_the_star_s_hub_is_read_and_the_hub_and_a_red_point_beside_it_are_no_queen():
    from tests.vision.kept_views import kept_view, nearest_mm
    from vision.detect_pieces import detect_pieces

    # Simulated clip 5216 at 78.8 s (1080p, H.264): a due black put back on the centre, the hub's edge and a red point
    # beside it drew a circle 30 mm off the centre with 0.69 of its rim seen, read as the queen; with it there, the
    # centre was never looked at, and the black put back was lost to the events.
    view, true_mm = kept_view("clip_5216_at_78_8s")
    found = detect_pieces(view, board=load_board("carrom"))
    assert nearest_mm(np.zeros((1, 2)), found.centres_mm)[0] < 4.0
    assert (nearest_mm(found.centres_mm, true_mm) < 6.0).all()
