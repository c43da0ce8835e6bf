"""The tables' vision workers: one supervised child process per live table.

The pool starts a worker for each live table that has a match, restarts one that
dies (after a pause that doubles per failure in a row), and stops them with their
table and at shutdown. A thread per worker reads what its process sends: each new
log entry goes through the same write path as a referee's POST (stored and
committed first), and only then to the live feed.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import queue
import threading
import time
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from service import states, store
from service.config import Settings
from service.errors import Conflict, EngineUnavailable, NotFound, Rejected
from service.live import LiveHub
from service.models import Table, Token
from service.table_worker import EXIT_SOURCE, WorkerSpec, run_worker

log = logging.getLogger("boardreader.service.workers")

#: The token row the workers write as; its hash is no SHA-256 digest, so no presented secret matches it.
VISION_TOKEN_NAME = "vision"
VISION_TOKEN_HASH = "vision worker: writes from the tables' cameras"
RECENT = 20  # events and held entries kept in a table's status
STOP_WAIT_S = 0.5  # a worker told to stop is killed after this long (it holds nothing unsent: a camera read may block)
HEALTHY_AFTER_S = 60.0  # a worker that ran this long resets the restart pause
STORE_TRIES = 3


def ensure_vision_token(db: Session) -> Token:
    """The token row the workers' events are stored under ("by": "vision")."""
    token = db.scalar(select(Token).where(Token.sha256 == VISION_TOKEN_HASH))
    if token is None:
        token = Token(name=VISION_TOKEN_NAME, sha256=VISION_TOKEN_HASH)
        db.add(token)
        db.commit()
    return token


def source_kind(source: str | None) -> str:
    """How `vision.sources.open_source` reads `source`: push, camera, stream or file."""
    if source is None:
        return "push"
    if source.isdigit():
        return "camera"
    return "stream" if "://" in source else "file"


@dataclass(frozen=True)
class TableConfig:
    """What the pool needs of a table row."""

    id: int
    game: str
    source: str | None
    match_id: int
    realtime: bool
    profile_path: str | None

    @classmethod
    def of(cls, table: Table) -> "TableConfig":
        return cls(table.id, table.game, table.source, table.match_id, table.realtime, table.profile_path)


class WorkerProcess:
    """A worker's child process, whose end any thread may ask about.

    Under the forkserver start method a child's exit code is read once from a pipe. Two threads
    asking at the same moment both find it ready: one reads the code, the other end of file,
    which multiprocessing reports as exit code 255, so a worker killed by a signal would read as
    one that exited. A lock makes each read one thread's.
    """

    def __init__(self, process: multiprocessing.process.BaseProcess):
        self._process = process
        self._lock = threading.Lock()

    @property
    def pid(self) -> int | None:
        return self._process.pid

    def start(self) -> None:
        self._process.start()

    def is_alive(self) -> bool:
        with self._lock:
            return self._process.is_alive()

    def exit_code(self) -> int | None:
        with self._lock:
            return self._process.exitcode

    def join(self, timeout_s: float) -> None:
        """Wait up to `timeout_s` for the end, without holding others' questions that long."""
        wait([self._process.sentinel], timeout_s)
        with self._lock:
            self._process.join(0)

    def kill(self) -> None:
        self._process.kill()


