"""What the physics hands to the renderer: where every piece is at each frame, and when shots happen.

All positions are board millimetres (origin at the centre, x right, y away from
the first player's seat "south").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

PieceStatus = Literal["board", "moving", "pocket", "hole", "ditch", "off", "flying"]
Seat = Literal["south", "east", "north", "west"]


@dataclass(frozen=True)
class PieceState:
    """One piece at one instant.

    `kind`: carrom white|black|queen|striker; crokinole light|dark;
    couronne pink|blue|shooter. `status` "pocket" carries the pocket number
    (0-3 counter-clockwise from the first player's left). `lean_mm` > 0 is a
    crokinole disc leaning into the 20-hole by that much (drawn tilted, scores 15).
    """

    piece_id: int
    kind: str
    x_mm: float
    y_mm: float
    radius_mm: float
    status: PieceStatus = "board"
    vx_mm_s: float = 0.0
    vy_mm_s: float = 0.0
    pocket: int | None = None
    lean_mm: float = 0.0


@dataclass(frozen=True)
class Shot:
    """A stroke or shot: the hand places the piece at (x_mm, y_mm) from `seat`,
    flicks it at `t_strike_s`, and is gone by `t_end_s`. A hand that only puts a
    piece back or takes one off (`Timeline.hands`) does so at `t_strike_s`."""

    seat: Seat
    t_start_s: float
    t_strike_s: float
    t_end_s: float
    x_mm: float
    y_mm: float


@dataclass(frozen=True)
class SceneFrame:
    t_s: float
    pieces: tuple[PieceState, ...]


@dataclass(frozen=True)
class Timeline:
    """A whole simulated match (or part), sampled at `fps`, with its ground truth.

    `events` are truth events in the design.md shape (`t`, `type`, `piece`, `pocket`);
    `event_log` is the log `boardreader score` replays to `score`. `hands` are
    the hands that put pieces back, take them off or set the board out between shots.
    """

    game: str
    board_model: str
    fps: float
    frames: tuple[SceneFrame, ...]
    shots: tuple[Shot, ...] = ()
    events: tuple[dict[str, Any], ...] = ()
    event_log: tuple[dict[str, Any], ...] = ()
    score: dict[str, Any] = field(default_factory=dict)
    hands: tuple[Shot, ...] = ()
