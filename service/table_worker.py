"""A table's vision worker: the child process that watches one table's camera and records its events.

It reads the table's source (a video file, played at its own pace or as fast as it
decodes; a camera index; an RTSP/HTTP URL; or the JPEGs a camera pushes to the
service), runs `BoardAnalyzer` and `MatchRecorder` on it, and sends every new log
entry to the service. It never touches the database: the service stores each
entry before anyone hears of it, so a worker that dies loses nothing stored.

Messages (plain tuples, pickled over pipes):

- in, on `inbox` (a queue): ("frame", jpeg_bytes, t_s or None, received_at_epoch_s),
  ("log", stored_lines) after a referee's write, ("stop",);
- out, on `outbox` (a connection): ("status", dict) about twice a second,
  ("event", dict) per new log entry, ("held", dict) per entry the rules refused,
  ("ended", reason) when a file source is done, ("error", message) before a failing exit.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections import deque
from dataclasses import dataclass
from functools import partial
from typing import Any, Iterator

import cv2
import numpy as np

from boardreader.recorder import MatchRecorder
from calibration.profile import TableProfile
from scoring import replay
from vision.analysis import AnalysisStep, BoardAnalyzer
from vision.localise import locate_board
from vision.pieces_read import read_pieces
from vision.sources import Frame, LiveSource, SourceError, VideoFileSource, open_source

STATUS_EVERY_S = 0.5
MAX_BEHIND_S = 1.0  # live analysis runs at most this far behind its camera; older frames are skipped
MIN_FRAME_STEP_S = 1e-3  # pushed frames' times strictly increase by at least this
FPS_WINDOW_S = 2.0
#: Exit codes the service tells apart: the source could not be opened; anything else failed.
EXIT_SOURCE = 3
EXIT_FAILED = 1


@dataclass(frozen=True)
class WorkerSpec:
    """What a worker needs to know about its table.

    Attributes
    ----------
    table_id : int
    game : str
    source : str or None
        Camera index, stream URL or video file; None for a camera that pushes JPEGs.
    log : list of dict
        The match's stored event log, match line first.
    realtime : bool
        A video file plays at its own pace (as a camera would show it), else as fast as it decodes.
    start_s : float
        A video file resumes here (frames before are skipped): events up to it are stored.
    profile_path : str or None
        A table profile: its board model spares the search over models, its colour samples help the reader.
    """

    table_id: int
    game: str
    source: str | None
    log: list[dict[str, Any]]
    realtime: bool = True
    start_s: float = 0.0
    profile_path: str | None = None


class Inbox:
    """The worker's end of the service's queue: pushed frames, and commands handled as they come."""

    def __init__(self, inbox, on_log):
        self._inbox = inbox
        self._on_log = on_log
        self.stopped = False
        self.dropped = 0

    def poll(self, *, wait_s: float = 0.0) -> tuple[bytes, float | None, float] | None:
        """The next pushed frame (jpeg, t_s, received_at), handling commands before it; None after `wait_s`."""
        deadline = time.monotonic() + wait_s
        while not self.stopped:
            try:
                message = self._inbox.get(timeout=max(deadline - time.monotonic(), 0.0)) if wait_s > 0 \
                    else self._inbox.get_nowait()
            except queue.Empty:
                return None
            if message[0] == "stop":
                self.stopped = True
            elif message[0] == "log":
                self._on_log(message[1])
            elif message[0] == "frame":
                return message[1], message[2], message[3]
        return None

    def drain(self) -> None:
        """Handle waiting commands; pushed frames waiting are not this source's and are dropped."""
        while self.poll() is not None:
            self.dropped += 1


class PushedFrames:
    """Frames a camera pushes through the service, decoded; timed by the camera or by their arrival."""

    def __init__(self, inbox: Inbox):
        self.inbox = inbox
        self.undecodable = 0
        self.t0_epoch_s: float | None = None
        self._offset_s = 0.0  # added to the camera's times, so that they keep increasing across its restarts
        self._last_t_s: float | None = None

    def frames(self, *, idle_s: float) -> Iterator[Frame | None]:
        """Frames as they come; None every `idle_s` without one (so the caller can report)."""
        index = 0
        while not self.inbox.stopped:
            pushed = self.inbox.poll(wait_s=idle_s)
            if pushed is None:
                yield None
                continue
            jpeg, camera_t_s, received_s = pushed
            image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
            if image is None:
                self.undecodable += 1
                continue
            yield Frame(index, self.frame_time_s(camera_t_s, received_s), image)
            index += 1

    def frame_time_s(self, camera_t_s: float | None, received_s: float) -> float:
        """The frame's time on one increasing timeline: the camera's, else its arrival's."""
        if self.t0_epoch_s is None:
            self.t0_epoch_s = received_s
        t_s = (received_s - self.t0_epoch_s if camera_t_s is None else camera_t_s) + self._offset_s
        if self._last_t_s is not None and t_s <= self._last_t_s:
            # The camera restarted its clock (or switched to none): carry on just after the last frame.
            self._offset_s += self._last_t_s - t_s + MIN_FRAME_STEP_S
            t_s = self._last_t_s + MIN_FRAME_STEP_S
        self._last_t_s = t_s
        return float(t_s)


