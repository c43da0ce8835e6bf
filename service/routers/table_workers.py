"""A table's vision worker: start it (on a match, from a place in its file), stop it, and its status."""

from fastapi import APIRouter, Body
from starlette.concurrency import run_in_threadpool

from service.deps import DbDep, RefereeDep, TableId, WorkersDep
from service.errors import Rejected
from service.models import AuditEntry
from service.routers.tables import check_match, get_table
from service.schemas import TableStart, TableStatus

router = APIRouter(prefix="/api", tags=["table workers"])


def _status(workers, table) -> TableStatus:
    return TableStatus.model_validate({**workers.status(table), "table_id": table.id})


@router.get("/tables/{table_id}/status")
def read_status(table_id: TableId, db: DbDep, workers: WorkersDep) -> TableStatus:
    """Whether the worker runs, frames analysed and their rate, the last event it stored, the last error,
    camera gaps, entries held for the referee."""
    return _status(workers, get_table(db, table_id))


@router.post("/tables/{table_id}/start")
async def start_worker(table_id: TableId, db: DbDep, referee: RefereeDep, workers: WorkersDep,
                       start: TableStart | None = Body(default=None)) -> TableStatus:
    """Run the table's worker (restarting it if it runs), from now on and after service restarts."""
    start = start or TableStart()
    table = get_table(db, table_id)
    if start.match_id is not None:
        check_match(db, start.match_id, game=table.game)
        table.match_id = start.match_id
    if table.match_id is None:
        raise Rejected(f"table {table_id} has no match: give match_id")
    if start.from_s is not None:
        table.position_s = start.from_s
    table.live = True
    db.add(AuditEntry(token_id=referee.id, action="table.start", match_id=table.match_id,
                      detail={"table_id": table_id, **start.model_dump()}))
    db.commit()
    await run_in_threadpool(workers.start, table)
    return _status(workers, table)


@router.post("/tables/{table_id}/stop")
async def stop_worker(table_id: TableId, db: DbDep, referee: RefereeDep, workers: WorkersDep) -> TableStatus:
    """Stop the table's worker (it stays stopped across service restarts until started)."""
    table = get_table(db, table_id)
    table.live = False
    db.add(AuditEntry(token_id=referee.id, action="table.stop", detail={"table_id": table_id}))
    db.commit()
    await run_in_threadpool(workers.stop, table_id)
    return _status(workers, table)
