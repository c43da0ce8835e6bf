"""Request and response bodies of the HTTP API (the OpenAPI document is built from these)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Game = Literal["carrom", "crokinole", "couronne"]
EventId = str | int


class MatchLine(BaseModel):
    """The first line of an event log; every other field goes to the rules engine as given."""

    model_config = ConfigDict(extra="allow", json_schema_extra={
        "examples": [{"type": "match", "game": "carrom", "preset": "icf", "sides": ["A", "B"]}]})
    type: Literal["match"]
    game: Game


class GameEvent(BaseModel):
    """One event of the log (design.md, "Event log"); the rules engine checks the rest."""

    model_config = ConfigDict(extra="allow", json_schema_extra={
        "examples": [{"type": "stroke", "pocketed": ["white"], "striker": False, "foul": False}]})
    type: str = Field(min_length=1, max_length=40)
    id: EventId | None = None


class MatchCreated(BaseModel):
    id: int


class StoredEvent(BaseModel):
    seq: int
    event: dict[str, Any]
    at: str
    by: str


class EventsAccepted(BaseModel):
    """The stored events and the state after them."""

    events: list[StoredEvent]
    state: dict[str, Any]


class AuditRecord(BaseModel):
    at: str
    by: str
    action: str
    match_id: int | None
    detail: dict[str, Any]


class TokenRequest(BaseModel):
    name: str = Field(min_length=1, max_length=100, description="who or what will use the token")


class TokenIssued(BaseModel):
    id: int
    name: str
    token: str = Field(description="the secret; shown this once, only its hash is kept")


class TableIn(BaseModel):
    name: str = Field(min_length=1, max_length=100)
    game: Game
    source: str | None = Field(default=None, max_length=500,
                               description="camera: device index, RTSP/HTTP URL or video file; none for a pushing camera")
    profile_path: str | None = Field(default=None, max_length=500, description="table profile JSON (calibration)")


class TableOut(TableIn):
    id: int
    created_at: str
    frames_queued: int


class FrameQueued(BaseModel):
    frame_id: int
    table_id: int
    width_px: int
    height_px: int
    queued: int = Field(description="frames now waiting for this table's vision worker")
