"""Python's cyclic garbage collector, paused while Castra makes many objects that hold no
cycle (a stored campaign read back, thousands of dice outcomes, a library's modules).

Reference counting still frees whatever is dropped while it is paused; only the
collector's passes, each over every object made since the last, are skipped. Those passes
find nothing among such objects and cost a tenth to a half of the work that makes them."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection inside the block; the collector is back as it was after it (on
    when it was on, off when it was already off), whatever the block raised."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
