"""The window never overwrites a write made elsewhere (issue 13.6): when the open roster was
changed by another window or the command line, the window's next edit is refused, the
roster is reloaded from the store, and the status bar says so."""

from __future__ import annotations

from dataclasses import replace

from app.core.edits import UpdateRoster
from app.core.roster import Roster, Unit
from app.gui.main_window import MainWindow
from app.rules.registry import Registry
from app.store import Store, load_roster, load_roster_versioned, save_roster, write_roster


def test_a_stale_edit_is_refused_and_the_roster_reloaded(
    make_window: object, store: Store, registry: Registry
) -> None:
    rs = registry.get("quincunx")
    roster = Roster("Shared", rs.id, "roman", "Rome", "1:100", data_version=rs.meta.data_version)
    rid = save_roster(store, roster=roster)
    window: MainWindow = make_window()  # type: ignore[operator]
    assert window.builder.open_roster(rid)
    # the command line adds a unit meanwhile
    current, version = load_roster_versioned(store, roster_id=rid)
    theirs = replace(current, units=(Unit("u-cli", "hastati", "From the command line", 12),))
    write_roster(store, roster=theirs, roster_id=rid, expected_version=version)
    # the window, still on its old copy, renames the roster
    session = window.builder.session
    assert session is not None
    session.apply(UpdateRoster({"name": "Renamed in the window"}, "Rename"))
    stored = load_roster(store, roster_id=rid)
    assert stored.name == "Shared" and [u.name for u in stored.units] == ["From the command line"]
    reloaded = window.builder.session
    assert reloaded is not None and reloaded is not session
    assert [u.name for u in reloaded.roster.units] == ["From the command line"]
    assert "changed elsewhere" in window.statusBar().currentMessage()
    # and the window's next edit, on the fresh copy, is saved
    reloaded.apply(UpdateRoster({"name": "Renamed after reload"}, "Rename"))
    assert load_roster(store, roster_id=rid).name == "Renamed after reload"
    assert [u.name for u in load_roster(store, roster_id=rid).units] == ["From the command line"]


def test_a_store_failure_in_the_library_is_a_message(
    make_window: object, store: Store, monkeypatch: object
) -> None:
    import pytest

    import app.store.repo as repo
    from app.gui import dialogs
    from app.store import StoreError

    mp: pytest.MonkeyPatch = monkeypatch  # type: ignore[assignment]
    rid = save_roster(store, roster=Roster("Kept", "quincunx", "roman", "Rome", "1:100"))
    window: MainWindow = make_window()  # type: ignore[operator]
    messages: list[str] = []
    window.library.message.connect(messages.append)

    def busy(*args: object, **kwargs: object) -> None:
        raise StoreError("the store x is busy: another Castra window or command is writing")

    mp.setattr(repo, "delete_roster", busy)
    mp.setattr(dialogs, "confirm", lambda *a, **k: True)
    assert window.library.select_roster(rid)
    window.library.delete_selected()
    assert messages and messages[-1].startswith("Not done: the store x is busy")
    assert window.library.select_roster(rid)  # still listed, not in the bin
    assert not window.library.selected_is_deleted()


def test_the_library_keeps_its_column_layout_after_a_refresh(
    make_window: object, store: Store
) -> None:
    """The tree is rebuilt behind a detached proxy; the name column still takes the room."""
    from PySide6.QtWidgets import QHeaderView

    save_roster(store, roster=Roster("One", "quincunx", "roman", "Rome", "1:100"))
    window: MainWindow = make_window()  # type: ignore[operator]
    window.library.refresh()
    header = window.library.view.header()
    assert header.sectionResizeMode(0) == QHeaderView.ResizeMode.Stretch
    # sized from its widest count (tests/gui/test_library_start.py), not by Qt's row measure
    assert header.sectionResizeMode(1) == QHeaderView.ResizeMode.Fixed
    assert header.sectionSize(1) >= window.library.view.sizeHintForColumn(1)


def test_a_roster_row_is_described_when_hovered(make_window: object, store: Store) -> None:
    """Qt's view shows the model's tooltip when a row is hovered; the model makes it then."""
    from PySide6.QtCore import Qt

    rid = save_roster(store, roster=Roster("Hovered", "quincunx", "roman", "Rome", "1:100"))
    window: MainWindow = make_window()  # type: ignore[operator]
    library = window.library
    assert library.select_roster(rid)
    index = library.view.currentIndex()
    for column in (0, 1):
        text = str(index.siblingAtColumn(column).data(Qt.ItemDataRole.ToolTipRole))
        assert "Hovered" in text and "Republican Roman" in text
    library.search.setText("republican")  # the search text names the army list
    assert library.select_roster(rid)
    library.search.setText("carthaginian")
    assert not library.select_roster(rid)
