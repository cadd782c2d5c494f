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
from PySide6.QtWidgets import QWidget

from app.gui.icons import bundled_icon
from app.rules.documents import DocumentSpec

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
    ROSTER_HISTORY = auto()
    PRINT_CARDS = auto()
    PRINT_ROSTER = auto()
    PRINT_REFSHEET = auto()
    RESET_LAYOUT = auto()
    GUIDE = auto()
    SHORTCUTS = auto()
    RULESET_PROBLEMS = auto()
    ABOUT = auto()
    CAMPAIGNS = auto()
    NEW_CAMPAIGN = auto()
    NEW_CAMPAIGN_TEMPLATE = auto()
    NEW_CAMPAIGN_HISTORY = auto()
    IMPORT_CAMPAIGN = auto()
    # the campaign view's own actions (made by that window, not the main one)
    CV_RECORD = auto()
    CV_APPLY = auto()
    CV_UNDO = auto()
    CV_REDO = auto()
    CV_ADD_BATTLE = auto()
    CV_FIGHT = auto()
    CV_CHRONICLE = auto()
    CV_EXPORT = auto()
    CV_ASSIGN = auto()
    CV_CLOSE = auto()
    VIEW_LIBRARY = auto()
    VIEW_ARMY_LIST = auto()
    VIEW_VALIDATION = auto()
    VIEW_TOOLBAR = auto()
    VIEW_BATTLES = auto()
    NEW_BATTLE = auto()
    NEW_BATTLE_HISTORY = auto()
    RESUME_BATTLE = auto()


@dataclass(frozen=True)
class ActionSpec:
    """``text`` for menus (it may grow, as Undo's does: "Undo Move unit"); ``short`` is the
    toolbar's fixed label, so the toolbar never jumps; ``icon`` names a bundled icon
    (``resources/icons``, Lucide)."""

    text: str
    tip: str
    shortcuts: tuple[Key | str, ...] = ()
    icon: str | None = None
    short: str | None = None


