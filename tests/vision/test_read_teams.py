"""Crokinole teams told apart on rendered boards, one team alone included.

Brightness against the board alone does not name the teams on every board: red
discs on dark walnut are nearly as bright as the board (0.8), and a light disc
leaning into the 20-hole on pale birch is shaded to 0.7 of it. A red face is
far more colourful for its lightness than natural wood, and one team alone is
named together.
"""

from __future__ import annotations

import numpy as np
import pytest

from bench.read import synthetic_still, undistorted
from calibration.geometry import load_board
from simulation.film import film_still
from simulation.scene import PieceState, SceneFrame
from vision.pieces_read import read_pieces

MATCH_MM = 5.0


def _kinds_at(reading, places) -> list[list[str]]:
    return [[p.kind for p in reading.pieces if np.hypot(p.x_mm - x, p.y_mm - y) < MATCH_MM] for x, y in places]


@pytest.mark.parametrize("seed", [
    60067,  # red discs alone on walnut, one read light at 0.79 of the board's brightness
    60176,  # two red discs alone on walnut, at 0.80 and 0.82
    60092,  # five light discs alone on birch, one leaning into the hole at 0.74
    60198,  # three light discs alone on birch, one leaning into the hole at 0.70
])
def test_every_disc_of_a_still_is_named_its_team(seed):
    image, homography, document, report = synthetic_still("crokinole", seed, resolution=(1280, 720))
    reading = read_pieces(undistorted(image, report), homography=homography, board=load_board("crokinole"))
    true = document["pieces"]
    read = _kinds_at(reading, [(p["x_mm"], p["y_mm"]) for p in true])
    assert read == [[p["kind"]] for p in true]


@pytest.mark.parametrize("kinds", [("dark",) * 3, ("light", "dark", "dark")])
def test_red_discs_on_walnut_are_dark(kinds):
    board = load_board("crokinole")
    places = [(-120.0, 40.0), (60.0, -150.0), (140.0, 110.0)]
    frame = SceneFrame(0.0, tuple(PieceState(i, kind, x, y, board.disc_diameter_mm / 2)
                                  for i, (kind, (x, y)) in enumerate(zip(kinds, places))))
    image, homography = film_still(frame, board=board, seed=7, difficulty="clean", resolution=(1280, 720),
                                   look="walnut_dark")
    reading = read_pieces(image, homography=homography, board=board)
    assert _kinds_at(reading, places) == [[kind] for kind in kinds]
