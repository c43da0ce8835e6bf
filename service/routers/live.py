"""The live feed of a match: WebSocket and Server-Sent Events.

Each client gets the current state on connect, then every newer state. The
subscription starts before the current state is read, so no change is missed.
"""

import asyncio
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Depends, WebSocket, WebSocketDisconnect
from fastapi.sse import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from service import states
from service.deps import HubDep, MatchId
from service.errors import ServiceError
from service.live import LiveHub, Update

router = APIRouter(prefix="/api", tags=["live"])

#: WebSocket close code for "no such match" (4000 + HTTP status, as is customary).
CLOSE_NOT_FOUND = 4404
CLOSE_UNAVAILABLE = 1011


def _current(connection: HTTPConnection, match_id: int) -> Update:
    with connection.app.state.sessions() as db:
        return states.current(db, connection.app.state.states, match_id)


class Subscription:
    """A hub queue plus the state at subscription time."""

    def __init__(self, hub: LiveHub, match_id: int, first: Update, queue: asyncio.Queue[Update]):
        self.hub, self.match_id, self.first, self.queue = hub, match_id, first, queue

    def close(self) -> None:
        self.hub.unsubscribe(self.match_id, self.queue)


async def _subscribe(connection: HTTPConnection, hub: LiveHub, match_id: int) -> Subscription:
    queue = hub.subscribe(match_id)
    try:
        first = await run_in_threadpool(_current, connection, match_id)
    except BaseException:
        hub.unsubscribe(match_id, queue)
        raise
    return Subscription(hub, match_id, first, queue)


@router.websocket("/matches/{match_id}/live")
async def live(websocket: WebSocket, match_id: MatchId, hub: HubDep) -> None:
    await websocket.accept()
    try:
        subscription = await _subscribe(websocket, hub, match_id)
    except ServiceError as error:
        code = CLOSE_NOT_FOUND if error.status_code == 404 else CLOSE_UNAVAILABLE
        await websocket.close(code=code, reason=error.detail[:120])
        return
    except Exception:
        await websocket.close(code=CLOSE_UNAVAILABLE, reason="state unavailable")
        return
    closed = asyncio.create_task(_until_closed(websocket))
    try:
        sent = subscription.first.seq
        await websocket.send_text(subscription.first.message)
        while True:
            update_task = asyncio.create_task(subscription.queue.get())
            done, _ = await asyncio.wait({update_task, closed}, return_when=asyncio.FIRST_COMPLETED)
            if closed in done:
                update_task.cancel()
                return
            update = update_task.result()
            if update.seq > sent:
                await websocket.send_text(update.message)
                sent = update.seq
    except (WebSocketDisconnect, RuntimeError):
        return  # the client went away between two updates
    finally:
        closed.cancel()
        subscription.close()


async def _until_closed(websocket: WebSocket) -> None:
    while (await websocket.receive())["type"] != "websocket.disconnect":
        pass


async def _stream_subscription(connection: HTTPConnection, match_id: MatchId, hub: HubDep) -> Subscription:
    """Raises (404, 503) before the stream starts, so errors are plain HTTP answers."""
    return await _subscribe(connection, hub, match_id)


@router.get("/matches/{match_id}/stream", response_class=EventSourceResponse)
async def stream(
    subscription: Annotated[Subscription, Depends(_stream_subscription)],
) -> AsyncIterator[ServerSentEvent]:
    """Server-Sent Events: `event: state`, `id: <seq>`, `data: <state JSON>`; the state on connect, then each change."""
    try:
        sent = subscription.first.seq
        yield ServerSentEvent(event="state", id=str(sent), raw_data=subscription.first.message)
        while True:
            update = await subscription.queue.get()
            if update.seq > sent:
                sent = update.seq
                yield ServerSentEvent(event="state", id=str(sent), raw_data=update.message)
    finally:
        subscription.close()