#: Shortcuts are given as key names where a standard key could clash: on KDE and GNOME the
#: standard Delete binding includes Ctrl+D, which is Duplicate unit here.
SPECS: dict[ActionKey, ActionSpec] = {
    ActionKey.NEW: ActionSpec(
        "&New roster…",
        "Create a roster for a ruleset and army list",
        (Key.New,),
        "file-plus",
        "New",
    ),
    ActionKey.OPEN: ActionSpec(
        "&Open roster…",
        "Find a roster in the library and open it",
        (Key.Open,),
        "folder-open",
        "Open",
    ),
    ActionKey.SAVE: ActionSpec(
        "&Save",
        "Save the roster now (every edit is also saved as you go)",
        (Key.Save,),
        "save",
    ),
    ActionKey.IMPORT: ActionSpec(
        "&Import roster file…",
        "Read a roster file (.json) into the library",
        ("Ctrl+I",),
        "file-input",
        "Import",
    ),
    ActionKey.EXPORT: ActionSpec(
        "&Export roster file…",
        "Write the open roster to a file (.json)",
        ("Ctrl+E",),
        "file-output",
        "Export",
    ),
    ActionKey.CLOSE: ActionSpec(
        "&Close roster", "Close the open roster", (Key.Close, "Ctrl+W", "Ctrl+F4"), "x"
    ),
    ActionKey.QUIT: ActionSpec("&Quit", "Quit Castra", (Key.Quit, "Ctrl+Q"), "log-out"),
    ActionKey.UNDO: ActionSpec("&Undo", "Undo the last edit", (Key.Undo,), "undo-2", "Undo"),
    ActionKey.REDO: ActionSpec(
        "&Redo", "Redo the edit undone last", (Key.Redo, "Ctrl+Y"), "redo-2", "Redo"
    ),
    ActionKey.ADD_UNIT: ActionSpec(
        "&Add unit",
        "Add a unit of the army-list entry selected",
        ("Ctrl+Return",),
        "square-plus",
        "Unit",
    ),
    ActionKey.ADD_COMMAND: ActionSpec(
        "Add &command", "Add a command to the roster", ("Ctrl+G",), "folder-plus", "Command"
    ),
    ActionKey.ADD_LEADER: ActionSpec(
        "Add &leader", "Add a leader to the roster", ("Ctrl+L",), "user-plus", "Leader"
    ),
    ActionKey.DUPLICATE_UNIT: ActionSpec(
        "D&uplicate unit", "Copy the selected unit", ("Ctrl+D",), "copy", "Duplicate"
    ),
    ActionKey.SPLIT_UNIT: ActionSpec(
        "S&plit off one unit",
        "Take one unit off a line of identical units",
        ("Ctrl+Shift+D",),
        "split",
    ),
    ActionKey.DELETE: ActionSpec(
        "&Delete",
        "Remove the selected units, command or leader (in the library: delete the roster)",
        ("Del",),
        "trash-2",
        "Delete",
    ),
    ActionKey.ROSTER_HISTORY: ActionSpec(
        "Roster &history…",
        "Every recorded change of the open roster: what, when and who made it",
    ),
    ActionKey.PRINT_CARDS: ActionSpec(
        "Unit &cards…",
        "Unit and leader cards of the open roster, to a printer or a PDF (63 x 88 mm, nine a page)",
        (Key.Print, "Ctrl+P"),
        "printer",
    ),
    ActionKey.PRINT_ROSTER: ActionSpec(
        "&Roster sheet…",
        "The open roster's units by command, totals, leaders and validation, to a printer or a PDF",
        ("Ctrl+Shift+P",),
    ),
    ActionKey.PRINT_REFSHEET: ActionSpec(
        "&Quick-reference sheet…",
        "A ruleset's tables, turn sequence, leader rules and errata on one or two pages",
    ),
    ActionKey.RESET_LAYOUT: ActionSpec(
        "&Reset layout",
        "Put the panels and the toolbar back where they were at first start",
        (),
        "panels-top-left",
    ),
    ActionKey.GUIDE: ActionSpec(
        "User &guide",
        "A short guide to building, checking and printing an army",
        ("F1",),
        "book-open",
    ),
    ActionKey.SHORTCUTS: ActionSpec(
        "&Keyboard shortcuts", "Every shortcut of the window", (), "keyboard"
    ),
    ActionKey.RULESET_PROBLEMS: ActionSpec(
        "Ruleset &problems…", "Ruleset folders that did not load, and why"
    ),
    ActionKey.ABOUT: ActionSpec(
        "&About Castra", "Version, ruleset data versions and licences", (), "info"
    ),
    ActionKey.CAMPAIGNS: ActionSpec(
        "&Campaigns…",
        "The campaign view: battles, armies, leaders' fates and the strength plot",
        (),
        "map",
    ),
    ActionKey.NEW_CAMPAIGN: ActionSpec(
        "&New campaign from rosters…",
        "A campaign of your own: two or more sides, each a roster that becomes its army",
    ),
    ActionKey.NEW_CAMPAIGN_TEMPLATE: ActionSpec(
        "New campaign: &Hannibal in Italy",
        "The Trebia, Lake Trasimene and Cannae with Quincunx's armies and named leaders",
    ),
    ActionKey.NEW_CAMPAIGN_HISTORY: ActionSpec(
        "New campaign from &history…",
        "Scipio in Spain, Scipio in Africa or the Metaurus, in any ruleset, fought on the "
        "historical battles' fields",
    ),
    ActionKey.IMPORT_CAMPAIGN: ActionSpec(
        "&Import campaign…", "Read a campaign file (all armies, battles and steps)"
    ),
    ActionKey.CV_RECORD: ActionSpec(
        "&Record a result…",
        "Winner, losses and leaders' fates of the next battle: from the fought battle or by hand",
        ("Ctrl+R",),
        "square-pen",
        "Record",
    ),
    ActionKey.CV_APPLY: ActionSpec(
        "&Apply the result…",
        "Carry the recorded result into the armies, after a preview of every change",
        ("Ctrl+Return",),
        "check",
        "Apply",
    ),
    ActionKey.CV_UNDO: ActionSpec("&Undo", "Undo the last campaign step", (Key.Undo,), "undo"),
    ActionKey.CV_REDO: ActionSpec(
        "&Redo", "Redo the campaign step", (Key.Redo, "Ctrl+Y", "Ctrl+Shift+Z"), "redo"
    ),
    ActionKey.CV_ADD_BATTLE: ActionSpec(
        "A&dd a battle…",
        "The next battle between two sides, on the ruleset's table or a historical field",
        ("Ctrl+B",),
        "battle-plus",
        "Add battle",
    ),
    ActionKey.CV_FIGHT: ActionSpec(
        "&Fight next battle",
        "Make the next battle from the campaign armies (killed and captured leaders stay home)",
        (),
        "swords",
        "Fight",
    ),
    ActionKey.CV_CHRONICLE: ActionSpec(
        "&Chronicle PDF…",
        "Timeline, strength charts and the leader status sheet as a PDF",
        (),
        "file-text",
        "Chronicle",
    ),
    ActionKey.CV_EXPORT: ActionSpec(
        "&Export campaign…", "Write the campaign to one file (armies, battles and steps)"
    ),
    ActionKey.CV_ASSIGN: ActionSpec(
        "&Sides and players…",
        "On a club server: which member plays each side (the umpire gives sides)",
    ),
    ActionKey.CV_CLOSE: ActionSpec(
        "&Close", "Close the Campaigns window", (Key.Close, "Ctrl+W", "Ctrl+F4")
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
    ActionKey.VIEW_BATTLES: ActionSpec("&Battles", "Show or hide the stored battles", ("Ctrl+4",)),
    ActionKey.NEW_BATTLE: ActionSpec(
        "&New battle…",
        "Two rosters of one ruleset on a table, in a battle window",
        ("Ctrl+Shift+N",),
        None,
        "Battle",
    ),
    ActionKey.NEW_BATTLE_HISTORY: ActionSpec(
        "New battle from &history…",
        "One of the war's great battles on its field, with the forces the sources give, in "
        "any ruleset",
    ),
    ActionKey.RESUME_BATTLE: ActionSpec(
        "&Resume last battle", "The battle played last, where it stopped", ("Ctrl+Shift+B",)
    ),
}


def shortcut_text(action: QAction) -> str:
    """The action's first shortcut as the platform writes it ("Ctrl+Z"), or ""."""
    seq = action.shortcut()
    return seq.toString(QKeySequence.SequenceFormat.NativeText) if not seq.isEmpty() else ""


def set_tip(action: QAction, tip: str) -> None:
    """The tooltip: the full text, and the shortcut."""
    keys = shortcut_text(action)
    action.setToolTip(f"{tip} ({keys})" if keys else tip)


def _configure(action: QAction, spec: ActionSpec) -> None:
    action.setText(spec.text)
    action.setIconText(spec.short or spec.text.replace("&", "").rstrip("…"))
    action.setStatusTip(spec.tip)
    if spec.shortcuts:
        sequences: list[QKeySequence] = []
        for s in spec.shortcuts:
            for seq in QKeySequence.keyBindings(s) if isinstance(s, Key) else [QKeySequence(s)]:
                if seq not in sequences:
                    sequences.append(seq)
        action.setShortcuts(sequences)
    set_tip(action, spec.tip)
    if spec.icon is not None:
        action.setIcon(bundled_icon(spec.icon))


def configure_action(action: QAction, spec: ActionSpec) -> None:
    """Give ``action`` its text, shortcuts, tip and icon (the battle window's registry uses
    it with its own table)."""
    _configure(action, spec)


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
            if not key.name.startswith(("VIEW_", "CV_")):
                self._actions[key] = make_action(parent, key)
        #: the print action of each document the engines declare, by the document's id
        self.documents: dict[str, QAction] = {}

    def add_documents(self, specs: list[DocumentSpec]) -> None:
        """A print action for each declared document, its words from the declaration."""
        for spec in specs:
            action = QAction(self._parent)
            action.setObjectName(f"action_print_{spec.id.replace('-', '_')}")
            _configure(action, ActionSpec(spec.action, spec.tip))
            self.documents[spec.id] = action

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
