"""The window's start runs without the cyclic garbage collector (issue 14): ``castra`` turns
it off before it loads the window, and the start turns it back on once the roster is open,
with what start-up made frozen (kept out of the collector's later passes)."""

from __future__ import annotations

import gc

import pytest

from app import cli
from app.gui import app as gui_app


def test_the_window_starts_with_the_collector_off(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    def run() -> int:
        seen.append(gc.isenabled())
        return 0

    monkeypatch.setattr(gui_app, "run", run)
    try:
        assert cli.main([]) == 0
    finally:
        gc.enable()
    assert seen == [False]


def test_the_start_turns_it_back_on_with_start_up_frozen() -> None:
    gc.disable()
    try:
        gui_app._collect_from_now()
        assert gc.isenabled()
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.enable()


def test_a_window_started_otherwise_leaves_the_collector_alone() -> None:
    """Tests and embedders that run the window with the collector on: nothing is frozen."""
    assert gc.isenabled()
    gui_app._collect_from_now()
    assert gc.isenabled() and gc.get_freeze_count() == 0
