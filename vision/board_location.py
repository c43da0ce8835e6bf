"""The answer of board localisation: where the board is in a frame, and how sure we are."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Landmarks:
    """Board features used for a fit: names, their board position (mm) and image position (px).

    Attributes
    ----------
    names : tuple of str, length n
    board_mm : (n, 2) float ndarray
    image_px : (n, 2) float ndarray
    """

    names: tuple[str, ...] = ()
    board_mm: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    image_px: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))

    def __post_init__(self) -> None:
        board = np.asarray(self.board_mm, np.float64).reshape(-1, 2)
        image = np.asarray(self.image_px, np.float64).reshape(-1, 2)
        if not (len(self.names) == len(board) == len(image)):
            raise ValueError(f"landmarks: {len(self.names)} names, {len(board)} board points, {len(image)} image points")
        board.flags.writeable = False
        image.flags.writeable = False
        object.__setattr__(self, "names", tuple(self.names))
        object.__setattr__(self, "board_mm", board)
        object.__setattr__(self, "image_px", image)

    def __len__(self) -> int:
        return len(self.names)


@dataclass(frozen=True)
class BoardLocation:
    """Where the board is in one frame.

    Attributes
    ----------
    found : bool
        False when no board was found or the fit was too poor to trust.
    game, model : str
        The board model that was fitted.
    homography : (3, 3) ndarray or None
        Board millimetres -> image pixels, normalised so ``[2, 2] == 1``.
    confidence : float
        0..1, from the fit's residuals and how much of the board supports it.
    error_mm : float
        Mean distance (board mm) between the fitted landmarks and where their
        image detections map back to; ``inf`` when not found.
    landmarks : Landmarks
        The detected features the fit used (inliers).
    reason : str
        Why the board was not found, or "" when it was.
    lens_corrected : bool
        True when the frame was undistorted with camera intrinsics first: the
        homography then maps to the pixels of the undistorted frame.
    """

    found: bool
    game: str
    model: str
    homography: np.ndarray | None = None
    confidence: float = 0.0
    error_mm: float = float("inf")
    landmarks: Landmarks = field(default_factory=Landmarks)
    reason: str = ""
    lens_corrected: bool = False

    def __post_init__(self) -> None:
        if self.found:
            h = np.asarray(self.homography, np.float64)
            if h.shape != (3, 3) or not np.all(np.isfinite(h)):
                raise ValueError("a found board needs a finite 3x3 homography")
            h = h / h[2, 2]
            h.flags.writeable = False
            object.__setattr__(self, "homography", h)

    @classmethod
    def not_found(cls, game: str, model: str, reason: str) -> "BoardLocation":
        return cls(found=False, game=game, model=model, reason=reason)

    def to_json(self) -> dict:
        """The ``board`` object of the command line contract (design.md)."""
        if not self.found:
            return {"found": False, "reason": self.reason, "game": self.game, "model": self.model}
        return {
            "found": True,
            "confidence": round(float(self.confidence), 4),
            "homography": [[float(v) for v in row] for row in self.homography],
            "error_mm": round(float(self.error_mm), 3),
            "game": self.game,
            "model": self.model,
            "landmarks": len(self.landmarks),
            **({"lens_corrected": True} if self.lens_corrected else {}),
        }
