"""Answers kept for pure functions of values (a leg traced from a pose, a battlegroup's chain
of command from where its units stand): :func:`kept` is :func:`functools.lru_cache`, bounded,
with each such cache listed so that :func:`forget_kept` empties them all (a benchmark that
measures the same turn again starts each run as a turn played once does; a test that asks
for work done afresh)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_ALL: list[Any] = []


def kept(maxsize: int) -> Callable[[F], F]:
    """A bounded :func:`functools.lru_cache` of the last ``maxsize`` answers, listed for
    :func:`forget_kept`. Only for functions whose answer is the same for equal arguments."""

    def wrap(fn: F) -> F:
        cached = functools.lru_cache(maxsize=maxsize)(fn)
        _ALL.append(cached)
        return cached  # type: ignore[return-value]

    return wrap


def forget_kept() -> None:
    """Empty every cache made by :func:`kept`."""
    for cached in _ALL:
        cached.cache_clear()
