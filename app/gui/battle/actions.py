"""Every action of the battle window in one table (as :mod:`app.gui.actions` does for the
roster window): menus, the toolbar, Help's shortcut list and the tests look them up by key.
Single keys act on the map; they give way to a text field that has the focus."""

from __future__ import annotations

from enum import Enum, auto

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

from app.gui.actions import ActionSpec, Key, configure_action


class BattleKey(Enum):
    NEW_BATTLE = auto()
    EXPORT_REPORT = auto()
    EXPORT_PNG = auto()
    SAVE_LAYOUT = auto()
    CLOSE = auto()
    UNDO = auto()
    REDO = auto()
    NEXT_PHASE = auto()
    START = auto()
    ROLL = auto()
    ENTER_DICE = auto()
    CHARGE = auto()
    END_BATTLE = auto()
    RESULT = auto()
    PRESENT = auto()
    TOOL_SELECT = auto()
    TOOL_MEASURE = auto()
    ROTATE_LEFT = auto()
    ROTATE_RIGHT = auto()
    FIT = auto()
    GRID = auto()
    OVERLAY_REACH = auto()
    OVERLAY_RANGE = auto()
    OVERLAY_COMMAND = auto()
    OVERLAY_LOS = auto()
    RESET_LAYOUT = auto()
    GUIDE = auto()
    SHORTCUTS = auto()
    VIEW_UNIT = auto()
    VIEW_ACTIONS = auto()
    VIEW_LOG = auto()
    VIEW_TURN = auto()
    VIEW_LEADERS = auto()
    VIEW_SIDES = auto()
    VIEW_ADVISOR = auto()
    VIEW_TOOLBAR = auto()
    CASTRA_PLAY = auto()
    CASTRA_STEP = auto()
    CASTRA_PAUSE = auto()
    CASTRA_AUTO = auto()


#: the overlays and the map's names for them
OVERLAYS = {
    BattleKey.OVERLAY_REACH: "reach",
    BattleKey.OVERLAY_RANGE: "range",
    BattleKey.OVERLAY_COMMAND: "command",
    BattleKey.OVERLAY_LOS: "los",
}

