"""Run the service as a child process on a free loopback port (for tests and benchmarks).

It is the real thing: `python -m boardreader serve`, a real SQLite file, real sockets.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

REPO_ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class ServiceProcess:
    """`boardreader serve` on 127.0.0.1:`port` over the SQLite file `db_path` (or any `db_url`)."""

    token: str
    db_path: Path | None = None
    db_url: str = ""
    port: int = field(default_factory=free_port)
    env: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen | None = None

    def __post_init__(self) -> None:
        if not self.db_url:
            if self.db_path is None:
                raise ValueError("give db_path (a SQLite file) or db_url")
            self.db_url = f"sqlite:///{self.db_path}"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, *, timeout_s: float = 60.0) -> "ServiceProcess":
        env = {**os.environ, "BOARDREADER_TOKEN": self.token, **self.env}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "boardreader", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--db", self.db_url, "--log-level", "warning"],
            cwd=REPO_ROOT, env=env,
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the service exited with code {self.process.returncode} while starting")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1.0).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the service did not answer within {timeout_s} s")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, as a power cut of the process."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> "ServiceProcess":
        return self.start()

    def __exit__(self, *_exc) -> None:
        self.stop()
