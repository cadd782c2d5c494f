"""The roster library: every roster in the store, grouped by ruleset and side, with a search
box. Open, duplicate, rename, delete (asks first; deleted rosters wait in a "Deleted" group
from which they can be restored or deleted for good)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QItemSelectionModel,
    QModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from app.core.roster import roster_name_problem
from app.gui import dialogs
from app.gui.fit import CELL_PADDING, text_width
from app.gui.library_model import (
    DELETED_GROUP,
    DELETED_ROLE,
    ROSTER_ROLE,
    RULESET_ROLE,
    SEARCH_ROLE,
    SUMMARY_ROLE,
    LibraryModel,
)
from app.rules.registry import Registry

if TYPE_CHECKING:
    from app.usecases.access import Store
    from app.usecases.roster import RosterSummary

__all__ = [
    "DELETED_GROUP",
    "DELETED_ROLE",
    "ROSTER_ROLE",
    "RULESET_ROLE",
    "SEARCH_ROLE",
    "SUMMARY_ROLE",
    "LibraryPanel",
]


#: the buttons another member's roster disables, with their own tooltips
_LOCKABLE = {
    "rename": "Rename the selected roster (F2)",
    "delete": "Move the selected roster to Deleted (Del)",
    "restore": "Take the selected roster out of Deleted",
}


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
        #: why this user may not rename or delete a roster (a player's window on a club
        #: server: another member's roster), or None; set by the club link
        self.lock_of: Callable[[RosterSummary], str | None] = lambda s: None
        self.search = QLineEdit()
        self.search.setObjectName("librarySearch")
        self.search.setPlaceholderText("Search rosters (name, army list, ruleset)")
        self.search.setClearButtonEnabled(True)
        self.model = LibraryModel(
            self,
            name_of=self._ruleset_name,
            search_of=lambda s: self.describe(s, tooltip=False),
            tooltip_of=lambda s: self.describe(s, tooltip=True),
            rename=self._rename,
        )
        self.search.textChanged.connect(self._filter)
        self.search.returnPressed.connect(self._open_first_match)
        self.view = QTreeView()
        self.view.setObjectName("libraryView")
        self.view.setModel(self.model)
        self.view.setHeaderHidden(False)
        self.view.setUniformRowHeights(True)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.activated.connect(self._activated)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu)
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
        if self.store is None:
            self.model.set_rosters([], [])
            self._header_modes()
            self.status.setText("No store is open: rosters cannot be listed or saved.")
            self._update_buttons()
            return
        from app.usecases.roster import (
            list_rosters,  # loaded after the window is shown (app.gui.app)
        )

        if summaries is None:
            from app.usecases.access import StoreError

            try:
                summaries = list_rosters(self.store, include_deleted=True)
            except StoreError as exc:  # busy, damaged: say so, keep the window
                self.model.set_rosters([], [])
                self._header_modes()
                self.status.setText(f"The library cannot be read: {exc}")
                self.message.emit(str(exc))
                self._update_buttons()
                return
        live = [s for s in summaries if not s.deleted]
        dead = [s for s in summaries if s.deleted]
        # One reset of the model (and of the view); rows are made when Qt asks for them.
        self.model.set_rosters(live, dead)
        self._expand(deleted=False)
        self._header_modes()
        n = len(live)
        self.status.setText(
            f"{n} roster{'' if n == 1 else 's'}" + (f", {len(dead)} deleted" if dead else "")
        )
        if current is not None:
            self.select_roster(current)
        self._update_buttons()

    def _expand(self, *, deleted: bool) -> None:
        """Open every group (the Deleted group too if ``deleted``), just after the model was
        rebuilt: the view then lays the tree out once, when it is next shown, asking only
        the rows' indexes and flags. ``expandAll`` laid it out at once and marked each
        roster row expanded too (a persistent index for each of thousands of rows)."""
        for index in self.model.group_indexes(deleted=deleted):
            self.view.expand(index)

    def _header_modes(self) -> None:
        """The name column takes the room; the Units column is as wide as its widest count
        (or its title), measured with the font's metrics. Qt's own fitting
        (``ResizeToContents``) asked the model for up to a thousand rows, seven roles each,
        every time the view was laid out: some 40,000 calls into Python at a start with 3,000
        rosters."""
        header = self.view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        width = text_width(self.view.font(), self.model.units_texts()) + CELL_PADDING
        header.resizeSection(1, max(width, header.sectionSizeHint(1)))

    def update_names(self) -> None:
        """Name the rulesets loaded since the library was built (the app loads the other
        rulesets after the reopened roster is in view), without reading the store or
        rebuilding the tree: the group names and the rows' search text (with a search on, the
        rows it shows are made again: other rosters may match now)."""
        current = self.selected_roster()
        if self.model.renamed():
            self._expand(deleted=True)
            self._reselect(current)

    def _rename(self, roster_id: int, value: str) -> bool:
        """Renaming in place does not store the text: it asks the window (through
        :attr:`rename_requested`), which renames in the store or the open session."""
        lock = self._lock(self.model.index_of_roster(roster_id))
        if lock is not None:
            self.message.emit(f"Not renamed: {lock}")
            return False
        name = value.strip()
        if not name:
            self.message.emit("A roster needs a name; the old name is kept")
            return False
        problem = roster_name_problem(name)
        if problem is not None:  # said here, before a long name fills the status bar
            self.message.emit(f"Not renamed: {problem}; the old name is kept")
            return False
        index = self.model.index_of_roster(roster_id)
        if name != index.data(Qt.ItemDataRole.DisplayRole):
            # After the editor has closed: the rename refreshes this model.
            QTimer.singleShot(0, lambda: self.rename_requested.emit(roster_id, name))
        return True

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
        """Show the rosters the search text matches, keeping the selected one selected while
        it is shown."""
        current = self.selected_roster()
        self.model.set_filter(text.strip())
        self._expand(deleted=True)
        self._reselect(current)

    def _reselect(self, roster_id: int | None) -> None:
        """Select ``roster_id`` again after the rows were rebuilt, if it is shown (without
        scrolling to it, as a filter that keeps a row does not scroll)."""
        index = self.model.index_of_roster(roster_id) if roster_id is not None else None
        if index is not None and index.isValid():
            self.view.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            )
        self._update_buttons()

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
        return self.model.index_of_roster(roster_id)

    def select_roster(self, roster_id: int) -> bool:
        index = self._find(roster_id)
        if not index.isValid():
            return False
        self.view.expand(index.parent())
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index)
        return True

    def _lock(self, index: QModelIndex) -> str | None:
        """Why the roster at ``index`` may not be renamed or deleted here, or None."""
        summary = index.data(SUMMARY_ROLE) if index.isValid() else None
        return None if summary is None else self.lock_of(summary)

    def _update_buttons(self) -> None:
        rid = self.selected_roster()
        deleted = self.selected_is_deleted()
        live = rid is not None and not deleted
        lock = self._lock(self._selected_index()) if rid is not None else None
        for key in ("open", "duplicate", "rename"):
            self.buttons[key].setEnabled(live)
            self.buttons[key].setVisible(not deleted)
        self.buttons["delete"].setEnabled(rid is not None)
        self.buttons["delete"].setText("Delete for good" if deleted else "Delete")
        self.buttons["restore"].setVisible(deleted)
        self.buttons["restore"].setEnabled(deleted)
        for key, tip in _LOCKABLE.items():
            self.buttons[key].setToolTip(tip if lock is None else f"Disabled: {lock}")
            if lock is not None:
                self.buttons[key].setEnabled(False)

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
        for row in range(self.model.rowCount(parent)):
            index = self.model.index(row, 0, parent)
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
        from app.usecases.roster import duplicate_roster

        new = self._store_call(lambda: duplicate_roster(store, roster_id=rid))
        if not isinstance(new, int):
            return
        self.refresh()
        self.select_roster(new)
        self.message.emit("Duplicated the roster")

    def rename_selected(self) -> None:
        index = self._selected_index()
        lock = self._lock(index)
        if lock is not None:
            self.message.emit(f"Not renamed: {lock}")
            return
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
        lock = self._lock(self._selected_index())
        if lock is not None:
            self.message.emit(f"Not deleted: {lock}")
            return
        store = self.store
        from app.usecases.roster import delete_roster, purge_roster

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
        lock = self._lock(self._selected_index())
        if lock is not None:
            self.message.emit(f"Not restored: {lock}")
            return
        store = self.store
        from app.usecases.roster import restore_roster

        if self._store_call(lambda: restore_roster(store, roster_id=rid)) is None:
            return
        self.refresh()
        self.select_roster(rid)
        self.message.emit("Restored the roster")

    def _store_call(self, call: Callable[[], object]) -> object | None:
        """Run a store write; a store failure (busy, read-only, full) is told in the status
        bar and returns None (a success returns True or the call's result)."""
        from app.usecases.access import StoreError

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
