"""Frame sources: a video file, a folder of images, a camera index or a stream URL.

Every source yields `Frame`s with a timestamp in seconds. A video file is decoded a
few frames ahead on a second thread, so decoding overlaps the analysis. A file source stops at
the end or at the first unreadable frame and says which (`ended_early`); a live
source (camera, RTSP/HTTP URL) reconnects after a drop-out, with the gap in its
`gaps`, so a match survives a camera that disconnects.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

import cv2
import numpy as np

# FFmpeg's own complaints about a broken file would break the one-line error contract;
# what went wrong is reported through SourceReport and SourceError instead.
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")

PREFETCH_FRAMES = 4  # decoded ahead of the caller: a few frames of memory, decoding and analysis overlap
_END = object()

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


@dataclass(frozen=True)
class Frame:
    """One picture from a source: its position, its time in seconds, and the BGR image."""

    index: int
    t_s: float
    image: np.ndarray


@dataclass
class SourceReport:
    """What happened while reading: filled in as frames are read."""

    frames: int = 0
    expected_frames: int | None = None
    ended_early: str = ""  # why a file stopped before its announced end
    gaps: list[tuple[float, float]] = field(default_factory=list)  # live drop-outs (t_start_s, t_end_s)
    skipped: list[str] = field(default_factory=list)  # unreadable images of a folder


class SourceError(ValueError):
    """A source that cannot be opened at all."""


class VideoFileSource:
    """Frames of a video file, timed by the container (variable frame rate included)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.is_file():
            raise SourceError(f"no such video file: {self.path}")
        capture = cv2.VideoCapture(str(self.path))
        if not capture.isOpened():
            raise SourceError(f"cannot read {self.path} as a video (corrupt, truncated or not a video)")
        self.fps = capture.get(cv2.CAP_PROP_FPS) or 0.0
        count = int(capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        capture.release()
        self.report = SourceReport(expected_frames=count if count > 0 else None)

    def __iter__(self) -> Iterator[Frame]:
        """The frames in order; the next few are decoded on a second thread while the caller works."""
        decoded: queue.Queue = queue.Queue(maxsize=PREFETCH_FRAMES)
        stop = threading.Event()
        thread = threading.Thread(target=self._decode_into, args=(decoded, stop), daemon=True,
                                  name=f"decode {self.path.name}")
        thread.start()
        try:
            while True:
                item = decoded.get()
                if item is _END:
                    return
                if isinstance(item, BaseException):
                    raise item
                self.report.frames += 1
                yield item
        finally:
            stop.set()
            thread.join()

    def _decode_into(self, decoded: queue.Queue, stop: threading.Event) -> None:
        frames = self._decode()
        try:
            for frame in frames:
                if not _put(decoded, frame, stop):
                    return
        except Exception as error:  # handed to the reading thread, which raises it
            _put(decoded, error, stop)
        finally:
            frames.close()
        _put(decoded, _END, stop)

    def _decode(self) -> Iterator[Frame]:
        capture = cv2.VideoCapture(str(self.path))
        index = 0
        last_t_s = -1.0
        try:
            while True:
                ok, image = capture.read()
                if not ok or image is None:
                    break
                t_s = capture.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
                if t_s <= last_t_s and self.fps > 0:
                    # Some containers report no time for a frame: count on from the rate.
                    t_s = last_t_s + 1.0 / self.fps
                last_t_s = t_s
                yield Frame(index, t_s, image)
                index += 1
        finally:
            capture.release()
        expected = self.report.expected_frames
        if index == 0:
            self.report.ended_early = f"{self.path}: no frame could be decoded"
        elif expected is not None and index < expected - 1:
            self.report.ended_early = (
                f"{self.path}: stopped after frame {index} of {expected} (truncated or corrupt)"
            )


def _put(decoded: queue.Queue, item: object, stop: threading.Event) -> bool:
    """Queue `item` unless the reader has stopped; whether it was queued."""
    while not stop.is_set():
        try:
            decoded.put(item, timeout=0.1)
            return True
        except queue.Full:
            continue
    return False


class ImageFolderSource:
    """The images of a folder in name order, `fps` apart; unreadable files are skipped and listed."""

    def __init__(self, folder: str | Path, *, fps: float = 1.0):
        self.folder = Path(folder)
        if fps <= 0:
            raise SourceError(f"fps must be positive, got {fps}")
        self.fps = fps
        self.paths = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise SourceError(f"no images ({', '.join(IMAGE_SUFFIXES)}) in {self.folder}")
        self.report = SourceReport(expected_frames=len(self.paths))

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        for position, path in enumerate(self.paths):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                self.report.skipped.append(path.name)
                continue
            self.report.frames += 1
            yield Frame(index, position / self.fps, image)
            index += 1


class LiveSource:
    """A camera index or stream URL that reconnects when it drops out.

    Parameters
    ----------
    spec : int or str
        Camera index (0, 1, ...) or an RTSP/HTTP URL.
    reconnect_timeout_s : float
        How long to keep trying after a drop-out before giving up.
    clock : callable
        Seconds, monotonic; frame times are measured from the first frame.
    """

    def __init__(self, spec: int | str, *, reconnect_timeout_s: float = 30.0,
                 retry_interval_s: float = 0.5, clock: Callable[[], float] = time.monotonic):
        self.spec = spec
        self.reconnect_timeout_s = reconnect_timeout_s
        self.retry_interval_s = retry_interval_s
        self.clock = clock
        self.report = SourceReport()
        self.fps = 0.0

    def _open(self) -> cv2.VideoCapture | None:
        capture = cv2.VideoCapture(self.spec)
        if capture.isOpened():
            self.fps = capture.get(cv2.CAP_PROP_FPS) or self.fps
            return capture
        capture.release()
        return None

    def _reconnect(self, since_s: float) -> cv2.VideoCapture | None:
        while self.clock() - since_s < self.reconnect_timeout_s:
            capture = self._open()
            if capture is not None:
                return capture
            time.sleep(self.retry_interval_s)
        return None

    def __iter__(self) -> Iterator[Frame]:
        capture = self._open()
        if capture is None:
            raise SourceError(f"cannot open camera or stream {self.spec!r}")
        start_s = self.clock()
        index = 0
        try:
            while True:
                ok, image = capture.read()
                if ok and image is not None:
                    self.report.frames += 1
                    yield Frame(index, self.clock() - start_s, image)
                    index += 1
                    continue
                capture.release()
                lost_s = self.clock()
                capture = self._reconnect(lost_s)
                if capture is None:
                    self.report.ended_early = (
                        f"{self.spec!r}: no picture for {self.reconnect_timeout_s:.0f} s, giving up"
                    )
                    return
                self.report.gaps.append((lost_s - start_s, self.clock() - start_s))
        finally:
            if capture is not None:
                capture.release()


def open_source(spec: str, *, fps: float = 1.0) -> VideoFileSource | ImageFolderSource | LiveSource:
    """The source named by `spec`: a digit is a camera, a URL a stream, a folder images, else a file."""
    if spec.isdigit():
        return LiveSource(int(spec))
    if "://" in spec:
        return LiveSource(spec)
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path, fps=fps)
    return VideoFileSource(path)
