"""Pushed frames' times: the camera's clock when it sends one, else arrival; always increasing for the analyzer."""

import pytest

from service.table_worker import PushedFrames


def times(pushed: list[tuple[float | None, float]]) -> list[float]:
    frames = PushedFrames(inbox=None)
    return [frames.frame_time_s(camera_t_s, received_s) for camera_t_s, received_s in pushed]


def test_the_cameras_clock_is_kept_and_arrival_times_count_from_the_first_frame():
    assert times([(10.0, 500.0), (10.5, 500.2), (11.25, 500.3)]) == [10.0, 10.5, 11.25]
    assert times([(None, 500.0), (None, 500.4), (None, 501.0)]) == pytest.approx([0.0, 0.4, 1.0])


def test_a_camera_that_restarts_its_clock_carries_on_after_its_last_frame():
    restarted = times([(7.0, 500.0), (7.1, 500.1), (0.0, 503.0), (0.1, 503.1)])
    assert all(b > a for a, b in zip(restarted, restarted[1:]))
    assert restarted[3] - restarted[2] == pytest.approx(0.1)
