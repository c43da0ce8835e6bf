"""A table profile: what a tournament table's camera sees, set up once from a first frame.

It holds the board model, the homography (board mm -> image px), colour samples
of the playing surface (and of pieces when their positions are given), and a
small top-down reference thumbnail of the board, embedded as a PNG.
"""

from __future__ import annotations

import base64
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from calibration.geometry import CrokinoleBoard, load_board

PROFILE_VERSION = 1
THUMBNAIL_PX = 256


@dataclass(frozen=True)
class ColourSample:
    """Median colour of a region, in BGR and CIE Lab (OpenCV 8-bit scaling), with its spread."""

    bgr: tuple[float, float, float]
    lab: tuple[float, float, float]
    lab_std: tuple[float, float, float]
    pixels: int


@dataclass(frozen=True)
class TableProfile:
    """Everything needed to read a table's frames without searching for the board.

    Attributes
    ----------
    game, model : the board model (``calibration.geometry.load_board(game, model)``)
    homography : (3, 3) list, board mm -> image px of the calibration frame
    image_size : (width, height) of the calibration frame
    surface : colour samples of the playing surface, keyed by region name
    pieces : colour samples of pieces, keyed by kind (may be empty)
    thumbnail_png_b64 : top-down board image, THUMBNAIL_PX square, base64 PNG
    reference_image : path of the calibration frame, as given
    camera : path of a camera intrinsics JSON, if one was used
    """

    game: str
    model: str
    homography: list[list[float]]
    image_size: tuple[int, int]
    surface: dict[str, ColourSample] = field(default_factory=dict)
    pieces: dict[str, ColourSample] = field(default_factory=dict)
    thumbnail_png_b64: str = ""
    reference_image: str = ""
    camera: str = ""
    version: int = PROFILE_VERSION

    def homography_array(self) -> np.ndarray:
        return np.array(self.homography, np.float64)

    def board(self):
        return load_board(self.game, self.model)

    def thumbnail(self) -> np.ndarray:
        """The reference thumbnail as a BGR array."""
        data = np.frombuffer(base64.b64decode(self.thumbnail_png_b64), np.uint8)
        return cv2.imdecode(data, cv2.IMREAD_COLOR)

    def to_json(self) -> dict:
        def sample(s: ColourSample) -> dict:
            return {"bgr": list(s.bgr), "lab": list(s.lab), "lab_std": list(s.lab_std), "pixels": s.pixels}

        return {
            "version": self.version,
            "game": self.game,
            "model": self.model,
            "homography": self.homography,
            "image_size": list(self.image_size),
            "surface": {k: sample(v) for k, v in self.surface.items()},
            "pieces": {k: sample(v) for k, v in self.pieces.items()},
            "thumbnail_png_b64": self.thumbnail_png_b64,
            "reference_image": self.reference_image,
            "camera": self.camera,
        }

    @classmethod
    def from_json(cls, data: dict) -> "TableProfile":
        try:
            load_board(data["game"], data["model"])
            h = np.array(data["homography"], np.float64)
            if h.shape != (3, 3) or not np.all(np.isfinite(h)):
                raise ValueError("homography must be a finite 3x3 matrix")

            def sample(d: dict) -> ColourSample:
                return ColourSample(tuple(d["bgr"]), tuple(d["lab"]), tuple(d["lab_std"]), int(d["pixels"]))

            return cls(
                game=data["game"],
                model=data["model"],
                homography=h.tolist(),
                image_size=tuple(int(v) for v in data["image_size"]),
                surface={k: sample(v) for k, v in data.get("surface", {}).items()},
                pieces={k: sample(v) for k, v in data.get("pieces", {}).items()},
                thumbnail_png_b64=data.get("thumbnail_png_b64", ""),
                reference_image=data.get("reference_image", ""),
                camera=data.get("camera", ""),
                version=int(data.get("version", PROFILE_VERSION)),
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"table profile: missing or malformed field ({error})") from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> "TableProfile":
        try:
            return cls.from_json(json.loads(Path(path).read_text()))
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}: not a JSON table profile ({error})") from None


def _project(homography: np.ndarray, points_mm: np.ndarray) -> np.ndarray:
    xyw = points_mm @ homography[:, :2].T + homography[:, 2]
    return xyw[:, :2] / xyw[:, 2:3]


