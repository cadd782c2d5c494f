"""The roster library and the window around it: open, rename, duplicate, delete and restore;
close and reopen from the store; recent rosters; remembered layout; first start."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, QSettings
from PySide6.QtWidgets import QApplication, QMenu
from pytestqt.qtbot import QtBot

from app.gui import dialogs
from app.gui.actions import ActionKey
from app.gui.library import ROSTER_ROLE
from app.gui.main_window import MainWindow
from app.gui.roster_model import Col
from app.rules.registry import Registry
from app.rules.ruleset import Ruleset
from app.store import Store, list_rosters, seed_samples
from tests.gui.helpers import open_new, roster_of, session_of, tree_index


def _library_names(window: MainWindow) -> list[str]:
    model = window.library.model
    out: list[str] = []

    def walk(parent: Any) -> None:
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            out.append(str(index.data()))
            walk(index)

    walk(QModelIndex())
    return out


def test_first_start_opens_a_sample_army(
    make_window: Any, registry: Registry, store: Store
) -> None:
    seeded = seed_samples(store, registry=registry)
    window: MainWindow = make_window(seeded=seeded)
    roster = roster_of(window)
    assert roster.name == "Quincunx: Republican Roman model legion"
    assert len(roster.units) > 5
    assert window.library.selected_roster() == session_of(window).roster_id
    names = _library_names(window)
    assert "Quincunx" in names and "Rome" in names and "Carthage" in names
    assert "Grown Slightly Bald: Carthage" in names


def test_the_sample_opened_first_is_the_one_the_data_marks(
    make_window: Any, registry: Registry, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``first_sample`` in an army's standard army (Quincunx's Roman legion's in the data),
    not a ruleset named in code: moved to GSB's Carthage, that sample opens first."""

    def marked(rs: Ruleset, army_id: str, flag: bool) -> Ruleset:
        army = rs.armies[army_id]
        assert army.standard is not None
        standard = army.standard.model_copy(update={"first_sample": flag})
        return replace(
            rs, armies={**rs.armies, army_id: army.model_copy(update={"standard": standard})}
        )

    quincunx, gsb = registry.get("quincunx"), registry.get("grown-slightly-bald")
    monkeypatch.setitem(registry.rulesets, "quincunx", marked(quincunx, "roman", False))
    monkeypatch.setitem(registry.rulesets, "grown-slightly-bald", marked(gsb, "carthage", True))
    window: MainWindow = make_window(seeded=seed_samples(store, registry=registry))
    assert roster_of(window).name == "Grown Slightly Bald: Carthage"


def test_save_close_and_reopen(
    make_window: Any, registry: Registry, store: Store, settings: QSettings
) -> None:
    window: MainWindow = make_window()
    session = open_new(window, registry, "mwan90", "carthaginian", name="Zama")
    window.editor.add_entry("elephants")
    rid = session.roster_id
    assert rid is not None
    window.action_registry[ActionKey.SAVE].trigger()
    window.action_registry[ActionKey.CLOSE].trigger()
    assert window.builder.session is None
    assert window.editor.stack.currentIndex() == 0  # the placeholder
    assert window.windowTitle() == "Castra"
    # reopen from the library
    assert window.library.select_roster(rid)
    window.library.open_selected()
    assert roster_of(window).name == "Zama"
    assert [u.entry for u in roster_of(window).units] == ["elephants"]
    # quit and start again: the roster open last comes back from the store
    window.close()
    again: MainWindow = make_window()
    assert again.builder.session is not None
    assert roster_of(again).name == "Zama"
    assert [u.entry for u in roster_of(again).units] == ["elephants"]
    assert session_of(again).roster_id == rid


