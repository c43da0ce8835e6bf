"""Field checks for events: one clear message naming the field and what was expected."""

from __future__ import annotations

from typing import Any

from scoring.errors import InvalidEventError

_MISSING = object()


def field(event: dict, name: str, kind: type | tuple[type, ...], default: Any = _MISSING) -> Any:
    """Return `event[name]`, checked to be of `kind`; `default` when absent (if given)."""
    if name not in event:
        if default is _MISSING:
            raise InvalidEventError(f"{event.get('type', 'event')!r} event needs field {name!r}")
        return default
    value = event[name]
    # bool is an int subclass: a count given as true/false is a mistake.
    if isinstance(value, bool) and bool not in _as_tuple(kind):
        raise InvalidEventError(f"field {name!r} must be {_names(kind)}, got {value!r}")
    if not isinstance(value, kind):
        raise InvalidEventError(f"field {name!r} must be {_names(kind)}, got {value!r}")
    return value


def count(event: dict, name: str, default: int | None = None, maximum: int | None = None) -> int:
    """A non-negative integer field."""
    value = field(event, name, int, default) if default is not None else field(event, name, int)
    if value < 0 or (maximum is not None and value > maximum):
        bound = f"0..{maximum}" if maximum is not None else ">= 0"
        raise InvalidEventError(f"field {name!r} must be {bound}, got {value}")
    return value


def one_of(event: dict, name: str, choices: tuple[str, ...], default: Any = _MISSING) -> Any:
    value = field(event, name, str, default) if default is not _MISSING else field(event, name, str)
    if value not in choices and value is not default:
        raise InvalidEventError(f"field {name!r} must be one of {', '.join(choices)}; got {value!r}")
    return value


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _names(kind: type | tuple[type, ...]) -> str:
    names = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
             list: "a list", dict: "an object"}
    return " or ".join(names.get(k, k.__name__) for k in _as_tuple(kind))
