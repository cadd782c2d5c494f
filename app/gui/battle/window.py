"""The battle window: the table map in the middle, the docks around it (Unit, Actions and
odds, Log, Turn, Leaders, Sides), a Battle menu, undo and redo naming the step, and the
layout remembered between runs (``saveState``/``restoreState``, as in the PySide6
dock-widgets example). It only assembles: the controller talks to the core, the panels
show what it says, the map sends commands."""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDockWidget,
    QFrame,
    QLabel,
    QMainWindow,
    QMenu,
    QScrollArea,
    QToolBar,
    QWidget,
)

from app.collector import collector_paused
from app.core.battle import CommandError, NextPhase, StartBattle, Step
from app.core.battle.advisor import Advice
from app.core.battle.moves import Charge, MoveUnit, plan_charge
from app.core.battle.opponent import Choice
from app.core.battle.state import BattleState
from app.core.battle.summary import battle_summary
from app.gui import dialogs, help_windows
from app.gui.battle.acting import ActingPanel
from app.gui.battle.actions import OVERLAYS, BattleActions, BattleKey
from app.gui.battle.advice_panel import AdvicePanel
from app.gui.battle.castra_runner import CastraRunner
from app.gui.battle.controller import BattleController
from app.gui.battle.dice_dialog import DiceDialog
from app.gui.battle.endings import EndDialog, show_result
from app.gui.battle.info_panels import LeadersPanel, SidesPanel, TurnPanel
from app.gui.battle.layout_dialog import LayoutNameDialog, layouts_dir
from app.gui.battle.log_panel import LogPanel
from app.gui.battle.map import BattleMap
from app.gui.battle.unit_panel import UnitPanel
from app.gui.dock_style import dock_style
from app.gui.status import ElidingStatusBar
from app.rules.layouts import LayoutError, layout_of
from app.rules.measure import mm_per_unit
from app.rules.paths import Path as MovePath
from app.rules.table import TERRAIN_KINDS

#: keys the map itself reads (no menu action of their own), for Help's list
MAP_KEYS = (
    ("On the map: turn the selected unit 15 degrees left / right", "Q / E"),
    ("On the map: wheel it about its front corner", "Shift+Q / Shift+E"),
    ("On the map: commit a move turned by keys (Alt: force it)", "Enter"),
    ("On the map: cancel the drag or the ruler", "Esc"),
    ("On the map: pan the view", "Space+drag"),
    ("On the map: zoom", "Mouse wheel"),
    ("On the map: turn the selected unit / wheel it", "Ctrl+wheel / Alt+wheel"),
    ("On the map: act against a unit, measure to it", "Right-click"),
    ("On the map: select several units (to move them together)", "Shift+click / drag a box"),
    ("On the map: move the selected units by one path", "Right-click > Move the group"),
    ("Terrain: remove the last corner drawn / delete the piece edited", "Backspace / Del"),
)

#: menu text of a step: at most this many characters of its first log line
TITLE_CHARS = 60


def step_title(step: Step, state: BattleState | None = None) -> str:
    """ "Melee: Hastati (A1) against Boii (B1)": the step's first log line when it says
    what was done, else its command's title (units and leaders by name, from ``state``, any
    state of the battle), else its label."""
    first = step.lines[0].rstrip(".") if step.lines else ""
    label = step.command.label
    if first.startswith(label.split(" ")[0]) and len(first) <= TITLE_CHARS:
        return first
    if first.startswith(label.split(" ")[0]):
        return first[: TITLE_CHARS - 1] + "…"
    title = step.command.title(state) if state is not None else label
    return title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 1] + "…"


#: how the core ends a refusal the umpire may override (:func:`app.core.battle.moves.refusal`)
FORCEABLE = ("; force it to override", "; force it to confirm")


