"""Playing tables: a camera source, a table profile and a match each, and the frames a pushing camera uploads.

A live table with a match has a vision worker (`service.workers`); uploaded frames
are checked (a real JPEG, within size and rate), kept, and handed to that worker.
"""

import io
import time
from typing import Annotated

from fastapi import APIRouter, Header, Request, Response, status
from PIL import Image, UnidentifiedImageError
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from service.deps import DbDep, RefereeDep, SettingsDep, TableId, WorkersDep
from service.store import iso
from service.errors import NotFound, Rejected, ServiceError, TooMany
from service.limits import RateLimiter
from service.models import AuditEntry, Frame, Match, Table
from service.schemas import FrameQueued, TableIn, TableOut
from service.workers import WorkerPool

router = APIRouter(prefix="/api", tags=["tables"])

JPEG_MAGIC = b"\xff\xd8\xff"
MAX_FRAME_SIDE_PX = 8192


class UnsupportedMediaType(ServiceError):
    status_code = 415


def _out(db: Session, table: Table) -> TableOut:
    queued = db.scalar(select(func.count()).select_from(Frame).where(Frame.table_id == table.id)) or 0
    return TableOut(id=table.id, name=table.name, game=table.game, source=table.source,
                    profile_path=table.profile_path, match_id=table.match_id, realtime=table.realtime,
                    live=table.live, created_at=iso(table.created_at), frames_queued=queued,
                    position_s=table.position_s)


def get_table(db: Session, table_id: int) -> Table:
    """The table row; NotFound when there is none."""
    table = db.get(Table, table_id)
    if table is None:
        raise NotFound(f"no table {table_id}")
    return table



def check_match(db: Session, match_id: int, *, game: str) -> None:
    """Rejected unless `match_id` is a match of `game`."""
    match = db.get(Match, match_id)
    if match is None:
        raise Rejected(f"no match {match_id}")
    if match.game != game:
        raise Rejected(f"match {match_id} is {match.game}, the table plays {game}")


@router.post("/tables", status_code=status.HTTP_201_CREATED)
def create_table(table: TableIn, db: DbDep, referee: RefereeDep, workers: WorkersDep) -> TableOut:
    """A table; a live one with a match starts its vision worker at once (see .../status)."""
    if table.match_id is not None:
        check_match(db, table.match_id, game=table.game)
    row = Table(**table.model_dump())
    db.add(row)
    db.flush()
    db.add(AuditEntry(token_id=referee.id, action="table.create", detail={"table_id": row.id, **table.model_dump()}))
    db.commit()
    if row.live:
        workers.start(row)
    return _out(db, row)


@router.delete("/tables/{table_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_table(table_id: TableId, db: DbDep, referee: RefereeDep, workers: WorkersDep) -> Response:
    """Stop the table's worker and remove the table with its frames (its match and events stay)."""
    table = get_table(db, table_id)
    workers.stop(table_id)
    db.execute(delete(Frame).where(Frame.table_id == table_id))
    db.delete(table)
    db.add(AuditEntry(token_id=referee.id, action="table.delete", detail={"table_id": table_id}))
    db.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/tables")
def list_tables(db: DbDep) -> list[TableOut]:
    return [_out(db, table) for table in db.scalars(select(Table).order_by(Table.id))]


@router.get("/tables/{table_id}")
def read_table(table_id: TableId, db: DbDep) -> TableOut:
    return _out(db, get_table(db, table_id))


def jpeg_size_px(data: bytes) -> tuple[int, int]:
    """(width, height) of a JPEG; Rejected unless `data` is one."""
    if not data.startswith(JPEG_MAGIC):
        raise Rejected("the body is not a JPEG (it must start with FF D8 FF)")
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format != "JPEG":
                raise Rejected("the body is not a JPEG")
            size = image.size
            image.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise Rejected("the JPEG cannot be decoded") from None
    if max(size) > MAX_FRAME_SIDE_PX or min(size) < 1:
        raise Rejected(f"frame of {size[0]}x{size[1]} px; each side must be 1..{MAX_FRAME_SIDE_PX}")
    return size


@router.post(
    "/tables/{table_id}/frames",
    status_code=status.HTTP_202_ACCEPTED,
    openapi_extra={"requestBody": {"required": True, "content": {
        "image/jpeg": {"schema": {"type": "string", "format": "binary"}}}}},
)
async def upload_frame(
    table_id: TableId, request: Request, db: DbDep, referee: RefereeDep, settings: SettingsDep, workers: WorkersDep,
    frame_time_s: Annotated[float | None, Header(alias="X-Frame-Time-S", ge=0.0, le=1e7,
                                                 description="when the camera took it, in seconds of its own "
                                                             "clock (default: when it arrives)")] = None,
) -> FrameQueued:
    """One JPEG frame (Content-Type: image/jpeg) from a camera that pushes: kept, and analysed by the table's
    worker; 429 above the table's frame rate or while its worker is behind."""
    received_s = time.time()
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "image/jpeg":
        raise UnsupportedMediaType("frames must be sent as Content-Type: image/jpeg")
    data = await request.body()
    width_px, height_px = jpeg_size_px(data)
    return await run_in_threadpool(_queue_frame, db, request.app.state.frame_rate, workers, table_id,
                                   data, width_px, height_px, settings.frame_queue_length,
                                   (frame_time_s, received_s))


@router.get(
    "/tables/{table_id}/frames/latest",
    response_class=Response,
    responses={200: {"content": {"image/jpeg": {"schema": {"type": "string", "format": "binary"}}}}},
)
def latest_frame(table_id: TableId, db: DbDep) -> Response:
    """The newest queued frame of a table, as uploaded."""
    get_table(db, table_id)
    frame = db.scalar(select(Frame).where(Frame.table_id == table_id).order_by(Frame.id.desc()).limit(1))
    if frame is None:
        raise NotFound(f"table {table_id} has no frames")
    return Response(frame.jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


def _queue_frame(db: Session, frame_rate: RateLimiter, workers: WorkerPool, table_id: int, data: bytes,
                 width_px: int, height_px: int, queue_length: int,
                 times: tuple[float | None, float]) -> FrameQueued:
    table = get_table(db, table_id)
    wait_s = frame_rate.wait_s(table_id)
    if wait_s > 0:
        raise TooMany(f"table {table_id} pushes frames faster than allowed; retry in {wait_s:.2f} s")
    worker = workers.worker(table_id) if table.source is None else None
    analysing = False
    if worker is not None and worker.status()["alive"]:
        frame_time_s, received_s = times
        analysing = worker.push(data, t_s=frame_time_s, received_at=received_s)
        if not analysing:
            raise TooMany(f"table {table_id}'s vision worker is behind; retry in a moment")
    frame = Frame(table_id=table_id, width_px=width_px, height_px=height_px, jpeg=data)
    db.add(frame)
    db.flush()
    # Only the newest frames matter to a live reader: the queue is bounded.
    keep = select(Frame.id).where(Frame.table_id == table_id).order_by(Frame.id.desc()).limit(queue_length)
    db.execute(delete(Frame).where(Frame.table_id == table_id, Frame.id.not_in(keep)))
    db.commit()
    queued = db.scalar(select(func.count()).select_from(Frame).where(Frame.table_id == table_id)) or 0
    return FrameQueued(frame_id=frame.id, table_id=table_id, width_px=width_px, height_px=height_px, queued=queued,
                       analysing=analysing)
