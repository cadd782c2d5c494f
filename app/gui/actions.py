"""Every action of the window in one registry (after Picard's ``ui/mainwindow/actions.py``):
an enum key per action, its text, shortcut, icon and tooltip in one table, and one small
factory. Menus, the toolbar and the tests look actions up by key; the window connects them.

The View toggles are the docks' own ``toggleViewAction()``: :meth:`Actions.adopt` gives them
their entry's text, shortcut and tooltip, so they live in the registry like the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, auto

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QStyle, QWidget

from app.gui.icons import standard_icon

SP = QStyle.StandardPixmap
Key = QKeySequence.StandardKey


class ActionKey(Enum):
    NEW = auto()
    OPEN = auto()
    SAVE = auto()
    IMPORT = auto()
    EXPORT = auto()
    CLOSE = auto()
    QUIT = auto()
    UNDO = auto()
    REDO = auto()
    ADD_UNIT = auto()
    ADD_COMMAND = auto()
    ADD_LEADER = auto()
    DUPLICATE_UNIT = auto()
    SPLIT_UNIT = auto()
    DELETE = auto()
    PRINT_CARDS = auto()
    PRINT_ROSTER = auto()
    PRINT_REFSHEET = auto()
    PRINT_CHANCE_CARDS = auto()
    VIEW_LIBRARY = auto()
    VIEW_ARMY_LIST = auto()
    VIEW_VALIDATION = auto()
    VIEW_TOOLBAR = auto()


@dataclass(frozen=True)
class ActionSpec:
    text: str
    tip: str
    shortcuts: tuple[Key | str, ...] = ()
    icon: SP | None = None


#: Shortcuts are given as key names where a standard key could clash: on KDE and GNOME the
#: standard Delete binding includes Ctrl+D, which is Duplicate unit here.
SPECS: dict[ActionKey, ActionSpec] = {
    ActionKey.NEW: ActionSpec(
        "&New roster…", "Create a roster for a ruleset and army list", (Key.New,), SP.SP_FileIcon
    ),
    ActionKey.OPEN: ActionSpec(
        "&Open roster…",
        "Find a roster in the library and open it",
        (Key.Open,),
        SP.SP_DialogOpenButton,
    ),
    ActionKey.SAVE: ActionSpec(
        "&Save",
        "Save the roster now (every edit is also saved as you go)",
        (Key.Save,),
        SP.SP_DialogSaveButton,
    ),
    ActionKey.IMPORT: ActionSpec(
        "&Import roster file…",
        "Read a roster file (.json) into the library",
        ("Ctrl+I",),
        SP.SP_ArrowDown,
    ),
    ActionKey.EXPORT: ActionSpec(
        "&Export roster file…",
        "Write the open roster to a file (.json)",
        ("Ctrl+E",),
        SP.SP_ArrowUp,
    ),
    ActionKey.CLOSE: ActionSpec(
        "&Close roster", "Close the open roster", (Key.Close,), SP.SP_DialogCloseButton
    ),
    ActionKey.QUIT: ActionSpec("&Quit", "Quit Castra", (Key.Quit, "Ctrl+Q"), None),
    ActionKey.UNDO: ActionSpec("&Undo", "Undo the last edit", (Key.Undo,), SP.SP_ArrowBack),
    ActionKey.REDO: ActionSpec(
        "&Redo", "Redo the edit undone last", (Key.Redo, "Ctrl+Y"), SP.SP_ArrowForward
    ),
    ActionKey.ADD_UNIT: ActionSpec(
        "&Add unit",
        "Add a unit of the army-list entry selected",
        ("Ctrl+Return",),
        SP.SP_FileDialogNewFolder,
    ),
    ActionKey.ADD_COMMAND: ActionSpec(
        "Add &command", "Add a command to the roster", ("Ctrl+G",), SP.SP_DirIcon
    ),
    ActionKey.ADD_LEADER: ActionSpec(
        "Add &leader", "Add a leader to the roster", ("Ctrl+L",), SP.SP_DialogYesButton
    ),
    ActionKey.DUPLICATE_UNIT: ActionSpec(
        "D&uplicate unit", "Copy the selected unit", ("Ctrl+D",), SP.SP_FileDialogContentsView
    ),
    ActionKey.SPLIT_UNIT: ActionSpec(
        "S&plit off one unit",
        "Take one unit off a line of identical units",
        ("Ctrl+Shift+D",),
        None,
    ),
    ActionKey.DELETE: ActionSpec(
        "&Delete",
        "Remove the selected units, command or leader (in the library: delete the roster)",
        ("Del",),
        SP.SP_TrashIcon,
    ),
    ActionKey.PRINT_CARDS: ActionSpec(
        "Print unit &cards…",
        "Unit and leader cards of the open roster as a PDF (63 x 88 mm, nine a page)",
        (Key.Print, "Ctrl+P"),
        SP.SP_FileDialogDetailedView,
    ),
    ActionKey.PRINT_ROSTER: ActionSpec(
        "Print &roster sheet…",
        "The open roster's units, totals, commands, leaders and validation as a PDF",
        ("Ctrl+Shift+P",),
    ),
    ActionKey.PRINT_REFSHEET: ActionSpec(
        "Print &quick-reference sheet…",
        "A ruleset's tables, turn sequence, leader rules and errata on one or two pages",
    ),
    ActionKey.PRINT_CHANCE_CARDS: ActionSpec(
        "Print c&hance cards…",
        "The D3 chance-card deck of a side, with its army, commander and supply substitutions",
    ),
    ActionKey.VIEW_LIBRARY: ActionSpec(
        "Roster &library", "Show or hide the roster library", ("Ctrl+1",)
    ),
    ActionKey.VIEW_ARMY_LIST: ActionSpec(
        "&Army list", "Show or hide the army list's entries", ("Ctrl+2",)
    ),
    ActionKey.VIEW_VALIDATION: ActionSpec(
        "&Validation", "Show or hide the validation messages", ("Ctrl+3",)
    ),
    ActionKey.VIEW_TOOLBAR: ActionSpec("&Toolbar", "Show or hide the toolbar"),
}


def _configure(action: QAction, spec: ActionSpec) -> None:
    action.setText(spec.text)
    action.setToolTip(spec.tip)
    action.setStatusTip(spec.tip)
    if spec.shortcuts:
        sequences: list[QKeySequence] = []
        for s in spec.shortcuts:
            for seq in QKeySequence.keyBindings(s) if isinstance(s, Key) else [QKeySequence(s)]:
                if seq not in sequences:
                    sequences.append(seq)
        action.setShortcuts(sequences)
        action.setToolTip(
            f"{spec.tip} ({sequences[0].toString(QKeySequence.SequenceFormat.NativeText)})"
        )
    if spec.icon is not None:
        action.setIcon(standard_icon(spec.icon))


def make_action(parent: QWidget, key: ActionKey) -> QAction:
    action = QAction(parent)
    action.setObjectName(f"action_{key.name.lower()}")
    _configure(action, SPECS[key])
    return action


class Actions:
    """The window's actions by key."""

    def __init__(self, parent: QWidget) -> None:
        self._parent = parent
        self._actions: dict[ActionKey, QAction] = {}
        for key in ActionKey:
            if not key.name.startswith("VIEW_"):
                self._actions[key] = make_action(parent, key)

    def adopt(self, key: ActionKey, action: QAction) -> QAction:
        """Register an action Qt made (a dock's toggleViewAction) under ``key``."""
        action.setObjectName(f"action_{key.name.lower()}")
        _configure(action, SPECS[key])
        self._actions[key] = action
        return action

    def __getitem__(self, key: ActionKey) -> QAction:
        return self._actions[key]

    def __contains__(self, key: ActionKey) -> bool:
        return key in self._actions

    def items(self) -> list[tuple[ActionKey, QAction]]:
        return list(self._actions.items())