class BattleWindow(QMainWindow):
    #: the window closed (the main window forgets it)
    closed = Signal()
    #: the battle has reached its result (by its victory rule or declared): a campaign
    #: waiting for it takes the result from the stored battle
    ended = Signal()

    def __init__(
        self,
        controller: BattleController,
        settings: QSettings | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        with collector_paused():
            self._build(controller, settings)

    def _build(self, controller: BattleController, settings: QSettings | None) -> None:
        self.setObjectName("battleWindow")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self.controller = controller
        # the controller and Castra's runner are the window's (its Qt children): deleted with
        # it, their signals let go of the panels' slots, and the panels, the controller and
        # the battle are freed (made without a parent, they held each other through their
        # connections, out of the collector's sight, and outlived the window)
        controller.setParent(self)
        self.settings = settings if settings is not None else QSettings()
        self.setWindowTitle(f"{controller.session.name} — Castra battle")
        self.setDockOptions(
            QMainWindow.DockOption.AnimatedDocks | QMainWindow.DockOption.AllowTabbedDocks
        )
        self.acts = BattleActions(self)
        # the status bar is there from the start: the docks never jump when the first
        # message comes
        self.setStatusBar(ElidingStatusBar(self))
        self.statusBar().setObjectName("battleStatus")
        self.map = BattleMap(self)
        self.setCentralWidget(self.map)
        # fits the table to the map once shown and the docks have taken their room (the
        # window's own timer: a single shot still waiting held the map once it was gone)
        self._fit_later = QTimer(self)
        self._fit_later.setSingleShot(True)
        self._fit_later.setInterval(0)
        self._fit_later.timeout.connect(self.map.fit_table)
        self.unit_panel = UnitPanel(controller)
        self.acting = ActingPanel(controller)
        self.log_panel = LogPanel(controller)
        self.turn_panel = TurnPanel(controller)
        self.leaders_panel = LeadersPanel(controller)
        self.sides_panel = SidesPanel(controller)
        self.castra = CastraRunner(controller, self)  # deleted with the window (see above)
        self.advice_panel = AdvicePanel(controller, self.castra)
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        # the Turn panel scrolls in what its dock leaves it: its lines never squeeze together
        turn_scroll = QScrollArea()
        turn_scroll.setObjectName("turnScroll")
        turn_scroll.setWidgetResizable(True)
        turn_scroll.setFrameShape(QFrame.Shape.NoFrame)
        turn_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        turn_scroll.setWidget(self.turn_panel)
        self.turn_dock = self._dock("turnDock", "Turn", turn_scroll, left, BattleKey.VIEW_TURN)
        self.unit_dock = self._dock("unitDock", "Unit", self.unit_panel, left, BattleKey.VIEW_UNIT)
        self.leaders_dock = self._dock(
            "leadersDock", "Leaders", self.leaders_panel, left, BattleKey.VIEW_LEADERS
        )
        self.sides_dock = self._dock(
            "sidesDock", "Sides", self.sides_panel, left, BattleKey.VIEW_SIDES
        )
        self.actions_dock = self._dock(
            "actionsDock", "Actions and odds", self.acting, right, BattleKey.VIEW_ACTIONS
        )
        self.log_dock = self._dock("logDock", "Log", self.log_panel, right, BattleKey.VIEW_LOG)
        self.advice_dock = self._dock(
            "adviceDock", "Advisor", self.advice_panel, right, BattleKey.VIEW_ADVISOR
        )
        self.tabifyDockWidget(self.log_dock, self.advice_dock)
        (self.advice_dock if self.castra.plays else self.log_dock).raise_()
        # the Leaders panel lists the units to attach to, and the Sides panel writes its
        # page, only once its dock is seen
        self.leaders_dock.visibilityChanged.connect(self.leaders_panel.set_seen)
        self.sides_dock.visibilityChanged.connect(self.sides_panel.set_seen)
        self.tabifyDockWidget(self.unit_dock, self.leaders_dock)
        self.tabifyDockWidget(self.leaders_dock, self.sides_dock)
        self.unit_dock.raise_()
        self.layout_dialog: LayoutNameDialog | None = None
        self.toolbar = self._toolbar()
        self.lock_bar = self._lock_bar()
        self._menus()
        self._connect()
        self._result_shown = controller.state.result is not None
        self.refresh()
        self._restore_layout()
        self.lock_bar.setVisible(controller.locked is not None)  # whatever the saved layout

    # ------------------------------------------------------------------ parts

    def _dock(
        self, name: str, title: str, widget: QWidget, area: Qt.DockWidgetArea, key: BattleKey
    ) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setStyle(dock_style())  # its title bar's icons made once (see the module)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self.acts.adopt(key, dock.toggleViewAction())
        return dock

    def _toolbar(self) -> QToolBar:
        bar = QToolBar("Battle toolbar", self)
        bar.setObjectName("battleToolbar")
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for key in (
            BattleKey.UNDO,
            BattleKey.REDO,
            None,
            BattleKey.NEXT_PHASE,
            BattleKey.ROLL,
            BattleKey.ENTER_DICE,
            None,
            BattleKey.TOOL_SELECT,
            BattleKey.TOOL_MEASURE,
            BattleKey.FIT,
            None,
            BattleKey.EXPORT_REPORT,
        ):
            if key is None:
                bar.addSeparator()
            else:
                bar.addAction(self.acts[key])
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self.acts.adopt(BattleKey.VIEW_TOOLBAR, bar.toggleViewAction())
        return bar

    def _lock_bar(self) -> QToolBar:
        """The read-only banner, as the roster editor shows one: why this battle cannot be
        changed here (a player's window on a club server), under the toolbar."""
        bar = QToolBar("Read-only", self)
        bar.setObjectName("battleLockBar")
        bar.setMovable(False)
        bar.toggleViewAction().setVisible(False)
        locked = self.controller.locked or ""
        self.lock_banner = QLabel(locked[:1].upper() + locked[1:])
        self.lock_banner.setObjectName("readOnlyBanner")
        self.lock_banner.setStyleSheet(
            "QLabel { background: #fff3cd; color: #5c4400; padding: 4px 8px; }"
        )
        bar.addWidget(self.lock_banner)
        self.addToolBarBreak(Qt.ToolBarArea.TopToolBarArea)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        bar.setVisible(self.controller.locked is not None)
        return bar

    def _menus(self) -> None:
        a = self.acts
        bar = self.menuBar()

        def fill(title: str, keys: tuple[BattleKey | None, ...]) -> QMenu:
            menu = bar.addMenu(title)
            for key in keys:
                if key is None:
                    menu.addSeparator()
                else:
                    menu.addAction(a[key])
            return menu

        K = BattleKey
        fill(
            "&Battle",
            (
                K.NEW_BATTLE,
                None,
                K.START,
                K.NEXT_PHASE,
                None,
                K.ROLL,
                K.ENTER_DICE,
                K.CHARGE,
                None,
                K.END_BATTLE,
                K.RESULT,
                None,
                K.EXPORT_REPORT,
                K.EXPORT_PNG,
                None,
                K.CLOSE,
            ),
        )
        fill("&Edit", (K.UNDO, K.REDO, None, K.PRESENT))
        castra = fill(
            "&Castra", (K.CASTRA_PLAY, K.CASTRA_STEP, K.CASTRA_PAUSE, None, K.CASTRA_AUTO)
        )
        castra.setObjectName("castraMenu")
        map_menu = fill(
            "&Map",
            (
                K.TOOL_SELECT,
                K.TOOL_MEASURE,
                None,
                K.ROTATE_LEFT,
                K.ROTATE_RIGHT,
                None,
                *OVERLAYS,
                K.GRID,
                None,
                K.FIT,
            ),
        )
        self._terrain_menu(map_menu)
        map_menu.addSeparator()
        map_menu.addAction(a[K.SAVE_LAYOUT])
        fill(
            "&View",
            (
                K.VIEW_TURN,
                K.VIEW_UNIT,
                K.VIEW_LEADERS,
                K.VIEW_SIDES,
                K.VIEW_ACTIONS,
                K.VIEW_LOG,
                K.VIEW_ADVISOR,
                K.VIEW_TOOLBAR,
                None,
                K.RESET_LAYOUT,
            ),
        )
        fill("&Help", (K.GUIDE, K.SHORTCUTS))

    def _connect(self) -> None:
        a, c, K = self.acts, self.controller, BattleKey
        c.done.connect(self.acting.show_step)
        c.changed.connect(self.refresh)
        c.viewing.connect(lambda _n: self.refresh())
        c.message.connect(lambda text: self.say(text, 10000))
        a[K.UNDO].triggered.connect(c.undo)
        a[K.REDO].triggered.connect(c.redo)
        a[K.PRESENT].triggered.connect(c.return_to_present)
        a[K.NEXT_PHASE].triggered.connect(self.next_phase)
        self.turn_panel.next_button.clicked.connect(self.next_phase)
        a[K.START].triggered.connect(lambda: c.execute(StartBattle()))
        a[K.ROLL].triggered.connect(self.roll)
        a[K.ENTER_DICE].triggered.connect(self.enter_dice)
        self.acting.roll_button.clicked.connect(self.roll)
        self.acting.dice_button.clicked.connect(self.enter_dice)
        a[K.END_BATTLE].triggered.connect(self.declare_result)
        a[K.RESULT].triggered.connect(self.show_result)
        a[K.EXPORT_REPORT].triggered.connect(self.export_report_dialog)
        a[K.EXPORT_PNG].triggered.connect(self.export_png_dialog)
        a[K.SAVE_LAYOUT].triggered.connect(self.save_table_layout_dialog)
        a[K.CLOSE].triggered.connect(self.close)
        a[K.RESET_LAYOUT].triggered.connect(self.reset_layout)
        a[K.SHORTCUTS].triggered.connect(self.show_shortcuts)
        a[K.GUIDE].triggered.connect(self.show_guide)
        a[K.FIT].triggered.connect(self.map.fit_table)
        a[K.GRID].toggled.connect(self.map.set_grid)
        a[K.ROTATE_LEFT].triggered.connect(lambda: self.map.rotate_selected(-15))
        a[K.ROTATE_RIGHT].triggered.connect(lambda: self.map.rotate_selected(15))
        a[K.TOOL_SELECT].triggered.connect(lambda: self.set_tool("select"))
        a[K.TOOL_MEASURE].triggered.connect(lambda: self.set_tool("ruler"))
        a[K.TOOL_SELECT].setChecked(True)
        for key, name in OVERLAYS.items():
            a[key].toggled.connect(lambda on, n=name: self.map.toggle_overlay(n, on))
        self.map.unitSelected.connect(self.unit_selected)
        self.map.targetRequested.connect(self.target_requested)
        self.map.chargeRequested.connect(self.charge_requested)
        self.map.commandRequested.connect(c.execute)
        self.map.measured.connect(lambda m: self.say(str(m), 15000))
        self.map.message.connect(lambda text: self.say(text, 10000))
        a[K.CHARGE].triggered.connect(self.charge)
        self.acting.charge_button.clicked.connect(self.charge)
        self.acting.actorChosen.connect(self._actor_chosen)
        self.advice_panel.chosen.connect(self.advice_chosen)
        r = self.castra
        a[K.CASTRA_PLAY].triggered.connect(r.play_turn)
        a[K.CASTRA_STEP].triggered.connect(r.step)
        a[K.CASTRA_PAUSE].triggered.connect(r.pause)
        a[K.CASTRA_AUTO].setChecked(r.auto)
        a[K.CASTRA_AUTO].toggled.connect(self.advice_panel.auto_box.setChecked)
        self.advice_panel.auto_box.toggled.connect(a[K.CASTRA_AUTO].setChecked)
        r.acted.connect(self._castra_acted)
        r.running.connect(lambda _on: self._update_actions())
        r.message.connect(lambda text: self.say(text, 10000))
        # the target the Actions dock holds is marked on the map (red corners)
        self.acting.target.currentIndexChanged.connect(
            lambda _i: self.map.set_target(self.acting.target.currentData())
        )

    # ------------------------------------------------------------------ showing

    def say(self, text: str, ms: int = 10000) -> None:
        """A message in the status bar (cut with an ellipsis where it is wider than the bar,
        all of it in its tooltip: :class:`~app.gui.status.ElidingStatusBar`)."""
        self.statusBar().showMessage(text, ms)

    def refresh(self) -> None:
        c = self.controller
        state = c.state
        self.map.show_state(state, c.session.mechanics, read_only=c.read_only)
        for panel in (self.unit_panel, self.turn_panel, self.leaders_panel, self.sides_panel):
            panel.refresh()
        self.log_panel.refresh()
        self.acting.refresh()
        self.advice_panel.refresh()
        self._update_actions()
        if state.result is not None and not self._result_shown and not c.read_only:
            self._result_shown = True
            self.ended.emit()
            self.show_result()
        elif c.session.state.result is None:
            self._result_shown = False

    def _update_actions(self) -> None:
        c, a, K = self.controller, self.acts, BattleKey
        session = c.session
        live = not c.read_only
        over = session.state.result is not None
        undo = a[K.UNDO]
        undo.setEnabled(live and session.can_undo())
        undo.setText(
            f"&Undo: {step_title(session.steps[session.cursor - 1], session.state)}"
            if session.can_undo()
            else "&Undo"
        )
        redo = a[K.REDO]
        redo.setEnabled(live and session.can_redo())
        redo.setText(
            f"&Redo: {step_title(session.steps[session.cursor], session.state)}"
            if session.can_redo()
            else "&Redo"
        )
        a[K.NEXT_PHASE].setEnabled(live and session.state.started and not over)
        self.turn_panel.next_button.setEnabled(live and session.state.started and not over)
        a[K.START].setEnabled(live and not session.state.started)
        a[K.ROLL].setEnabled(live and not over)
        a[K.CHARGE].setEnabled(live and not over)
        a[K.ENTER_DICE].setEnabled(live and not over)
        a[K.END_BATTLE].setEnabled(live and session.state.started and not over)
        a[K.PRESENT].setEnabled(c.past is not None)
        castra = live and not over and self.castra.plays
        a[K.CASTRA_PLAY].setEnabled(castra and not self.castra.playing)
        a[K.CASTRA_STEP].setEnabled(castra)
        a[K.CASTRA_PAUSE].setEnabled(self.castra.playing)
        a[K.CASTRA_AUTO].setEnabled(self.castra.plays)
        title = f"{session.name} — Castra battle"
        if c.past is not None:
            title += f" (step {c.past} of {session.cursor}, read-only)"
        elif c.locked is not None:
            title += " (read-only)"
            for key in (K.UNDO, K.REDO, K.NEXT_PHASE, K.START, K.ROLL, K.CHARGE, K.ENTER_DICE):
                a[key].setToolTip(f"Disabled: {c.locked}")
            a[K.END_BATTLE].setToolTip(f"Disabled: {c.locked}")
            self.turn_panel.next_button.setToolTip(f"Disabled: {c.locked}")
        self.setWindowTitle(title)

    def _terrain_menu(self, map_menu: QMenu) -> None:
        """Map > Terrain: the palette of terrain kinds (each named in the ruleset's words
        where its source has them) to draw a piece with, and the tool that moves a piece's
        corners or deletes it. Every piece drawn or edited is a battle command (undoable)."""
        menu = map_menu.addMenu("&Terrain")
        menu.setObjectName("terrainMenu")
        mechanics = self.controller.session.mechanics
        self.terrain_tools: dict[str, QAction] = {}
        edit = menu.addAction("&Edit pieces (drag a corner; Del deletes)")
        edit.setShortcut("T")
        self.terrain_tools["terrain:edit"] = edit
        menu.addSeparator()
        for kind in TERRAIN_KINDS:
            term = mechanics.terrain_term(kind)
            label = kind.capitalize() + (f" ({term})" if term and term != kind else "")
            if term is None:
                label += " (not in the source: generic)"
            self.terrain_tools[f"terrain:{kind}"] = menu.addAction(f"Draw {label}")
        for name, action in self.terrain_tools.items():
            action.setCheckable(True)
            action.triggered.connect(lambda _on=False, n=name: self.set_tool(n))

    def set_tool(self, name: str) -> None:
        self.acts[BattleKey.TOOL_SELECT].setChecked(name == "select")
        self.acts[BattleKey.TOOL_MEASURE].setChecked(name == "ruler")
        for tool, action in getattr(self, "terrain_tools", {}).items():
            action.setChecked(tool == name)
        self.map.set_tool(name)

    def unit_selected(self, unit_id: str) -> None:
        """The map's selection ("" when none): the Unit panel and the acting unit follow."""
        if not unit_id:
            return
        self.unit_panel.show_unit(unit_id)
        self.acting.set_pair(unit_id)
        self.advice_panel.show_unit(unit_id)

    def target_requested(self, actor: str, target: str) -> None:
        self.acting.set_pair(actor, target)
        self.actions_dock.show()

    def charge_requested(self, actor: str, target: str) -> Step | None:
        """Charge chosen on the map (right-click an enemy): the pair goes to the Actions
        dock, then the charge as its Charge button does it."""
        self.acting.set_pair(actor, target)
        return self.charge()

    def _actor_chosen(self, unit_id: str) -> None:
        self.unit_panel.show_unit(unit_id)
        if self.map.selected_unit() != unit_id:
            self.map.select_unit(unit_id)

    # ------------------------------------------------------------------ the advisor, Castra

    def advice_chosen(self, entry: Advice) -> None:
        """An entry of the Advisor dock was clicked: set it up, do nothing more. A move is
        shown on the map (Enter makes it); a fight, a shot or a charge goes to the Actions
        dock, whose Roll (or Charge) makes it."""
        if isinstance(entry.command, MoveUnit):
            if self.map.propose_move(entry.unit, entry.command.legs):
                self.say(f"{entry.title}: shown on the map; Enter makes the move, Esc drops it")
            else:
                self.say("The move cannot be shown now")
            return
        self.acting.set_pair(entry.unit, entry.target)
        if entry.kind in ("melee", "shoot"):
            self.acting.choose_action(entry.kind)
            self.say(f"{entry.title}: set up in Actions; Roll makes it")
        else:
            self.say(f"{entry.title}: set up in Actions; Charge (C) makes it")
        if self.map.selected_unit() != entry.unit:
            self.map.select_unit(entry.unit)
        self.actions_dock.show()

    def _castra_acted(self, choice: Choice) -> None:
        """Castra gave a command: its unit is selected on the map (the Unit dock shows it),
        and the status bar says what it did and why."""
        unit = getattr(choice.command, "unit", None) or getattr(choice.command, "actor", None)
        if isinstance(unit, str) and unit in self.map.map_scene.units:
            self.map.select_unit(unit)
        cmd = choice.command
        session = self.controller.session
        if isinstance(cmd, MoveUnit | Charge) and cmd.legs and session.cursor >= 1:
            before = session.steps[session.cursor - 2].state if session.cursor >= 2 else None
            before = before or session.initial
            reason = cmd.reason if isinstance(cmd, MoveUnit) else "charge"
            check = session.mechanics.check_move(
                before.view(), cmd.unit, MovePath(cmd.legs), reason=reason
            )
            self.map.show_move_made(check, "Castra's move")
        self.say(choice.why, 15000)

    # ------------------------------------------------------------------ acting

    def charge(self, *, force: bool | None = None) -> Step | None:
        """The unit chosen charges the target chosen: the core finds the path into
        contact (front, flank or rear, as the rules align them) and checks it. A charge the
        rules refuse is refused naming the rule; chosen with Alt held (``force``: Alt+C, or
        the Charge button clicked with Alt, as a move is released with Alt), the umpire is
        asked and it goes ahead, logged as an override. The refusal said "force it to
        override" and the window had no way to."""
        c = self.controller
        actor, target = self.acting.actor.currentData(), self.acting.target.currentData()
        if actor is None or target is None:
            self.say("Choose a unit and a target to charge", 5000)
            return None
        if force is None:
            held = QApplication.keyboardModifiers()
            force = bool(held & Qt.KeyboardModifier.AltModifier)
        try:
            command = plan_charge(c.state, c.session.mechanics, str(actor), str(target))
        except CommandError as exc:
            self.say(str(exc), 10000)
            return None
        said: list[str] = []
        c.message.connect(said.append)
        try:
            step = c.execute(command)
        finally:
            c.message.disconnect(said.append)
        why = said[-1] if said else ""
        if step is not None or not why.endswith(FORCEABLE):
            return step
        why = why.removesuffix(FORCEABLE[0]).removesuffix(FORCEABLE[1])
        if not force:
            self.say(f"{why}; Alt+C forces it (the umpire's call)", 15000)
            return None
        if not self.map.confirm(
            "Force the charge",
            f"{why}.\n\nForce this charge past the rules? It is logged as an override.",
        ):
            self.say("Charge cancelled.", 5000)
            return None
        return c.execute(replace(command, force=True))

    def next_phase(self) -> Step | None:
        return self.controller.execute(NextPhase())

    def roll(self) -> Step | None:
        """Resolve the action chosen in the Actions dock with the battle's seeded dice."""
        cmd = self.acting.command()
        if cmd is None:
            self.say("Choose an action first", 5000)
            return None
        return self.controller.execute(cmd)

    def enter_dice(self) -> DiceDialog | None:
        """Resolve the chosen action with dice thrown at the table: a dialog asks for each
        throw in turn."""
        cmd = self.acting.command()
        if cmd is None:
            self.say("Choose an action first", 5000)
            return None
        dialog = DiceDialog(self.controller, cmd, self)
        if dialog.start() and dialog.step is None:
            dialog.open()
        return dialog

    def declare_result(self) -> EndDialog:
        dialog = EndDialog(self.controller, self)
        dialog.open()
        return dialog

    def show_result(self) -> QDialog:
        c = self.controller
        history: list[str] = []
        if c.session.state.scenario is not None:
            from app.core.scenario.history import history_of
            from app.paths import user_scenarios_dir

            s = c.session
            history = history_of(
                s.ruleset, s.state, c.rosters, s.mechanics.lost_markers, user_scenarios_dir()
            )
        return show_result(self, battle_summary(c.session.state, c.session.mechanics), history)

    # ------------------------------------------------------------------ export

    def export_report_dialog(self) -> None:
        from app.gui.files import save_file_name

        path = save_file_name(
            self, "Battle report", f"{self.controller.session.name}.pdf", "PDF (*.pdf)"
        )
        if path is not None:
            self.export_report(path)

    def export_report(self, path: Path) -> bool:
        from app.export.battle_report import write_battle_report

        c = self.controller
        with tempfile.TemporaryDirectory() as folder:
            image = Path(folder) / "map.png"
            has_image = self.map.export_png(str(image))
            try:
                write_battle_report(
                    path,
                    c.session,
                    battle_summary(c.session.state, c.session.mechanics),
                    image if has_image else None,
                )
            except OSError as exc:
                self.say(f"The report was not written: {exc}", 10000)
                return False
        self.say(f"Battle report written to {path}", 8000)
        return True

    def export_png_dialog(self) -> None:
        from app.gui.files import save_file_name

        chosen = save_file_name(
            self, "Map image", f"{self.controller.session.name}.png", "PNG (*.png)"
        )
        if chosen is not None:
            path = str(chosen)
            ok = self.map.export_png(path)
            self.say(f"Map written to {path}" if ok else f"The map was not written to {path}", 8000)

    # ------------------------------------------------------------------ saved layouts

    def save_table_layout_dialog(self) -> LayoutNameDialog:
        """Map > Save table as layout…: ask for a name (window-modal), then save."""
        dialog = self.layout_dialog = LayoutNameDialog(len(self.controller.state.terrain), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self.save_table_layout(dialog.name.text()))
        dialog.open()
        return dialog

    def save_table_layout(self, name: str) -> Path | None:
        """Save the terrain of the table shown as the user's layout ``name``, as ``castra
        battle table B --save NAME`` does (same core functions, same folder); a layout of
        that name is replaced only when the user agrees. Returns the file written."""
        from app.core.layouts import save_layout, saved_layouts

        c = self.controller
        folder = layouts_dir()
        try:
            layout = layout_of(name, c.state.table, mm_per_unit(c.session.ruleset))
        except LayoutError as exc:
            self.say(f"Not saved: {exc}", 10000)
            return None
        saved, _problems = saved_layouts(folder)
        there = next((s.name for s in saved if s.name.casefold() == layout.name.casefold()), None)
        if there is not None and not dialogs.confirm(
            self,
            "Replace layout",
            f"There is already a saved layout {there!r}. Replace it with this table?",
            "Replace",
        ):
            self.say(f"Not saved: the layout {there!r} is kept", 10000)
            return None
        try:
            path = save_layout(folder, layout, replace=there is not None)
        except (LayoutError, OSError) as exc:
            self.say(f"Not saved: {exc}", 10000)
            return None
        n = len(layout.pieces)
        self.say(f"Saved layout {layout.name!r} ({n} piece{'' if n == 1 else 's'}): {path}", 10000)
        return path

    # ------------------------------------------------------------------ help and layout

    def show_guide(self) -> QDialog:
        """Help > User guide (F1): the guide's page on battles."""
        from app.gui.guide import show_guide

        return show_guide(self, "battle.md")

    def show_shortcuts(self) -> QDialog:
        actions: list[QAction] = [act for _, act in self.acts.items()]
        actions.append(self.terrain_tools["terrain:edit"])
        return help_windows.show_text(
            self,
            "battleShortcutsDialog",
            "Battle window shortcuts",
            help_windows.shortcuts_html(actions, MAP_KEYS),
        )

    def _default_docks(self) -> None:
        self.resizeDocks([self.turn_dock, self.actions_dock], [270, 330], Qt.Orientation.Horizontal)
        self.resizeDocks([self.turn_dock, self.unit_dock], [215, 385], Qt.Orientation.Vertical)
        # the odds get the room: the log shows its last steps and scrolls; the advisor (tabbed
        # with the log, in front when Castra plays a side) gets more, its entries to choose from
        low = [330, 320] if self.castra.plays else [500, 150]
        self.resizeDocks([self.actions_dock, self.log_dock], low, Qt.Orientation.Vertical)

    def _restore_layout(self) -> None:
        self.resize(1280, 720)
        self._default_docks()
        self._default_state = self.saveState()
        geometry = self.settings.value("battle/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        state = self.settings.value("battle/state")
        if state is not None:
            self.restoreState(state)

    def reset_layout(self) -> None:
        """View > Reset layout: every dock back where it starts; kept at once, so a battle
        window opened next opens so too (it read the layout saved before the reset)."""
        self.restoreState(self._default_state)
        for dock in self.findChildren(QDockWidget):
            dock.setFloating(False)
            dock.show()
        self.toolbar.show()
        self._default_docks()
        self.save_layout()

    def save_layout(self) -> None:
        self.settings.setValue("battle/geometry", self.saveGeometry())
        self.settings.setValue("battle/state", self.saveState())
        self.settings.sync()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # the table fits the map once the docks have taken their room
        self._fit_later.start()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.castra.pause()
        self.save_layout()
        self.closed.emit()
        event.accept()
