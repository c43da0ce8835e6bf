"""Draw a located board's model back onto the frame, to see whether the fit lands on the real lines."""

from __future__ import annotations

import math

import cv2
import numpy as np

from calibration.geometry import CrokinoleBoard, load_board
from vision.board_location import BoardLocation
from vision.board_primitives import sample_primitives, square_primitives
from vision.homography import project

_MODEL_BGR = (0, 255, 0)
_POCKET_BGR = (255, 0, 255)
_LANDMARK_BGR = (0, 0, 255)


def annotate_board(image: np.ndarray, location: BoardLocation) -> np.ndarray:
    """A copy of `image` with the fitted board model drawn on it.

    Lines and circles of the model in green, pockets or pegs in magenta with their
    numbers, the detected landmarks as red dots, and an arrow from the centre
    towards the south seat. A board not found gets its reason written instead.
    """
    out = image.copy()
    thickness = max(1, round(max(image.shape[:2]) / 900))
    if not location.found:
        cv2.putText(out, f"no board: {location.reason}"[:90], (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.7 * thickness, (0, 0, 255), thickness)
        return out
    board = load_board(location.game, location.model)
    h = location.homography
    if isinstance(board, CrokinoleBoard):
        t = np.linspace(0, 2 * math.pi, 360)
        unit = np.stack([np.cos(t), np.sin(t)], 1)
        for r in [*board.line_radii_mm().values(), board.hole_diameter_mm / 2, board.surface_radius_mm]:
            cv2.polylines(out, [project(h, unit * r).astype(np.int32)], True, _MODEL_BGR, thickness, cv2.LINE_AA)
        for k, centre in enumerate(project(h, np.array(board.peg_centres_mm()))):
            cv2.circle(out, tuple(int(v) for v in centre), 4 * thickness, _POCKET_BGR, thickness, cv2.LINE_AA)
    else:
        points, _, _ = sample_primitives(square_primitives(board), spacing_mm=2.0)
        for p in project(h, points):
            cv2.circle(out, tuple(int(v) for v in p), thickness, _MODEL_BGR, -1)
        half = board.half_side_mm
        corners = project(h, np.array([[-half, -half], [half, -half], [half, half], [-half, half]]))
        cv2.polylines(out, [corners.astype(np.int32)], True, _MODEL_BGR, thickness, cv2.LINE_AA)
        t = np.linspace(0, 2 * math.pi, 48)
        for k, (x, y) in enumerate(board.pocket_centres_mm()):
            r = board.pocket_diameter_mm / 2
            ring = project(h, np.stack([x + r * np.cos(t), y + r * np.sin(t)], 1))
            cv2.polylines(out, [ring.astype(np.int32)], True, _POCKET_BGR, thickness, cv2.LINE_AA)
            centre = project(h, np.array([[x, y]]))[0]
            cv2.putText(out, str(k), tuple(int(v) for v in centre), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * thickness, _POCKET_BGR, thickness)
    for p in location.landmarks.image_px:
        cv2.circle(out, tuple(int(v) for v in p), thickness, _LANDMARK_BGR, -1)
    arrow = project(h, np.array([[0.0, 0.0], [0.0, -150.0]]))
    cv2.arrowedLine(out, tuple(int(v) for v in arrow[0]), tuple(int(v) for v in arrow[1]), _LANDMARK_BGR, 2 * thickness, cv2.LINE_AA)
    label = f"{location.game}/{location.model} error {location.error_mm:.2f} mm confidence {location.confidence:.2f}"
    cv2.putText(out, label, (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.7 * thickness, (0, 0, 255), thickness)
    return out
