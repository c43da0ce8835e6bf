"""Tables: matches, their append-only event logs, referee tokens (hashed), the audit trail,
camera tables and the frames they push."""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, LargeBinary, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    pass


class Token(Base):
    """A referee token; only its SHA-256 is kept."""

    __tablename__ = "tokens"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("tokens.id"), nullable=True)


class Match(Base):
    """A match: its match line (the first line of the event log)."""

    __tablename__ = "matches"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    line: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    created_by: Mapped[int] = mapped_column(ForeignKey("tokens.id"))


class Event(Base):
    """One event of a match's log. Rows are only ever inserted: `seq` numbers them 1, 2, ..."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("match_id", "seq", name="uq_events_match_seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    body: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    created_by: Mapped[int] = mapped_column(ForeignKey("tokens.id"))


class AuditEntry(Base):
    """Who did what, when: every write, in the same transaction as the write itself."""

    __tablename__ = "audit"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    token_id: Mapped[int] = mapped_column(ForeignKey("tokens.id"))
    action: Mapped[str] = mapped_column(String(40))
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id"), nullable=True, index=True)
    detail: Mapped[dict] = mapped_column(JSON, default=dict)


class Table(Base):
    """A playing table: its camera source and table profile (calibration) path."""

    __tablename__ = "tables"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    game: Mapped[str] = mapped_column(String(20))
    source: Mapped[str | None] = mapped_column(String(500), nullable=True)
    profile_path: Mapped[str | None] = mapped_column(String(500), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    #: The match its camera's events go to; a vision worker runs only for a table with one.
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id"), nullable=True)
    #: Whether its worker should run (kept across restarts of the service).
    live: Mapped[bool] = mapped_column(Boolean, default=False)
    #: A video file source plays at its own pace (True) or as fast as it can be read.
    realtime: Mapped[bool] = mapped_column(Boolean, default=True)
    #: Video file sources: the time in the file up to which events are stored (a restart resumes there).
    position_s: Mapped[float] = mapped_column(Float, default=0.0)


class Frame(Base):
    """A JPEG pushed by a table's camera, queued for the vision worker."""

    __tablename__ = "frames"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    width_px: Mapped[int] = mapped_column(Integer)
    height_px: Mapped[int] = mapped_column(Integer)
    jpeg: Mapped[bytes] = mapped_column(LargeBinary)
    status: Mapped[str] = mapped_column(String(20), default="queued")
