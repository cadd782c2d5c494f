"""Fixtures of the reliability suite: a time bound on each test, so a hang fails the test
instead of stalling the run."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from types import FrameType

import pytest


class TimedOut(Exception):
    pass


@pytest.fixture
def bounded() -> Iterator[None]:
    """Fail the test if it runs more than 20 seconds (a FIFO read that blocks, a loop)."""

    def alarm(_signum: int, _frame: FrameType | None) -> None:
        raise TimedOut("the test ran more than 20 s: something hangs")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(20)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