class TableWorker:
    """One table's worker process and the thread that supervises it."""

    def __init__(self, table: TableConfig, pool: "WorkerPool"):
        self.table = table
        self.pool = pool
        self.kind = source_kind(table.source)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._inbox = None
        self._process: WorkerProcess | None = None
        self._status: dict[str, Any] = {
            "state": "starting", "pid": None, "restarts": 0, "frames": 0, "fps": 0.0, "t_s": None, "lag_s": 0.0,
            "board_found": False, "last_frame_epoch_s": None, "last_event": None, "last_error": None, "gaps": [],
            "ended": None, "frames_dropped": 0, "frames_skipped": 0, "next_restart_epoch_s": None, "t0_epoch_s": None,
        }
        self._events: deque[dict[str, Any]] = deque(maxlen=RECENT)
        self._held: deque[dict[str, Any]] = deque(maxlen=RECENT)
        self._thread = threading.Thread(target=self._supervise, name=f"table-{table.id}-worker", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def status(self) -> dict[str, Any]:
        with self._lock:
            process = self._process
            alive = bool(process is not None and process.is_alive())
            return {**self._status, "alive": alive, "source_kind": self.kind,
                    "recent_events": list(self._events), "held": list(self._held)}

    def push(self, jpeg: bytes, *, t_s: float | None, received_at: float) -> bool:
        """Hand a pushed frame to the worker; False when its queue is full (or it is not up)."""
        with self._lock:
            inbox = self._inbox if self._process is not None and self._process.is_alive() else None
        if inbox is None:
            return False
        try:
            inbox.put_nowait(("frame", jpeg, t_s, received_at))
        except queue.Full:
            with self._lock:
                self._status["frames_dropped"] += 1
            return False
        return True

    def tell(self, message: tuple) -> None:
        with self._lock:
            inbox = self._inbox
        if inbox is not None:
            try:
                inbox.put_nowait(message)
            except (queue.Full, ValueError, OSError):
                pass  # a worker that is behind or gone hears the stored log when it (re)starts

    def request_stop(self) -> None:
        self._stopping.set()
        self.tell(("stop",))

    @property
    def holds_a_slot(self) -> bool:
        """Whether it counts against `max_workers`: supervised (not ended or stopped), and not waiting
        for a source that cannot be opened (a missing file is retried without any process)."""
        with self._lock:
            process_alive = self._process is not None and self._process.is_alive()
            waiting_for_source = self._status["state"] == "failed" and not process_alive
        return self._thread.is_alive() and not waiting_for_source

    def stop(self) -> None:
        """Tell the worker to stop, terminate it if it does not, and end the supervision."""
        self.request_stop()
        self._thread.join(STOP_WAIT_S + 2.0)
        with self._lock:
            process = self._process
        if process is not None and process.is_alive():
            process.kill()
            process.join(1.0)

    # The supervising thread.

    def _set(self, **fields: Any) -> None:
        with self._lock:
            self._status.update(fields)

    def _supervise(self) -> None:
        failures = 0
        while not self._stopping.is_set():
            started_s = time.monotonic()
            try:
                outcome, error = self._run_once()
            except Exception as failure:  # the database or the OS refused: try again later, as after a death
                log.exception("table %s: the vision worker could not be run", self.table.id)
                outcome, error = "died", f"the worker could not be run: {failure}"
            if self._stopping.is_set():
                break
            if outcome == "ended" and self.kind == "file":
                self._set(state="ended", pid=None)
                return
            failures = 1 if time.monotonic() - started_s > HEALTHY_AFTER_S else failures + 1
            settings = self.pool.settings
            pause_s = min(settings.worker_restart_s * 2 ** (failures - 1), settings.worker_restart_max_s)
            with self._lock:
                self._status.update(state="failed" if outcome == "source" else "restarting", last_error=error,
                                    next_restart_epoch_s=time.time() + pause_s)
                if outcome != "ended":
                    log.warning("table %s: vision worker: %s", self.table.id, error)
            if self._stopping.wait(pause_s):
                break
            with self._lock:
                self._status["restarts"] += 1
                self._status["next_restart_epoch_s"] = None
        self._set(state="stopped", pid=None)

    def _spec(self) -> WorkerSpec:
        with self.pool.sessions() as db:
            lines = store.load_log(db, self.table.match_id).lines
            table = db.get(Table, self.table.id)
            position_s = table.position_s if table is not None else 0.0
        return WorkerSpec(table_id=self.table.id, game=self.table.game, source=self.table.source, log=lines,
                          realtime=self.table.realtime, start_s=position_s if self.kind == "file" else 0.0,
                          profile_path=self.table.profile_path)

    def _run_once(self) -> tuple[str, str | None]:
        """Run one worker process to its end: ("stopped" | "ended" | "source" | "died", why)."""
        if self.kind == "file" and not Path(self.table.source).is_file():
            return "source", f"no such video file: {self.table.source}"
        try:
            spec = self._spec()
        except NotFound as error:
            return "source", error.detail
        context = self.pool.context
        inbox = context.Queue(maxsize=self.pool.settings.frame_queue_length)
        receiver, sender = context.Pipe(duplex=False)
        process = WorkerProcess(context.Process(target=run_worker, args=(spec, inbox, sender), daemon=True,
                                                name=f"boardreader-table-{self.table.id}"))
        process.start()
        sender.close()  # the child holds the only writing end: its death reads as end of file
        with self._lock:
            self._process, self._inbox = process, inbox
            self._status.update(state="starting", pid=process.pid, ended=None)
        error = None
        try:
            while True:
                if not receiver.poll(0.25):
                    if not process.is_alive():
                        break
                    continue
                try:
                    message = receiver.recv()
                except (EOFError, OSError):
                    break
                try:
                    error = self._handle(message) or error
                except Exception as failure:  # supervision must outlive any one message
                    log.exception("table %s: a message of its worker could not be handled", self.table.id)
                    self._set(last_error=f"internal error handling the worker's {message[0]!r}: {failure}")
        finally:
            receiver.close()
        process.join(STOP_WAIT_S)
        if process.is_alive():
            process.kill()
            process.join(1.0)
        inbox.cancel_join_thread()
        inbox.close()
        with self._lock:
            self._inbox = None
            ended = self._status["ended"]
        code = process.exit_code()
        if self._stopping.is_set():
            return "stopped", None
        if code == 0 and ended is not None:
            return "ended", f"source ended: {ended}"
        if code == EXIT_SOURCE:
            return "source", error or "the source could not be read"
        why = f"killed by signal {-code}" if code is not None and code < 0 else f"exited with code {code}"
        return "died", f"worker {why}" + (f" ({error})" if error else "")

    def _handle(self, message: tuple) -> str | None:
        """Act on one message of the worker; the error it reports, if any."""
        kind, body = message[0], message[1]
        if kind == "status":
            with self._lock:
                if body["frames"] > self._status["frames"]:
                    self._status["last_frame_epoch_s"] = time.time()
                self._status.update(body, state="running")
        elif kind == "event":
            self._store(body)
        elif kind == "held":
            with self._lock:
                self._held.append({**body["entry"], "frame_t_s": body["frame_t_s"]})
        elif kind == "ended":
            self._set(ended=body)
        elif kind == "error":
            self._set(last_error=body)
            return body
        return None

    def _store(self, body: dict[str, Any]) -> None:
        # The store numbers it: a worker's own ids could meet those of a referee's entries.
        entry = {k: v for k, v in body["entry"].items() if k != "id"}
        reason = None
        for attempt in range(STORE_TRIES):
            try:
                seq, committed_s = self.pool.store(self.table, entry,
                                                   frame_t_s=body["frame_t_s"] if self.kind == "file" else None)
            except (Rejected, NotFound, EngineUnavailable) as error:
                reason = error.detail  # the stored log moved on (a referee's write): the referee decides
                break
            except (Conflict, DBAPIError, OSError) as error:
                reason = str(getattr(error, "detail", error))
                time.sleep(0.05 * (attempt + 1))
                continue
            stored = {"seq": seq, "type": entry["type"], "needs_review": bool(entry.get("needs_review")),
                      "frame_t_s": body["frame_t_s"], "analysed_epoch_s": body["analysed_epoch_s"],
                      "stored_epoch_s": committed_s}
            with self._lock:
                self._events.append(stored)
                self._status["last_event"] = stored
            return
        with self._lock:
            self._held.append({**entry, "frame_t_s": body["frame_t_s"], "reason": f"not stored: {reason}"})
            self._status["last_error"] = f"an event could not be stored: {reason}"


class WorkerPool:
    """The running workers, by table id, with what they need to store and broadcast."""

    def __init__(self, settings: Settings, sessions: sessionmaker[Session], cache: states.StateCache,
                 hub: LiveHub, loop: asyncio.AbstractEventLoop):
        self.settings = settings
        self.sessions = sessions
        self.cache = cache
        self.hub = hub
        self.loop = loop
        # A fresh server process (no copy of this threaded one, as with spawn) that has imported the
        # vision stack once: each worker forks from it in milliseconds instead of importing it anew.
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(["service.table_worker"])
        self._workers: dict[int, TableWorker] = {}
        self._lock = threading.Lock()
        with sessions() as db:
            self.token = ensure_vision_token(db)

    def start_live_tables(self) -> None:
        """At startup: a worker for every table that was live."""
        with self.sessions() as db:
            tables = db.scalars(select(Table).where(Table.live.is_(True)).order_by(Table.id)).all()
        for table in tables:
            self.start(table)

    def start(self, table: Table) -> str:
        """Start (or restart) the worker of a live table with a match; what its status now says."""
        self._stop_worker(table.id)
        if table.match_id is None:
            return "no match"
        with self._lock:
            if self._running() >= self.settings.max_workers:
                return "waiting"
            worker = self._workers[table.id] = TableWorker(TableConfig.of(table), self)
        worker.start()
        return "starting"

    def stop(self, table_id: int) -> None:
        """Stop a table's worker (if any), and give its slot to a table that waits for one."""
        if self._stop_worker(table_id):
            self._start_waiting()

    def _stop_worker(self, table_id: int) -> bool:
        with self._lock:
            worker = self._workers.pop(table_id, None)
        if worker is None:
            return False
        worker.stop()
        return True

    def _running(self) -> int:
        return sum(worker.holds_a_slot for worker in self._workers.values())

    def shutdown(self) -> None:
        """Stop every worker (all told at once, then each awaited)."""
        with self._lock:
            workers = list(self._workers.values())
            self._workers.clear()
        for worker in workers:
            worker.request_stop()
        for worker in workers:
            worker.stop()

    def _start_waiting(self) -> None:
        """A slot freed: start the next live table that waits for one."""
        with self.sessions() as db:
            waiting = db.scalars(select(Table).where(Table.live.is_(True), Table.match_id.is_not(None))
                                 .order_by(Table.id)).all()
        for table in waiting:
            with self._lock:
                if table.id in self._workers or self._running() >= self.settings.max_workers:
                    continue
            self.start(table)

    def worker(self, table_id: int) -> TableWorker | None:
        with self._lock:
            return self._workers.get(table_id)

    def status(self, table: Table) -> dict[str, Any]:
        """The status of a table's worker; for a table without one, why not."""
        worker = self.worker(table.id)
        if worker is not None:
            return worker.status()
        if not table.live:
            state = "stopped"
        elif table.match_id is None:
            state = "no match"
        else:
            state = "waiting"
        return {"state": state, "alive": False, "source_kind": source_kind(table.source),
                "last_error": (f"at most {self.settings.max_workers} workers run at once"
                               if state == "waiting" else None)}

    def match_changed(self, match_id: int, lines: list[dict[str, Any]]) -> None:
        """The stored log of `match_id` changed: its tables' workers carry on from it."""
        with self._lock:
            workers = [w for w in self._workers.values() if w.table.match_id == match_id]
        for worker in workers:
            worker.tell(("log", lines))

    def store(self, table: TableConfig, entry: dict[str, Any], *, frame_t_s: float | None) -> tuple[int, float]:
        """Store a worker's entry like a referee's POST, then broadcast it; its seq and when it was committed."""
        with self.sessions() as db:
            log_, _, update = states.append(db, self.cache, table.match_id, [entry], token=self.token)
            committed_s = time.time()
            if frame_t_s is not None:
                row = db.get(Table, table.id)
                if row is not None:
                    row.position_s = frame_t_s
                    db.commit()
        # Committed above: only now may anyone hear of it.
        self.loop.call_soon_threadsafe(self.hub.publish, table.match_id, update)
        self.match_changed(table.match_id, log_.lines)
        return log_.events[-1].seq, committed_s
