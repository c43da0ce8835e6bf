"""Typed errors of the rules engines; all are ValueErrors, so callers can catch bad input as one."""


class EventLogError(ValueError):
    """An event log that cannot be replayed. `index` is the 0-based position of the event."""

    def __init__(self, message: str, index: int | None = None):
        super().__init__(message)
        self.index = index

    def at(self, index: int) -> "EventLogError":
        """The same error, located at event `index` (kept if already located)."""
        if self.index is None:
            self.index = index
        return self


class InvalidEventError(EventLogError):
    """Malformed input: bad JSON, an unknown event type, a field of the wrong type."""


class IllegalStrokeError(EventLogError):
    """Well-formed input that the rules cannot allow (e.g. an event after the match ended)."""


class AmbiguousObservationError(EventLogError):
    """An observation that vision cannot decide without a referee."""
