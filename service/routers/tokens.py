"""Referee tokens: a referee issues more (one per official, camera or tournament desk)."""

from fastapi import APIRouter, status

from service.auth import issue_token
from service.deps import DbDep, RefereeDep
from service.schemas import TokenIssued, TokenRequest

router = APIRouter(prefix="/api", tags=["tokens"])


@router.post("/tokens", status_code=status.HTTP_201_CREATED)
def create_token(request: TokenRequest, db: DbDep, referee: RefereeDep) -> TokenIssued:
    row, secret = issue_token(db, request.name, issued_by=referee)
    return TokenIssued(id=row.id, name=row.name, token=secret)
