"""Board localisation from optional ArUco markers on the frame (calibration.markers).

The markers are found once per frame (on a copy of at most ``max_side_px``, their
corners then refined to a fraction of a pixel on the frame itself); each board
model turns the ones of its layout into a homography, which replaces the
locators' search: the printed lines then only refine it. Their faces are taken
to lie in the plane of the playing surface (``MarkerLayout.height_mm`` is not
corrected for).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.markers import MarkerLayout
from vision.board_location import BoardLocation, Landmarks
from vision.homography import fit_homography, reprojection_error_mm
from vision.working_copies import shrunk


QUICK_WINDOW_PX = 13
"""The threshold window of the quick first pass (the middle of OpenCV's default 3, 13, 23)."""


@dataclass(frozen=True)
class MarkerDetections:
    """Markers seen in a frame: their ids (n,) and corners (n, 4, 2) in frame pixels, OpenCV's order."""

    ids: np.ndarray
    corners_px: np.ndarray

    def __len__(self) -> int:
        return len(self.ids)


def find_markers(gray: np.ndarray, *, dictionary: str, max_side_px: int = 800) -> MarkerDetections:
    """ArUco markers of `dictionary` in a grey frame.

    Parameters
    ----------
    gray : (H, W) uint8 ndarray
    dictionary : str
        An OpenCV predefined dictionary name, e.g. ``"DICT_4X4_50"``.
    max_side_px : int
        Detection runs on a copy no larger than this; corners are refined on `gray`.

    A quick pass that decodes no marker ends the search: a single marker in view
    may then go unseen, but one marker alone never places a board.
    """
    small = shrunk(gray, max_side_px=max_side_px)
    scale = gray.shape[1] / small.shape[1]
    markers = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    none = MarkerDetections(np.zeros(0, int), np.zeros((0, 4, 2)))
    # most frames have no markers: a pass with one threshold window (a third of the full search's
    # cost) decodes at least one of any two or more markers the full search would read
    quick = cv2.aruco.DetectorParameters()
    quick.adaptiveThreshWinSizeMin = quick.adaptiveThreshWinSizeMax = QUICK_WINDOW_PX
    _, quick_ids, _ = cv2.aruco.ArucoDetector(markers, quick).detectMarkers(small)
    if quick_ids is None or len(quick_ids) == 0:
        return none
    corners, ids, _ = cv2.aruco.ArucoDetector(markers).detectMarkers(small)
    if ids is None or len(ids) == 0:
        return none
    points = np.concatenate([c.reshape(4, 2) for c in corners]).astype(np.float32) * scale
    side_px = float(np.median([np.linalg.norm(c.reshape(4, 2)[0] - c.reshape(4, 2)[2]) for c in corners])) * scale
    window = int(np.clip(side_px / 12, 2, 8))
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    refined = cv2.cornerSubPix(gray, points.reshape(-1, 1, 2), (window, window), (-1, -1), criteria)
    return MarkerDetections(ids.ravel().astype(int), refined.reshape(-1, 4, 2).astype(np.float64))


def marker_fit(detections: MarkerDetections, layout: MarkerLayout) -> tuple[np.ndarray, Landmarks] | None:
    """Homography (board mm -> frame px) from the layout's markers in view, and their corners as
    landmarks; None when fewer than two of them are seen (one small marker cannot hold a board)."""
    keep = [i for i, marker_id in enumerate(detections.ids) if marker_id in layout.ids]
    if len({int(detections.ids[i]) for i in keep}) < 2:
        return None
    board_mm = np.concatenate([layout.corners_mm(int(detections.ids[i])) for i in keep])
    image_px = np.concatenate([detections.corners_px[i] for i in keep])
    homography, inliers = fit_homography(board_mm, image_px, ransac_threshold_px=2.0)
    if homography is None or inliers.sum() < 8:
        return None
    names = tuple(f"marker{int(detections.ids[i])}_{k}" for i in keep for k in range(4))
    return homography, Landmarks(names, board_mm, image_px)


def marker_location(board, homography: np.ndarray, landmarks: Landmarks) -> BoardLocation:
    """The board as the markers alone place it (when its printed lines could not confirm it)."""
    error_mm = float(np.mean(reprojection_error_mm(homography, landmarks.board_mm, landmarks.image_px)))
    return BoardLocation(
        found=True, game=board.game, model=board.model, homography=homography,
        confidence=float(np.clip(0.5 * np.exp(-error_mm / 1.5), 0.0, 1.0)), error_mm=error_mm, landmarks=landmarks,
    )
