"""Annotated readings: each piece's label drawn on the piece itself."""

import numpy as np

from vision.annotate_pieces import annotate_reading


def test_each_label_lies_on_its_own_piece_in_a_cluster():
    # Two touching coins: a label beside its piece (as before, at its outline's corner) fell on the neighbour.
    homography = np.array([[4.0, 0.0, 400.0], [0.0, -4.0, 300.0], [0.0, 0.0, 1.0]])  # 4 px/mm, north up
    pieces = [{"kind": "black", "x_mm": 0.0, "y_mm": 0.0, "r_mm": 15.5},
              {"kind": "white", "x_mm": 31.0, "y_mm": 0.0, "r_mm": 15.5}]
    for i, piece in enumerate(pieces):
        blank = np.full((600, 800, 3), 90, np.uint8)
        drawn = annotate_reading(blank, {"pieces": [piece]}, homography=homography)
        ys, xs = np.nonzero((drawn == 255).all(axis=2))
        assert len(xs) > 0, "the label is drawn in white"
        centre_px = homography[:2, :2] @ [piece["x_mm"], piece["y_mm"]] + homography[:2, 2]
        label_px = np.array([xs.mean(), ys.mean()])
        assert np.hypot(*(label_px - centre_px)) < 0.5 * 4.0 * piece["r_mm"]
        other = pieces[1 - i]
        other_px = homography[:2, :2] @ [other["x_mm"], other["y_mm"]] + homography[:2, 2]
        assert np.hypot(*(np.column_stack([xs, ys]) - other_px).T).min() > 4.0 * other["r_mm"]
