"""A real webcam board (read from ../shared/realdata, never copied) held still in front of the analyzer.

The webcam sees the playing surface but not all of the frame around it: the
surface runs off the picture's edge. Such a board must still be read once it
has settled, and its rim for arms is then the band along the picture's edge.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from calibration.geometry import load_board
from vision.analysis import BoardAnalyzer
from vision.frames import load_image
from vision.localise import locate_board
from vision.pieces_read import read_pieces
from vision.pockets import board_masks
from vision.sources import Frame

FOLDER = Path(__file__).resolve().parents[3] / "shared" / "realdata" / "carrom" / "webcam_surco"

pytestmark = pytest.mark.skipif(not FOLDER.is_dir(), reason="the shared real photos are not on this machine")


def test_a_settled_board_cut_by_the_picture_edge_is_read_like_the_photo():
    image = load_image(FOLDER / "a8.jpg")
    location = locate_board(image, game="carrom")
    assert location.found
    board = load_board("carrom", location.model)
    expected = read_pieces(image, homography=location.homography, board=board)
    assert expected.hidden_share > 0.1  # part of the surface is out of the picture

    analyzer = BoardAnalyzer("carrom", locate=lambda _: location)
    readings = [step.reading for i in range(45)
                if (step := analyzer.update(Frame(i, i / 30, image))).reading is not None]
    assert len(readings) == 1
    assert readings[0].counts() == expected.counts()
    assert sum(readings[0].counts().values()) > 0


def test_the_rim_of_a_board_cut_by_the_picture_edge_runs_along_that_edge():
    image = load_image(FOLDER / "a8.jpg")
    location = locate_board(image, game="carrom")
    surface, rim = board_masks(location.homography, board=load_board("carrom", location.model),
                               image_shape=image.shape[:2])
    cut_edges = [edge for edge in (surface[0], surface[-1], surface[:, 0], surface[:, -1]) if edge.any()]
    assert cut_edges
    edge_rows = np.concatenate([rim[:2].ravel(), rim[-2:].ravel(), rim[:, :2].ravel(), rim[:, -2:].ravel()])
    assert edge_rows.any()
