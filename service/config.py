"""Service settings, read once from the environment (prefix BOARDREADER_) and checked at startup."""

from __future__ import annotations

from functools import lru_cache

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything the service can be configured with; each field is `BOARDREADER_<NAME>`."""

    model_config = SettingsConfigDict(env_prefix="BOARDREADER_", extra="ignore")

    #: The first referee token; its hash is stored at startup. More are issued by POST /api/tokens.
    token: SecretStr | None = None
    #: SQLAlchemy URL: a SQLite file by default, `postgresql+psycopg://...` for PostgreSQL.
    db_url: str = "sqlite:///boardreader.db"
    #: How long a write waits for a SQLite file locked by someone else before answering 503.
    db_busy_timeout_s: float = Field(default=2.0, ge=0.0, le=60.0)
    #: Largest JSON request body (a match line, one event or a list of them).
    max_body_bytes: int = Field(default=256 * 1024, ge=1024)
    #: Most events in one POST.
    max_events_per_post: int = Field(default=500, ge=1)
    #: Largest JPEG frame a pushing camera may upload.
    max_frame_bytes: int = Field(default=4 * 1024 * 1024, ge=1024)
    #: Frames per second a table may push (a token bucket of one second's worth).
    max_frames_per_s: float = Field(default=15.0, gt=0.0)
    #: Frames kept per table (the newest is served at .../frames/latest; older ones are dropped),
    #: and pushed frames waiting for the table's vision worker (more are answered 429).
    frame_queue_length: int = Field(default=30, ge=1)
    #: Vision workers (one process per table) that may run at once; more tables wait, their status says so.
    max_workers: int = Field(default=8, ge=0)
    #: A worker that dies is restarted after this long, doubling per failure in a row up to the maximum.
    worker_restart_s: float = Field(default=1.0, gt=0.0)
    worker_restart_max_s: float = Field(default=30.0, gt=0.0)


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings (read from the environment on first use)."""
    return Settings()
