"""The pieces a read looks for (their sizes) and what it finds (`PieceDetections`), passed from stage to stage."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.geometry import BoardModel, CarromBoard, CouronneBoard


@dataclass(frozen=True)
class PieceSize:
    """A size of piece to look for: name, outer radius, and the radius of its hole (rings)."""

    name: str
    radius_mm: float
    inner_radius_mm: float = 0.0


@dataclass(frozen=True)
class PieceDetections:
    """Pieces found in one view, before classification.

    Attributes
    ----------
    centres_mm : (n, 2) float ndarray, board mm
    radii_mm : (n,) float ndarray, measured
    size : (n,) int ndarray, index into the sizes searched
    support : (n,) float ndarray, share of the rim seen, 0..1
    colour_lab : (n, 3) float ndarray, median 8-bit Lab colour of the piece's face
    surround_lab : (n, 3) float ndarray, median Lab just outside the piece
    is_faint : (n,) bool ndarray, found from a rim with few votes, lone or wedged between others (default: none)
    """

    centres_mm: np.ndarray
    radii_mm: np.ndarray
    size: np.ndarray
    support: np.ndarray
    colour_lab: np.ndarray
    surround_lab: np.ndarray
    is_faint: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.is_faint is None:
            object.__setattr__(self, "is_faint", np.zeros(len(self.radii_mm), bool))

    def __len__(self) -> int:
        return len(self.radii_mm)

    def filter(self, mask: np.ndarray) -> "PieceDetections":
        return PieceDetections(self.centres_mm[mask], self.radii_mm[mask], self.size[mask], self.support[mask],
                               self.colour_lab[mask], self.surround_lab[mask], self.is_faint[mask])

    def join(self, other: "PieceDetections") -> "PieceDetections":
        """These detections followed by `other`'s."""
        return PieceDetections(np.vstack([self.centres_mm, other.centres_mm]),
                               np.concatenate([self.radii_mm, other.radii_mm]),
                               np.concatenate([self.size, other.size]),
                               np.concatenate([self.support, other.support]),
                               np.vstack([self.colour_lab, other.colour_lab]),
                               np.vstack([self.surround_lab, other.surround_lab]),
                               np.concatenate([self.is_faint, other.is_faint]))

    @classmethod
    def empty(cls) -> "PieceDetections":
        return cls(np.zeros((0, 2)), np.zeros(0), np.zeros(0, int), np.zeros(0), np.zeros((0, 3)), np.zeros((0, 3)))


def piece_sizes(board: BoardModel) -> tuple[PieceSize, ...]:
    """The sizes of piece a board's game uses, smallest first."""
    if isinstance(board, CarromBoard):
        return (PieceSize("coin", board.coin_diameter_mm / 2), PieceSize("striker", board.striker_diameter_mm / 2))
    if isinstance(board, CouronneBoard):
        return (PieceSize("ring", board.ring_outer_diameter_mm / 2, board.ring_inner_diameter_mm / 2),
                PieceSize("shooter", board.shooter_ring_outer_diameter_mm / 2,
                          board.shooter_ring_inner_diameter_mm / 2))
    return (PieceSize("disc", board.disc_diameter_mm / 2),)
