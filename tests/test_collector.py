"""The collector pause: off inside, back as it was after, whatever happened inside."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from app.collector import collector_paused


@pytest.fixture
def collecting() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_off_inside_and_on_after(collecting: None) -> None:
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_on_again_after_an_error(collecting: None) -> None:
    with pytest.raises(KeyError), collector_paused():
        raise KeyError("x")
    assert gc.isenabled()


def test_left_off_when_it_was_off(collecting: None) -> None:
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
    gc.enable()


def test_nested_pauses_end_as_the_outer_began(collecting: None) -> None:
    with collector_paused():
        with collector_paused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()
