"""Start-up: the app opens on a fresh store with the samples, and without a store when the
file is unusable (saying which file); the action registry is complete."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from app.core.roster import Roster
from app.gui import app as gui_app
from app.gui.actions import SPECS, ActionKey
from app.gui.controller import Builder
from app.gui.main_window import MainWindow
from app.rules.registry import Registry
from app.rulesets import find_engine
from app.store import list_rosters, open_store


def _run(qapp: QApplication) -> int:
    """``run()`` with its own event loop; afterwards the app is made usable for the next test:
    closing the last window posts one more Quit, which (once handled outside ``exec``) would
    make every later event loop return at once."""
    code = gui_app.run()
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, MainWindow):
            widget.close()
    QApplication.processEvents()
    QTimer.singleShot(0, qapp.quit)
    qapp.exec()  # starts and ends by clearing Qt's "quit now" flag
    return code


def test_run_opens_a_sample_on_first_start(
    qapp: QApplication, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CASTRA_QUIT_AFTER_SHOW", "1")
    opened: list[str] = []
    real_start = Builder._start_session

    def start(
        self: Builder, roster: Roster, roster_id: int | None, *rest: int | None, **kw: str | None
    ) -> None:
        assert self.window.isVisible()  # the window was shown before the store was opened
        opened.append(roster.name)
        real_start(self, roster, roster_id, *rest, **kw)

    monkeypatch.setattr(Builder, "_start_session", start)
    assert _run(qapp) == 0
    out = capsys.readouterr().out
    assert "window shown" in out and "roster open" in out
    assert opened == ["Quincunx: Republican Roman model legion"]
    store = open_store()  # the samples were seeded in CASTRA_DB
    assert len(list_rosters(store)) >= 4
    last = gui_app._settings().value("rosters/last")  # quitting keeps it for the next start
    assert int(str(last)) in {s.id for s in list_rosters(store)}
    store.close()


def test_second_start_opens_its_roster_first_and_loads_the_other_rulesets_after(
    qapp: QApplication, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The roster reopened at start needs only its own ruleset; the others load on a worker
    thread once it is in view, and the library then names them all."""
    monkeypatch.setenv("CASTRA_QUIT_AFTER_SHOW", "1")
    assert _run(qapp) == 0  # first start: samples; the Quincunx Roman legion is left open
    monkeypatch.delenv("CASTRA_QUIT_AFTER_SHOW")
    seen: list[list[str]] = []
    real_attach = MainWindow.attach

    def attach(self: MainWindow, registry: Registry, *a: object) -> None:
        seen.append(sorted(registry.rulesets))
        real_attach(self, registry, *a)  # type: ignore[arg-type]

    monkeypatch.setattr(MainWindow, "attach", attach)
    window = MainWindow(Registry(find_engine), None, gui_app._settings(), loading=True)
    qtbot.addWidget(window)
    gui_app._finish_start(qapp, window)
    assert seen == [["quincunx"]]  # only the reopened roster's ruleset before it opens
    session = window.builder.session
    assert session is not None and session.roster.name == "Quincunx: Republican Roman model legion"
    qtbot.waitUntil(lambda: len(window.registry) == 5, timeout=10_000)
    assert not window.registry.failures
    model = window.library.model
    names = {model.index(i, 0).data() for i in range(model.rowCount())}
    assert {"Quincunx", "Grown Slightly Bald"} <= names


def test_unusable_store_is_reported_with_its_file(
    qapp: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = tmp_path / "castra.sqlite3"
    bad.write_text("not a database", encoding="utf-8")
    monkeypatch.setenv("CASTRA_DB", str(bad))
    store, error = gui_app.open_store_or_error()
    assert store is None and error is not None and str(bad) in error
    monkeypatch.setenv("CASTRA_QUIT_AFTER_SHOW", "1")
    boxes: list[str] = []
    real_open = QMessageBox.open

    def record(self: QMessageBox) -> None:
        boxes.append(self.text())
        real_open(self)

    monkeypatch.setattr(QMessageBox, "open", record)
    assert _run(qapp) == 0
    assert boxes and str(bad) in boxes[0]
    assert bad.read_text(encoding="utf-8") == "not a database"  # untouched


def test_every_action_has_text_and_tooltip_and_the_keys_asked_for(qapp: QApplication) -> None:
    assert {k.name for k in ActionKey} >= {
        "NEW",
        "OPEN",
        "SAVE",
        "IMPORT",
        "EXPORT",
        "UNDO",
        "REDO",
        "CLOSE",
        "QUIT",
        "DELETE",
        "DUPLICATE_UNIT",
    }
    assert "PRINT" not in {k.name for k in ActionKey}
    for spec in SPECS.values():
        assert spec.text and spec.tip
    assert SPECS[ActionKey.DUPLICATE_UNIT].shortcuts == ("Ctrl+D",)
    assert SPECS[ActionKey.DELETE].shortcuts == ("Del",)


def test_no_two_actions_share_a_shortcut(window: MainWindow) -> None:
    seen: dict[str, str] = {}
    for key, action in window.action_registry.items():
        for seq in action.shortcuts():
            text = seq.toString()
            assert text not in seen, f"{text} is both {seen[text]} and {key.name}"
            seen[text] = key.name
    assert seen["Ctrl+D"] == "DUPLICATE_UNIT" and seen["Del"] == "DELETE"
