"""The frame rate limiter: a token bucket per table, one second's worth of burst."""

from __future__ import annotations

import pytest

from service.limits import RateLimiter


@pytest.mark.parametrize("rate_per_s", [1.0, 5.0, 15.0])
def test_a_burst_of_one_second_then_the_sustained_rate(rate_per_s):
    limiter = RateLimiter(rate_per_s)
    burst = int(max(rate_per_s, 1.0))
    assert [limiter.wait_s(7, now_s=100.0) for _ in range(burst)] == [0.0] * burst
    wait_s = limiter.wait_s(7, now_s=100.0)
    assert wait_s == pytest.approx(1.0 / rate_per_s)
    assert limiter.wait_s(8, now_s=100.0) == 0.0, "tables have buckets of their own"
    assert limiter.wait_s(7, now_s=100.0 + wait_s) == 0.0
    assert limiter.wait_s(7, now_s=100.0 + wait_s) > 0.0
