"""Errors the service answers with, and the handlers that turn every failure into a clear,
safe response: no internal error text ever reaches a client."""

from __future__ import annotations

import errno
import logging

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError

log = logging.getLogger("boardreader.service")


class ServiceError(Exception):
    """An answer other than success, with a message meant for the client."""

    status_code = 400

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


class NotFound(ServiceError):
    status_code = 404


class Conflict(ServiceError):
    status_code = 409


class Rejected(ServiceError):
    """The event log would not replay with this input; nothing was stored."""

    status_code = 422


class TooMany(ServiceError):
    status_code = 429


class EngineUnavailable(ServiceError):
    """The rules engine of this game is not part of this build yet."""

    status_code = 501


class StorageUnavailable(ServiceError):
    status_code = 503


def storage_error(error: BaseException) -> StorageUnavailable:
    """A client-safe 503 for a database that refused a read or write."""
    text = str(getattr(error, "orig", error)).lower()
    if "locked" in text or "busy" in text:
        reason = "the database is locked by another process"
    elif "full" in text or "disk i/o" in text or getattr(error, "errno", None) == errno.ENOSPC:
        reason = "the database disk is full or refuses writes"
    else:
        reason = "the database is unavailable"
    return StorageUnavailable(f"{reason}; nothing was stored, retry shortly")


def install_handlers(app: FastAPI) -> None:
    """Register the handlers: typed errors, storage failures (503) and everything else (500)."""

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, error: ServiceError) -> JSONResponse:
        headers = {"Retry-After": "1"} if error.status_code in (429, 503) else None
        return JSONResponse({"detail": error.detail}, status_code=error.status_code, headers=headers)

    @app.exception_handler(DBAPIError)
    async def _database_error(request: Request, error: DBAPIError) -> JSONResponse:
        log.warning("database error on %s %s: %s", request.method, request.url.path, error.orig)
        return await _service_error(request, storage_error(error))

    @app.exception_handler(OSError)
    async def _os_error(request: Request, error: OSError) -> JSONResponse:
        log.warning("OS error on %s %s: %s", request.method, request.url.path, error)
        return await _service_error(request, storage_error(error))

    @app.exception_handler(Exception)
    async def _internal_error(request: Request, error: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return JSONResponse({"detail": "internal error"}, status_code=500)