SPECS: dict[BattleKey, ActionSpec] = {
    BattleKey.NEW_BATTLE: ActionSpec(
        "&New battle…", "Two rosters of one ruleset on a table", ("Ctrl+Shift+N",), "file-plus"
    ),
    BattleKey.EXPORT_REPORT: ActionSpec(
        "Battle &report (PDF)…",
        "The map, the result and the log with every roll, as a PDF",
        ("Ctrl+P",),
        "printer",
        "Report",
    ),
    BattleKey.EXPORT_PNG: ActionSpec(
        "Export map as &PNG…", "The table as an image", ("Ctrl+Shift+E",), "file-output"
    ),
    BattleKey.SAVE_LAYOUT: ActionSpec(
        "Save table as &layout…",
        "Save the table's terrain as a layout of your own, offered in New battle",
        ("Ctrl+Shift+L",),
    ),
    BattleKey.CLOSE: ActionSpec(
        "&Close battle window", "Close this window", (Key.Close, "Ctrl+W", "Ctrl+F4"), "x"
    ),
    BattleKey.UNDO: ActionSpec("&Undo", "Undo the last step", (Key.Undo,), "undo-2", "Undo"),
    BattleKey.REDO: ActionSpec(
        "&Redo",
        "Redo the step undone last, with the dice it threw",
        (Key.Redo, "Ctrl+Shift+Z", "Ctrl+Y"),
        "redo-2",
        "Redo",
    ),
    BattleKey.NEXT_PHASE: ActionSpec(
        "&Next phase",
        "End this phase and begin the next (the ruleset's sequence of play)",
        ("Ctrl+N",),
        None,
        "Next phase",
    ),
    BattleKey.START: ActionSpec(
        "&Start the battle", "Deployment is done: the first turn begins", ("Ctrl+Shift+S",)
    ),
    BattleKey.ROLL: ActionSpec(
        "&Roll", "Resolve the chosen action with the app's dice", ("Ctrl+R",), None, "Roll"
    ),
    BattleKey.ENTER_DICE: ActionSpec(
        "&Enter dice…",
        "Resolve the chosen action with dice thrown at the table",
        ("Ctrl+Shift+R",),
        None,
        "Enter dice",
    ),
    BattleKey.CHARGE: ActionSpec(
        "C&harge",
        "The chosen unit charges the chosen target: the rules find the path into contact "
        "(Alt+C: the umpire forces a charge the rules refuse)",
        ("C", "Alt+C"),
    ),
    BattleKey.END_BATTLE: ActionSpec(
        "&Declare the result…", "End the battle: a winner or a draw, by agreement"
    ),
    BattleKey.RESULT: ActionSpec(
        "Re&sult", "Each side's losses, the leaders' fates and the winner", ("Ctrl+Shift+V",)
    ),
    BattleKey.PRESENT: ActionSpec(
        "Return to the &present", "Leave the past step shown and play on", ("Ctrl+End",)
    ),
    BattleKey.TOOL_SELECT: ActionSpec("&Select and move", "Pick and drag units", ("S",)),
    BattleKey.TOOL_MEASURE: ActionSpec(
        "&Measure", "Ruler: base edge to base edge, and the terrain crossed", ("M",)
    ),
    BattleKey.ROTATE_LEFT: ActionSpec(
        "Rotate &left", "Turn the selected unit 15° left (on the map: Q; Shift+Q wheels)", ("[",)
    ),
    BattleKey.ROTATE_RIGHT: ActionSpec(
        "Rotate r&ight", "Turn the selected unit 15° right (on the map: E; Shift+E wheels)", ("]",)
    ),
    BattleKey.FIT: ActionSpec("&Fit the table", "Zoom to show the whole table", ("F",)),
    BattleKey.GRID: ActionSpec("&Grid", "A grid in the ruleset's unit of measure", ("G",)),
    BattleKey.OVERLAY_REACH: ActionSpec("Movement &reach", "Where the unit can move", ("1",)),
    BattleKey.OVERLAY_RANGE: ActionSpec(
        "Shooting r&ange", "The unit's shooting range and arc", ("2",)
    ),
    BattleKey.OVERLAY_COMMAND: ActionSpec("&Command radius", "Leaders' command radius", ("3",)),
    BattleKey.OVERLAY_LOS: ActionSpec("&Line of sight", "What the unit can see", ("4",)),
    BattleKey.RESET_LAYOUT: ActionSpec(
        "Reset &layout", "Put the panels back where they were at first start", ()
    ),
    BattleKey.GUIDE: ActionSpec(
        "User &guide", "The user guide's page on battles (the guide's contents from there)", ("F1",)
    ),
    BattleKey.SHORTCUTS: ActionSpec(
        "&Keyboard shortcuts", "Every shortcut of this window", ("Ctrl+F1",)
    ),
    BattleKey.VIEW_UNIT: ActionSpec("&Unit", "Show or hide the unit panel", ("Ctrl+1",)),
    BattleKey.VIEW_ACTIONS: ActionSpec(
        "&Actions and odds", "Show or hide the actions panel", ("Ctrl+2",)
    ),
    BattleKey.VIEW_LOG: ActionSpec("&Log", "Show or hide the log", ("Ctrl+3",)),
    BattleKey.VIEW_TURN: ActionSpec("&Turn", "Show or hide the turn panel", ("Ctrl+4",)),
    BattleKey.VIEW_LEADERS: ActionSpec("L&eaders", "Show or hide the leaders", ("Ctrl+5",)),
    BattleKey.VIEW_SIDES: ActionSpec("Si&des", "Show or hide the sides' records", ("Ctrl+6",)),
    BattleKey.VIEW_ADVISOR: ActionSpec(
        "Ad&visor", "Show or hide the advisor: what a unit may do now, best first", ("Ctrl+7",)
    ),
    BattleKey.VIEW_TOOLBAR: ActionSpec("T&oolbar", "Show or hide the toolbar"),
    BattleKey.CASTRA_PLAY: ActionSpec(
        "&Play its turn now",
        "Castra plays its side on, a step at a time, until it is your turn",
        ("Ctrl+T",),
    ),
    BattleKey.CASTRA_STEP: ActionSpec(
        "&Step", "Castra gives its next command (one at a time)", ("Ctrl+Shift+T",)
    ),
    BattleKey.CASTRA_PAUSE: ActionSpec("P&ause", "Castra stops after the command it is giving"),
    BattleKey.CASTRA_AUTO: ActionSpec(
        "Plays its turns by &itself", "Castra starts as soon as it is its turn"
    ),
}

CHECKABLE = {
    BattleKey.GRID,
    BattleKey.TOOL_SELECT,
    BattleKey.TOOL_MEASURE,
    BattleKey.CASTRA_AUTO,
    *OVERLAYS,
}


class BattleActions:
    """The battle window's actions by key."""

    def __init__(self, parent: QWidget) -> None:
        self._actions: dict[BattleKey, QAction] = {}
        for key in BattleKey:
            if key.name.startswith("VIEW_"):
                continue
            action = QAction(parent)
            action.setObjectName(f"battle_{key.name.lower()}")
            configure_action(action, SPECS[key])
            action.setCheckable(key in CHECKABLE)
            self._actions[key] = action

    def adopt(self, key: BattleKey, action: QAction) -> QAction:
        """Register an action Qt made (a dock's toggleViewAction) under ``key``."""
        action.setObjectName(f"battle_{key.name.lower()}")
        configure_action(action, SPECS[key])
        self._actions[key] = action
        return action

    def __getitem__(self, key: BattleKey) -> QAction:
        return self._actions[key]

    def items(self) -> list[tuple[BattleKey, QAction]]:
        return list(self._actions.items())
