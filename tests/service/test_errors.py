"""Failures inside the app reach clients as clear, generic answers: no internal text leaks.

In process, with a part swapped through `dependency_overrides` (the one thing a
running server cannot be made to do on demand: fail inside).
"""

from __future__ import annotations

import asyncio
import sqlite3

import httpx
import pytest
from sqlalchemy.exc import OperationalError

from service.config import Settings
from service.deps import get_db
from service.main import create_app

SECRET = "stack detail that must not leak"


def failing_db(error: Exception):
    def get_failing_db():
        raise error
        yield  # a generator dependency, like the real one

    return get_failing_db


async def get(app, path: str) -> httpx.Response:
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://service") as client:
            return await client.get(path)


@pytest.fixture
def app(tmp_path):
    return create_app(Settings(db_url=f"sqlite:///{tmp_path / 'errors.db'}", token="t"))


@pytest.mark.parametrize("error, status, words", [
    (RuntimeError(SECRET), 500, "internal error"),
    (OperationalError("SELECT", {}, sqlite3.OperationalError(f"database is locked {SECRET}")), 503, "locked"),
    (OperationalError("INSERT", {}, sqlite3.OperationalError(f"database or disk is full {SECRET}")), 503, "full"),
    (OSError(28, f"No space left on device {SECRET}"), 503, "full"),
])
def test_errors_are_answered_without_internal_text(app, error, status, words):
    app.dependency_overrides[get_db] = failing_db(error)
    response = asyncio.run(get(app, "/api/matches/1"))
    assert response.status_code == status
    assert words in response.json()["detail"]
    assert SECRET not in response.text
