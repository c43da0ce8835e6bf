"""Optional ArUco markers on a board's frame: where they sit, in board millimetres.

Four markers (ids 0-3 of a small dictionary) lie flat on the frame, one at each
corner of a square board, and at the four diagonals of a crokinole frame,
numbered counter-clockwise from the south-west like the pockets. Each is printed
upright as seen from the south seat (its top edge towards north, +y). When they
are in view the board is found from their corners alone, with no search.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.geometry import BoardModel, CrokinoleBoard


@dataclass(frozen=True)
class MarkerLayout:
    """The frame markers of one board: dictionary, ids (south-west first, counter-clockwise),
    side and centres in board mm, and how far their faces stand above the playing surface."""

    dictionary: str
    ids: tuple[int, ...]
    side_mm: float
    centres_mm: tuple[tuple[float, float], ...]
    height_mm: float = 0.0

    def __post_init__(self) -> None:
        if not hasattr(cv2.aruco, self.dictionary):
            raise ValueError(f"unknown ArUco dictionary {self.dictionary!r}")
        if len(self.ids) != len(self.centres_mm) or self.side_mm <= 0:
            raise ValueError("a marker layout needs one centre per id and a positive side")

    def corners_mm(self, marker_id: int) -> np.ndarray:
        """The marker's corners in OpenCV's order (top-left, top-right, bottom-right, bottom-left
        of the printed marker), in board mm: (4, 2)."""
        x, y = self.centres_mm[self.ids.index(marker_id)]
        h = self.side_mm / 2
        return np.array([[x - h, y + h], [x + h, y + h], [x + h, y - h], [x - h, y - h]])

    def aruco_dictionary(self) -> cv2.aruco.Dictionary:
        return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, self.dictionary))


def frame_markers(board: BoardModel, *, dictionary: str = "DICT_4X4_50") -> MarkerLayout:
    """The standard layout: markers 0.7 of the frame's width (their white margin fits on the frame),
    centred on its width at the corners."""
    side_mm = 0.7 * board.frame_width_mm
    if isinstance(board, CrokinoleBoard):
        r = (board.surface_radius_mm + board.ditch_width_mm + board.frame_width_mm / 2) / math.sqrt(2)
    else:
        r = board.half_side_mm + board.frame_width_mm / 2
    centres = ((-r, -r), (r, -r), (r, r), (-r, r))
    return MarkerLayout(dictionary, (0, 1, 2, 3), side_mm, centres)


def marker_image(layout: MarkerLayout, marker_id: int, *, side_px: int) -> np.ndarray:
    """The marker to print, ``side_px`` square (grey uint8); it needs a white margin around it."""
    return cv2.aruco.generateImageMarker(layout.aruco_dictionary(), marker_id, side_px)
