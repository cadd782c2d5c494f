"""The library at start-up with thousands of rosters (issue 14): every roster is in the view as
soon as the view lays out (its groups open, the Deleted group closed), the Units column is as
wide as its widest count without Qt measuring rows, and roster rows tell Qt they never have
children (so laying out the tree asks nothing more of them). The editor measures the room its
rows have without asking for its viewport."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QHeaderView
from pytestqt.qtbot import QtBot

from app.gui.library import DELETED_ROLE, ROSTER_ROLE, LibraryPanel
from app.gui.main_window import MainWindow
from app.rules.registry import Registry
from app.store import RosterSummary, Store
from tests.gui.helpers import open_new

WHEN = datetime(2026, 11, 26, tzinfo=UTC)


def _summaries(n: int, *, deleted: int = 0, units: int = 11) -> list[RosterSummary]:
    """``n`` rosters over two rulesets and three sides, the last ``deleted`` in the bin,
    sorted as the store lists them."""
    out = [
        RosterSummary(
            id=i + 1,
            name=f"Roster {i:05d}",
            ruleset=("mwan90", "quincunx")[i % 2],
            army="roman",
            side=("Rome", "Carthage", "Numidia")[i % 3],
            scale=None,
            units=units + i % 7,
            updated_at=WHEN,
            deleted=i >= n - deleted,
        )
        for i in range(n)
    ]
    out.sort(key=lambda s: (s.ruleset, s.side.casefold(), s.name.casefold(), s.id))
    return out


def _panel(qtbot: QtBot, registry: Registry, store: Store) -> LibraryPanel:
    panel = LibraryPanel(registry, store)
    qtbot.addWidget(panel)
    panel.resize(320, 600)
    return panel


def _rows_in_view(panel: LibraryPanel) -> list[QModelIndex]:
    """Every row the view shows, top to bottom (what scrolling through it would show)."""
    view = panel.view
    rows = []
    index = panel.model.index(0, 0)
    while index.isValid():
        rows.append(index)
        index = view.indexBelow(index)
    return rows


def test_every_roster_is_in_the_view_at_its_first_layout(
    qtbot: QtBot, registry: Registry, store: Store
) -> None:
    panel = _panel(qtbot, registry, store)
    summaries = _summaries(3000, deleted=40)
    panel.set_store(store, summaries)
    panel.show()
    qtbot.waitExposed(panel)
    rows = _rows_in_view(panel)  # no event processed since the list was given
    shown = [int(i.data(ROSTER_ROLE)) for i in rows if i.data(ROSTER_ROLE) is not None]
    assert sorted(shown) == sorted(s.id for s in summaries if not s.deleted)
    assert not any(i.data(DELETED_ROLE) and i.data(ROSTER_ROLE) is not None for i in rows)
    # ruleset and side groups are open; the Deleted group is the last row, closed
    assert rows[-1].data() == "Deleted (40)" and not panel.view.isExpanded(rows[-1])
    groups = [i for i in rows[:-1] if i.data(ROSTER_ROLE) is None]
    assert len(groups) == 2 + 6 and all(panel.view.isExpanded(g) for g in groups)
    assert panel.status.text() == "2960 rosters, 40 deleted"


def test_a_search_opens_every_group_it_shows_the_deleted_group_too(
    qtbot: QtBot, registry: Registry, store: Store
) -> None:
    panel = _panel(qtbot, registry, store)
    panel.set_store(store, _summaries(30, deleted=5))
    panel.show()
    panel.search.setText("roster 0002")  # rosters 20-29; 25-29 are in the bin
    names = [str(i.data()) for i in _rows_in_view(panel) if i.data(ROSTER_ROLE) is not None]
    assert sorted(names) == [f"Roster {i:05d}" for i in range(20, 30)]
    panel.search.setText("")
    names = [str(i.data()) for i in _rows_in_view(panel) if i.data(ROSTER_ROLE) is not None]
    assert len(names) == 30  # every group open, as the search left them


def test_the_units_column_fits_its_widest_count_and_follows_the_list(
    qtbot: QtBot, registry: Registry, store: Store
) -> None:
    panel = _panel(qtbot, registry, store)
    panel.set_store(store, _summaries(40, units=3))
    panel.show()
    qtbot.waitExposed(panel)
    header = panel.view.header()
    assert header.sectionResizeMode(0) == QHeaderView.ResizeMode.Stretch
    assert header.sectionResizeMode(1) == QHeaderView.ResizeMode.Fixed
    metrics = panel.view.fontMetrics()
    narrow = header.sectionSize(1)
    # as wide as Qt's own measure of the column's cells, and its title
    assert narrow >= panel.view.sizeHintForColumn(1)
    assert narrow >= header.sectionSizeHint(1) >= metrics.horizontalAdvance("Units")
    # a roster of many more units (in the bin: the column does not jump when it is restored)
    big = _summaries(40, units=3)
    big[-1] = replace(big[-1], units=12_345_678, deleted=True)
    panel.set_store(store, big)
    wide = header.sectionSize(1)
    assert wide > narrow and wide >= metrics.horizontalAdvance("12345678")
    panel.search.setText("deleted rosters show")  # matches nothing: the width stays
    assert header.sectionSize(1) == wide
    panel.search.setText("")
    panel.view.expandAll()
    assert wide >= panel.view.sizeHintForColumn(1)
    panel.set_store(store, _summaries(40, units=3))
    assert header.sectionSize(1) == narrow


def test_roster_rows_never_have_children_and_groups_may(
    qtbot: QtBot, registry: Registry, store: Store
) -> None:
    panel = _panel(qtbot, registry, store)
    panel.set_store(store, _summaries(6, deleted=2))
    never = Qt.ItemFlag.ItemNeverHasChildren
    model = panel.model
    for index in _all_rows(model):
        for column in (0, 1):
            cell = index.siblingAtColumn(column)
            roster = cell.data(ROSTER_ROLE) is not None
            assert bool(model.flags(cell) & never) == roster
            if column == 0:
                assert model.hasChildren(cell) != roster
    live = model.index_of_roster(1)
    assert model.flags(live) & Qt.ItemFlag.ItemIsEditable  # a live roster's name is editable


def _all_rows(model: object) -> list[QModelIndex]:
    from app.gui.library_model import LibraryModel

    assert isinstance(model, LibraryModel)
    out: list[QModelIndex] = []

    def walk(parent: QModelIndex) -> None:
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            out.append(index)
            walk(index)

    walk(QModelIndex())
    return out


def test_the_editor_measures_its_rows_width_as_the_viewport_has_it(
    qtbot: QtBot, window: MainWindow, registry: Registry
) -> None:
    """The editor fits its columns to the room its rows have, without asking for the viewport
    (which builds Qt classes the start does not need): the same width, scroll bar or not."""
    from PySide6.QtCore import Qt

    open_new(window, registry, "mwan90", "roman")
    tree = window.editor.tree
    bar = tree.verticalScrollBar()
    for policy, shown in (
        (Qt.ScrollBarPolicy.ScrollBarAlwaysOff, False),
        (Qt.ScrollBarPolicy.ScrollBarAlwaysOn, True),
    ):
        tree.setVerticalScrollBarPolicy(policy)
        qtbot.waitUntil(lambda shown=shown: bar.isVisible() == shown)  # type: ignore[misc]
        assert window.editor.rows_width() == tree.viewport().width() > 0
