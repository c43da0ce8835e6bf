"""H.264 MP4 writing: frames are piped into the ffmpeg that imageio-ffmpeg ships (libx264).

This OpenCV build cannot encode H.264 (its 'avc1'/'H264' writers fail to open), so
ffmpeg is used directly; the result decodes with ``cv2.VideoCapture``.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import imageio_ffmpeg
import numpy as np


class H264Writer:
    """Write BGR uint8 frames of one size to an H.264 MP4 (yuv420p, constant rate factor `crf`).

    Use as a context manager; frames are encoded as they are written.
    """

    def __init__(self, path: str | Path, *, resolution: tuple[int, int], fps: float, crf: int = 20, preset: str = "veryfast"):
        w, h = resolution
        if w % 2 or h % 2:
            raise ValueError(f"H.264 (yuv420p) needs an even width and height, got {w}x{h}")
        if fps <= 0:
            raise ValueError(f"fps must be positive, got {fps}")
        self.path = Path(path)
        self.resolution = (w, h)
        self.frames_written = 0
        cmd = [
            imageio_ffmpeg.get_ffmpeg_exe(), "-y", "-loglevel", "error",
            "-f", "rawvideo", "-pix_fmt", "bgr24", "-s", f"{w}x{h}", "-r", f"{fps}", "-i", "-",
            "-an", "-c:v", "libx264", "-preset", preset, "-crf", str(int(crf)), "-pix_fmt", "yuv420p",
            "-threads", "2", "-movflags", "+faststart", str(self.path),
        ]
        self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stderr=subprocess.PIPE)

    def write(self, frame_bgr: np.ndarray) -> None:
        w, h = self.resolution
        if frame_bgr.shape != (h, w, 3) or frame_bgr.dtype != np.uint8:
            raise ValueError(f"frame must be uint8 of shape {(h, w, 3)}, got {frame_bgr.dtype} {frame_bgr.shape}")
        self._proc.stdin.write(np.ascontiguousarray(frame_bgr).tobytes())
        self.frames_written += 1

    def close(self) -> None:
        if self._proc.stdin and not self._proc.stdin.closed:
            self._proc.stdin.close()
        err = self._proc.stderr.read().decode(errors="replace") if self._proc.stderr else ""
        if self._proc.wait() != 0:
            raise RuntimeError(f"ffmpeg failed writing {self.path}: {err.strip()}")

    def __enter__(self) -> H264Writer:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.close()
        else:
            self._proc.kill()
            self._proc.wait()
