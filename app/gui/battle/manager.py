"""Battles from the main window: the Battles panel (in the library, next to the rosters),
New battle, Open, Recent battles and Resume (the battle last played, where it stopped).
Each battle opens in its own :class:`~app.gui.battle.window.BattleWindow`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.rules.registry import Registry

if TYPE_CHECKING:
    from app.core.battle import BattleSession
    from app.core.roster import Roster
    from app.gui.battle.controller import BattleController
    from app.gui.battle.history_dialog import HistoryDialog
    from app.gui.battle.new_battle import NewBattleDialog
    from app.gui.battle.window import BattleWindow
    from app.usecases.access import Store

RECENT_KEY = "battles/recent"
RECENT_MAX = 8
BATTLE_ROLE = Qt.ItemDataRole.UserRole


class BattleLibrary(QWidget):
    """The stored battles: name, ruleset, sides, turn, result. Double-click opens one."""

    open_requested = Signal(int)
    new_requested = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("battleLibrary")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.view = QTreeWidget()
        self.view.setObjectName("battleList")
        self.view.setHeaderLabels(["Battle", "Ruleset", "Turn", "Result"])
        self.view.setRootIsDecorated(False)
        self.view.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.view.itemActivated.connect(self._activated)
        self.status = QLabel()
        self.status.setWordWrap(True)
        row = QHBoxLayout()
        self.new_button = QPushButton("New battle…")
        self.open_button = QPushButton("Open")
        self.new_button.clicked.connect(self.new_requested)
        self.open_button.clicked.connect(self._open_selected)
        row.addWidget(self.new_button)
        row.addWidget(self.open_button)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.status)
        layout.addLayout(row)

    def refresh(self, store: Store | None, registry: Registry) -> None:
        self.view.clear()
        if store is None:
            self.status.setText("No store: battles are not kept")
            return
        from app.usecases.access import StoreError
        from app.usecases.battle import list_battles

        try:
            battles = list_battles(store)
        except StoreError as exc:
            self.status.setText(str(exc))
            return
        if battles:
            from html import escape  # only here: html.entities is a millisecond of a start
        for b in battles:
            name = registry.get(b.ruleset).meta.short_name if b.ruleset in registry else b.ruleset
            result = (
                ""
                if b.result is None
                else ("draw" if b.winner is None else f"{b.sides[b.winner]} won")
            )
            item = QTreeWidgetItem([b.name, name, str(b.turn), result])
            item.setData(0, BATTLE_ROLE, b.id)
            item.setToolTip(0, escape(f"{b.sides[0]} against {b.sides[1]}: {b.steps} steps played"))
            self.view.addTopLevelItem(item)
        self.status.setText(f"{len(battles)} battle{'' if len(battles) == 1 else 's'}")

    def _activated(self, item: QTreeWidgetItem, _column: int) -> None:
        self.open_requested.emit(int(item.data(0, BATTLE_ROLE)))

    def _open_selected(self) -> None:
        item = self.view.currentItem()
        if item is not None:
            self._activated(item, 0)


class BattleManager(QObject):
    message = Signal(str)
    #: rosters were put in the library (New battle from history's Rosters to edit)
    rosters_added = Signal()

    def __init__(
        self,
        parent: QWidget,
        registry: Registry,
        store: Store | None,
        settings: QSettings,
        library: BattleLibrary,
    ) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.registry = registry
        self.store = store
        self.settings = settings
        self.library = library
        self.windows: dict[int, BattleWindow] = {}
        library.open_requested.connect(self.open_battle)
        library.new_requested.connect(self.new_battle)

    def attach(self, registry: Registry, store: Store | None) -> None:
        self.registry, self.store = registry, store
        self.refresh()

    def refresh(self) -> None:
        self.library.refresh(self.store, self.registry)

    # ------------------------------------------------------------------ recent

    def recent(self) -> list[int]:
        raw = self.settings.value(RECENT_KEY, [])
        items = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
        out: list[int] = []
        for item in items:
            try:
                out.append(int(item))
            except (TypeError, ValueError):
                continue
        return out

    def _remember(self, battle_id: int) -> None:
        ids = [battle_id] + [i for i in self.recent() if i != battle_id]
        self.settings.setValue(RECENT_KEY, [str(i) for i in ids[:RECENT_MAX]])
        self.settings.sync()

    def fill_recent_menu(self, menu: QMenu) -> None:
        menu.clear()
        if self.store is None:
            menu.addAction("(no store)").setEnabled(False)
            return
        from app.usecases.battle import list_battles

        known = {b.id: b for b in list_battles(self.store)}
        shown = 0
        for bid in self.recent():
            b = known.get(bid)
            if b is None:
                continue
            action = menu.addAction(f"{b.name} (turn {b.turn})")
            action.triggered.connect(lambda _c=False, i=bid: self.open_battle(i))
            shown += 1
        if not shown:
            menu.addAction("(no battle yet)").setEnabled(False)

    # ------------------------------------------------------------------ opening

    def new_battle(self) -> NewBattleDialog | None:
        if self.store is None:
            self.message.emit("No store: a battle needs the library to be kept")
            return None
        from app.gui.battle.new_battle import NewBattleDialog  # battle code loads when used
        from app.usecases.access import StoreError
        from app.usecases.roster import list_rosters, load_roster

        store = self.store

        def roster(rid: int) -> Roster:
            try:
                return load_roster(store, roster_id=rid)
            except StoreError as exc:
                raise ValueError(str(exc)) from None

        dialog = NewBattleDialog(
            self.registry, list_rosters(store), self.parent_widget, load_roster=roster
        )
        dialog.accepted.connect(lambda: self._create(dialog))
        dialog.open()
        return dialog

    def new_battle_from_history(self) -> HistoryDialog | None:
        """Battle > New battle from history: a historical battle (``app.core.scenario``) in
        a ruleset, started in a battle window, or its armies put in the library."""
        if self.store is None:
            self.message.emit("No store: a battle needs the library to be kept")
            return None
        from app.core.scenario.start import scenario_library
        from app.gui.battle.history_dialog import HistoryDialog
        from app.paths import user_scenarios_dir

        library = scenario_library(self.registry, user_scenarios_dir())
        for key, err in sorted(library.failures.items()):
            self.message.emit(f"Historical battle {key} did not load: {err.problems[0]}")
        dialog = HistoryDialog(self.registry, library, self.parent_widget)
        dialog.accepted.connect(lambda: self._from_history(dialog))
        dialog.open()
        return dialog

    def _from_history(self, dialog: HistoryDialog) -> BattleWindow | None:
        from app.gui.battle.history_dialog import create_from_history, save_history_rosters

        assert self.store is not None
        if dialog.rosters_wanted:
            try:
                saved = save_history_rosters(dialog, self.store)
            except ValueError as exc:
                self.message.emit(f"The rosters were not saved: {exc}")
                return None
            self.rosters_added.emit()
            self.message.emit("In the library to edit: " + ", ".join(name for _id, name in saved))
            return None
        return self._start(lambda store: create_from_history(dialog, store))

    def _create(self, dialog: NewBattleDialog) -> BattleWindow | None:
        from app.gui.battle.new_battle import create_from_dialog

        return self._start(lambda store: create_from_dialog(dialog, store))

    def _start(
        self, create: Callable[[Store], tuple[int, BattleSession, tuple[Roster, Roster]]]
    ) -> BattleWindow | None:
        """A battle ``create`` makes and stores, opened in a window (its failure said in the
        status bar, nothing opened)."""
        from app.gui.battle.controller import BattleController

        assert self.store is not None
        try:
            battle_id, session, rosters = create(self.store)
        except ValueError as exc:
            self.message.emit(f"The battle was not started: {exc}")
            return None
        controller = BattleController(
            session, store=self.store, battle_id=battle_id, rosters=rosters
        )
        self.refresh()
        return self._show(battle_id, controller)

    def open_battle(self, battle_id: int) -> BattleWindow | None:
        """The battle's window, where it stopped (raised if it is open already)."""
        if battle_id in self.windows:
            window = self.windows[battle_id]
            window.show()
            if QGuiApplication.platformName() != "offscreen":  # it cannot raise a window
                window.raise_()
                window.activateWindow()
            return window
        if self.store is None:
            return None
        from app.gui.battle.controller import BattleController
        from app.usecases.access import StoreError
        from app.usecases.battle import battle_lock, battle_rosters, load_battle

        try:
            session = load_battle(self.store, battle_id=battle_id, registry=self.registry)
            # the state it opens at, read here: loading reads no state, and a damaged one
            # read by the window as it is built was a traceback, the window half made
            _ = session.state
            rosters = battle_rosters(self.store, battle_id=battle_id, registry=self.registry)
            locked = battle_lock(self.store)
        except (StoreError, KeyError, ValueError) as exc:
            self.message.emit(f"The battle cannot be opened: {exc}")
            return None
        controller = BattleController(
            session, store=self.store, battle_id=battle_id, rosters=rosters
        )
        controller.locked = locked
        warning = session.data_warning()
        window = self._show(battle_id, controller)
        if warning:
            window.statusBar().showMessage(warning, 20000)
        return window

    def resume(self) -> BattleWindow | None:
        """The battle played last, where it stopped."""
        for bid in self.recent():
            window = self.open_battle(bid)
            if window is not None:
                return window
        self.message.emit("No battle to resume")
        return None

    def _show(self, battle_id: int, controller: BattleController) -> BattleWindow:
        from app.gui.battle.actions import BattleKey
        from app.gui.battle.window import BattleWindow

        window = BattleWindow(controller, self.settings)
        self.windows[battle_id] = window
        window.closed.connect(lambda: self._closed(battle_id))
        window.acts[BattleKey.NEW_BATTLE].triggered.connect(self.new_battle)
        controller.changed.connect(self.refresh)
        self._remember(battle_id)
        window.show()
        return window

    def _closed(self, battle_id: int) -> None:
        """A battle window closed is forgotten and deleted, with its map, docks and battle (a
        closed window was kept for the rest of the run: each battle opened and closed held
        its own in memory, and the collector went over them on every full pass)."""
        window = self.windows.pop(battle_id, None)
        if window is not None:
            window.deleteLater()
        self.refresh()

    def reload_changed(self) -> list[int]:
        """Reload each open battle another member changed in the store (a club server),
        unless the user is dragging or drawing on its map. The ids of the battles passed
        over for that (the caller asks again soon)."""
        waiting = []
        for battle_id, window in list(self.windows.items()):
            if window.map.busy:
                waiting.append(battle_id)
            else:
                window.controller.reload_if_changed(self.registry)
        return waiting

    def reset_layouts(self) -> None:
        """The main window's View > Reset layout reaches the battle windows: those open are
        reset, and the layout kept for the next one is forgotten."""
        for key in ("battle/geometry", "battle/state"):
            self.settings.remove(key)
        for window in list(self.windows.values()):
            window.reset_layout()

    def close_all(self) -> None:
        for window in list(self.windows.values()):
            window.close()