class CameraBuffer:
    """A live source read on a thread of its own, its frames buffered for at most `MAX_BEHIND_S`.

    A camera does not wait for its reader. A short buffer absorbs the full read
    made when the board settles (the moving frames around it time the stroke);
    frames older than that are skipped (and counted), so a worker that cannot
    keep up stays live instead of falling ever further behind.
    """

    def __init__(self, source: LiveSource):
        self.source = source
        self.skipped = 0
        self._ready = threading.Condition()
        self._frames: deque[Frame] = deque()
        self._done = False
        self._error: BaseException | None = None
        threading.Thread(target=self._read, name="camera-reader", daemon=True).start()

    def _read(self) -> None:
        try:
            for frame in self.source:
                with self._ready:
                    self._frames.append(frame)
                    while frame.t_s - self._frames[0].t_s > MAX_BEHIND_S:
                        self._frames.popleft()
                        self.skipped += 1
                    self._ready.notify()
        except BaseException as error:  # handed to the analysis thread, which reports it
            self._error = error
        finally:
            with self._ready:
                self._done = True
                self._ready.notify()

    def frames(self, *, idle_s: float) -> Iterator[Frame | None]:
        """The frames in order; None every `idle_s` without one (a camera reconnecting)."""
        while True:
            with self._ready:
                self._ready.wait_for(lambda: self._frames or self._done, timeout=idle_s)
                frame = self._frames.popleft() if self._frames else None
                if frame is None and self._done:
                    if self._error is not None:
                        raise self._error
                    return
            yield frame


def _analyzer(spec: WorkerSpec) -> BoardAnalyzer:
    if not spec.profile_path:
        return BoardAnalyzer(spec.game, read_ahead=True)
    profile = TableProfile.load(spec.profile_path)
    if profile.game != spec.game:
        raise ValueError(f"table profile {spec.profile_path} is for {profile.game}, not {spec.game}")
    read = read_pieces
    if profile.pieces:
        samples = {kind: np.array(sample.lab, np.float64) for kind, sample in profile.pieces.items()}
        read = partial(read_pieces, samples_lab=samples)
    return BoardAnalyzer(spec.game, locate=partial(locate_board, game=spec.game, models=[profile.model]), read=read,
                         read_ahead=True)


class Watcher:
    """Analyser and recorder of one table, reporting through `send`."""

    def __init__(self, spec: WorkerSpec, send):
        self.spec = spec
        self.send = send
        self.analyzer = _analyzer(spec)
        self.recorder = MatchRecorder(spec.log[0])
        self.follow_log(spec.log)
        self.frames = 0
        self.board_found = False
        self.last_t_s: float | None = None
        self.t0_epoch_s: float | None = None  # wall clock of source time 0, where known
        self.lag_s = 0.0
        self._frame_times: list[float] = []
        self._last_status_s = 0.0

    def follow_log(self, lines: list[dict[str, Any]]) -> None:
        """Carry on from the stored log (a referee may have corrected, voided or added entries)."""
        self.recorder.log = [dict(line) for line in lines]
        self.recorder.result = replay(self.recorder.log)

    def analyse(self, frame: Frame) -> None:
        step = self.analyzer.update(frame)
        now_s = time.monotonic()
        self.frames += 1
        self.last_t_s = frame.t_s
        self.board_found = step.board_found
        self._frame_times.append(now_s)
        if step.observations:
            self._record(step)

    def _record(self, step: AnalysisStep) -> None:
        before = dict(self.recorder.result.get("live", {}))
        held = len(self.recorder.held)
        entries = self.recorder.add(list(step.observations), step.reading)
        for entry in entries:
            self.send(("event", {"entry": entry, "frame_t_s": step.t_s, "analysed_epoch_s": time.time()}))
        for entry in self.recorder.held[held:]:
            self.send(("held", {"entry": entry, "frame_t_s": step.t_s}))
        if entries and self.recorder.round_changed(before):
            self.analyzer.first_shooter = self.recorder.first_shooter_colour()
            self.analyzer.new_board()

    def report(self, source_report=None, *, force: bool = False, **extra) -> None:
        now_s = time.monotonic()
        if not force and now_s - self._last_status_s < STATUS_EVERY_S:
            return
        self._last_status_s = now_s
        self._frame_times = [t for t in self._frame_times if now_s - t <= FPS_WINDOW_S]
        span_s = self._frame_times[-1] - self._frame_times[0] if len(self._frame_times) > 1 else 0.0
        status = {
            "frames": self.frames,
            "fps": round((len(self._frame_times) - 1) / span_s, 2) if span_s > 0 else 0.0,
            "t_s": None if self.last_t_s is None else round(self.last_t_s, 3),
            "lag_s": round(self.lag_s, 3),
            "board_found": self.board_found,
            "t0_epoch_s": self.t0_epoch_s,
            "gaps": [list(gap) for gap in source_report.gaps] if source_report else [],
            **extra,
        }
        self.send(("status", status))


