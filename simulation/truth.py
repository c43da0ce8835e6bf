"""Ground truth of a simulated match or still, in the shapes of design.md ("Ground truth and observations").

`truth.json` holds what is small (events, event log, score, homography, and for
a still the pieces in the `read` shape); the per-frame positions of a video go
to `frames.jsonl`, one line per frame. Output is canonical JSON (sorted keys,
rounded numbers), so the same seed gives byte-identical files.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from calibration.geometry import BoardModel, CrokinoleBoard
from simulation.scene import PieceState, SceneFrame, Shot, Timeline

#: The event types vision observes (design.md); other timeline events (board and round ends) are markers.
OBSERVED_EVENT_TYPES = ("pocketed", "sunk_20", "off_board", "placed", "shot")
#: Where a piece can be; every piece of a timeline is in exactly one of these at every frame
#: ("flying": jumped off a cushion, over the frame on its way off the table).
STATUSES = ("board", "moving", "pocket", "hole", "ditch", "off", "flying")
KINDS = {
    "carrom": ("white", "black", "queen", "striker"),
    "crokinole": ("light", "dark"),
    "couronne": ("pink", "blue", "shooter"),
}


def piece_record(state: PieceState) -> dict[str, Any]:
    """One piece of one frame: kind, position in board mm, radius and status."""
    record: dict[str, Any] = {
        "id": state.piece_id,
        "kind": state.kind,
        "x_mm": round(state.x_mm, 2),
        "y_mm": round(state.y_mm, 2),
        "r_mm": state.radius_mm,
        "status": state.status,
    }
    if state.pocket is not None:
        record["pocket"] = state.pocket
    if state.lean_mm > 0:
        record["lean_mm"] = round(state.lean_mm, 2)
    return record


def frame_record(frame: SceneFrame) -> dict[str, Any]:
    return {"t": frame.t_s, "pieces": [piece_record(p) for p in frame.pieces]}


def read_pieces(states: Iterable[PieceState], board: BoardModel) -> list[dict[str, Any]]:
    """The pieces on the playing surface in the `read` shape (crokinole adds `zone`).

    A disc flat in the 20-hole, a piece in a pocket, the ditch or off the board is not listed.
    """
    pieces = []
    for state in states:
        if state.status not in ("board", "moving"):
            continue
        piece: dict[str, Any] = {
            "kind": state.kind,
            "x_mm": round(state.x_mm, 2),
            "y_mm": round(state.y_mm, 2),
            "r_mm": state.radius_mm,
        }
        if isinstance(board, CrokinoleBoard):
            piece["zone"] = board.zone_value(state.x_mm, state.y_mm, state.radius_mm)
            piece["line_clearance_mm"] = round(board.line_clearance_mm(state.x_mm, state.y_mm, state.radius_mm), 3)
            if state.lean_mm > 0:
                piece["lean_mm"] = round(state.lean_mm, 2)
        pieces.append(piece)
    return pieces


def counts(pieces: list[dict[str, Any]], game: str) -> dict[str, int]:
    """Pieces on the surface by kind (every kind of the game, zero included)."""
    return {kind: sum(p["kind"] == kind for p in pieces) for kind in KINDS[game]}


def round_score(pieces: list[dict[str, Any]]) -> dict[str, int]:
    """Crokinole: the sum of the zone values on the board per team (20s set aside not included)."""
    return {kind: sum(p["zone"] for p in pieces if p["kind"] == kind) for kind in KINDS["crokinole"]}


def observed_events(timeline: Timeline) -> list[dict[str, Any]]:
    """The events an observer could see, of the types `analyze` reports."""
    return [e for e in timeline.events if e["type"] in OBSERVED_EVENT_TYPES]


def markers(timeline: Timeline) -> list[dict[str, Any]]:
    """Board and round boundaries: the rest of the timeline's events."""
    return [e for e in timeline.events if e["type"] not in OBSERVED_EVENT_TYPES]


def round_twenties(timeline: Timeline) -> dict[str, int]:
    """Crokinole: the 20s set aside so far in the round in play, by kind."""
    twenties = {kind: 0 for kind in KINDS["crokinole"]}
    for event in timeline.events:
        if event["type"] == "round_end":
            twenties = {kind: 0 for kind in KINDS["crokinole"]}
        elif event["type"] == "twenty_set_aside":
            twenties[event["piece"]] += 1
    return twenties


def _hand(shot: Shot) -> dict[str, Any]:
    return {"seat": shot.seat, "t_start": shot.t_start_s, "t_strike": shot.t_strike_s, "t_end": shot.t_end_s,
            "x_mm": shot.x_mm, "y_mm": shot.y_mm}


def _matrix(homography) -> list[list[float]]:
    return [[float(f"{v:.9g}") for v in row] for row in homography]


def video_truth(timeline: Timeline, *, seed: int, film: dict[str, Any] | None) -> dict[str, Any]:
    """`truth.json` of a video: events, event log and score, with the film's homography."""
    document: dict[str, Any] = {
        "game": timeline.game,
        "board_model": timeline.board_model,
        "seed": seed,
        "fps": timeline.fps,
        "duration_s": timeline.frames[-1].t_s if timeline.frames else 0.0,
        "events": observed_events(timeline),
        "markers": markers(timeline),
        "event_log": list(timeline.event_log),
        "score": timeline.score,
        "shots": [_hand(s) for s in timeline.shots],
        "hands": [_hand(s) for s in timeline.hands],
        "frames_file": "frames.jsonl",
    }
    if film is not None:
        document["homography"] = _matrix(film["homography"])
        document["homography_changes"] = [
            {"t": change["t"], "homography": _matrix(change["homography"])}
            for change in film.get("homography_changes", [])
        ]
    return document


def still_truth(timeline: Timeline, board: BoardModel, *, seed: int, homography=None,
                extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """`truth.json` of a still: the last frame's pieces in the `read` shape, counts, round score."""
    states = timeline.frames[-1].pieces
    pieces = read_pieces(states, board)
    document: dict[str, Any] = {
        "game": timeline.game,
        "board_model": timeline.board_model,
        "seed": seed,
        "events": observed_events(timeline),
        "markers": markers(timeline),
        "event_log": list(timeline.event_log),
        "score": timeline.score,
        "pieces": pieces,
        "counts": counts(pieces, timeline.game),
        "all_pieces": [piece_record(p) for p in states],
    }
    if timeline.game == "crokinole":
        document["round_score"] = round_score(pieces)
        document["twenties"] = round_twenties(timeline)
    if homography is not None:
        document["homography"] = _matrix(homography)
    if extra:
        document.update(extra)
    return document


def dumps(document: Any) -> str:
    """Canonical JSON text: sorted keys, no NaN, one trailing newline."""
    return json.dumps(document, sort_keys=True, indent=1, allow_nan=False) + "\n"


def write_truth(directory: Path, document: dict[str, Any]) -> Path:
    path = Path(directory) / "truth.json"
    path.write_text(dumps(document), encoding="utf-8")
    return path


def write_frames(directory: Path, timeline: Timeline) -> Path:
    """`frames.jsonl`: one compact line per frame with every piece's kind, position and status."""
    path = Path(directory) / "frames.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        for frame in timeline.frames:
            stream.write(json.dumps(frame_record(frame), sort_keys=True, separators=(",", ":")) + "\n")
    return path
