"""Pure rules engines for carrom (ICF + DCV), crokinole (NCA/WCC + casual) and couronne (Micki).

`replay(events)` turns an event log into the `score` result of design.md.
"""

from scoring.errors import (
    AmbiguousObservationError,
    EventLogError,
    IllegalStrokeError,
    InvalidEventError,
)
from scoring.replay import ENGINES, parse_jsonl, replay, replay_state

__all__ = [
    "ENGINES",
    "AmbiguousObservationError",
    "EventLogError",
    "IllegalStrokeError",
    "InvalidEventError",
    "parse_jsonl",
    "replay",
    "replay_state",
]
