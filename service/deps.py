"""Typed dependencies of the routers: the database session, the referee behind a write, the hub."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, HTTPException, Path, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection

from service.auth import find_token
from service.config import Settings
from service.live import LiveHub
from service.models import Token
from service.states import StateCache
from service.workers import WorkerPool

_bearer = HTTPBearer(auto_error=False, description="a referee token")


def get_db(connection: HTTPConnection) -> Iterator[Session]:
    with connection.app.state.sessions() as session:
        yield session


def get_settings(connection: HTTPConnection) -> Settings:
    return connection.app.state.settings


def get_hub(connection: HTTPConnection) -> LiveHub:
    return connection.app.state.hub


def get_states(connection: HTTPConnection) -> StateCache:
    return connection.app.state.states


def get_workers(connection: HTTPConnection) -> WorkerPool:
    return connection.app.state.workers


DbDep = Annotated[Session, Depends(get_db)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
HubDep = Annotated[LiveHub, Depends(get_hub)]
StatesDep = Annotated[StateCache, Depends(get_states)]
WorkersDep = Annotated[WorkerPool, Depends(get_workers)]


def require_referee(
    db: DbDep, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> Token:
    """The token of a write request; 401 without a valid `Authorization: Bearer <token>`."""
    token = find_token(db, credentials.credentials) if credentials else None
    if token is None:
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            "a referee token is needed: Authorization: Bearer <token>",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return token


RefereeDep = Annotated[Token, Depends(require_referee)]

#: Ids are SQL integers: bounded so that no id can overflow a database column.
MatchId = Annotated[int, Path(ge=1, le=2**31 - 1, description="match id")]
TableId = Annotated[int, Path(ge=1, le=2**31 - 1, description="table id")]
