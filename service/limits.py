"""Upload limits: a cap on request body size (ASGI middleware) and a frame rate per table."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Message, Receive, Scope, Send

FRAMES_SUFFIX = "/frames"


class BodyLimit:
    """Answers 413 to a body larger than its limit, before the app reads any of it.

    Frame uploads (paths ending in /frames) have their own, larger limit.
    """

    def __init__(self, app: ASGIApp, *, max_body_bytes: int, max_frame_bytes: int):
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_frame_bytes = max_frame_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        limit = self.max_frame_bytes if scope["path"].endswith(FRAMES_SUFFIX) else self.max_body_bytes
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _too_large(send, limit)
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _too_large(send, limit)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


async def _too_large(send: Send, limit: int) -> None:
    payload = json.dumps({"detail": f"request body larger than {limit} bytes"}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]})
    await send({"type": "http.response.body", "body": payload})


@dataclass
class RateLimiter:
    """A token bucket per key: `rate_per_s` sustained, bursts of one second's worth."""

    rate_per_s: float
    _buckets: dict[int, tuple[float, float]] = field(default_factory=dict)

    def wait_s(self, key: int, *, now_s: float | None = None) -> float:
        """0 if a request for `key` may go now (and count it), else seconds until it may."""
        now_s = time.monotonic() if now_s is None else now_s
        capacity = max(self.rate_per_s, 1.0)
        tokens, last_s = self._buckets.get(key, (capacity, now_s))
        tokens = min(capacity, tokens + (now_s - last_s) * self.rate_per_s)
        # A client that waits exactly the time it was told must get through despite rounding.
        if tokens < 1.0 - 1e-9:
            self._buckets[key] = (tokens, now_s)
            return (1.0 - tokens) / self.rate_per_s
        self._buckets[key] = (max(tokens - 1.0, 0.0), now_s)
        return 0.0
