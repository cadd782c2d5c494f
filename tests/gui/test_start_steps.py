"""Steps of the window's start (issue 14): it runs without the cyclic garbage collector
(``castra`` turns it off before it loads the window, and the start turns it back on once the
roster is open, with what start-up made frozen, kept out of the collector's later passes),
and the store's quick check runs on a thread while the window is built."""

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


def test_the_start_checks_the_store_while_it_builds_the_window(
    db_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The window's start begins the store's quick check before it builds the window, and
    opening the store takes that check's answer."""
    from app.store import engine

    monkeypatch.setenv("CASTRA_DB", str(db_path))
    early = gui_app._start_check()
    assert isinstance(early, engine.EarlyCheck) and str(early.path) == str(db_path)
    checks: list[object] = []
    monkeypatch.setattr(engine, "_quick_check", checks.append)
    opened, error = gui_app.open_store_or_error(early)
    assert error is None and opened is not None and checks == []
    opened.close()
