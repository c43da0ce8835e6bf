"""Liveness: the process answers and its database can be read; how many live clients are connected."""

from fastapi import APIRouter
from sqlalchemy import text

from service.deps import DbDep, HubDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz(db: DbDep, hub: HubDep) -> dict[str, str | int]:
    db.execute(text("SELECT 1"))
    return {"status": "ok", "live_clients": hub.subscriber_count()}