class Paced:
    """A file's frames from `start_s` on; with `realtime`, each at its own time, as a camera would show them.

    As with a camera (`CameraBuffer`), a frame more than `MAX_BEHIND_S` late is
    skipped (and counted): analysis that falls behind catches up instead of lagging.
    """

    def __init__(self, frames: Iterator[Frame], watcher: Watcher, *, start_s: float, realtime: bool):
        self._frames = frames
        self._watcher = watcher
        self._start_s = start_s
        self._realtime = realtime
        self.skipped = 0

    def __iter__(self) -> Iterator[Frame]:
        start_mono: float | None = None
        for frame in self._frames:
            if frame.t_s < self._start_s:
                continue
            if not self._realtime:
                yield frame
                continue
            if start_mono is None:
                start_mono = time.monotonic() - frame.t_s
                self._watcher.t0_epoch_s = time.time() - frame.t_s
            due_s = start_mono + frame.t_s
            late_s = time.monotonic() - due_s
            if late_s < 0:
                time.sleep(-late_s)
            elif late_s > MAX_BEHIND_S:
                self.skipped += 1
                continue
            self._watcher.lag_s = max(0.0, time.monotonic() - due_s)
            yield frame


def _watch_source(spec: WorkerSpec, watcher: Watcher, inbox: Inbox) -> str:
    """Analyse a pulled source until it ends or a stop comes; why it ended."""
    source = open_source(spec.source)
    if not isinstance(source, (VideoFileSource, LiveSource)):
        raise SourceError(f"{spec.source!r} is a folder of images, not a camera or video file")
    if isinstance(source, VideoFileSource):
        reader: Paced | CameraBuffer = Paced(iter(source), watcher, start_s=spec.start_s, realtime=spec.realtime)
        frames: Iterator[Frame | None] = iter(reader)
    else:
        reader = CameraBuffer(source)
        frames = reader.frames(idle_s=STATUS_EVERY_S)
        watcher.t0_epoch_s = time.time()
    for frame in frames:
        inbox.drain()
        if inbox.stopped:
            return "stopped"
        if frame is not None:
            watcher.analyse(frame)
        watcher.report(source.report, frames_skipped=reader.skipped)
    watcher.report(source.report, force=True)
    return source.report.ended_early or "end of the video"


def _watch_pushed(watcher: Watcher, inbox: Inbox) -> str:
    pushed = PushedFrames(inbox)
    for frame in pushed.frames(idle_s=STATUS_EVERY_S):
        if frame is not None:
            watcher.t0_epoch_s = pushed.t0_epoch_s
            watcher.analyse(frame)
        watcher.report(undecodable=pushed.undecodable)
    return "stopped"


def run_worker(spec: WorkerSpec, inbox, outbox) -> None:
    """The worker process's main: watch the table until its source ends or the service says stop."""
    code = 0
    try:
        watcher = Watcher(spec, outbox.send)
        commands = Inbox(inbox, watcher.follow_log)
        watcher.report(force=True)
        if spec.source is None:
            ended = _watch_pushed(watcher, commands)
        else:
            ended = _watch_source(spec, watcher, commands)
        if ended != "stopped":
            outbox.send(("ended", ended))
    except (SourceError, ValueError, OSError) as error:
        code = _last_word(outbox, str(error), EXIT_SOURCE)
    except KeyboardInterrupt:
        pass
    except Exception as error:  # the service restarts it; say what broke first
        code = _last_word(outbox, f"{type(error).__name__}: {error}", EXIT_FAILED)
    outbox.close()
    # Out at once: a camera thread blocked in a read must not hold up (or crash) the interpreter's shutdown.
    os._exit(code)


def _last_word(outbox, error: str, code: int) -> int:
    try:
        outbox.send(("error", error))
    except OSError:
        pass  # the service is gone: nobody to tell
    return code
