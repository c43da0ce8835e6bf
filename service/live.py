"""The live feed hub: every subscriber of a match gets each new state, newest wins.

Lives in the event loop; `publish` is called after the write is committed, so no
client ever sees a state that is not in the stored log.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass


@dataclass(frozen=True)
class Update:
    """A match state as sent to clients: its log sequence number and its JSON text.

    Writes commit in order but may publish out of order; senders drop an update
    whose `seq` is not newer than the one they sent last.
    """

    seq: int
    message: str


class LiveHub:
    """Per-match fan-out of serialised states to queues of length one (slow clients skip to the newest)."""

    def __init__(self) -> None:
        self._queues: dict[int, set[asyncio.Queue[Update]]] = defaultdict(set)

    def subscribe(self, match_id: int) -> asyncio.Queue[Update]:
        queue: asyncio.Queue[Update] = asyncio.Queue(maxsize=1)
        self._queues[match_id].add(queue)
        return queue

    def unsubscribe(self, match_id: int, queue: asyncio.Queue[Update]) -> None:
        subscribers = self._queues.get(match_id)
        if subscribers is None:
            return
        subscribers.discard(queue)
        if not subscribers:
            del self._queues[match_id]

    def subscriber_count(self) -> int:
        """Live clients connected now, all matches together."""
        return sum(len(queues) for queues in self._queues.values())

    def publish(self, match_id: int, update: Update) -> None:
        """Hand `update` to every subscriber, replacing one they have not read yet."""
        for queue in self._queues.get(match_id, ()):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(update)
