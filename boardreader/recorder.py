"""From vision observations to the event log of design.md, scored live by the rules engine.

Vision says what it saw (a shot, pieces pocketed, a 20 in the hole); the rules
engine knows whose turn it is, which colour each side plays and how many discs a
round has. The recorder joins the two: each settled transition with a shot
becomes a carrom or couronne stroke, and the last shot of a crokinole round
ends the round. Its entry waits for the board to be cleared: the discs that the
rules remove after that shot (and 20s taken out of the hole again) are gone from
the board the round is scored from. An entry the rules cannot allow is not forced into
the log: it is kept aside for the referee with the reason.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from scoring import EventLogError, replay
from vision.events import Observation
from vision.pieces import BoardReading


@dataclass
class MatchRecorder:
    """The event log of one match as vision builds it.

    Parameters
    ----------
    match : dict
        The match line (design.md, "Event log"). Crokinole may add
        ``"colours": {"A": "light", "B": "dark"}`` (default: the first side plays light).
    """

    match: dict[str, Any]
    log: list[dict[str, Any]] = field(default_factory=list)
    held: list[dict[str, Any]] = field(default_factory=list)  # entries the rules refused, for the referee
    _shots_in_round: int = 0
    _twenties: dict[str, int] = field(default_factory=dict)
    _round_review: bool = False
    _ended_round: dict[str, Any] | None = None  # crokinole: the round whose last shot was played, not yet logged
    _ended_reading: BoardReading | None = None  # ... and the last reading of its discs

    def __post_init__(self) -> None:
        self.log = [dict(self.match)]
        self.result = replay(self.log)
        self.game = self.match["game"]
        sides = self.result.get("sides") or self.match.get("sides")
        self.colour_side = {colour: side for side, colour in self.match.get("colours", {}).items()} or {
            "light": sides[0], "dark": sides[1]
        }

    @property
    def is_over(self) -> bool:
        return self.result.get("winner") is not None

    @property
    def round_ended(self) -> bool:
        """Crokinole: every disc of the round is shot; its entry waits for the board to be cleared."""
        return self._ended_round is not None

    def add(self, observations: list[Observation], reading: BoardReading | None) -> list[dict[str, Any]]:
        """Log entries made from one settled transition (with or without observations); [] when nothing scores."""
        if self.is_over:
            return []
        shots = [o for o in observations if o.type == "shot"]
        logged: list[dict[str, Any]] = []
        if self._ended_round is not None:
            if not shots:
                return self._after_round(observations, reading)
            logged = self._log_ended_round()  # the clearing was not seen: the next round has begun
            if self.is_over:
                return logged
        for o in observations:
            if self.game != "crokinole":
                continue
            if o.type == "sunk_20":
                # A shot disc seen only in the hole is the shooter's: shots alternate from the starter.
                side = self.colour_side.get(o.piece) or self._shooter()
                self._twenties[side] = self._twenties.get(side, 0) + 1
            elif o.type == "off_board" and o.reason == "twenty_removed":
                side = self.colour_side.get(o.piece) or self._shooter()
                self._twenties[side] = max(0, self._twenties.get(side, 0) - 1)
        review = any(o.needs_review for o in observations)
        # A crokinole round is logged once, at its end: a doubt in any of its shots stays with it.
        self._round_review |= review and self.game == "crokinole"
        if not shots:
            return logged
        if self.game == "crokinole":
            self._crokinole(shots, reading)
            return logged
        # Strokes struck before the board settled between them: each takes what happened from its strike on.
        shots.sort(key=lambda o: o.t_s)
        for i, shot in enumerate(shots):
            until_s = shots[i + 1].t_s if i + 1 < len(shots) else math.inf
            own = [o for o in observations if o.type != "shot" and (i == 0 or o.t_s >= shot.t_s) and o.t_s < until_s]
            entry = self._stroke(own, shot)
            if review:
                entry["needs_review"] = True
            logged += self._append(entry)
        return logged

    def finish(self) -> list[dict[str, Any]]:
        """Entries still waiting when the video ends (a crokinole round whose board was not cleared in view)."""
        return self._log_ended_round() if self._ended_round is not None and not self.is_over else []

    def _after_round(self, observations: list[Observation], reading: BoardReading | None) -> list[dict[str, Any]]:
        """A transition without a shot after a round's last shot: removals by the rules, or the board cleared."""
        entry = self._ended_round
        for o in observations:
            if o.type == "off_board" and o.reason == "twenty_removed":
                side = self.colour_side.get(o.piece) or self._shooter()
                entry["twenties"][side] = max(0, entry["twenties"].get(side, 0) - 1)
            if o.needs_review:
                entry["needs_review"] = True
        if reading is not None and reading.pieces:
            self._ended_reading = reading
            return []
        return self._log_ended_round()

    def _log_ended_round(self) -> list[dict[str, Any]]:
        entry, reading = self._ended_round, self._ended_reading
        self._ended_round = self._ended_reading = None
        discs = {side: [] for side in self.colour_side.values()}
        for piece in reading.pieces:
            if piece.kind in self.colour_side and piece.zone:
                discs[self.colour_side[piece.kind]].append(piece.zone)
        # Discs highest first, as score sheets list them.
        entry = {"type": "round", "t": entry["t"],
                 "discs": {side: sorted(values, reverse=True) for side, values in discs.items()}} | entry
        if any(p.needs_review for p in reading.pieces):
            entry["needs_review"] = True
        return self._append(entry)

    def _append(self, entry: dict[str, Any]) -> list[dict[str, Any]]:
        entry["id"] = f"v{len(self.log)}"
        try:
            self.result = replay(self.log + [entry])
        except EventLogError as error:
            self.held.append({**entry, "reason": str(error)})
            return []
        self.log.append(entry)
        return [entry]

    def _stroke(self, observations: list[Observation], shot: Observation) -> dict[str, Any]:
        stroke_piece = "striker" if self.game == "carrom" else "shooter"
        pocketed = [o.piece for o in observations if o.type == "pocketed" and o.piece != stroke_piece]
        striker_in = any(o.type == "pocketed" and o.piece == stroke_piece for o in observations)
        if self.game == "carrom":
            return {"type": "stroke", "t": round(shot.t_s, 3), "pocketed": pocketed, "striker": striker_in,
                    "foul": False}
        # Couronne: own and opponent rings follow from whose turn it is.
        turn = self.result["live"]["turn"]
        own = sum(piece == turn for piece in pocketed)
        off = [o.piece for o in observations if o.type == "off_board"]
        return {
            "type": "stroke",
            "t": round(shot.t_s, 3),
            "pocketed": {"own": own, "opponent": len(pocketed) - own},
            "shooter_pocketed": striker_in,
            "shooter_off_board": stroke_piece in off,
            "off_board": {"own": sum(p == turn for p in off), "opponent": sum(p not in (turn, stroke_piece) for p in off)},
        }

    def first_shooter_colour(self) -> str | None:
        """Crokinole: the colour that shoots first in the current round (None for other games)."""
        if self.game != "crokinole":
            return None
        sides = list(self.colour_side.values())
        starter = self.result["live"].get("starter") or sides[0]
        return next((colour for colour, side in self.colour_side.items() if side == starter), None)

    def _shooter(self) -> str:
        sides = list(self.colour_side.values())
        starter = self.result["live"].get("starter") or sides[0]
        other = sides[1] if starter == sides[0] else sides[0]
        return starter if self._shots_in_round % 2 == 0 else other

    def _crokinole(self, shots: list[Observation], reading: BoardReading | None) -> None:
        """Count the round's shots; after its last one the round waits for the board to be cleared."""
        self._shots_in_round += len(shots)
        discs_per_side = self.result["live"].get("discs_per_side") or 0
        if reading is None or self._shots_in_round < 2 * discs_per_side:
            return
        # NCA 6: the round is scored from where the discs lie once every disc is shot (and removals made).
        self._ended_round = {
            "type": "round",
            "t": round(shots[-1].t_s, 3),
            "twenties": {side: self._twenties.get(side, 0) for side in self.colour_side.values()},
        }
        if self._round_review:
            self._ended_round["needs_review"] = True
        self._ended_reading = reading
        self._shots_in_round = 0
        self._twenties = {}
        self._round_review = False

    def round_changed(self, before: dict[str, Any]) -> bool:
        """Crokinole: whether the last entry ended a round or game, whose board was cleared: the next round starts
        from it. Carrom and couronne boards start afresh where vision sees the pieces set out again, whatever the
        count says (`vision.analysis.is_set_out`): a false event or a missed foul may end one early."""
        live = self.result.get("live", {})
        return self.game == "crokinole" and any(live.get(k) != before.get(k) for k in ("game", "round")
                                                if k in live or k in before)
