"""The roster library: every roster in the store, grouped by ruleset and side, with a search
box. Open, duplicate, rename, delete (asks first; deleted rosters wait in a "Deleted" group
from which they can be restored or deleted for good)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QBrush,
    QColor,
    QHelpEvent,
    QStandardItem,
    QStandardItemModel,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QToolTip,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from app.gui import dialogs
from app.rules.registry import Registry

if TYPE_CHECKING:
    from app.store import RosterSummary, Store

ROSTER_ROLE = Qt.ItemDataRole.UserRole + 1
DELETED_ROLE = Qt.ItemDataRole.UserRole + 2
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 3
#: a ruleset group's ruleset id; a roster row's RosterSummary
RULESET_ROLE = Qt.ItemDataRole.UserRole + 4
SUMMARY_ROLE = Qt.ItemDataRole.UserRole + 5
DELETED_GROUP = "Deleted"
#: computed once: combining Qt flags costs an enum call, thousands of times in a big library
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter

Index = QModelIndex | QPersistentModelIndex


class _LibraryModel(QStandardItemModel):
    """Renaming in place does not store the text: it asks the window (through
    :attr:`LibraryPanel.rename_requested`), which renames in the store or the open session."""

    def __init__(self, panel: LibraryPanel) -> None:
        super().__init__(panel)
        self.panel = panel

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        rid = index.data(ROSTER_ROLE)
        if role == Qt.ItemDataRole.EditRole and rid is not None:
            name = str(value).strip()
            if not name:
                self.panel.message.emit("A roster needs a name; the old name is kept")
                return False
            if name != index.data(Qt.ItemDataRole.DisplayRole):
                # After the editor has closed: the rename refreshes this model.
                QTimer.singleShot(0, lambda: self.panel.rename_requested.emit(int(rid), name))
            return True
        return super().setData(index, value, role)


class LibraryPanel(QWidget):
    open_requested = Signal(int)
    rename_requested = Signal(int, str)
    #: a roster went to the bin (the window closes it if it is open)
    roster_deleted = Signal(int)
    message = Signal(str)

    def __init__(
        self, registry: Registry, store: Store | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.registry = registry
        self.store = store
        self.search = QLineEdit()
        self.search.setObjectName("librarySearch")
        self.search.setPlaceholderText("Search rosters (name, army list, ruleset)")
        self.search.setClearButtonEnabled(True)
        self.model = _LibraryModel(self)
        #: what the proxy shows while the tree is rebuilt
        self._empty = QStandardItemModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setRecursiveFilteringEnabled(True)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setFilterRole(SEARCH_ROLE)
        self.search.textChanged.connect(self._filter)
        self.search.returnPressed.connect(self._open_first_match)
        self.view = QTreeView()
        self.view.setObjectName("libraryView")
        self.view.setModel(self.proxy)
        self.view.setHeaderHidden(False)
        self.view.setUniformRowHeights(True)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.activated.connect(self._activated)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu)
        # A roster's tooltip is made when it is hovered, not for each of thousands of rows
        # when the library is built (and it names rulesets loaded since).
        self.view.viewport().installEventFilter(self)
        self.buttons: dict[str, QPushButton] = {}
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        for key, text, tip, slot in (
            ("open", "&Open", "Open the selected roster (Enter)", self.open_selected),
            ("duplicate", "D&uplicate", "Copy the selected roster", self.duplicate_selected),
            ("rename", "Rena&me", "Rename the selected roster (F2)", self.rename_selected),
            ("delete", "Delete", "Move the selected roster to Deleted (Del)", self.delete_selected),
            (
                "restore",
                "Rest&ore",
                "Take the selected roster out of Deleted",
                self.restore_selected,
            ),
        ):
            button = QPushButton(text)
            button.setToolTip(tip)
            button.clicked.connect(slot)
            button.setObjectName(f"library_{key}")
            self.buttons[key] = button
            row.addWidget(button)
        row.addStretch(1)
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.search)
        layout.addWidget(self.view, 1)
        layout.addLayout(row)
        layout.addWidget(self.status)
        self.setTabOrder(self.search, self.view)
        self.view.selectionModel().currentChanged.connect(lambda *_: self._update_buttons())
        self.refresh()

    # ------------------------------------------------------------------ contents

    def set_store(self, store: Store | None, summaries: list[RosterSummary] | None = None) -> None:
        self.store = store
        self.refresh(summaries)

    def _ruleset_name(self, ruleset_id: str) -> str:
        if ruleset_id in self.registry:
            return self.registry.get(ruleset_id).meta.short_name
        return f"{ruleset_id} (not loaded)"

    def _army_name(self, s: RosterSummary) -> str:
        if s.ruleset in self.registry:
            army = self.registry.get(s.ruleset).armies.get(s.army)
            if army is not None:
                return army.name
        return s.army

    def refresh(self, summaries: list[RosterSummary] | None = None) -> None:
        """Reload from the store (or show ``summaries``, the store's list already read),
        keeping the selection and what is collapsed."""
        current = self.selected_roster()
        self.model.clear()
        self.model.setHorizontalHeaderLabels(["Roster", "Units"])
        self._header_modes()
        if self.store is None:
            self.status.setText("No store is open: rosters cannot be listed or saved.")
            self._update_buttons()
            return
        from app.store import list_rosters  # loaded after the window is shown (app.gui.app)

        if summaries is None:
            from app.store import StoreError

            try:
                summaries = list_rosters(self.store, include_deleted=True)
            except StoreError as exc:  # busy, damaged: say so, keep the window
                self.status.setText(f"The library cannot be read: {exc}")
                self.message.emit(str(exc))
                self._update_buttons()
                return
        live = [s for s in summaries if not s.deleted]
        dead = [s for s in summaries if s.deleted]
        # The tree is built detached and added whole: appending rows one by one to items
        # already in the model sends each through the filter proxy (slow at 3,000 rosters).
        groups: dict[tuple[str, str], QStandardItem] = {}
        tops: dict[str, QStandardItem] = {}
        rows: list[list[QStandardItem]] = []
        for s in live:
            top = tops.get(s.ruleset)
            if top is None:
                top = self._group_item(self._ruleset_name(s.ruleset))
                top.setData(s.ruleset, RULESET_ROLE)
                tops[s.ruleset] = top
                rows.append([top, self._blank()])
            side = groups.get((s.ruleset, s.side))
            if side is None:
                side = self._group_item(s.side)
                groups[(s.ruleset, s.side)] = side
                top.appendRow([side, self._blank()])
            side.appendRow(self._roster_row(s))
        bin_item = None
        if dead:
            bin_item = self._group_item(f"{DELETED_GROUP} ({len(dead)})")
            bin_item.setData(True, DELETED_ROLE)
            bin_item.setToolTip("Deleted rosters: restore one, or delete it for good")
            rows.append([bin_item, self._blank()])
            for s in dead:
                bin_item.appendRow(self._roster_row(s, deleted=True))
        self.proxy.setSourceModel(self._empty)  # one reset of the view, not one per group
        for row in rows:
            self.model.appendRow(row)
        self.proxy.setSourceModel(self.model)
        self._header_modes()  # the reset above forgets them
        self.view.expandAll()
        if bin_item is not None:
            self.view.collapse(self.proxy.mapFromSource(self.model.indexFromItem(bin_item)))
        n = len(live)
        self.status.setText(
            f"{n} roster{'' if n == 1 else 's'}" + (f", {len(dead)} deleted" if dead else "")
        )
        if current is not None:
            self.select_roster(current)
        self._update_buttons()

    def _header_modes(self) -> None:
        header = self.view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)

    def update_names(self) -> None:
        """Name the rulesets loaded since the library was built (the app loads the other
        rulesets after the reopened roster is in view), without reading the store or
        rebuilding the tree: the group names and the rows' search text."""
        for row in range(self.model.rowCount()):
            top = self.model.item(row)
            ruleset = top.data(RULESET_ROLE)
            if ruleset is not None:
                top.setText(self._ruleset_name(str(ruleset)))
            self._research(top)

    def _research(self, parent: QStandardItem) -> None:
        for row in range(parent.rowCount()):
            item = parent.child(row)
            summary = item.data(SUMMARY_ROLE)
            if summary is not None:
                item.setData(self.describe(summary, tooltip=False), SEARCH_ROLE)
            else:
                self._research(item)

    def _group_item(self, text: str) -> QStandardItem:
        item = QStandardItem(text)
        item.setEditable(False)
        item.setData("", SEARCH_ROLE)
        font = item.font()
        font.setBold(True)
        item.setFont(font)
        return item

    def _blank(self) -> QStandardItem:
        item = QStandardItem("")
        item.setEditable(False)
        return item

    def _roster_row(self, s: RosterSummary, *, deleted: bool = False) -> list[QStandardItem]:
        name = QStandardItem(s.name)
        name.setData(s.id, ROSTER_ROLE)
        name.setData(deleted, DELETED_ROLE)
        name.setData(s, SUMMARY_ROLE)
        name.setData(self.describe(s, tooltip=False), SEARCH_ROLE)
        name.setEditable(not deleted)
        units = QStandardItem(str(s.units))
        units.setTextAlignment(_RIGHT)
        row = [name, units]
        for item in row[1:]:
            item.setEditable(False)
            item.setData(s.id, ROSTER_ROLE)
            item.setData(deleted, DELETED_ROLE)
        if deleted:
            grey = QBrush(QColor("#888888"))
            for item in row:
                item.setForeground(grey)
        return row

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and watched is self.view.viewport():
            assert isinstance(event, QHelpEvent)
            index = self.view.indexAt(event.pos()).siblingAtColumn(0)
            summary = index.data(SUMMARY_ROLE) if index.isValid() else None
            if summary is not None:
                QToolTip.showText(event.globalPos(), self.describe(summary, tooltip=True))
                return True
        return super().eventFilter(watched, event)

    def describe(self, s: RosterSummary, *, tooltip: bool) -> str:
        """A roster row's tooltip, or its search text (name, army list, ruleset, side)."""
        army = self._army_name(s)
        ruleset = self._ruleset_name(s.ruleset)
        if not tooltip:
            return f"{s.name} {army} {ruleset} {s.side}"
        when = s.updated_at.astimezone().strftime("%Y-%m-%d %H:%M")
        scale = f" · {s.scale}" if s.scale else ""
        return f"{s.name}\n{ruleset} · {army} · {s.side}{scale}\nchanged {when}"

    def _filter(self, text: str) -> None:
        self.proxy.setFilterFixedString(text.strip())
        self.view.expandAll()

    # ------------------------------------------------------------------ selection

    def _selected_index(self) -> QModelIndex:
        index = self.view.currentIndex()
        return index.siblingAtColumn(0) if index.isValid() else index

    def selected_roster(self) -> int | None:
        rid = self._selected_index().data(ROSTER_ROLE)
        return int(rid) if rid is not None else None

    def selected_is_deleted(self) -> bool:
        return bool(self._selected_index().data(DELETED_ROLE))

    def _find(self, roster_id: int) -> QModelIndex:
        matches = self.model.match(
            self.model.index(0, 0),
            ROSTER_ROLE,
            roster_id,
            1,
            Qt.MatchFlag.MatchExactly | Qt.MatchFlag.MatchRecursive,
        )
        return self.proxy.mapFromSource(matches[0]) if matches else QModelIndex()

    def select_roster(self, roster_id: int) -> bool:
        index = self._find(roster_id)
        if not index.isValid():
            return False
        self.view.expand(index.parent())
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index)
        return True

    def _update_buttons(self) -> None:
        rid = self.selected_roster()
        deleted = self.selected_is_deleted()
        live = rid is not None and not deleted
        for key in ("open", "duplicate", "rename"):
            self.buttons[key].setEnabled(live)
            self.buttons[key].setVisible(not deleted)
        self.buttons["delete"].setEnabled(rid is not None)
        self.buttons["delete"].setText("Delete for good" if deleted else "Delete")
        self.buttons["restore"].setVisible(deleted)
        self.buttons["restore"].setEnabled(deleted)

    # ------------------------------------------------------------------ requests

    def _activated(self, index: QModelIndex) -> None:
        rid = index.siblingAtColumn(0).data(ROSTER_ROLE)
        if rid is None:
            return
        if index.siblingAtColumn(0).data(DELETED_ROLE):
            self.message.emit("This roster is deleted: restore it to open it")
            return
        self.open_requested.emit(int(rid))

    def _open_first_match(self) -> None:
        """Enter in the search box: open the selected roster, else the first one shown."""
        rid = self.selected_roster()
        if rid is None or self.selected_is_deleted() or not self._find(rid).isValid():
            rid = self._first_roster(QModelIndex())
        if rid is not None:
            self.open_requested.emit(rid)

    def _first_roster(self, parent: QModelIndex) -> int | None:
        for row in range(self.proxy.rowCount(parent)):
            index = self.proxy.index(row, 0, parent)
            rid = index.data(ROSTER_ROLE)
            if rid is not None and not index.data(DELETED_ROLE):
                return int(rid)
            found = self._first_roster(index)
            if found is not None:
                return found
        return None

    def open_selected(self) -> None:
        rid = self.selected_roster()
        if rid is not None and not self.selected_is_deleted():
            self.open_requested.emit(rid)

    def duplicate_selected(self) -> None:
        rid = self.selected_roster()
        if rid is None or self.store is None:
            return
        store = self.store
        from app.store import duplicate_roster

        new = self._store_call(lambda: duplicate_roster(store, roster_id=rid))
        if not isinstance(new, int):
            return
        self.refresh()
        self.select_roster(new)
        self.message.emit("Duplicated the roster")

    def rename_selected(self) -> None:
        index = self._selected_index()
        if (
            index.isValid()
            and index.data(ROSTER_ROLE) is not None
            and not self.selected_is_deleted()
        ):
            self.view.setFocus()
            self.view.edit(index)

    def delete_selected(self) -> None:
        rid = self.selected_roster()
        if rid is None or self.store is None:
            return
        store = self.store
        from app.store import delete_roster, purge_roster

        name = str(self._selected_index().data(Qt.ItemDataRole.DisplayRole))
        if self.selected_is_deleted():
            if dialogs.confirm(
                self,
                "Delete for good",
                f"Delete “{name}” for good? This cannot be undone.",
                "Delete for good",
            ):
                if self._store_call(lambda: purge_roster(store, roster_id=rid)) is None:
                    return
                self.refresh()
                self.message.emit(f"Deleted “{name}” for good")
            return
        if not dialogs.confirm(
            self,
            "Delete roster",
            f"Delete “{name}”?\n\nIt goes to the Deleted group at the bottom of the library, "
            "from where you can restore it.",
            "Delete",
        ):
            return
        if self._store_call(lambda: delete_roster(store, roster_id=rid)) is None:
            return
        self.roster_deleted.emit(rid)
        self.refresh()
        self.message.emit(f"Deleted “{name}”; restore it from the Deleted group")

    def restore_selected(self) -> None:
        rid = self.selected_roster()
        if rid is None or self.store is None or not self.selected_is_deleted():
            return
        store = self.store
        from app.store import restore_roster

        if self._store_call(lambda: restore_roster(store, roster_id=rid)) is None:
            return
        self.refresh()
        self.select_roster(rid)
        self.message.emit("Restored the roster")

    def _store_call(self, call: Callable[[], object]) -> object | None:
        """Run a store write; a store failure (busy, read-only, full) is told in the status
        bar and returns None (a success returns True or the call's result)."""
        from app.store import StoreError

        try:
            result = call()
        except (StoreError, KeyError) as exc:
            text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
            self.message.emit(f"Not done: {text}")
            self.refresh()
            return None
        return True if result is None else result

    def _context_menu(self, pos: Any) -> None:
        index = self.view.indexAt(pos)
        if not index.isValid() or index.siblingAtColumn(0).data(ROSTER_ROLE) is None:
            return
        self.view.setCurrentIndex(index)
        menu = QMenu(self)
        keys = (
            ("restore", "delete")
            if self.selected_is_deleted()
            else ("open", "duplicate", "rename", "delete")
        )
        for key in keys:
            button = self.buttons[key]
            action = QAction(button.text().replace("&", ""), menu)
            action.triggered.connect(button.click)
            menu.addAction(action)
        menu.exec(self.view.viewport().mapToGlobal(pos))
