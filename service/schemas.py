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
    match_id: int | None = Field(default=None, ge=1, le=2**31 - 1,
                                 description="the match its camera's events go to (same game)")
    realtime: bool = Field(default=True, description="a video file source plays at its own pace; false: as fast "
                                                     "as it decodes")
    live: bool = Field(default=True, description="run its vision worker (from now on, and after a restart)")


class TableOut(TableIn):
    id: int
    created_at: str
    frames_queued: int
    position_s: float = Field(description="video file source: events up to this time in the file are stored")


class TableStart(BaseModel):
    """Start (or restart) a table's vision worker, optionally on another match or from another place in its file."""

    match_id: int | None = Field(default=None, ge=1, le=2**31 - 1, description="default: the table's match")
    from_s: float | None = Field(default=None, ge=0.0, le=1e7,
                                 description="video file source: play from here (default: where events stopped)")


class WorkerEvent(BaseModel):
    """An event a table's worker saw and the service stored."""

    seq: int
    type: str
    needs_review: bool
    frame_t_s: float = Field(description="source time of the frame that settled it")
    analysed_epoch_s: float = Field(description="when the worker made it (Unix time)")
    stored_epoch_s: float = Field(description="when it was committed, just before it was broadcast (Unix time)")


WorkerState = Literal["starting", "running", "restarting", "failed", "ended", "stopped", "no match", "waiting"]


class TableStatus(BaseModel):
    """What a table's vision worker is doing."""

    table_id: int
    state: WorkerState = Field(description="failed: the source cannot be read (retried); restarting: the worker "
                                           "died and comes back; waiting: all worker slots are taken")
    alive: bool = Field(description="the worker process runs now")
    source_kind: Literal["push", "camera", "stream", "file"]
    pid: int | None = None
    restarts: int = 0
    frames: int = Field(default=0, description="frames analysed by the current worker process")
    fps: float = Field(default=0.0, description="frames analysed per second, over the last two seconds")
    t_s: float | None = Field(default=None, description="source time of the last frame analysed")
    lag_s: float = Field(default=0.0, description="real-time file playback: how far analysis runs behind")
    board_found: bool = False
    last_frame_epoch_s: float | None = None
    last_event: WorkerEvent | None = None
    last_error: str | None = None
    gaps: list[list[float]] = Field(default_factory=list, description="camera drop-outs, [start_s, end_s]")
    ended: str | None = Field(default=None, description="why the source ended (a file: its end)")
    frames_dropped: int = Field(default=0, description="pushed frames refused because the worker was behind")
    undecodable: int = Field(default=0, description="pushed frames that were no decodable JPEG")
    frames_skipped: int = Field(default=0, description="camera (or real-time file) frames skipped because "
                                                       "analysis ran more than a second behind")
    next_restart_epoch_s: float | None = None
    t0_epoch_s: float | None = Field(default=None, description="Unix time of source time 0, where known")
    recent_events: list[WorkerEvent] = Field(default_factory=list)
    held: list[dict[str, Any]] = Field(default_factory=list,
                                       description="entries the rules refused, with the reason, for the referee")


class FrameQueued(BaseModel):
    frame_id: int
    table_id: int
    width_px: int
    height_px: int
    queued: int = Field(description="frames kept for this table (the newest at .../frames/latest)")
    analysing: bool = Field(default=False, description="handed to the table's vision worker")
