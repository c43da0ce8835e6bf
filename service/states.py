"""Match states as served: the replay of the stored log, kept per match under its last seq.

The log is append-only and `seq` is unique per match, so a log whose last event has
a given seq always holds the same events: a state cached under that seq is still the
replay of the stored log. It spares a replay per reader when a hundred overlays
(re)connect at once.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict

from sqlalchemy.orm import Session

from service import store
from service.live import Update
from service.models import Token


class StateCache:
    """The newest state per match (at most `max_matches`, least recently used dropped)."""

    def __init__(self, max_matches: int = 256):
        self._updates: OrderedDict[int, Update] = OrderedDict()
        self._lock = threading.Lock()
        self.max_matches = max_matches

    def get(self, match_id: int, seq: int) -> Update | None:
        with self._lock:
            update = self._updates.get(match_id)
            if update is None or update.seq != seq:
                return None
            self._updates.move_to_end(match_id)
            return update

    def put(self, match_id: int, update: Update) -> None:
        with self._lock:
            known = self._updates.get(match_id)
            if known is not None and known.seq > update.seq:
                return
            self._updates[match_id] = update
            self._updates.move_to_end(match_id)
            while len(self._updates) > self.max_matches:
                self._updates.popitem(last=False)


def append(db: Session, cache: StateCache, match_id: int, bodies: list[dict], *,
           token: Token) -> tuple[store.MatchLog, dict, Update]:
    """Store `bodies` (`store.append_events`) and cache the new state; the caller then publishes the update.

    The one write path of the log: a referee's POST and a table's vision worker both come here.
    """
    log, result = store.append_events(db, match_id, bodies, token=token)
    state = store.state_of(log, result)
    update = update_of(state)
    cache.put(match_id, update)
    return log, state, update


def update_of(state: dict) -> Update:
    return Update(seq=state["seq"], message=json.dumps(state))


def current(db: Session, cache: StateCache, match_id: int) -> Update:
    """The state of the stored log now (NotFound for an unknown match)."""
    cached = cache.get(match_id, store.last_seq(db, match_id))
    if cached is not None:
        return cached
    update = update_of(store.state_of(store.load_log(db, match_id)))
    cache.put(match_id, update)
    return update
