"""Liveness: the process answers and its database can be read."""

from fastapi import APIRouter
from sqlalchemy import text

from service.deps import DbDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz(db: DbDep) -> dict[str, str]:
    db.execute(text("SELECT 1"))
    return {"status": "ok"}
