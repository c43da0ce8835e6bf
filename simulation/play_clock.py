"""The clock of a simulated match: frames at a fixed rate, shots with their hand times, truth events.

Match loops move pieces on a `Table` and tell the `Recorder` what happens; the
recorder samples every piece at each frame time k / fps and keeps the truth
events with the time they happen. Physics time does not depend on the frame
rate, so the events of a seed are the same at any fps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from simulation.physics import StrokeResult, Table
from simulation.scene import SceneFrame, Seat, Shot, Timeline

#: Hand timing of one shot: it enters, sets the piece down, aims, flicks and leaves.
HAND_PLACE_S = 0.6
HAND_AIM_S = 0.9
HAND_LEAVE_S = 0.45
#: Pause after everything stopped, before the next hand comes in.
SETTLE_S = 0.6

_CAPTURE_EVENT = {"pocket": "pocketed", "hole": "sunk_20", "ditch": "off_board", "off": "off_board"}
_CAPTURE_REASON = {"ditch": "left_surface", "off": "jumped"}


@dataclass(frozen=True)
class Flick:
    """Where a player sets the shooting piece down (board mm) and the velocity it is given."""

    x_mm: float
    y_mm: float
    vx_mm_s: float
    vy_mm_s: float


@contextmanager
def lifted_while_aiming(table: Table, piece_ids: tuple[int, ...]) -> Iterator[None]:
    """The pieces off the board while a player plans a shot, then back where they lay.

    A striker (or shooter) the last stroke left on the board is no obstacle to the
    next shot, but it stays in view until the hand comes to take it (`Recorder.shoot`'s
    `lift`): a piece never leaves the board by itself.
    """
    lying = [(i, state.x_mm, state.y_mm) for i in piece_ids if (state := table.piece(i)).status == "board"]
    for i in piece_ids:
        table.set_aside(i, "off")
    yield
    for i, x_mm, y_mm in lying:
        table.place(i, x_mm, y_mm)


class Recorder:
    """Frames, shots and truth events of one simulated match, on a shared clock.

    Parameters
    ----------
    table : Table
        The table whose pieces are sampled.
    fps : float
        Frame rate of the timeline; 0 records no frames (events only).
    """

    def __init__(self, table: Table, *, fps: float):
        if fps < 0:
            raise ValueError(f"fps must be >= 0, got {fps}")
        self.table = table
        self.fps = fps
        self.t_s = 0.0
        self.frames: list[SceneFrame] = []
        self.shots: list[Shot] = []
        self.hands: list[Shot] = []
        self.events: list[dict[str, Any]] = []
        self.strokes = 0
        self._next_frame = 0

    def _frames_until(self, t_s: float) -> None:
        if self.fps <= 0:
            return
        while self._next_frame / self.fps <= t_s + 1e-9:
            frame_t = round(self._next_frame / self.fps, 6)
            self.frames.append(SceneFrame(frame_t, self.table.states()))
            self._next_frame += 1

    def wait(self, duration_s: float) -> None:
        """Let time pass with the board as it is."""
        self._frames_until(self.t_s + duration_s)
        self.t_s += duration_s

    def event(self, event_type: str, **fields: Any) -> None:
        """A truth event now."""
        self.events.append({"t": round(self.t_s, 4), "type": event_type, **fields})

    def by_hand(self, seat: Seat, x_mm: float, y_mm: float, act: Callable[[], None]) -> None:
        """A hand from `seat` reaches to (x_mm, y_mm), does `act` there and leaves.

        Pieces put back, taken off or set out between shots change only under a
        hand, as on a real table, never by themselves. `act` runs when the hand is
        there; its truth events take that time.
        """
        t_start = self.t_s
        self.wait(HAND_PLACE_S)
        act()
        t_act = self.t_s
        self.wait(HAND_LEAVE_S)
        self.hands.append(Shot(seat, round(t_start, 4), round(t_act, 4), round(self.t_s, 4),
                               round(x_mm, 2), round(y_mm, 2)))

    def place(self, piece_id: int, x_mm: float, y_mm: float, *, seat: Seat) -> None:
        """A hand from `seat` puts a piece back on the board: a `placed` event when it sets it down."""
        def put_down() -> None:
            self.table.place(piece_id, x_mm, y_mm)
            self.event("placed", piece=self.table.piece(piece_id).kind, x_mm=round(x_mm, 2), y_mm=round(y_mm, 2))

        self.by_hand(seat, x_mm, y_mm, put_down)

    def remove(self, piece_id: int, status: str, *, seat: Seat, reason: str, x_mm: float | None = None,
               y_mm: float | None = None) -> None:
        """A hand from `seat` takes a piece off the surface (a rule removal): an `off_board` event.

        (x_mm, y_mm) is where the piece is set aside; the hand takes it where it lies
        (the hole's centre for a piece in the hole).
        """
        state = self.table.piece(piece_id)
        at_mm = (state.x_mm, state.y_mm) if state.status == "board" else (0.0, 0.0)

        def take() -> None:
            self.table.set_aside(piece_id, status, x_mm=x_mm, y_mm=y_mm)
            self.event("off_board", piece=state.kind, reason=reason)

        self.by_hand(seat, *at_mm, take)

    def shoot(self, piece_id: int, flick: Flick, *, seat: Seat, side: str, lift: tuple[int, ...] = ()) -> StrokeResult:
        """One shot: the hand sets the piece at the flick's spot, flicks it, and play runs to rest.

        Captures become truth events at the moment they happen (`pocketed` with
        the pocket, `sunk_20`, `off_board`). The pieces in `lift` (a striker lying
        where the last stroke left it) leave the board only when the hand has come
        over it, as a player's hand takes them: never by themselves.
        """
        t_start = self.t_s
        self.wait(HAND_PLACE_S)
        for lifted in lift:
            if lifted != piece_id:
                self.table.set_aside(lifted, "off")
        self.table.place(piece_id, flick.x_mm, flick.y_mm)
        self.wait(HAND_AIM_S)
        t_strike = self.t_s
        kind = self.table.piece(piece_id).kind
        self.event("shot", piece=kind, side=side, seat=seat)
        result = self.table.strike(
            piece_id, flick.vx_mm_s, flick.vy_mm_s, on_step=lambda t: self._frames_until(t_strike + t)
        )
        self.t_s = t_strike + result.duration_s
        for capture in result.captures:
            event = {
                "t": round(t_strike + capture.t_s, 4),
                "type": _CAPTURE_EVENT[capture.status],
                "piece": self.table.piece(capture.piece_id).kind,
            }
            if capture.status == "pocket":
                event["pocket"] = capture.pocket
            elif capture.status in _CAPTURE_REASON:
                event["reason"] = _CAPTURE_REASON[capture.status]
            self.events.append(event)
        self.events.sort(key=lambda e: e["t"])
        self.shots.append(
            Shot(seat, round(t_start, 4), round(t_strike, 4), round(t_strike + HAND_LEAVE_S, 4),
                 round(flick.x_mm, 2), round(flick.y_mm, 2))
        )
        self.strokes += 1
        self.wait(SETTLE_S)
        return result

    def timeline(self, *, game: str, board_model: str, event_log: list[dict[str, Any]],
                 score: dict[str, Any]) -> Timeline:
        """Everything recorded so far as a `Timeline`; with fps 0, one frame of the board as it is now."""
        frames = tuple(self.frames) if self.fps > 0 else (SceneFrame(round(self.t_s, 6), self.table.states()),)
        return Timeline(
            game=game,
            board_model=board_model,
            fps=self.fps,
            frames=frames,
            shots=tuple(self.shots),
            hands=tuple(self.hands),
            events=tuple(self.events),
            event_log=tuple(event_log),
            score=score,
        )
