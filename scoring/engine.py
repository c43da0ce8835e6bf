"""The shape every game's rules engine shares: start from the match line, apply events, read the result.

Engines are pure: state in, event in, new state out, no I/O. States are frozen
dataclasses; an engine never changes a state it was given.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, TypeVar

State = TypeVar("State")


class Engine(ABC, Generic[State]):
    game: ClassVar[str]
    #: Event types this engine accepts after the match line.
    event_types: ClassVar[frozenset[str]]

    @abstractmethod
    def start(self, match: dict[str, Any]) -> State:
        """The state before the first event, from the match line (validated here)."""

    @abstractmethod
    def apply(self, state: State, event: dict[str, Any]) -> State:
        """The state after `event`; raises InvalidEventError or IllegalStrokeError."""

    @abstractmethod
    def is_over(self, state: State) -> bool:
        """True once the match has a result and takes no more events."""

    @abstractmethod
    def result(self, state: State) -> dict[str, Any]:
        """The `score` result of design.md ("Event log") for this state."""
