"""The FastAPI application, wired: settings, database, migrations, routers, limits, error handlers,
and the tables' vision workers (started with the service, stopped with it)."""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from service.auth import ensure_bootstrap_token
from service.config import Settings, get_settings
from service.db import make_engine, make_sessionmaker, migrate
from service.errors import install_handlers
from service.limits import BodyLimit, RateLimiter
from service.live import LiveHub
from service.routers import events, health, live, matches, pages, table_workers, tables, tokens
from service.routers.pages import STATIC_DIR
from service.states import StateCache
from service.workers import WorkerPool

log = logging.getLogger("boardreader.service")


def create_app(settings: Settings | None = None) -> FastAPI:
    """The service for `settings` (from the environment when not given)."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        engine = make_engine(settings)
        migrate(engine)
        app.state.settings = settings
        app.state.sessions = make_sessionmaker(engine)
        app.state.hub = LiveHub()
        app.state.states = StateCache()
        app.state.frame_rate = RateLimiter(settings.max_frames_per_s)
        if settings.token is not None:
            with app.state.sessions() as db:
                ensure_bootstrap_token(db, settings.token.get_secret_value())
        else:
            log.warning("BOARDREADER_TOKEN is not set: only tokens stored earlier can write")
        app.state.workers = WorkerPool(settings, app.state.sessions, app.state.states, app.state.hub,
                                       asyncio.get_running_loop())
        app.state.workers.start_live_tables()
        try:
            yield
        finally:
            app.state.workers.shutdown()
            engine.dispose()

    app = FastAPI(title="boardreader", summary="Live scoring for carrom, crokinole and couronne", lifespan=lifespan)
    for router in (health.router, matches.router, events.router, live.router, tables.router, table_workers.router,
                   tokens.router, pages.router):
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.add_middleware(BodyLimit, max_body_bytes=settings.max_body_bytes, max_frame_bytes=settings.max_frame_bytes)
    install_handlers(app)
    return app
