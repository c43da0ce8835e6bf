"""Filming a simulated board: a still or a video through a seeded, imperfect camera.

``film_still(frame, ...) -> (image_bgr, homography)`` and
``film_video(timeline, ...) -> info`` are what the simulator calls.

Homography and lens distortion
------------------------------
The returned homography maps board millimetres to *undistorted* image pixels of
the pinhole camera. On "clean" the lens has no distortion, so it is exact for the
image. On "easy" to "hard" the image is also radially distorted (OpenCV k1, k2);
`camera_report` (and the dict `film_video` returns) gives ``camera_matrix``,
``dist_coeffs`` and ``distortion_max_px``, the largest gap between the homography
and the true projection over the board outline. ``cv2.undistortPoints`` /
``cv2.projectPoints`` with those convert between the two.

The homography is for the plane of the playing surface (lines, pockets, the
20-hole). Things that stand above it are drawn where the camera sees them: the
frame (``render_board.FRAME_HEIGHT_MM`` high) looks larger than its flat outline,
with its inner walls showing; a piece's top face is shifted away from the camera
(by up to a few mm) and its edge shows. Truth positions are always the centre of
the piece's base on the board.

Everything random comes from ``numpy.random.default_rng([seed, stream])``, one
stream per concern (look, camera, textures, light, noise, pieces, hands, events, floor),
so the same seed gives the same pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.geometry import BoardModel, CrokinoleBoard
from simulation.camera import Camera, sample_camera
from simulation.camera_light import Lighting, SensorNoise, blend_lighting, jpeg_roundtrip, light_changed, sample_lighting
from simulation.hands import HandLayer
from simulation.looks import Look, choose_look, difficulty_settings, jittered
from simulation.render_board import Canvas, outer_half_size_mm, render_board
from simulation.render_pieces import PieceLayer
from simulation.scene import SceneFrame, Timeline
from simulation.video import H264Writer

_STREAMS = {"look": 1, "camera": 2, "texture": 3, "light": 4, "noise": 5, "pieces": 6, "hands": 7, "events": 8, "floor": 9}
_LIGHT_FADE_S = 0.4
_SUPERSAMPLING = 1.7  # canvas px per image px, at the most magnified part of the board


def _rng(seed: int, stream: str) -> np.random.Generator:
    return np.random.default_rng([int(seed), _STREAMS[stream]])


def board_outline_mm(board: BoardModel) -> np.ndarray:
    """Points (N, 2) on the outer edge of the board's frame, in board mm."""
    o = outer_half_size_mm(board)
    if isinstance(board, CrokinoleBoard):
        if board.frame_shape == "octagon":
            r = o / math.cos(math.pi / 8)
            a = math.pi / 8 + np.arange(8) * math.pi / 4
        else:
            r = o
            a = np.linspace(0, 2 * math.pi, 32, endpoint=False)
        return np.column_stack([r * np.cos(a), r * np.sin(a)])
    return np.array([(-o, -o), (o, -o), (o, o), (-o, o)], float)


@dataclass
class Studio:
    """Everything fixed for one seed: look, camera, static board canvas, light and noise."""

    board: BoardModel
    look: Look
    settings: dict
    camera: Camera
    canvas: Canvas
    lighting: Lighting
    noise: SensorNoise
    pieces: PieceLayer
    maps: tuple[np.ndarray, np.ndarray]
    background: np.ndarray

    @classmethod
    def build(cls, board: BoardModel, *, seed: int, difficulty: str, resolution: tuple[int, int], look: str | None = None) -> Studio:
        settings, chosen, camera = _look_and_camera(board, seed=seed, difficulty=difficulty, resolution=resolution, look=look)
        resolution = camera.resolution
        outline = board_outline_mm(board)
        px_per_mm = float(np.clip(_SUPERSAMPLING * _max_image_px_per_mm(camera, outline), 0.35, 2.6))
        canvas = render_board(board, look=chosen, px_per_mm=px_per_mm, rng=_rng(seed, "texture"), camera_centre_mm=camera.centre_mm())
        background = _floor(resolution, look=chosen, rng=_rng(seed, "floor"))
        image_angle = _board_x_angle_in_image(camera)
        if abs(image_angle) > math.radians(0.5):
            canvas = canvas.turned(image_angle, border_bgr=tuple(int(c) for c in background.reshape(-1, 3).mean(axis=0)))
        centre = camera.project(np.zeros((1, 2)))[0]
        lighting = sample_lighting(resolution, settings=settings, rng=_rng(seed, "light"), board_centre_px=tuple(centre))
        noise = SensorNoise(resolution, sigma=settings["noise_sigma"], rng=_rng(seed, "noise"))
        pieces = PieceLayer(board, look=chosen, canvas=canvas, rng=_rng(seed, "pieces"), exposure_s=settings["exposure_s"],
                            camera_centre_mm=camera.centre_mm())
        maps = camera.board_to_source_maps(canvas.board_to_canvas())
        return cls(board, chosen, settings, camera, canvas, lighting, noise, pieces, maps, background)

    def set_camera(self, camera: Camera) -> None:
        self.camera = camera
        self.pieces.camera_centre_mm = camera.centre_mm()
        self.maps = camera.board_to_source_maps(self.canvas.board_to_canvas())

    def photograph(self, canvas_image: np.ndarray, *, hands: HandLayer | None = None, t_s: float = 0.0) -> np.ndarray:
        """The camera's picture of a (top-down) canvas image: perspective, lens, hands, light and noise.

        Beyond the canvas (the table's edge) the camera sees the floor.
        """
        image = self.background.copy()
        cv2.remap(canvas_image, self.maps[0], self.maps[1], cv2.INTER_LINEAR, dst=image, borderMode=cv2.BORDER_TRANSPARENT)
        if hands is not None:
            hands.draw(image, t_s, self.camera)
        return self.noise.apply(self.lighting.apply(image))

    def report(self) -> dict:
        return _report(self.board, self.look, self.camera)


