"""The board seen from straight above at a fixed scale: where every piece has a known size in pixels."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2

import numpy as np

from calibration.geometry import BoardModel, CrokinoleBoard
from vision.detect_discs import EdgeField, lab_edge_field
from vision.homography import rectify

DEFAULT_PX_PER_MM = 1.0
"""Working scale: a 31 mm coin spans about 31 px: its rim fit is good to a fraction of a millimetre, and the filters stay cheap."""


def surface_half_extent_mm(board: BoardModel) -> float:
    """Half the side of the square that holds the playing surface (crokinole: its circle), plus a margin."""
    if isinstance(board, CrokinoleBoard):
        return board.surface_radius_mm + 8.0
    return board.half_side_mm + 4.0


@dataclass(frozen=True)
class BoardView:
    """A rectified board image and the mapping between its pixels and board millimetres.

    Attributes
    ----------
    image : (S, S, 3) uint8 ndarray
        BGR, north (+y) up, as seen from the south seat.
    px_per_mm : float
    half_extent_mm : float
        The image covers board x and y in [-half_extent_mm, half_extent_mm].
    """

    image: np.ndarray
    px_per_mm: float
    half_extent_mm: float

    @cached_property
    def lab(self) -> np.ndarray:
        """The image in 8-bit Lab (S, S, 3) uint8, converted once for every stage that reads colours."""
        return cv2.cvtColor(self.image, cv2.COLOR_BGR2LAB)

    @cached_property
    def edges(self) -> EdgeField:
        """The colour edges of the image (`lab_edge_field`), found once for every stage that looks for rims."""
        return lab_edge_field(self.lab)

    def to_px(self, points_mm: np.ndarray) -> np.ndarray:
        """Board mm (n, 2) -> view pixel coordinates (n, 2), pixel centres at integers."""
        p = np.asarray(points_mm, np.float64).reshape(-1, 2)
        u = (p[:, 0] + self.half_extent_mm) * self.px_per_mm - 0.5
        v = (self.half_extent_mm - p[:, 1]) * self.px_per_mm - 0.5
        return np.column_stack([u, v])

    def to_mm(self, points_px: np.ndarray) -> np.ndarray:
        """View pixel coordinates (n, 2) -> board mm (n, 2)."""
        p = np.asarray(points_px, np.float64).reshape(-1, 2)
        x = (p[:, 0] + 0.5) / self.px_per_mm - self.half_extent_mm
        y = self.half_extent_mm - (p[:, 1] + 0.5) / self.px_per_mm
        return np.column_stack([x, y])


def board_view(image: np.ndarray, *, homography: np.ndarray, board: BoardModel,
               px_per_mm: float = DEFAULT_PX_PER_MM) -> BoardView:
    """Rectify the playing surface of `board` out of a frame.

    Parameters
    ----------
    image : (H, W, 3) uint8 ndarray
        BGR frame.
    homography : (3, 3) ndarray
        Board mm -> image px.
    board : the board model (sets the extent).
    px_per_mm : scale of the view.

    Returns
    -------
    BoardView

    Examples
    --------
    >>> view = board_view(frame, homography=h, board=load_board("carrom"))  # doctest: +SKIP
    >>> view.image.shape
    (1122, 1122, 3)
    """
    h = np.asarray(homography, np.float64)
    if h.shape != (3, 3) or not np.all(np.isfinite(h)):
        raise ValueError(f"homography must be a finite 3x3 matrix, got shape {h.shape}")
    half = surface_half_extent_mm(board)
    return BoardView(rectify(image, h, px_per_mm=px_per_mm, half_extent_mm=half), px_per_mm, half)
