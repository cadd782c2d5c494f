"""The army builder's use cases behind the window's actions: new, open, close, save, import,
export, undo, redo, delete, and keeping the panels in step with the open roster.

The main window builds the parts and hands them here; this module decides what an action
does, and asks the core (rosters, edits, files) and the store to do it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QDialog, QDockWidget, QMainWindow, QMenu

from app.core.capabilities import uses_commands
from app.core.edits import UpdateRoster
from app.core.ready import first_samples
from app.core.roster import Roster
from app.gui import dialogs
from app.gui.actions import SPECS, ActionKey, Actions, set_tip
from app.gui.editor import RosterEditor
from app.gui.entries import ArmyListPanel
from app.gui.fit import short_name
from app.gui.library import LibraryPanel
from app.gui.new_roster import NewRosterDialog
from app.gui.session import RosterSession
from app.gui.settings import WindowSettings
from app.gui.validation_panel import ValidationPanel
from app.rules.documents import declared_by
from app.rules.registry import Registry

if TYPE_CHECKING:
    from app.usecases.access import Store
    from app.usecases.roster import RosterSummary


def _file_name(name: str) -> str:
    return re.sub(r"[^\w\- ]+", "_", name).strip() or "roster"


class Builder(QObject):
    """Use cases of the army builder; owns the open :class:`RosterSession`."""

    #: a roster was opened or closed
    session_changed = Signal()
    #: a message for the status bar
    message = Signal(str)
    #: whether the open roster is saved ("Saved 12:03:04"), for the status bar
    save_state = Signal(str)

    def __init__(
        self,
        window: QMainWindow,
        *,
        registry: Registry,
        store: Store | None,
        settings: WindowSettings,
        actions: Actions,
        editor: RosterEditor,
        library: LibraryPanel,
        army_list: ArmyListPanel,
        validation: ValidationPanel,
        library_dock: QDockWidget,
    ) -> None:
        super().__init__(window)
        self.window = window
        self.registry = registry
        self.store = store
        self.settings = settings
        self.actions = actions
        self.editor = editor
        self.library = library
        self.army_list = army_list
        self.validation = validation
        self.library_dock = library_dock
        self.session: RosterSession | None = None
        self._in_library: tuple[str, int] | None = None
        self._connect()
        self.update_actions()

    def _connect(self) -> None:
        a = self.actions
        a[ActionKey.NEW].triggered.connect(self.new_roster)
        a[ActionKey.OPEN].triggered.connect(self.focus_library)
        a[ActionKey.SAVE].triggered.connect(self.save)
        a[ActionKey.IMPORT].triggered.connect(self.import_dialog)
        a[ActionKey.EXPORT].triggered.connect(self.export_dialog)
        a[ActionKey.CLOSE].triggered.connect(lambda: self.close_roster(forget=True))
        a[ActionKey.UNDO].triggered.connect(self.undo)
        a[ActionKey.REDO].triggered.connect(self.redo)
        a[ActionKey.ADD_UNIT].triggered.connect(self.add_unit)
        a[ActionKey.ADD_COMMAND].triggered.connect(self.editor.add_command)
        a[ActionKey.ADD_LEADER].triggered.connect(self.editor.leaders.add_leader)
        a[ActionKey.DUPLICATE_UNIT].triggered.connect(self.editor.duplicate_selected)
        a[ActionKey.SPLIT_UNIT].triggered.connect(self.editor.split_selected)
        a[ActionKey.DELETE].triggered.connect(self.delete)
        a[ActionKey.ROSTER_HISTORY].triggered.connect(self.show_history)
        self.library.open_requested.connect(self.open_roster)
        self.library.rename_requested.connect(self.rename_roster)
        self.library.roster_deleted.connect(self._roster_deleted)
        self.library.message.connect(self.message)
        self.editor.message.connect(self.message)
        self.army_list.add_requested.connect(self.editor.add_entry)
        self.validation.subject_activated.connect(self.editor.select_subject)
        self.library.view.selectionModel().currentChanged.connect(lambda *_: self.update_actions())

    # ------------------------------------------------------------------ opening and closing

    def open_roster(self, roster_id: int) -> bool:
        """Open roster ``roster_id`` from the store in the editor."""
        if self.session is not None and self.session.roster_id == roster_id:
            self.library.select_roster(roster_id)
            return True
        if self.store is None:
            return False
        from app.usecases.access import StoreError
        from app.usecases.roster import load_roster_versioned, roster_lock

        try:
            roster, version = load_roster_versioned(self.store, roster_id=roster_id)
            lock = roster_lock(self.store, roster_id=roster_id)
        except StoreError as exc:  # damaged content, a busy or unreadable store
            dialogs.error(self.window, "Cannot open roster", str(exc))
            return False
        except KeyError:
            self.message.emit(f"Roster {roster_id} is no longer in the store")
            self.settings.remove_recent(roster_id)
            self.library.refresh()
            return False
        if not self._openable(roster):
            return False
        if not self.close_roster(forget=False):
            return False
        self._start_session(roster, roster_id, version, read_only=lock)
        self.settings.add_recent(roster_id)
        self.settings.set_last_roster(roster_id)
        self.library.select_roster(roster_id)
        self.message.emit(f"Opened “{roster.name}”" + (f" ({lock})" if lock else ""))
        return True

    def _openable(self, roster: Roster) -> bool:
        if roster.ruleset not in self.registry:
            try:
                self.registry.get(roster.ruleset)
            except KeyError as exc:
                reason = str(exc.args[0])
            dialogs.error(
                self.window, "Cannot open roster", f"“{roster.name}” cannot be opened: {reason}."
            )
            return False
        rs = self.registry.get(roster.ruleset)
        if roster.army not in rs.armies:
            dialogs.error(
                self.window,
                "Cannot open roster",
                f"“{roster.name}” uses the army list {roster.army!r}, which {rs.meta.name} "
                f"no longer has (it has: {', '.join(sorted(rs.armies))}).",
            )
            return False
        return True

    def _start_session(
        self,
        roster: Roster,
        roster_id: int | None,
        version: int | None = None,
        *,
        read_only: str | None = None,
    ) -> None:
        session = RosterSession(
            ruleset=self.registry.get(roster.ruleset),
            roster=roster,
            store=self.store,
            roster_id=roster_id,
            version=version,
            read_only=read_only,
            parent=self,
        )
        session.changed.connect(self._roster_changed)
        session.saved.connect(self._saved)
        session.refused.connect(self.message)
        session.stale.connect(self._reload_stale)
        self.session = session
        self._in_library = (roster.name, roster.unit_count())
        self.editor.set_session(session)
        self.army_list.set_session(session)
        self.validation.set_session(session)
        self.update_actions()
        self.session_changed.emit()
        self.editor.tree.setFocus()

    def _reload_stale(self, text: str) -> None:
        """The open roster was changed elsewhere: our edit was refused, so show the stored
        roster instead of overwriting it (issue 13: two writers must not lose a write)."""
        session = self.session
        if session is None or session.roster_id is None:
            return
        roster_id = session.roster_id
        session.history.mark_saved()  # the refused edit is given up, not saved on close
        self.session = None
        self.editor.set_session(None)
        self.army_list.set_session(None)
        self.validation.set_session(None)
        session.deleteLater()
        if self.open_roster(roster_id):
            self.message.emit(f"Not saved: {text}")
        self.library.refresh()

    def reload_open_roster(self) -> None:
        """Show the stored copy of the open roster (another member changed it on the club
        server; we have no unsaved edit): closed and opened again, nothing written."""
        session = self.session
        if session is None or session.roster_id is None or session.dirty:
            return
        roster_id = session.roster_id
        self.session = None
        self.editor.set_session(None)
        self.army_list.set_session(None)
        self.validation.set_session(None)
        session.deleteLater()
        if self.open_roster(roster_id):
            self.message.emit("Reloaded: another member changed this roster")

    def close_roster(self, *, forget: bool = True) -> bool:
        """Close the open roster (it is already saved; a failed save asks first). With
        ``forget`` the next start does not reopen it."""
        session = self.session
        if session is None:
            return True
        if (
            session.dirty
            and not session.save()
            and not dialogs.confirm(
                self.window,
                "Roster not saved",
                f"“{session.roster.name}” could not be saved ({session.save_error}).\n\n"
                "Close it anyway and lose the changes? "
                "(Cancel, then export it to a file to keep it.)",
                "Close without saving",
            )
        ):
            return False
        self.session = None
        self.editor.set_session(None)
        self.army_list.set_session(None)
        self.validation.set_session(None)
        session.deleteLater()
        if forget:
            self.settings.set_last_roster(None)
        self.update_actions()
        self.session_changed.emit()
        return True

    def new_roster(self) -> NewRosterDialog:
        """Open the New roster dialog (window-modal, not blocking); the roster is created when
        it is accepted."""
        dialog = NewRosterDialog(self.registry, self.window)
        if self.session is not None:  # start from what is being worked on
            dialog.select(self.session.ruleset.id)
        dialog.accepted.connect(lambda: self._created(dialog))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def _created(self, dialog: NewRosterDialog) -> None:
        if dialog.result_roster is not None:
            self.add_and_open(dialog.result_roster)

    def add_and_open(self, roster: Roster) -> bool:
        """Save a new roster in the store and open it (without a store: open it unsaved)."""
        if self.store is None:
            if not self.close_roster(forget=True):
                return False
            self._start_session(roster, None)
            self.message.emit("No store is open: export the roster to keep it")
            return True
        from app.usecases.roster import save_roster, unique_name

        try:
            name = unique_name(self.store, name=roster.name)
            if name != roster.name:  # two rosters of one name could not be told apart
                self.message.emit(f"“{roster.name}” is taken: saved as “{name}”")
                roster = replace(roster, name=name)
            rid = save_roster(self.store, roster=roster)
        except Exception as exc:
            dialogs.error(
                self.window, "Cannot save roster", f"“{roster.name}” was not saved: {exc}"
            )
            return False
        self.library.refresh()
        return self.open_roster(rid)

    def start(self, seeded: list[int], summaries: list[RosterSummary] | None = None) -> None:
        """At start: reopen the roster open last time; on first start open a sample so a
        newcomer sees a working army at once. ``summaries``: the live rosters, already read
        at start (else read here)."""
        last = self.settings.last_roster()
        if self.store is None:
            return
        if summaries is None:
            from app.usecases.roster import list_rosters

            summaries = list_rosters(self.store)
        live = {s.id: s for s in summaries}
        if last is not None and last in live and self.open_roster(last):
            return
        if seeded:
            samples = [live[i] for i in seeded if i in live]
            # the sample the data marks to open first (the Quincunx Roman model legion)
            first = first_samples(self.registry)
            preferred = [s for s in samples if (s.ruleset, s.army) in first]
            choices = preferred or samples
            choice = choices[0] if choices else None
            if choice is not None and self.open_roster(choice.id):
                self.message.emit(
                    f"Welcome to Castra. This is a sample army, “{choice.name}”; "
                    "the library on the left holds the others."
                )

    # ------------------------------------------------------------------ editing

    def undo(self) -> None:
        if self.session is not None:
            self.session.undo()

    def redo(self) -> None:
        if self.session is not None:
            self.session.redo()

    def save(self) -> None:
        if self.session is not None and self.session.save():
            self.message.emit(f"Saved “{self.session.roster.name}”")

    def add_unit(self) -> None:
        entry = self.army_list.selected_entry()
        if entry is not None:
            self.editor.add_entry(entry)

    def delete(self) -> None:
        """Del: remove what the focus is on (a roster in the library, a leader, units)."""
        focus = QApplication.focusWidget()
        if focus is not None and self.library.isAncestorOf(focus):
            self.library.delete_selected()
        elif focus is not None and self.editor.leaders.isAncestorOf(focus):
            self.editor.leaders.remove_selected()
        elif (focus is None or self.editor.isAncestorOf(focus)) and self.editor.remove_selected():
            return
        else:
            self.message.emit("Select units or a command in the roster, or a leader, to delete")

    def show_history(self) -> QDialog | None:
        """Edit > Roster history…: the open roster's recorded changes, with who made them."""
        s = self.session
        if s is None or s.roster_id is None or self.store is None:
            self.message.emit("Open a stored roster to see its history")
            return None
        from app.gui.roster_history import show_history
        from app.usecases.access import StoreError
        from app.usecases.roster import roster_history

        try:
            changes = roster_history(self.store, roster_id=s.roster_id)
        except (StoreError, KeyError) as exc:
            text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
            self.message.emit(f"No history: {text}")
            return None
        return show_history(self.window, s.roster.name, changes)

    def rename_roster(self, roster_id: int, name: str) -> None:
        if self.store is not None:
            from app.usecases.roster import unique_name

            wanted, name = name, unique_name(self.store, name=name, exclude_id=roster_id)
            if name != wanted:
                self.message.emit(f"“{wanted}” is taken: renamed to “{name}”")
        if self.session is not None and self.session.roster_id == roster_id:
            self.session.apply(UpdateRoster({"name": name}, f"Rename roster to {short_name(name)}"))
        elif self.store is not None:
            from app.usecases.access import StoreError
            from app.usecases.roster import rename_roster

            try:
                rename_roster(self.store, roster_id=roster_id, name=name)
            except (StoreError, ValueError, KeyError) as exc:
                self.message.emit(f"Not renamed: {exc}")
        self.library.refresh()

    def _roster_deleted(self, roster_id: int) -> None:
        self.settings.remove_recent(roster_id)
        if self.session is not None and self.session.roster_id == roster_id:
            self.close_roster(forget=True)

    # ------------------------------------------------------------------ files

    def import_dialog(self) -> None:
        path = dialogs.open_roster_file(self.window, self.settings.folder())
        if path is not None:
            self.settings.set_folder(str(path.parent))
            self.import_path(path)

    def import_paths(self, paths: Iterable[Path]) -> None:
        for path in paths:
            if not self.import_path(path):
                break

    def import_path(self, path: Path) -> bool:
        """Import a roster file: all or nothing; a bad file shows its problems and changes
        nothing."""
        from app.core.rosterfile import RosterFileError, read_file  # pydantic models: not at start

        try:
            roster = read_file(path, self.registry)
        except RosterFileError as exc:
            dialogs.show_problems(
                self.window,
                "Cannot import roster file",
                f"<b>{path.name}</b> was not imported; nothing was changed.<br>"
                "Fix these problems in the file and import it again:",
                exc.problems,
            )
            return False
        if self.add_and_open(roster):
            self.message.emit(f"Imported “{roster.name}” from {path.name}")
            return True
        return False

    def export_dialog(self) -> None:
        if self.session is None:
            return
        roster = self.session.roster
        folder = self.settings.folder() or str(Path.home())
        path = dialogs.save_roster_file(
            self.window, str(Path(folder) / f"{_file_name(roster.name)}.json")
        )
        if path is None:
            return
        self.settings.set_folder(str(path.parent))
        self.export_to(path)

    def export_to(self, path: Path) -> bool:
        if self.session is None:
            return False
        from app.core.rosterfile import export_file

        try:
            export_file(self.session.roster, path)
        except OSError as exc:
            dialogs.error(
                self.window,
                "Cannot export roster",
                f"Could not write {path}: {exc.strerror or exc}",
            )
            return False
        self.message.emit(f"Exported to {path}")
        return True

    # ------------------------------------------------------------------ library and recent

    def focus_library(self) -> None:
        dock = self.library_dock
        dock.show()
        dock.raise_()
        self.library.search.setFocus()
        self.library.search.selectAll()

    def fill_recent_menu(self, menu: QMenu) -> None:
        menu.clear()
        from app.usecases.roster import list_rosters

        live = {s.id: s for s in list_rosters(self.store)} if self.store is not None else {}
        n = 0
        for rid in self.settings.recent():
            s = live.get(rid)
            if s is None:
                continue
            n += 1
            action = menu.addAction(f"&{n} {s.name}")
            action.setToolTip(f"{s.army} · {s.side}")
            action.triggered.connect(lambda _c=False, r=rid: self.open_roster(r))
        if not n:
            menu.addAction("(no recent rosters)").setEnabled(False)

    # ------------------------------------------------------------------ keeping in step

    def _roster_changed(self) -> None:
        self.update_actions()
        s = self.session
        shown = (s.roster.name, s.roster.unit_count()) if s is not None else None
        if shown != self._in_library:  # the library shows the name and the unit count
            self._in_library = shown
            self.library.refresh()

    def _saved(self, ok: bool, text: str) -> None:
        if ok:
            self.save_state.emit(f"Saved {datetime.now():%H:%M:%S}")
        else:
            self.message.emit(f"Not saved: {text}")
            self.save_state.emit("<span style='color:#b00020'>Not saved</span>")
        self.update_actions()

    def update_actions(self) -> None:
        s = self.session
        a = self.actions
        have = s is not None
        for key in (
            ActionKey.SAVE,
            ActionKey.EXPORT,
            ActionKey.CLOSE,
            ActionKey.ADD_UNIT,
            ActionKey.ADD_COMMAND,
            ActionKey.ADD_LEADER,
            ActionKey.DUPLICATE_UNIT,
            ActionKey.SPLIT_UNIT,
            ActionKey.PRINT_CARDS,
            ActionKey.PRINT_ROSTER,
            ActionKey.ROSTER_HISTORY,
        ):
            a[key].setEnabled(have)
        if s is not None and s.read_only is not None:  # another member's roster: look only
            for key in (
                ActionKey.ADD_UNIT,
                ActionKey.ADD_COMMAND,
                ActionKey.ADD_LEADER,
                ActionKey.DUPLICATE_UNIT,
                ActionKey.SPLIT_UNIT,
            ):
                a[key].setEnabled(False)
        # Only what applies: no "Add command" where the rules have no commands (D3, GSB,
        # MWAN #90), no declared document (D3's chance cards) for a roster of a ruleset
        # whose engine does not declare it, no Delete with nothing to delete.
        a[ActionKey.ADD_COMMAND].setVisible(s is None or uses_commands(s.ruleset))
        for doc_id, action in a.documents.items():
            action.setVisible(
                declared_by(s.ruleset.engine, doc_id) is not None
                if s is not None
                else any(declared_by(rs.engine, doc_id) is not None for rs in self.registry)
            )
        a[ActionKey.DELETE].setEnabled(have or self.library.selected_roster() is not None)
        status = s.status() if s is not None and s.read_only is None else None
        a[ActionKey.UNDO].setEnabled(bool(status and status.can_undo))
        a[ActionKey.REDO].setEnabled(bool(status and status.can_redo))
        # The menu and the tooltip say what would be undone; the toolbar keeps "Undo".
        for key, label, word in (
            (ActionKey.UNDO, status.undo_label if status else None, "Undo"),
            (ActionKey.REDO, status.redo_label if status else None, "Redo"),
        ):
            a[key].setText(f"&{word} {label}" if label else f"&{word}")
            set_tip(a[key], f"{word} {label}" if label else SPECS[key].tip)
        group = s.group_name if s is not None else "command"
        a[ActionKey.ADD_COMMAND].setText(f"Add &{group}")
        a[ActionKey.ADD_COMMAND].setIconText(group.capitalize())
        set_tip(a[ActionKey.ADD_COMMAND], f"Add a {group} to the roster")
        title = "Castra"
        if s is not None:
            title = f"{s.roster.name}[*] — Castra"
        self.window.setWindowTitle(title)
        self.window.setWindowModified(bool(s is not None and s.dirty))
