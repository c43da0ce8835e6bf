"""One analysis of a match video: vision observations, the event log they make, the files written.

`AnalysisRun.update(frame)` per frame; `finish()` writes the score and the
report. Observations and log entries are written (and flushed) as they happen,
so a video that breaks off keeps everything seen before the fault.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

from boardreader.recorder import MatchRecorder
from boardreader.report import write_report
from simulation.video import H264Writer
from vision.analysis import AnalysisStep, BoardAnalyzer
from vision.annotate_pieces import annotate_reading
from vision.board_location import BoardLocation
from vision.events import Observation
from vision.pieces import BoardReading
from vision.sources import Frame

DEFAULT_MATCHES: dict[str, dict[str, Any]] = {
    "carrom": {"type": "match", "game": "carrom", "preset": "icf", "sides": ["A", "B"]},
    "crokinole": {"type": "match", "game": "crokinole", "preset": "nca", "sides": ["A", "B"]},
    "couronne": {"type": "match", "game": "couronne", "sides": ["pink", "blue"], "rings": 12},
}


def match_line_for(game: str) -> dict[str, Any]:
    return dict(DEFAULT_MATCHES[game])


class AnalysisRun:
    """Frames in; events.jsonl, log.jsonl, score.json (and annotated.mp4, report.html) out."""

    def __init__(self, game: str, match: dict[str, Any], *, out: Path, annotate: bool = False,
                 locate: Callable[[np.ndarray], BoardLocation] | None = None,
                 read: Callable[..., BoardReading] | None = None, fps: float = 30.0,
                 read_in_background: bool = False):
        if match.get("game") != game:
            raise ValueError(f"the match line is for {match.get('game')!r}, not {game!r}")
        self.out = out
        self.analyzer = BoardAnalyzer(game, locate=locate, read_in_background=read_in_background,
                                      **({"read": read} if read else {}))
        self.recorder = MatchRecorder(match)
        self.analyzer.first_shooter = self.recorder.first_shooter_colour()
        self.observations: list[Observation] = []
        self.readings_t_s: list[float] = []  # when each settled view that was read was taken
        self.frames = 0
        self.board_found = False
        self.fault = ""
        self.duration_s = 0.0
        self._fps = fps
        self._annotate = annotate
        self._writer: H264Writer | None = None
        self._last_reading: dict | None = None
        self._events = open(out / "events.jsonl", "w", encoding="utf-8")
        self._log = open(out / "log.jsonl", "w", encoding="utf-8")
        self._write_log([self.recorder.log[0]])

    def update(self, frame: Frame) -> AnalysisStep:
        step = self.analyzer.update(frame)
        self.frames += 1
        self.duration_s = frame.t_s
        self.board_found |= step.board_found
        self._take(step)
        if self._annotate:
            self._draw(frame, step)
        return step

    def _take(self, step: AnalysisStep) -> None:
        if step.observations or step.reading is not None:
            self._record(step)  # a reading without observations may still end a crokinole round (the board cleared)
        if step.reading is not None:
            self._last_reading = step.reading.to_json()
            self.readings_t_s.append(step.reading_t_s if step.reading_t_s is not None else step.t_s)

    def _record(self, step: AnalysisStep) -> None:
        for observation in step.observations:
            self._events.write(json.dumps(observation.to_json()) + "\n")
        self._events.flush()
        self.observations += step.observations
        before = dict(self.recorder.result.get("live", {}))
        entries = self.recorder.add(list(step.observations), step.reading)
        self._write_log(entries)
        self.analyzer.round_ended = self.recorder.round_ended
        if entries and self.recorder.round_changed(before):
            self.analyzer.first_shooter = self.recorder.first_shooter_colour()
            self.analyzer.new_board()

    def _write_log(self, entries: list[dict[str, Any]]) -> None:
        for entry in entries:
            self._log.write(json.dumps(entry) + "\n")
        self._log.flush()

    def _draw(self, frame: Frame, step: AnalysisStep) -> None:
        image = frame.image
        if step.homography is not None and self._last_reading is not None:
            image = annotate_reading(image, self._last_reading, homography=step.homography)
        else:
            image = image.copy()
        recent = [o for o in self.observations if frame.t_s - 3.0 <= o.t_s <= frame.t_s and o.type != "shot"]
        lines = [_score_line(self.recorder.result)] + [f"{o.type} {o.piece or ''}" for o in recent[-4:]]
        for i, text in enumerate(lines):
            cv2.putText(image, text, (12, 28 + 26 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 4, cv2.LINE_AA)
            cv2.putText(image, text, (12, 28 + 26 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (255, 255, 255), 2, cv2.LINE_AA)
        if self._writer is None:
            h, w = image.shape[:2]
            self._writer = H264Writer(self.out / "annotated.mp4", resolution=(w - w % 2, h - h % 2), fps=self._fps)
        self._writer.write(np.ascontiguousarray(image[: image.shape[0] // 2 * 2, : image.shape[1] // 2 * 2]))

    def finish(self, *, report: bool = False) -> dict[str, Any]:
        """Close the files, write score.json (and the report); a summary of what was written."""
        last = self.analyzer.finish()
        if last is not None:
            self._take(last)
        self._write_log(self.recorder.finish())
        self._events.close()
        self._log.close()
        if self._writer is not None:
            self._writer.close()
        result = self.recorder.result
        (self.out / "score.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        (self.out / "held.jsonl").write_text("".join(json.dumps(h) + "\n" for h in self.recorder.held),
                                             encoding="utf-8")
        files = {name: str(self.out / name) for name in ("events.jsonl", "log.jsonl", "score.json", "held.jsonl")}
        if self._writer is not None:
            files["annotated"] = str(self.out / "annotated.mp4")
        if report:
            files["report"] = str(write_report(self.out, result=result, observations=self.observations,
                                               duration_s=self.duration_s))
        return {
            "game": result["game"],
            "board_found": self.board_found,
            "frames": self.frames,
            "duration_s": round(self.duration_s, 2),
            "observations": len(self.observations),
            "log_entries": len(self.recorder.log) - 1,
            "held_for_review": len(self.recorder.held),
            "winner": result.get("winner"),
            "files": files,
        }


def _score_line(result: dict[str, Any]) -> str:
    if "rings_left" in result:
        return "rings left  " + "  ".join(f"{side} {n}" for side, n in result["rings_left"].items())
    games = result.get("games") or []
    if not games:
        return result["game"]
    score = games[-1].get("points") or games[-1].get("score") or {}
    return f"game {len(games)}  " + "  ".join(f"{side} {value}" for side, value in score.items())