def _look_and_camera(board: BoardModel, *, seed: int, difficulty: str, resolution: tuple[int, int],
                     look: str | None) -> tuple[dict, Look, Camera]:
    """The parts of a studio that need no drawing, validated."""
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if len(resolution) != 2 or min(resolution) < 16:
        raise ValueError(f"resolution must be (width, height) of at least 16 px, got {resolution!r}")
    resolution = (int(resolution[0]), int(resolution[1]))
    settings = difficulty_settings(difficulty)
    look_rng = _rng(seed, "look")
    chosen = choose_look(board.game, rng=look_rng, name=look)
    if look is None:
        chosen = jittered(chosen, rng=look_rng)
    camera = sample_camera(outline_mm=board_outline_mm(board), resolution=resolution, settings=settings, rng=_rng(seed, "camera"))
    return settings, chosen, camera


def _report(board: BoardModel, look: Look, camera: Camera) -> dict:
    return {
        "look": look.name,
        "homography": camera.homography().tolist(),
        "camera_matrix": camera.camera_matrix.tolist(),
        "dist_coeffs": list(camera.dist_coeffs),
        "rotation": camera.rotation.tolist(),
        "translation_mm": camera.translation.tolist(),
        "distortion_max_px": round(camera.distortion_max_px(board_outline_mm(board)), 3),
    }


