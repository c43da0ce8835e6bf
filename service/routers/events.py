"""A match's event log: append (validated, stored, then broadcast) and read."""

from fastapi import APIRouter, status
from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from service import states, store
from service.deps import DbDep, HubDep, MatchId, RefereeDep, SettingsDep, StatesDep, WorkersDep
from service.errors import Rejected
from service.models import Event, Token
from service.schemas import EventsAccepted, GameEvent, StoredEvent

router = APIRouter(prefix="/api", tags=["events"])


@router.post("/matches/{match_id}/events", status_code=status.HTTP_201_CREATED)
async def append_events(
    match_id: MatchId, body: GameEvent | list[GameEvent], db: DbDep, referee: RefereeDep,
    hub: HubDep, cache: StatesDep, settings: SettingsDep, workers: WorkersDep,
) -> EventsAccepted:
    """Append one event or a list; all are stored or none (422 names the event that does not replay)."""
    events = body if isinstance(body, list) else [body]
    if not events:
        raise Rejected("no events given")
    if len(events) > settings.max_events_per_post:
        raise Rejected(f"at most {settings.max_events_per_post} events per request, got {len(events)}")
    bodies = [event.model_dump(mode="json", exclude_unset=True) for event in events]
    log, state, update = await run_in_threadpool(states.append, db, cache, match_id, bodies, token=referee)
    # Committed above: only now may anyone hear of it.
    hub.publish(match_id, update)
    workers.match_changed(match_id, log.lines)
    added = log.events[-len(bodies):]
    return EventsAccepted(
        events=[StoredEvent(seq=e.seq, event=e.body, at=store.iso(e.created_at), by=referee.name) for e in added],
        state=state,
    )


@router.get("/matches/{match_id}/events")
def read_events(match_id: MatchId, db: DbDep) -> list[StoredEvent]:
    store.load_log(db, match_id)
    rows = db.execute(
        select(Event, Token.name).join(Token, Event.created_by == Token.id)
        .where(Event.match_id == match_id).order_by(Event.seq)
    ).all()
    return [StoredEvent(seq=e.seq, event=e.body, at=store.iso(e.created_at), by=name) for e, name in rows]
