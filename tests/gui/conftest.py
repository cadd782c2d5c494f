"""GUI fixtures: a temporary store (copied from one migrated once per run), temporary
QSettings, the real main window; and Qt warnings fail the test (as in qutebrowser)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMessageLogContext, QSettings, QtMsgType, qInstallMessageHandler
from pytestqt.qtbot import QtBot

from app.gui.main_window import MainWindow
from app.rules.registry import Registry
from app.store import Store, open_store

#: Messages of Qt's offscreen platform plugin, not of our code.
IGNORED = ("This plugin does not support propagateSizeHints",)


@pytest.fixture(autouse=True)
def qt_warnings_fail() -> Iterator[list[str]]:
    """Any Qt warning, critical or fatal message during a GUI test fails it."""
    seen: list[str] = []

    def handler(kind: QtMsgType, context: QMessageLogContext, text: str) -> None:
        if (
            kind != QtMsgType.QtDebugMsg
            and kind != QtMsgType.QtInfoMsg
            and not text.startswith(IGNORED)
        ):
            seen.append(f"{kind.name}: {text}")
        if previous is not None:
            previous(kind, context, text)

    previous: Any = qInstallMessageHandler(handler)
    yield seen
    qInstallMessageHandler(previous)
    assert not seen, "Qt warnings:\n" + "\n".join(seen)


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing of a test run reaches the user's store, data folder or settings."""
    monkeypatch.setenv("CASTRA_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CASTRA_DB", str(tmp_path / "castra.sqlite3"))
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "qsettings"))


@pytest.fixture(scope="session")
def template_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store migrated once; each test gets a copy (migrating takes a while)."""
    path = tmp_path_factory.mktemp("template") / "castra.sqlite3"
    open_store(path).close()
    return path


@pytest.fixture
def db_path(tmp_path: Path, template_db: Path) -> Path:
    path = tmp_path / "castra.sqlite3"
    shutil.copyfile(template_db, path)
    return path


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    s = open_store(db_path)
    yield s
    s.close()


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "castra.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def make_window(
    qtbot: QtBot, registry: Registry, store: Store, settings: QSettings
) -> Iterator[Any]:
    """Build a main window on the test's store and settings (more than one: reopening)."""
    windows: list[MainWindow] = []

    def make(*, seeded: list[int] | None = None, with_store: bool = True) -> MainWindow:
        window = MainWindow(registry, store if with_store else None, settings)
        qtbot.addWidget(window)
        window.builder.start(seeded or [])
        window.show()
        qtbot.waitExposed(window)
        windows.append(window)
        return window

    yield make
    for w in windows:
        w.builder.close_roster(forget=False)


@pytest.fixture
def window(make_window: Any) -> MainWindow:
    window: MainWindow = make_window()
    return window
