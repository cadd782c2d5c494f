"""Roster files: export, import through the dialog and by dropping a file on the window; a bad
file shows its key-path problems and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from pytestqt.qtbot import QtBot

from app.core.rosterfile import read_file
from app.gui import dialogs
from app.gui.actions import ActionKey
from app.gui.dialogs import ProblemsDialog
from app.gui.main_window import MainWindow
from app.rules.registry import Registry
from app.store import Store, list_rosters
from tests.gui.helpers import open_new, roster_of


def _bad_file(tmp_path: Path) -> Path:
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(
            {
                "format": "castra-roster",
                "version": 1,
                "name": "Broken",
                "ruleset": "quincunx",
                "army": "roman",
                "scale": "1:10",
                "units": [{"entry": "hastati", "count": 0}, {"entry": "velites", "command": "c9"}],
            }
        ),
        encoding="utf-8",
    )
    return path


def _problems(window: MainWindow, qtbot: QtBot) -> ProblemsDialog:
    qtbot.waitUntil(lambda: window.findChild(ProblemsDialog) is not None)
    dialog = window.findChild(ProblemsDialog)
    assert dialog is not None and dialog.isVisible()
    return dialog


def test_export_then_import(
    window: MainWindow,
    registry: Registry,
    store: Store,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    open_new(window, registry, "quincunx", "roman", name="Legio", standard=True)
    target = tmp_path / "legio.json"
    monkeypatch.setattr(dialogs, "save_roster_file", lambda _parent, suggested: target)
    window.action_registry[ActionKey.EXPORT].trigger()
    exported = read_file(target, registry)
    assert exported == roster_of(window)
    monkeypatch.setattr(dialogs, "open_roster_file", lambda _parent, _folder: target)
    window.action_registry[ActionKey.IMPORT].trigger()
    # a taken name is made unique, so a name always finds one roster
    assert sorted(s.name for s in list_rosters(store)) == ["Legio", "Legio (2)"]
    assert roster_of(window).name == "Legio (2)"
    assert roster_of(window).units == exported.units
    assert window.builder.session is not None and window.builder.session.roster_id == max(
        s.id for s in list_rosters(store)
    )


def test_import_a_bad_file_shows_problems_and_changes_nothing(
    qtbot: QtBot, window: MainWindow, registry: Registry, store: Store, tmp_path: Path
) -> None:
    session = open_new(window, registry, "mwan90", "roman", name="Keep me")
    before = list_rosters(store)
    assert not window.builder.import_path(_bad_file(tmp_path))
    dialog = _problems(window, qtbot)
    where = [w for w, _ in dialog.problems()]
    assert "units[0].count" in where
    assert "units[1].command" not in where or len(where) >= 1
    assert list_rosters(store) == before  # nothing changed in the store
    assert window.builder.session is session  # nor in the window
    dialog.reject()


def test_dropping_files_on_the_window_imports_them(
    qtbot: QtBot, window: MainWindow, registry: Registry, store: Store, tmp_path: Path
) -> None:
    open_new(window, registry, "quincunx", "carthaginian", name="Hannibal", standard=True)
    good = tmp_path / "hannibal.json"
    assert window.builder.export_to(good)

    def drop(path: Path) -> None:
        data = QMimeData()
        data.setUrls([QUrl.fromLocalFile(str(path))])
        event = QDropEvent(
            QPointF(QPoint(10, 10)),
            Qt.DropAction.CopyAction,
            data,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
        window.dropEvent(event)
        assert event.isAccepted()

    drop(good)
    assert len(list_rosters(store)) == 2
    before = list_rosters(store)
    drop(_bad_file(tmp_path))
    dialog = _problems(window, qtbot)
    assert any(w == "units[0].count" for w, _ in dialog.problems())
    assert list_rosters(store) == before
    dialog.reject()


def test_not_json_is_a_clear_problem(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, store: Store
) -> None:
    path = tmp_path / "notes.json"
    path.write_text("{ not json", encoding="utf-8")
    assert not window.builder.import_path(path)
    dialog = _problems(window, qtbot)
    assert "not valid JSON" in dialog.problems()[0][1]
    assert list_rosters(store) == []
    dialog.reject()
