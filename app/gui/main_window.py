"""The main window: assembles the parts (actions, menus, toolbar, status bar, docks and the
roster editor) and hands them to :class:`~app.gui.controller.Builder`, which does the work.
Layout and geometry are remembered (``saveState``/``restoreState``), as in the PySide6
dock-widgets example; every dock is in the View menu."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QToolBar,
    QToolButton,
    QWidget,
)

from app.gui import dialogs
from app.gui.actions import ActionKey, Actions
from app.gui.battle.manager import BattleLibrary, BattleManager
from app.gui.campaign import menu as campaign_menu
from app.gui.controller import Builder
from app.gui.editor import PLACEHOLDER, RosterEditor
from app.gui.entries import ArmyListPanel
from app.gui.icons import bundled_icon
from app.gui.library import LibraryPanel
from app.gui.printables import Document, Printable, declared
from app.gui.printing import Printer
from app.gui.settings import WindowSettings
from app.gui.validation_panel import ValidationPanel
from app.gui.window_base import WindowBase
from app.rules.registry import Registry

if TYPE_CHECKING:  # the event classes are built when the first such event comes
    from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent

    from app.usecases.access import Store
    from app.usecases.roster import RosterSummary


#: room for the title bar and frame at first start (width, height), before they are known
FRAME_ALLOWANCE = (16, 64)

#: the print actions and the document each one prints
PRINT_DOCUMENTS = {
    ActionKey.PRINT_CARDS: Document.CARDS,
    ActionKey.PRINT_ROSTER: Document.ROSTER,
    ActionKey.PRINT_REFSHEET: Document.REFSHEET,
}


def _dropped_roster_files(event: QDragEnterEvent | QDropEvent) -> list[Path]:
    data = event.mimeData()
    if not data.hasUrls():
        return []
    return [
        Path(url.toLocalFile())
        for url in data.urls()
        if url.isLocalFile() and url.toLocalFile().lower().endswith(".json")
    ]


class MainWindow(WindowBase):
    def __init__(
        self,
        registry: Registry,
        store: Store | None,
        settings: QSettings | None = None,
        *,
        store_error: str | None = None,
        loading: bool = False,
    ) -> None:
        super().__init__()
        self.setObjectName("castraMainWindow")
        self.setWindowTitle("Castra")
        self.setAcceptDrops(True)
        self.setDockOptions(
            QMainWindow.DockOption.AnimatedDocks | QMainWindow.DockOption.AllowTabbedDocks
        )
        # The left docks (library, army list) run the full height; validation sits under
        # the editor.
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.registry = registry
        self.prefs = WindowSettings(settings if settings is not None else QSettings())
        self.action_registry = Actions(self)

        self.editor = RosterEditor()
        self.setCentralWidget(self.editor)
        self.library = LibraryPanel(registry, store)
        self.army_list = ArmyListPanel()
        self.validation = ValidationPanel()
        self.library_dock = self._dock(
            "libraryDock",
            "Roster library",
            self.library,
            Qt.DockWidgetArea.LeftDockWidgetArea,
            ActionKey.VIEW_LIBRARY,
        )
        self.army_dock = self._dock(
            "armyListDock",
            "Army list",
            self.army_list,
            Qt.DockWidgetArea.LeftDockWidgetArea,
            ActionKey.VIEW_ARMY_LIST,
        )
        self.validation_dock = self._dock(
            "validationDock",
            "Validation",
            self.validation,
            Qt.DockWidgetArea.BottomDockWidgetArea,
            ActionKey.VIEW_VALIDATION,
        )
        self.battle_library = BattleLibrary()
        self.battles_dock = self._dock(
            "battlesDock",
            "Battles",
            self.battle_library,
            Qt.DockWidgetArea.LeftDockWidgetArea,
            ActionKey.VIEW_BATTLES,
        )
        self.tabifyDockWidget(self.library_dock, self.battles_dock)
        self.library_dock.raise_()
        self.battles = BattleManager(self, registry, store, self.prefs.q, self.battle_library)
        self.battles.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.battles_dock.visibilityChanged.connect(
            lambda shown: self.battles.refresh() if shown else None
        )
        self.print_menu = QMenu("&Print / PDF", self)
        self.print_menu.setObjectName("printMenu")
        self.editor.print_button.setMenu(self.print_menu)
        self.toolbar = self._toolbar()
        self.builder = Builder(
            self,
            registry=registry,
            store=store,
            settings=self.prefs,
            actions=self.action_registry,
            editor=self.editor,
            library=self.library,
            army_list=self.army_list,
            validation=self.validation,
            library_dock=self.library_dock,
        )
        self.printer = Printer(self, registry, self.prefs.q)
        self.printer.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self._print_actions()
        from app.gui.club import ClubLink

        self.club = ClubLink(self)
        self._menus()
        self._status_bar(store_error)
        self.club.update()
        self.builder.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.action_registry[ActionKey.QUIT].triggered.connect(self.close)
        self._tab_order()
        self._restore_layout()
        if loading:  # until attach(): the rulesets and the store are being opened
            self.library.status.setText("Opening the library…")
            self.editor.placeholder.setText("<h2>Opening the library…</h2>")
            for key in (ActionKey.NEW, ActionKey.IMPORT, ActionKey.OPEN):
                self.action_registry[key].setEnabled(False)

    def _tab_order(self) -> None:
        """Tab goes library, army list, roster (name, scale, tree, leaders), validation."""
        lib, editor = self.library, self.editor
        chain: list[QWidget] = [
            lib.search,
            lib.view,
            *lib.buttons.values(),
            self.army_list.view,
            editor.name_edit,
            editor.scale_combo,
            editor.tree,
            editor.leaders.add_button,
            editor.leaders.remove_button,
            editor.leaders.view,
            self.validation.view,
        ]
        for first, second in pairwise(chain):
            QWidget.setTabOrder(first, second)

    # ------------------------------------------------------------------ parts

    def _dock(
        self, name: str, title: str, widget: QWidget, area: Qt.DockWidgetArea, key: ActionKey
    ) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self.action_registry.adopt(key, dock.toggleViewAction())
        return dock

    def _toolbar(self) -> QToolBar:
        bar = QToolBar("Main toolbar", self)
        bar.setObjectName("mainToolbar")
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        a = self.action_registry
        for key in (
            ActionKey.NEW,
            ActionKey.IMPORT,
            ActionKey.EXPORT,
            None,
            ActionKey.UNDO,
            ActionKey.REDO,
            None,
            ActionKey.ADD_UNIT,
            ActionKey.ADD_COMMAND,
            ActionKey.ADD_LEADER,
            ActionKey.DUPLICATE_UNIT,
            ActionKey.DELETE,
            None,
        ):
            if key is None:
                bar.addSeparator()
            else:
                bar.addAction(a[key])
        # Print / PDF: the same menu as in the File menu and over the roster
        self.print_tool = QToolButton()
        self.print_tool.setObjectName("printTool")
        self.print_tool.setText("Print / PDF")
        self.print_tool.setIcon(bundled_icon("printer"))
        self.print_tool.setToolTip("Print cards or sheets, or write them as a PDF")
        self.print_tool.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.print_tool.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.print_tool.setMenu(self.print_menu)
        bar.addWidget(self.print_tool)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        a.adopt(ActionKey.VIEW_TOOLBAR, bar.toggleViewAction())
        return bar

    def _print_actions(self) -> None:
        """Each print action opens the print dialog on its document. One menu holds them,
        shown in the File menu, on the toolbar and over the roster."""
        a = self.action_registry
        for key, document in PRINT_DOCUMENTS.items():
            a[key].triggered.connect(lambda _c=False, d=document: self.print_document(d))
            self.print_menu.addAction(a[key])
        self.add_declared_documents()

    def add_declared_documents(self) -> None:
        """A print action for each document the loaded rulesets' engines declare that has
        none yet (after the common ones). The rulesets load after the window shows: this
        runs again when they are attached and when the others arrive."""
        a = self.action_registry
        new = [spec for spec in declared(self.registry) if spec.id not in a.documents]
        a.add_documents(new)
        for spec in new:
            action = a.documents[spec.id]
            action.triggered.connect(lambda _c=False, d=spec: self.print_document(d))
            self.print_menu.addAction(action)
        if new:
            self.builder.update_actions()  # shown only where the open roster's engine has it

    def print_document(self, document: Printable) -> None:
        session = self.builder.session
        self.printer.ask_and_print(document, session.roster if session is not None else None)

    def _menus(self) -> None:
        a = self.action_registry
        menu_bar = self.menuBar()
        file_menu = menu_bar.addMenu("&File")
        file_menu.addAction(a[ActionKey.NEW])
        file_menu.addAction(a[ActionKey.OPEN])
        self.recent_menu = file_menu.addMenu("Open &recent")
        self.recent_menu.setObjectName("recentMenu")
        self.recent_menu.aboutToShow.connect(
            lambda: self.builder.fill_recent_menu(self.recent_menu)
        )
        file_menu.addAction(a[ActionKey.SAVE])
        file_menu.addSeparator()
        file_menu.addAction(a[ActionKey.IMPORT])
        file_menu.addAction(a[ActionKey.EXPORT])
        file_menu.addSeparator()
        file_menu.addMenu(self.print_menu)
        file_menu.addSeparator()
        file_menu.addAction(self.club.connect_action)
        file_menu.addAction(self.club.local_action)
        file_menu.addSeparator()
        file_menu.addAction(a[ActionKey.CLOSE])
        file_menu.addAction(a[ActionKey.QUIT])
        edit_menu = menu_bar.addMenu("&Edit")
        for key in (
            ActionKey.UNDO,
            ActionKey.REDO,
            None,
            ActionKey.ADD_UNIT,
            ActionKey.ADD_COMMAND,
            ActionKey.ADD_LEADER,
            None,
            ActionKey.DUPLICATE_UNIT,
            ActionKey.SPLIT_UNIT,
            ActionKey.DELETE,
            None,
            ActionKey.ROSTER_HISTORY,
        ):
            if key is None:
                edit_menu.addSeparator()
            else:
                edit_menu.addAction(a[key])
        battle_menu = menu_bar.addMenu("&Battle")
        battle_menu.setObjectName("battleMenu")
        battle_menu.addAction(a[ActionKey.NEW_BATTLE])
        battle_menu.addAction(a[ActionKey.NEW_BATTLE_HISTORY])
        battle_menu.addAction(a[ActionKey.RESUME_BATTLE])
        self.recent_battles_menu = battle_menu.addMenu("Recent &battles")
        self.recent_battles_menu.setObjectName("recentBattlesMenu")
        self.recent_battles_menu.aboutToShow.connect(
            lambda: self.battles.fill_recent_menu(self.recent_battles_menu)
        )
        a[ActionKey.NEW_BATTLE].triggered.connect(self.battles.new_battle)
        a[ActionKey.NEW_BATTLE_HISTORY].triggered.connect(self.battles.new_battle_from_history)
        self.battles.rosters_added.connect(lambda: self.builder.library.refresh())
        a[ActionKey.RESUME_BATTLE].triggered.connect(self.battles.resume)
        view_menu = menu_bar.addMenu("&View")
        for key in (
            ActionKey.VIEW_LIBRARY,
            ActionKey.VIEW_BATTLES,
            ActionKey.VIEW_ARMY_LIST,
            ActionKey.VIEW_VALIDATION,
            ActionKey.VIEW_TOOLBAR,
        ):
            view_menu.addAction(a[key])
        view_menu.addSeparator()
        view_menu.addAction(a[ActionKey.RESET_LAYOUT])
        a[ActionKey.RESET_LAYOUT].triggered.connect(self.reset_layout)
        help_menu = menu_bar.addMenu("&Help")
        help_menu.setObjectName("helpMenu")
        for key in (
            ActionKey.GUIDE,
            ActionKey.SHORTCUTS,
            None,
            ActionKey.RULESET_PROBLEMS,
            None,
            ActionKey.ABOUT,
        ):
            if key is None:
                help_menu.addSeparator()
            else:
                help_menu.addAction(a[key])
        a[ActionKey.GUIDE].triggered.connect(self.show_guide)
        a[ActionKey.SHORTCUTS].triggered.connect(self.show_shortcuts)
        a[ActionKey.RULESET_PROBLEMS].triggered.connect(self.show_ruleset_problems)
        a[ActionKey.ABOUT].triggered.connect(self.show_about)
        campaign_menu.install(self)

    # ------------------------------------------------------------------ help

    # help_windows is imported when a help window is first opened, not at start-up

    def show_guide(self) -> QDialog:
        """Help > User guide (F1): the guide's contents page."""
        from app.gui.guide import show_guide

        return show_guide(self)

    def show_shortcuts(self) -> QDialog:
        from app.gui import help_windows

        actions = [a for _, a in self.action_registry.items()]
        return help_windows.show_text(
            self, "shortcutsDialog", "Keyboard shortcuts", help_windows.shortcuts_html(actions)
        )

    def show_about(self) -> QDialog:
        from app.gui import help_windows

        return help_windows.show_text(
            self, "aboutDialog", "About Castra", help_windows.about_html(self.registry)
        )

    def _status_bar(self, store_error: str | None) -> None:
        bar = self.statusBar()
        self.store_label = QLabel()
        bar.addPermanentWidget(self.store_label)
        self.save_label = QLabel()
        self.save_label.setObjectName("saveState")
        self.save_label.setToolTip("Every edit is saved to the library as you make it")
        bar.addPermanentWidget(self.save_label)
        self.builder.save_state.connect(self.save_label.setText)
        self.builder.session_changed.connect(lambda: self.save_label.clear())
        self.failures_button = QToolButton()
        self.failures_button.setObjectName("rulesetFailures")
        self.failures_button.setAutoRaise(True)
        self.failures_button.clicked.connect(self.show_ruleset_problems)
        bar.addPermanentWidget(self.failures_button)
        self._show_store_state(store_error)
        self.club.update()
        self.show_failures()

    def _show_store_state(self, store_error: str | None) -> None:
        if store_error:
            self.store_label.setText(
                "<span style='color:#b00020'>No store: rosters are not saved</span>"
            )
            self.store_label.setToolTip(store_error)
        else:
            self.store_label.clear()

    def show_failures(self) -> None:
        failures = self.registry.failure_lines()
        n = len(failures)
        self.failures_button.setText(f"⚠ {n} ruleset{'' if n == 1 else 's'} failed to load")
        self.failures_button.setToolTip("\n".join(failures))
        self.failures_button.setVisible(bool(failures))

    def attach(
        self,
        registry: Registry,
        store: Store | None,
        store_error: str | None,
        summaries: list[RosterSummary] | None = None,
    ) -> None:
        """Give a window made with ``loading=True`` its rulesets and store (app start-up shows
        the window first and loads these just after); ``summaries``: the store's roster list,
        already read at start, so the library does not read it again."""
        self.registry = registry
        self.builder.registry = registry
        self.printer.registry = registry
        self.builder.store = store
        self.library.registry = registry
        self.library.set_store(store, summaries)
        self.battles.attach(registry, store)
        self.add_declared_documents()
        self.editor.placeholder.setText(PLACEHOLDER)
        for key in (ActionKey.NEW, ActionKey.IMPORT, ActionKey.OPEN):
            self.action_registry[key].setEnabled(True)
        self._show_store_state(store_error)
        self.club.update()
        self.show_failures()

    def show_ruleset_problems(self) -> None:
        problems = [
            (f"{key}: {p.file} {p.path}".strip(), p.message)
            for key, err in sorted(self.registry.failures.items())
            for p in err.problems
        ]
        if not problems:
            self.statusBar().showMessage(
                f"All {len(self.registry)} rulesets loaded without problems", 5000
            )
            return
        dialogs.show_problems(
            self,
            "Ruleset problems",
            "These ruleset folders did not load; the other rulesets work. Fix the files named "
            "here and start Castra again:",
            problems,
        )

    # ------------------------------------------------------------------ layout

    def _default_docks(self) -> None:
        self.resizeDocks([self.library_dock, self.army_dock], [320, 320], Qt.Orientation.Horizontal)
        self.resizeDocks([self.library_dock, self.army_dock], [330, 470], Qt.Orientation.Vertical)
        self.resizeDocks([self.validation_dock], [140], Qt.Orientation.Vertical)
        self.editor.splitter.setSizes([2400, 1000])

    def _restore_layout(self) -> None:
        """The layout of the last run; at first start, a size that fits the screen with its
        title bar and frame (at most 1600 x 1000)."""
        self._default_docks()
        self._default_state = self.saveState()
        geometry = self.prefs.geometry()
        if geometry is None or not self.restoreGeometry(geometry):
            screen = QGuiApplication.primaryScreen()
            avail = screen.availableGeometry() if screen is not None else None
            if avail is not None:
                # the frame and title bar are not known before the window is shown
                width = min(1600, avail.width() - FRAME_ALLOWANCE[0])
                height = min(1000, avail.height() - FRAME_ALLOWANCE[1])
                self.resize(width, height)
                self.move(
                    avail.x() + (avail.width() - width) // 2,
                    avail.y() + max(0, (avail.height() - height - FRAME_ALLOWANCE[1]) // 2),
                )
            else:
                self.resize(1280, 720)
        state = self.prefs.state()
        if state is not None:
            self.restoreState(state)
        splitter = self.prefs.splitter()
        if splitter is not None:
            self.editor.splitter.restoreState(splitter)

    def reset_layout(self) -> None:
        """View > Reset layout: every panel and the toolbar shown, where they were at first
        start."""
        self.restoreState(self._default_state)
        for dock in (self.library_dock, self.battles_dock, self.army_dock, self.validation_dock):
            dock.setFloating(False)
            dock.show()
        self.library_dock.raise_()
        self.toolbar.show()
        self._default_docks()
        self.battles.reset_layouts()
        self.statusBar().showMessage("The panels are back where they started", 5000)

    def save_layout(self) -> None:
        self.prefs.save_layout(
            self.saveGeometry(), self.saveState(), self.editor.splitter.saveState()
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.builder.close_roster(forget=False):
            event.ignore()
            return
        self.save_layout()
        self.battles.close_all()
        campaigns = getattr(self, "campaign_view", None)
        if campaigns is not None:  # Quit ends Castra: no Campaigns window left running
            campaigns.close()
        self.club.stop_listening()  # its connection to a club server goes with the window
        self.printer.shutdown()  # no print thread outlives the window
        event.accept()

    # ------------------------------------------------------------------ dropping files

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if _dropped_roster_files(event):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = _dropped_roster_files(event)
        if paths:
            event.acceptProposedAction()
            self.builder.import_paths(paths)
        else:
            event.ignore()
