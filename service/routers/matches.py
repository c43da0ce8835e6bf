"""Matches: create one from its match line, list them, read the state and the audit trail."""

from typing import Any

from fastapi import APIRouter, Response, status
from sqlalchemy import select

import scoring
from service import states, store
from service.deps import DbDep, MatchId, RefereeDep, StatesDep
from service.models import AuditEntry, Match, Token
from service.schemas import AuditRecord, MatchCreated, MatchLine

router = APIRouter(prefix="/api", tags=["matches"])


@router.post("/matches", status_code=status.HTTP_201_CREATED)
def create_match(line: MatchLine, db: DbDep, referee: RefereeDep) -> MatchCreated:
    match = store.create_match(db, line.model_dump(mode="json"), token=referee)
    return MatchCreated(id=match.id)


@router.get("/matches")
def list_matches(db: DbDep) -> list[dict[str, Any]]:
    matches = db.scalars(select(Match).order_by(Match.id)).all()
    return [{"id": m.id, "game": m.game, "match": m.line, "created_at": store.iso(m.created_at)} for m in matches]


@router.get("/matches/{match_id}", response_class=Response,
            responses={200: {"content": {"application/json": {"schema": {"type": "object"}}}}})
def read_match(match_id: MatchId, db: DbDep, cache: StatesDep) -> Response:
    """The `score` result of the stored log plus `live` (board/round state), `seq`, `last_event`, `needs_review`."""
    return Response(states.current(db, cache, match_id).message, media_type="application/json")


@router.get("/matches/{match_id}/audit")
def read_audit(match_id: MatchId, db: DbDep) -> list[AuditRecord]:
    store.load_log(db, match_id)
    rows = db.execute(
        select(AuditEntry, Token.name).join(Token, AuditEntry.token_id == Token.id)
        .where(AuditEntry.match_id == match_id).order_by(AuditEntry.id)
    ).all()
    return [
        AuditRecord(at=store.iso(entry.at), by=name, action=entry.action, match_id=entry.match_id, detail=entry.detail)
        for entry, name in rows
    ]


@router.get("/games")
def list_games() -> dict[str, list[str]]:
    """The event types each game's rules engine accepts after the match line."""
    return {game: sorted(engine.event_types) for game, engine in scoring.ENGINES.items()}