def test_delete_and_restore_a_roster(
    qtbot: QtBot,
    window: MainWindow,
    registry: Registry,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session = open_new(window, registry, "mwan90", "roman", name="Cannae")
    rid = session.roster_id
    assert rid is not None
    asked: list[str] = []

    def confirm(_parent: object, title: str, text: str, ok: str) -> bool:
        asked.append(title)
        return True

    monkeypatch.setattr(dialogs, "confirm", confirm)
    window.library.select_roster(rid)
    window.library.view.setFocus()
    window.library.delete_selected()
    assert asked == ["Delete roster"]
    assert [s.id for s in list_rosters(store)] == []
    assert window.builder.session is None  # the open roster was closed
    assert "Deleted (1)" in _library_names(window)
    assert window.library.select_roster(rid)
    assert window.library.selected_is_deleted()
    assert window.library.buttons["restore"].isVisibleTo(window)
    window.library.restore_selected()
    assert [s.name for s in list_rosters(store)] == ["Cannae"]
    assert not any(n.startswith("Deleted") for n in _library_names(window))
    window.library.open_selected()
    assert roster_of(window).name == "Cannae"


def test_refusing_the_confirmation_keeps_the_roster(
    window: MainWindow, registry: Registry, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = open_new(window, registry, "mwan90", "roman", name="Trebia")
    monkeypatch.setattr(dialogs, "confirm", lambda *a: False)
    assert session.roster_id is not None
    window.library.select_roster(session.roster_id)
    window.library.delete_selected()
    assert [s.name for s in list_rosters(store)] == ["Trebia"]
    assert window.builder.session is session


def test_del_in_the_library_deletes_the_roster(
    qtbot: QtBot,
    window: MainWindow,
    registry: Registry,
    store: Store,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session = open_new(window, registry, "mwan90", "roman", name="Ticinus")
    window.editor.add_entry("hastati")
    monkeypatch.setattr(dialogs, "confirm", lambda *a: True)
    assert session.roster_id is not None
    window.library.select_roster(session.roster_id)
    window.activateWindow()
    window.library.view.setFocus()
    qtbot.waitUntil(window.library.view.hasFocus)
    window.action_registry[ActionKey.DELETE].trigger()
    assert list_rosters(store) == []


def test_rename_and_duplicate(
    qtbot: QtBot, window: MainWindow, registry: Registry, store: Store
) -> None:
    session = open_new(window, registry, "quincunx", "carthaginian", name="Hannibal", standard=True)
    rid = session.roster_id
    assert rid is not None
    window.builder.rename_roster(rid, "Hannibal at Cannae")  # the library's in-place rename
    assert roster_of(window).name == "Hannibal at Cannae"  # renamed through the open session
    assert window.action_registry[ActionKey.UNDO].text().startswith("&Undo Rename roster")
    assert "Hannibal at Cannae" in _library_names(window)
    # renaming in place in the library (F2) goes the same way, once the editor has closed
    index = window.library._find(rid)
    window.library.model.setData(index, "Cannae, 216 BC")
    qtbot.waitUntil(lambda: roster_of(window).name == "Cannae, 216 BC")
    assert "Cannae, 216 BC" in _library_names(window)
    window.builder.rename_roster(rid, "Hannibal at Cannae")
    window.library.select_roster(rid)
    window.library.duplicate_selected()
    names = sorted(s.name for s in list_rosters(store))
    assert names == ["Hannibal at Cannae", "Hannibal at Cannae (copy)"]


def test_library_search(qtbot: QtBot, window: MainWindow, registry: Registry, store: Store) -> None:
    seed_samples(store, registry=registry)
    window.library.refresh()
    window.activateWindow()
    window.action_registry[ActionKey.OPEN].trigger()  # Ctrl+O: find a roster in the library
    qtbot.waitUntil(window.library.search.hasFocus)
    qtbot.keyClicks(window.library.search, "carthag")
    shown_model = window.library.model  # the rows the view shows (the model filters itself)
    shown: list[str] = []

    def walk(parent: Any) -> None:
        for row in range(shown_model.rowCount(parent)):
            index = shown_model.index(row, 0, parent)
            if index.data(ROSTER_ROLE) is not None:
                shown.append(str(index.data()))
            walk(index)

    walk(QModelIndex())
    assert shown and all("Carthag" in name for name in shown)
    window.library.search.returnPressed.emit()
    assert "Carthag" in roster_of(window).name


def test_recent_rosters_menu(window: MainWindow, registry: Registry) -> None:
    open_new(window, registry, "mwan90", "roman", name="First")
    open_new(window, registry, "mwan90", "roman", name="Second")
    menu = QMenu()
    window.builder.fill_recent_menu(menu)
    texts = [a.text() for a in menu.actions()]
    assert texts == ["&1 Second", "&2 First"]
    menu.actions()[1].trigger()
    assert roster_of(window).name == "First"


def test_layout_is_remembered(make_window: Any, settings: QSettings) -> None:
    window: MainWindow = make_window()
    window.validation_dock.hide()
    window.resize(window.width() - 40, window.height() - 30)
    QApplication.processEvents()
    size = window.size()
    window.close()
    assert settings.value("window/state") is not None
    again: MainWindow = make_window()
    assert again.validation_dock.isHidden()
    assert again.size() == size
    assert not again.action_registry[ActionKey.VIEW_VALIDATION].isChecked()
    again.action_registry[ActionKey.VIEW_VALIDATION].trigger()
    assert again.validation_dock.isVisible()


def test_every_dock_is_in_the_view_menu(window: MainWindow) -> None:
    view_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    in_menu = set(view_menu.actions())
    for dock in (window.library_dock, window.army_dock, window.validation_dock):
        assert dock.toggleViewAction() in in_menu


def test_without_a_store_rosters_still_open(
    make_window: Any, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    monkeypatch.setattr(dialogs, "confirm", lambda _p, title, *_a: asked.append(title) or True)
    window: MainWindow = make_window(with_store=False)
    session = open_new(window, registry, "mwan90", "roman")
    assert session.roster_id is None
    window.editor.add_entry("hastati")
    assert len(roster_of(window).units) == 1  # kept in memory
    assert window.isWindowModified()  # and said to be unsaved
    assert "No store" in window.library.status.text()
    window.action_registry[ActionKey.CLOSE].trigger()  # asks before losing the roster
    assert asked == ["Roster not saved"]
    assert window.builder.session is None


def test_tree_cells_show_core_totals(window: MainWindow, registry: Registry) -> None:
    session = open_new(window, registry, "quincunx", "roman", standard=True)
    for per in session.totals.per_unit:
        index = tree_index(window, per.unit.id, Col.FIGURES)
        assert index.data() == f"{per.total.figures:,}"
