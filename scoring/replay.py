"""Replay an event log (design.md, "Event log") through the rules engine of its game.

Corrections: a `correct` event replaces an earlier event by id and a `void` event
removes one; the log is then replayed from the start, so the result is the same as
if the log had been right from the beginning.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Sequence

from scoring.carrom import CarromEngine
from scoring.couronne import CouronneEngine
from scoring.crokinole import CrokinoleEngine
from scoring.engine import Engine
from scoring.errors import EventLogError, IllegalStrokeError, InvalidEventError
from scoring.fields import field

ENGINES: dict[str, Engine] = {
    engine.game: engine for engine in (CarromEngine(), CrokinoleEngine(), CouronneEngine())
}
CORRECTION_TYPES = ("correct", "void")


def parse_jsonl(lines: Iterable[str]) -> list[tuple[int, dict[str, Any]]]:
    """Parse an event log, one JSON object per line, into (line number, event) pairs.

    Line numbers start at 1; blank lines are skipped. Raises InvalidEventError
    whose `index` is the 0-based line.
    """
    numbered = []
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as error:
            raise InvalidEventError(f"bad JSON: {error.msg} (column {error.colno})", index) from None
        if not isinstance(event, dict):
            raise InvalidEventError("each line must be a JSON object", index)
        numbered.append((index + 1, event))
    return numbered


def engine_for(match: dict[str, Any]) -> Engine:
    if field(match, "type", str) != "match":
        raise InvalidEventError("the first event must be the match line ({\"type\": \"match\", ...})")
    game = field(match, "game", str)
    if game not in ENGINES:
        raise InvalidEventError(f"unknown game {game!r}; expected one of {', '.join(ENGINES)}")
    return ENGINES[game]


def effective_events(events: Sequence[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """Resolve `correct` and `void` events into the log as it should have been.

    Returns (position in `events`, event) pairs; a replacement keeps the position
    of the correction, so an error in it names the line that introduced it.
    """
    resolved: list[tuple[int, dict[str, Any]] | None] = []
    slot_of: dict[Any, int] = {}  # event id -> its slot in `resolved`
    for position, event in enumerate(events):
        kind = field(event, "type", str)
        if kind not in CORRECTION_TYPES:
            if "id" in event:
                if event["id"] in slot_of:
                    raise InvalidEventError(f"duplicate event id {event['id']!r}", position)
                slot_of[event["id"]] = len(resolved)
            resolved.append((position, event))
            continue
        target = event.get("target")
        if target is None:
            raise InvalidEventError(f"{kind!r} needs field 'target' (the id of an earlier event)", position)
        slot = slot_of.get(target)
        if slot is None:
            raise InvalidEventError(f"{kind!r} targets unknown event id {target!r}", position)
        if resolved[slot][1].get("type") == "match":
            raise InvalidEventError("the match line cannot be corrected or voided", position)
        if kind == "void":
            resolved[slot] = None
            del slot_of[target]
            continue
        replacement = field(event, "event", dict)
        if replacement.get("type") in CORRECTION_TYPES or replacement.get("type") == "match":
            raise InvalidEventError("a correction must replace an event with a game event", position)
        resolved[slot] = (position, {**replacement, "id": target})
    return [entry for entry in resolved if entry is not None]


def replay_state(events: Sequence[dict[str, Any]]) -> tuple[Engine, Any]:
    """The engine and final state after replaying `events` (match line first)."""
    if not events:
        raise InvalidEventError("empty event log: the first line must be the match line", 0)
    try:
        engine = engine_for(events[0])
        state = engine.start(events[0])
    except EventLogError as error:
        raise error.at(0)
    for position, event in effective_events(events)[1:]:
        try:
            kind = field(event, "type", str)
            if kind == "match":
                raise InvalidEventError("a second match line; start a new log for a new match")
            if kind not in engine.event_types:
                raise InvalidEventError(
                    f"unknown event type {kind!r} for {engine.game}; expected one of "
                    f"{', '.join(sorted(engine.event_types | set(CORRECTION_TYPES)))}"
                )
            if engine.is_over(state):
                raise IllegalStrokeError(f"{kind!r} event after the match ended")
            state = engine.apply(state, event)
        except EventLogError as error:
            raise error.at(position)
    return engine, state


def replay(events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The `score` result of an event log given as a list of event objects."""
    engine, state = replay_state(events)
    return engine.result(state)
