"""The stored event logs: create a match, append validated events, read a match's state.

An event is appended only if the stored log plus it replays; the rows and their
audit entries are committed in one transaction before anyone is told. The state
of a match is always the replay of its stored log.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import scoring
from scoring.replay import effective_events
from service.errors import Conflict, EngineUnavailable, NotFound, Rejected
from service.models import AuditEntry, Event, Match, Token

# One writer at a time in this process: validating against the log and appending
# to it must see the same log. Other processes are caught by the unique (match, seq).
_append_lock = threading.Lock()


@dataclass(frozen=True)
class MatchLog:
    """A match and its stored events, in sequence order."""

    match: Match
    events: tuple[Event, ...]

    @property
    def lines(self) -> list[dict[str, Any]]:
        """The event log as `scoring.replay` takes it: the match line first."""
        return [self.match.line, *(event.body for event in self.events)]


def iso(moment: datetime) -> str:
    """ISO 8601 in UTC (SQLite hands datetimes back without their zone)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).isoformat()


def replay_checked(lines: list[dict[str, Any]], *, first_new: int) -> dict[str, Any]:
    """`scoring.replay(lines)`, with a rejection that names the offending input."""
    try:
        return scoring.replay(lines)
    except scoring.EventLogError as error:
        raise Rejected(_locate(error, first_new=first_new)) from None
    except NotImplementedError:
        game = lines[0].get("game")
        raise EngineUnavailable(f"the {game} rules engine is not available in this build") from None


def _locate(error: scoring.EventLogError, *, first_new: int) -> str:
    if error.index is None or error.index == 0:
        return f"match line: {error}"
    if error.index < first_new:
        return f"stored event seq {error.index}: {error}"
    return f"event {error.index - first_new + 1} of this request: {error}"


def create_match(db: Session, line: dict[str, Any], *, token: Token) -> Match:
    """Store a new match after checking its match line with the rules engine."""
    replay_checked([line], first_new=0)
    match = Match(game=line["game"], line=line, created_by=token.id)
    db.add(match)
    db.flush()
    db.add(AuditEntry(token_id=token.id, action="match.create", match_id=match.id, detail={"line": line}))
    db.commit()
    return match


def load_log(db: Session, match_id: int) -> MatchLog:
    """The match and its events; NotFound when there is no such match."""
    match = db.get(Match, match_id)
    if match is None:
        raise NotFound(f"no match {match_id}")
    events = db.scalars(select(Event).where(Event.match_id == match_id).order_by(Event.seq)).all()
    return MatchLog(match=match, events=tuple(events))


def last_seq(db: Session, match_id: int) -> int:
    """The seq of the match's last stored event (0 before any); NotFound when there is no such match."""
    if db.get(Match, match_id) is None:
        raise NotFound(f"no match {match_id}")
    return db.scalar(select(func.max(Event.seq)).where(Event.match_id == match_id)) or 0


def append_events(db: Session, match_id: int, new: list[dict[str, Any]], *, token: Token) -> tuple[MatchLog, dict[str, Any]]:
    """Validate `new` against the stored log, then store it with its audit entries in one commit.

    Parameters
    ----------
    db : Session
    match_id : int
    new : list of dict
        Events in log order; one without an `id` gets `e<seq>` (or `e<seq>.<n>` if taken),
        so that a later `correct` or `void` can name it.
    token : Token
        Who writes; recorded on the events and in the audit trail.

    Returns
    -------
    (MatchLog, dict)
        The stored log after the write, and its replay (the `score` result).

    Raises
    ------
    NotFound, Rejected (the log would not replay; nothing stored), EngineUnavailable,
    Conflict (another process appended the same seq; nothing stored).
    """
    with _append_lock:
        log = load_log(db, match_id)
        next_seq = len(log.events) + 1
        taken = {event.body.get("id") for event in log.events} | {body.get("id") for body in new}
        bodies = [body if "id" in body else {**body, "id": _free_id(f"e{next_seq + k}", taken)}
                  for k, body in enumerate(new)]
        result = replay_checked(log.lines + bodies, first_new=len(log.lines))
        rows = [
            Event(match_id=match_id, seq=next_seq + k, body=body, created_by=token.id)
            for k, body in enumerate(bodies)
        ]
        db.add_all(rows)
        db.add_all(
            AuditEntry(token_id=token.id, action=f"event.{_action(row.body)}", match_id=match_id,
                       detail={"seq": row.seq, "event": row.body})
            for row in rows
        )
        try:
            db.commit()
        except IntegrityError:
            db.rollback()
            raise Conflict("another write to this match landed at the same moment; nothing was stored, retry") from None
        return MatchLog(match=log.match, events=log.events + tuple(rows)), result


def _free_id(wanted: str, taken: set) -> str:
    candidate, n = wanted, 1
    while candidate in taken:
        candidate, n = f"{wanted}.{n}", n + 1
    taken.add(candidate)
    return candidate


def _action(body: dict[str, Any]) -> str:
    kind = body.get("type")
    return kind if kind in ("correct", "void") else "append"


def state_of(log: MatchLog, result: dict[str, Any] | None = None) -> dict[str, Any]:
    """What GET /api/matches/{id} answers: the `score` result plus live state and log facts.

    `result` is the replay of exactly `log` when the caller already has it.
    """
    lines = log.lines
    if result is None:
        result = replay_checked(lines, first_new=len(lines))
    last = log.events[-1] if log.events else None
    return {
        **result,
        "id": log.match.id,
        "match": log.match.line,
        "live": result.get("live"),
        "seq": last.seq if last else 0,
        "last_event": {"seq": last.seq, "event": last.body, "at": iso(last.created_at)} if last else None,
        "needs_review": _needs_review(lines),
        "updated_at": iso(last.created_at if last else log.match.created_at),
    }


def _needs_review(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events still flagged for review after corrections (a confirmed event is a correction without the flag)."""
    return [event for _, event in effective_events(lines)[1:] if event.get("needs_review")]
