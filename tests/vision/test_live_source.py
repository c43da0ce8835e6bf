"""A real HTTP camera that drops out: the live source reconnects and keeps the timeline."""

import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from vision.sources import LiveSource, SourceError

SERVER = Path(__file__).with_name("mjpeg_server.py")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_camera(port: int) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, str(SERVER), str(port)])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return process
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("camera server did not start")


@pytest.fixture
def camera():
    port = free_port()
    processes = [start_camera(port)]
    yield port, processes
    for process in processes:
        process.kill()
        process.wait()


def test_camera_drop_out_reconnects_and_records_the_gap(camera):
    port, processes = camera
    source = LiveSource(f"http://127.0.0.1:{port}/stream.mjpg", reconnect_timeout_s=15, retry_interval_s=0.2)
    times = []
    for frame in source:
        times.append(frame.t_s)
        if len(times) == 15:
            processes[0].kill()
            processes[0].wait()
            threading.Timer(1.5, lambda: processes.append(start_camera(port))).start()
        if len(times) == 40:
            break
    assert len(source.report.gaps) == 1
    start, end = source.report.gaps[0]
    assert end - start >= 1.0
    assert times == sorted(times)  # one timeline across the drop-out
    assert max(b - a for a, b in zip(times, times[1:])) >= 1.0


def test_camera_gone_for_good_ends_with_a_clear_reason(camera):
    port, processes = camera
    source = LiveSource(f"http://127.0.0.1:{port}/stream.mjpg", reconnect_timeout_s=1.0, retry_interval_s=0.2)
    frames = 0
    for _ in source:
        frames += 1
        if frames == 10:
            processes[0].kill()
            processes[0].wait()
    assert frames >= 10
    assert "giving up" in source.report.ended_early


def test_no_camera_at_all_is_a_clear_error():
    with pytest.raises(SourceError, match="cannot open"):
        next(iter(LiveSource(f"http://127.0.0.1:{free_port()}/none.mjpg", reconnect_timeout_s=0.5)))