def _floor(resolution: tuple[int, int], *, look: Look, rng: np.random.Generator) -> np.ndarray:
    """What lies beyond the table: a dull, darker surface."""
    w, h = resolution
    tone = np.array(look.bgr("table"), np.float32) * rng.uniform(0.35, 0.6) + rng.uniform(10, 40)
    field = 1.0 + 0.08 * cv2.resize(rng.uniform(-1, 1, size=(6, 8)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(tone[None, None, :] * field[:, :, None], 0, 255).astype(np.uint8)


def _board_x_angle_in_image(camera: Camera) -> float:
    """Angle (rad, image axes, y down) at which the board's x axis appears in the picture."""
    a, b = camera.project(np.array([[0.0, 0.0], [100.0, 0.0]]))
    return math.atan2(b[1] - a[1], b[0] - a[0])


def _max_image_px_per_mm(camera: Camera, outline_mm: np.ndarray) -> float:
    pts = np.vstack([outline_mm, np.zeros((1, 2))])
    a = camera.project(pts)
    bx = camera.project(pts + [1.0, 0.0])
    by = camera.project(pts + [0.0, 1.0])
    return float(max(np.linalg.norm(bx - a, axis=1).max(), np.linalg.norm(by - a, axis=1).max()))


def film_still(frame: SceneFrame, *, board: BoardModel, seed: int, difficulty: str, resolution: tuple[int, int],
               look: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Photograph one settled board.

    Parameters
    ----------
    frame : the pieces to draw (board mm).
    board : the board model (``calibration.geometry.load_board``).
    seed : everything random (look, camera pose, light, noise) is drawn from it.
    difficulty : "clean", "easy", "medium" or "hard".
    resolution : (width, height) of the image in px.
    look : a look name from ``simulation/looks/<game>.json``, drawn exactly; when None a look is
        drawn from the seed and its colours varied a little.

    Returns
    -------
    image : (height, width, 3) uint8 BGR, JPEG-compressed as the difficulty says.
    homography : (3, 3) float array, board mm -> undistorted image px (see the module docstring).

    Examples
    --------
    >>> from calibration.geometry import load_board
    >>> image, h = film_still(SceneFrame(0.0, ()), board=load_board("carrom"), seed=1, difficulty="clean", resolution=(320, 240))
    >>> image.shape
    (240, 320, 3)
    """
    studio = Studio.build(board, seed=seed, difficulty=difficulty, resolution=resolution, look=look)
    work = studio.canvas.image.copy()
    studio.pieces.draw(work, frame.pieces)
    image = jpeg_roundtrip(studio.photograph(work), quality=studio.settings["jpeg_quality"])
    return image, studio.camera.homography()


def camera_report(*, board: BoardModel, seed: int, difficulty: str, resolution: tuple[int, int], look: str | None = None) -> dict:
    """The look and camera `film_still` uses for these arguments, without drawing anything:
    ``look``, ``homography``, ``camera_matrix``, ``dist_coeffs`` (k1, k2), the pose
    (``rotation``, ``translation_mm``: board mm with z up -> camera) and ``distortion_max_px``."""
    _, chosen, camera = _look_and_camera(board, seed=seed, difficulty=difficulty, resolution=resolution, look=look)
    return _report(board, chosen, camera)


def _poisson_times(rng: np.random.Generator, *, rate_per_min: float, duration_s: float) -> list[float]:
    times, t = [], 0.0
    if rate_per_min <= 0:
        return times
    while True:
        t += rng.exponential(60.0 / rate_per_min)
        if t >= duration_s:
            return times
        times.append(round(t, 3))


def film_video(timeline: Timeline, *, board: BoardModel, seed: int, difficulty: str, resolution: tuple[int, int],
               out_path: str | Path, look: str | None = None) -> dict:
    """Film a whole timeline to an H.264 MP4 at the timeline's fps.

    Returns
    -------
    dict with ``homography`` (first frame, 3x3 list), ``homography_changes``
    (``[{"t", "homography"}]`` after each camera bump), ``hands`` (``[{"t_start",
    "t_end", "seat"}]``), ``light_changes`` (times), ``frames``, ``fps``, and the
    camera report of `camera_report` (``look``, ``camera_matrix``, ``dist_coeffs``,
    ``rotation``, ``translation_mm``, ``distortion_max_px``; for the first frame).
    """
    if not timeline.frames:
        raise ValueError("timeline has no frames")
    out_path = Path(out_path)
    if not out_path.parent.is_dir():
        raise ValueError(f"output folder {out_path.parent} does not exist")
    studio = Studio.build(board, seed=seed, difficulty=difficulty, resolution=resolution, look=look)
    settings = studio.settings
    events_rng = _rng(seed, "events")
    t0 = timeline.frames[0].t_s
    duration = timeline.frames[-1].t_s - t0
    bumps = _poisson_times(events_rng, rate_per_min=settings["bump_rate_per_min"], duration_s=duration)
    lights = _poisson_times(events_rng, rate_per_min=settings["light_change_rate_per_min"], duration_s=duration)
    hands = HandLayer(board, shots=timeline.shots + timeline.hands, rng=_rng(seed, "hands"))
    info = {
        "homography": studio.camera.homography().tolist(),
        "homography_changes": [],
        "hands": [{"t_start": float(s.t_start_s), "t_end": float(s.t_end_s), "seat": s.seat} for s in hands.shots],
        "light_changes": [],
        "frames": len(timeline.frames),
        "fps": float(timeline.fps),
        **studio.report(),
    }
    work = studio.canvas.image.copy()
    dirty: list[tuple[int, int, int, int]] = []
    fade: tuple[Lighting, Lighting, float] | None = None
    with H264Writer(out_path, resolution=studio.camera.resolution, fps=timeline.fps, crf=settings["crf"]) as writer:
        for frame in timeline.frames:
            t = frame.t_s - t0
            while bumps and t >= bumps[0]:
                bumps.pop(0)
                shift = events_rng.normal(0, 3.0, size=3)
                studio.set_camera(studio.camera.shifted(*shift, dyaw_deg=float(events_rng.normal(0, 0.3))))
                info["homography_changes"].append({"t": round(frame.t_s, 4), "homography": studio.camera.homography().tolist()})
            while lights and t >= lights[0]:
                lights.pop(0)
                settled = fade[1] if fade else studio.lighting
                fade = (studio.lighting, light_changed(settled, rng=events_rng, strength=0.25), t)
                info["light_changes"].append(round(frame.t_s, 4))
            if fade:
                # The change takes a moment: the lamp, then the camera's auto-exposure.
                weight = min(1.0, (t - fade[2]) / _LIGHT_FADE_S)
                studio.lighting = blend_lighting(fade[0], fade[1], weight=weight) if weight < 1.0 else fade[1]
                if weight >= 1.0:
                    fade = None
            for x0, y0, x1, y1 in dirty:
                work[y0:y1, x0:x1] = studio.canvas.image[y0:y1, x0:x1]
            dirty = studio.pieces.draw(work, frame.pieces)
            writer.write(studio.photograph(work, hands=hands, t_s=frame.t_s))
    return info
