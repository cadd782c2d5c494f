"""One open roster: its edit history, its totals and validation, and autosave to the store.

The session is the GUI's only handle on the roster (napari's "model emits, widget listens"):
widgets send edits with :meth:`RosterSession.apply` and redraw on :attr:`changed`. Every
edit, undo and redo is saved to the store at once, one transaction each (``save_roster``), so
a crash loses at most the edit in flight. Totals and validation come from ``app.core``; they
are computed once per roster value and shared by every widget.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from app.core.history import History, UndoStatus
from app.core.roster import Roster
from app.core.totals import RosterTotals, roster_totals
from app.core.validation import Report, validate
from app.rules.ruleset import Ruleset
from app.rules.schema import ArmyList

if TYPE_CHECKING:
    from app.usecases.access import Store

log = logging.getLogger(__name__)


class RosterSession(QObject):
    """The roster being edited. ``roster_id`` is its id in the store (None without a store)."""

    #: the roster changed (an edit, an undo or a redo); widgets redraw from the session
    changed = Signal()
    #: autosave finished: (saved, message)
    saved = Signal(bool, str)
    #: an edit was refused by the core (the message says why)
    refused = Signal(str)
    #: the roster was changed elsewhere (another window, the command line) since it was
    #: read: the edit was not saved; the window reloads the roster (message)
    stale = Signal(str)

    def __init__(
        self,
        *,
        ruleset: Ruleset,
        roster: Roster,
        store: Store | None,
        roster_id: int | None,
        version: int | None = None,
        read_only: str | None = None,
        parent: QObject | None = None,
    ) -> None:
        """``version``: the stored roster's version when it was read (None: a roster not
        yet in the store, or written without the check). ``read_only``: why this roster
        cannot be changed here (another member's roster on a club server), or None."""
        super().__init__(parent)
        self.ruleset = ruleset
        self.army: ArmyList = ruleset.army(roster.army)
        self.store = store
        self.roster_id = roster_id
        self.history: History[Roster] = History(roster)
        self.history.listeners.append(self._on_change)
        self._cache: tuple[Roster, RosterTotals, Report] | None = None
        self.save_error: str | None = None
        self.version = version
        #: why the roster cannot be changed here (the store said so), or None
        self.read_only = read_only
        #: the change being saved, as the roster's history names it
        self._what: str | None = None
        #: the roster as the store holds it (at ``version``): autosave writes only the rows
        #: that differ from it
        self._stored: Roster | None = roster if version is not None else None

    # ------------------------------------------------------------------ state

    @property
    def roster(self) -> Roster:
        return self.history.value

    @property
    def totals(self) -> RosterTotals:
        return self._computed()[1]

    @property
    def report(self) -> Report:
        return self._computed()[2]

    def _computed(self) -> tuple[Roster, RosterTotals, Report]:
        roster = self.history.value
        if self._cache is None or self._cache[0] is not roster:
            before = None if self._cache is None else (self._cache[0], self._cache[1])
            self._cache = (
                roster,
                roster_totals(self.ruleset, roster, before),  # only the units that changed
                validate(self.ruleset, roster),
            )
        return self._cache

    def status(self) -> UndoStatus:
        return self.history.status()

    @property
    def group_name(self) -> str:
        """What the ruleset calls a command ("battlegroup" in Quincunx)."""
        return self.ruleset.organisation.group_name

    # ------------------------------------------------------------------ requests

    def apply(self, edit: Any) -> bool:
        """Apply ``edit`` (an ``app.core.edits`` command). A refused edit changes nothing and
        emits :attr:`refused`; so does every edit of a read-only roster."""
        if self.read_only is not None:
            self.refused.emit(f"{edit.label}: {self.read_only}")
            return False
        self._what = edit.label
        try:
            self.history.apply(edit)
        except (KeyError, ValueError, TypeError) as exc:
            text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
            self.refused.emit(f"{edit.label}: {text}")
            return False
        return True

    def undo(self) -> None:
        status = self.history.status()
        if status.can_undo:
            self._what = f"Undo {status.undo_label}" if status.undo_label else "Undo"
            self.history.undo()

    def redo(self) -> None:
        status = self.history.status()
        if status.can_redo:
            self._what = f"Redo {status.redo_label}" if status.redo_label else "Redo"
            self.history.redo()

    def save(self) -> bool:
        """Write the roster to the store (one transaction). Returns whether it was saved."""
        if self.store is None:
            self.save_error = "no store is open; export the roster to a file to keep it"
            self.saved.emit(False, self.save_error)
            return False
        from app.usecases.access import AccessRefused, StaleWrite  # the ORM loads now
        from app.usecases.roster import write_roster

        roster = self.roster
        try:
            saved = write_roster(
                self.store,
                roster=roster,
                roster_id=self.roster_id,
                expected_version=self.version,
                base=self._stored,
                what=self._what,
            )
        except StaleWrite as exc:
            self.save_error = str(exc)
            self.saved.emit(False, "changed elsewhere; reloaded")
            self.stale.emit(f"{exc}; reloaded")
            return False
        except AccessRefused as exc:  # a club server: another member's roster
            self.save_error = str(exc)
            self.saved.emit(False, "refused; reloaded")
            self.stale.emit(f"{exc}; the roster as stored is shown again")
            return False
        except Exception as exc:  # any store failure: keep the roster in memory, say so
            log.warning("autosave failed: %s", exc)
            self.save_error = str(exc)
            self.saved.emit(False, f"not saved: {exc}")
            return False
        self.roster_id, self.version, self._stored = saved.id, saved.version, roster
        self.save_error = None
        self.history.mark_saved()
        self.saved.emit(True, "saved")
        return True

    @property
    def dirty(self) -> bool:
        return self.history.dirty

    def _on_change(self, _roster: Roster) -> None:
        self.save()
        self.changed.emit()
