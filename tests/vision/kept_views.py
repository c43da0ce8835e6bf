"""Rectified views kept from simulated clips' frames (`sample_images/simulated/carrom/views`), with their pieces.

A few reading faults show only in a video frame's pixels, not in a still rendered of the same pieces and look: the
frame's rectified view is kept (our own render) beside the true pieces in it.
"""

import json
from pathlib import Path

import cv2
import numpy as np

from vision.rectify_board import BoardView

FOLDER = Path(__file__).resolve().parents[2] / "sample_images" / "simulated" / "carrom" / "views"


def kept_view(name: str) -> tuple[BoardView, np.ndarray]:
    """The view `name` (e.g. 'clip_5211_at_92s') and the true centres (n, 2) of the pieces on it, mm.

    The image is `name`.jpg unless the description names another (a lossless one, where the fault shown goes with
    JPEG's loss of detail).
    """
    about = json.loads((FOLDER / f"{name}.json").read_text())
    image = cv2.imread(str(FOLDER / about.get("image", f"{name}.jpg")))
    view = BoardView(image, about["px_per_mm"], about["half_extent_mm"])
    return view, np.array([(x, y) for _, x, y in about["pieces"]])


def nearest_mm(centres_mm: np.ndarray, others_mm: np.ndarray) -> np.ndarray:
    """For each centre, the distance to the nearest of `others_mm` (inf where there are none)."""
    if len(others_mm) == 0:
        return np.full(len(centres_mm), np.inf)
    return np.hypot(*(centres_mm[:, None] - others_mm[None]).transpose(2, 0, 1)).min(axis=1)
