"""Draw a board reading on the photo: each piece's outline, its class and (crokinole) its zone."""

from __future__ import annotations

import cv2
import numpy as np

from vision.homography import project

KIND_COLOURS_BGR = {
    "white": (255, 255, 255), "black": (40, 40, 40), "queen": (60, 60, 255), "striker": (0, 220, 255),
    "light": (170, 240, 255), "dark": (140, 60, 20), "pink": (200, 130, 255), "blue": (255, 120, 0),
    "shooter": (0, 220, 255),
}


def _outline(homography: np.ndarray, x_mm: float, y_mm: float, r_mm: float) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    return project(homography, np.column_stack([x_mm + r_mm * np.cos(a), y_mm + r_mm * np.sin(a)]))


def annotate_reading(image: np.ndarray, reading: dict, *, homography: np.ndarray,
                     truth: list[dict] | None = None) -> np.ndarray:
    """A copy of `image` with the pieces of a `read` result drawn on it.

    Parameters
    ----------
    image : (H, W, 3) uint8 BGR frame.
    reading : a `read` result (dict with a ``pieces`` list; its ``occluded`` patches are boxed).
    homography : (3, 3) board mm -> image px.
    truth : optional true pieces (same shape), drawn as small red crosses.

    Returns
    -------
    (H, W, 3) uint8 ndarray

    Examples
    --------
    >>> cv2.imwrite("read.png", annotate_reading(frame, result, homography=h))  # doctest: +SKIP
    """
    out = image.copy()
    h = np.asarray(homography, np.float64)
    scale = max(0.35, min(out.shape[:2]) / 1400)
    thickness = max(1, int(round(min(out.shape[:2]) / 700)))
    for piece in reading["pieces"]:
        pts = _outline(h, piece["x_mm"], piece["y_mm"], piece["r_mm"])
        colour = KIND_COLOURS_BGR.get(piece["kind"], (0, 255, 0))
        edge = (0, 0, 255) if piece.get("needs_review") else (0, 255, 0)
        cv2.polylines(out, [np.rint(pts).astype(np.int32)], True, edge, thickness + 1, cv2.LINE_AA)
        cv2.polylines(out, [np.rint(pts).astype(np.int32)], True, colour, thickness, cv2.LINE_AA)
        label = piece["kind"][0].upper()
        if "zone" in piece:
            label += str(piece["zone"]) + ("?" if piece.get("needs_review") else "")
        # Centred on the piece itself (beside it, in a cluster such as the break formation, it falls on a
        # neighbour), white edged in black to read on a face of any colour.
        (w, t), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
        u, v = project(h, np.array([[piece["x_mm"], piece["y_mm"]]]))[0] + np.array([-w / 2, t / 2])
        cv2.putText(out, label, (int(u), int(v)), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thickness + 2, cv2.LINE_AA)
        cv2.putText(out, label, (int(u), int(v)), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), thickness,
                    cv2.LINE_AA)
    for cover in reading.get("occluded", []):
        corners = np.array([[cover["x_min_mm"], cover["y_min_mm"]], [cover["x_max_mm"], cover["y_min_mm"]],
                            [cover["x_max_mm"], cover["y_max_mm"]], [cover["x_min_mm"], cover["y_max_mm"]]])
        box = np.rint(project(h, corners)).astype(np.int32)
        cv2.polylines(out, [box], True, (255, 0, 255), thickness, cv2.LINE_AA)
        cv2.putText(out, "hidden", tuple(int(v) for v in box.min(axis=0)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                    (255, 0, 255), thickness, cv2.LINE_AA)
    for piece in truth or []:
        (u, v), = project(h, np.array([[piece["x_mm"], piece["y_mm"]]]))
        cv2.drawMarker(out, (int(round(u)), int(round(v))), (0, 0, 255), cv2.MARKER_CROSS, 8, 1)
    return out
