"""Quitting never crashes, wherever start-up has got to (issue 13.7: two aborts, "FATAL:
exception not rethrown", in about 150 start-and-quit runs while the worker thread loaded the
rulesets); the worker thread reports its errors in the window, never as a traceback."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.gui import app as gui_app
from app.gui.main_window import MainWindow
from app.rules.registry import Registry
from app.rulesets import find_engine

ROOT = Path(__file__).resolve().parents[2]
#: start-and-quit runs in ``make test``; CASTRA_QUIT_RUNS sets more for a longer trial
RUNS = int(os.environ.get("CASTRA_QUIT_RUNS", "12"))


def _start(tmp: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "CASTRA_DB": str(tmp / "castra.sqlite3"),
        "CASTRA_HOME": str(tmp / "home"),
        **env,
    }
    return subprocess.run(
        [sys.executable, "-m", "app"],
        env=full,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_start_and_quit_loop(tmp_path: Path) -> None:
    first = _start(tmp_path, CASTRA_QUIT_AFTER_SHOW="1")  # the store, the samples, a roster
    assert first.returncode == 0, first.stderr
    rng = random.Random(13)
    outcomes: list[int] = []
    for n in range(RUNS):
        env = (
            {"CASTRA_QUIT_WHILE_LOADING": "1"}
            if n % 2 == 0
            else {"CASTRA_QUIT_AFTER_MS": str(rng.randrange(0, 2000))}
        )
        run = _start(tmp_path, **env)
        outcomes.append(run.returncode)
        assert run.returncode == 0, (env, run.returncode, run.stderr[-2000:])
        assert "FATAL" not in run.stderr and "Traceback" not in run.stderr, run.stderr
    assert outcomes == [0] * RUNS


def test_a_failing_worker_is_reported_in_the_window(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(self: Registry, *args: object, **kwargs: object) -> None:
        raise MemoryError("out of memory while reading a house-rules folder")

    monkeypatch.setattr(Registry, "load_more", broken)
    window = MainWindow(Registry(find_engine), None, gui_app._settings())
    qtbot.addWidget(window)
    gui_app._load_the_rest(window, Registry(find_engine), None)
    qtbot.waitUntil(lambda: "could not all be loaded" in window.statusBar().currentMessage())
    assert "out of memory" in window.statusBar().currentMessage()
    assert "Traceback" not in capsys.readouterr().err


def test_the_window_leaves_its_loading_state_whatever_fails(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, qapp: object
) -> None:
    def broken(*args: object, **kwargs: object) -> Registry:
        raise RuntimeError("something nobody foresaw")

    monkeypatch.setattr(gui_app, "load_registry", broken)
    window = MainWindow(Registry(find_engine), None, gui_app._settings(), loading=True)
    qtbot.addWidget(window)
    gui_app._finish_start(qapp, window)  # type: ignore[arg-type]
    assert "Opening the library" not in window.editor.placeholder.text()
    assert window.store_label.toolTip().startswith("Castra could not start normally")
