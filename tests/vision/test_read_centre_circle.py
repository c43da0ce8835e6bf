"""Carrom's red centre circle is as large as a coin: bare, it is print, not the queen.

The queen starts on it and may be put back on it; the rest of the board the circle
lies bare, and the reader must not see a queen there.
"""

from __future__ import annotations

import numpy as np

from calibration.geometry import load_board
from vision.pieces_read import read_pieces

from bench.read import synthetic_still, undistorted


def test_the_bare_centre_circle_redder_than_the_base_circles_but_as_flat_is_print():
    # Tuning still 81019: the queen is pocketed; the centre circle's face stands 16 Lab units from the base
    # circles' (beyond the 14 that calls a face their print) yet is as flat as theirs.
    image, homography, document, report = synthetic_still("carrom", 81019, resolution=(1280, 720))
    assert "queen" not in [p["kind"] for p in document["pieces"]]
    reading = read_pieces(undistorted(image, report), homography=homography, board=load_board("carrom"))
    assert [p.kind for p in reading.pieces if np.hypot(p.x_mm, p.y_mm) < 16.0] == []
    assert len(reading.pieces) == len(document["pieces"])