def _sample_colour(image: np.ndarray, points_px: np.ndarray) -> ColourSample | None:
    h, w = image.shape[:2]
    inside = (points_px[:, 0] >= 0) & (points_px[:, 1] >= 0) & (points_px[:, 0] < w) & (points_px[:, 1] < h)
    pts = points_px[inside].astype(int)
    if len(pts) < 8:
        return None
    bgr = image[pts[:, 1], pts[:, 0]].reshape(-1, 1, 3)
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float64)
    return ColourSample(
        tuple(float(v) for v in np.median(bgr.reshape(-1, 3), axis=0)),
        tuple(float(v) for v in np.median(lab, axis=0)),
        tuple(float(v) for v in lab.std(axis=0)),
        len(pts),
    )


def _surface_regions(board) -> dict[str, np.ndarray]:
    """Board points (mm) on bare surface away from the printed lines, one set per region."""
    rng = np.random.default_rng(0)
    if isinstance(board, CrokinoleBoard):
        radii = sorted(board.line_radii_mm().values())
        bands = {"zone_15": (board.hole_diameter_mm, radii[0]), "zone_10": (radii[0], radii[1]), "zone_5": (radii[1], radii[2])}
        regions = {}
        for name, (r0, r1) in bands.items():
            r = rng.uniform(r0 + 8, r1 - 8, 400)
            a = rng.uniform(0, 2 * math.pi, 400)
            regions[name] = np.stack([r * np.cos(a), r * np.sin(a)], 1)
        return regions
    h = board.half_side_mm
    pts = rng.uniform(-0.85 * h, 0.85 * h, (1200, 2))
    return {"surface": pts}


def build_profile(
    image: np.ndarray,
    homography: np.ndarray,
    *,
    game: str,
    model: str,
    pieces_mm: dict[str, tuple[float, float]] | None = None,
    reference_image: str = "",
    camera: str = "",
) -> TableProfile:
    """A table profile from a calibration frame and the board's homography in it.

    Parameters
    ----------
    image : (H, W, 3) uint8 ndarray
    homography : (3, 3) ndarray, board mm -> image px
    game, model : the board model
    pieces_mm : optional {kind: (x_mm, y_mm)} where a piece of that kind lies in the frame
    reference_image, camera : paths recorded in the profile
    """
    board = load_board(game, model)
    h = np.asarray(homography, np.float64)
    surface = {}
    for name, pts in _surface_regions(board).items():
        sample = _sample_colour(image, _project(h, pts))
        if sample is not None:
            surface[name] = sample
    pieces = {}
    radius = getattr(board, "coin_diameter_mm", None) or getattr(board, "disc_diameter_mm", None) or getattr(board, "ring_outer_diameter_mm")
    for kind, (x, y) in (pieces_mm or {}).items():
        rr = np.sqrt(np.random.default_rng(1).uniform(0, 1, 200)) * radius * 0.3
        aa = np.random.default_rng(2).uniform(0, 2 * math.pi, 200)
        sample = _sample_colour(image, _project(h, np.stack([x + rr * np.cos(aa), y + rr * np.sin(aa)], 1)))
        if sample is None:
            raise ValueError(f"piece {kind!r} at ({x}, {y}) mm is outside the frame")
        pieces[kind] = sample
    extent = getattr(board, "surface_radius_mm", None) or board.half_side_mm
    half = extent + 20.0
    scale = THUMBNAIL_PX / (2 * half)
    out_to_board = np.array([[1 / scale, 0, -half], [0, -1 / scale, half], [0, 0, 1]])
    thumb = cv2.warpPerspective(image, h @ out_to_board, (THUMBNAIL_PX, THUMBNAIL_PX), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP)
    ok, png = cv2.imencode(".png", thumb)
    return TableProfile(
        game=game,
        model=model,
        homography=(h / h[2, 2]).tolist(),
        image_size=(image.shape[1], image.shape[0]),
        surface=surface,
        pieces=pieces,
        thumbnail_png_b64=base64.b64encode(png.tobytes()).decode("ascii") if ok else "",
        reference_image=reference_image,
        camera=camera,
    )
