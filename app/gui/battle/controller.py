"""The battle window's link to the core: one :class:`~app.core.battle.BattleSession`, saved
in the store after every command, undo and redo (as ``castra battle`` does), and a view of
the past (a log step clicked) that is read-only until the present returns.

Widgets send commands here and listen to :attr:`changed`; none changes a state itself."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QObject, Signal

from app.core.battle import BattleCommand, BattleSession, CommandError, ReplayError, Step
from app.core.battle.given import DiceRequest
from app.core.battle.state import BattleState

if TYPE_CHECKING:
    from app.core.roster import Roster
    from app.rules.registry import Registry
    from app.usecases.access import Store

T = TypeVar("T")


class _NotSaved(Exception):
    """The store refused the change (said in the status bar); the battle is as it was."""


#: longest status-bar line made of a step's log
STATUS_CHARS = 300


def one_line(lines: Sequence[str]) -> str:
    """A step's log lines as one status-bar line: each ends as a sentence (some log lines
    have no full stop of their own), cut to :data:`STATUS_CHARS`."""
    parts = [
        t if t.endswith((".", "!", "?", ":", ";")) else f"{t}." for t in map(str.strip, lines) if t
    ]
    text = " ".join(parts)
    return text if len(text) <= STATUS_CHARS else text[: STATUS_CHARS - 1] + "…"


class BattleController(QObject):
    #: the present changed (a command done, undone or redone)
    changed = Signal()
    #: the step shown changed: a past step (its number) or the present (-1)
    viewing = Signal(int)
    #: one line for the status bar
    message = Signal(str)
    #: a command was just done: the step and the state before it (the result card's); both
    #: None when an undo or redo leaves no step just done
    done = Signal(object, object)

    def __init__(
        self,
        session: BattleSession,
        *,
        store: Store | None = None,
        battle_id: int | None = None,
        rosters: tuple[Roster, Roster] | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.store = store
        self.battle_id = battle_id
        self.rosters = rosters
        #: the past step shown read-only (None: the present)
        self.past: int | None = None
        #: why this user may not change the battle at all (a player's window on a club
        #: server: battles are the umpire's), or None
        self.locked: str | None = None
        self._past_state: BattleState | None = None

    # ------------------------------------------------------------------ reading

    @property
    def state(self) -> BattleState:
        """The state shown: a past step's while one is shown, else the present."""
        if self.past is not None and self._past_state is not None:
            return self._past_state
        return self.session.state

    @property
    def read_only(self) -> bool:
        """Nothing can be changed: a past step is shown, or the battle is locked."""
        return self.past is not None or self.locked is not None

    def phase_name(self, state: BattleState | None = None) -> str:
        state = state or self.state
        phases = self.session.ruleset.turn.phases
        return phases[state.phase].name if 0 <= state.phase < len(phases) else "-"

    # ------------------------------------------------------------------ changing

    def execute(self, command: BattleCommand, faces: Sequence[int] | None = None) -> Step | None:
        """Do ``command`` (with ``faces`` thrown at the table, if given) and save it; a
        refusal is one line in :attr:`message` and changes nothing."""
        if self.locked is not None:
            self.message.emit(f"Not done: {self.locked}")
            return None
        if self.read_only:
            self.message.emit("A past step is shown: return to the present to play")
            return None
        before = self.session.state
        try:
            step = self._change(lambda s: s.do(command, faces=faces))
        except CommandError as exc:
            self.message.emit(str(exc))
            return None
        except _NotSaved:
            return None
        self.done.emit(step, before)
        self.changed.emit()
        self.message.emit(one_line(step.lines))
        return step

    def next_request(self, command: BattleCommand, faces: Sequence[int]) -> DiceRequest | None:
        """The next throw ``command`` makes after ``faces`` (CommandError if it cannot be
        done)."""
        return self.session.next_request(command, faces)

    def undo(self) -> bool:
        if self.read_only or not self.session.can_undo():
            return False
        try:
            step = self._change(lambda s: s.undo())
        except _NotSaved:
            return False
        self.done.emit(None, None)
        self.changed.emit()
        self.message.emit(f"Undone: {step.command.title(self.session.state)}")
        return True

    def redo(self) -> bool:
        if self.read_only or not self.session.can_redo():
            return False
        changed = self.session.data_changed
        try:
            step = self._change(lambda s: s.redo(trust_recorded=changed))
        except ReplayError as exc:
            self.message.emit(str(exc))
            return False
        except _NotSaved:
            return False
        self.done.emit(None, None)
        self.changed.emit()
        self.message.emit(f"Redone with the same dice: {step.command.title(self.session.state)}")
        return True

    def _change(self, change: Callable[[BattleSession], T]) -> T:
        """``change`` done on the session and saved in one transaction (the battle use
        case, as ``castra battle`` does it); :class:`_NotSaved` after saying why the store
        refused, the session left as it was."""
        if self.store is None or self.battle_id is None:
            return change(self.session)
        from app.usecases.access import StoreError
        from app.usecases.battle import change_battle

        try:
            done = change_battle(
                self.store, battle_id=self.battle_id, session=self.session, change=change
            )
        except StoreError as exc:
            self.message.emit(f"Not saved: {exc}")
            raise _NotSaved from None
        return done.value

    def reload_if_changed(self, registry: Registry) -> bool:
        """Load the battle again when the store holds another version of it (another member
        advanced it on a club server): the present is shown, as stored. True when it was
        reloaded; a store failure leaves the battle as shown."""
        if self.store is None or self.battle_id is None:
            return False
        from app.usecases import battle
        from app.usecases.access import StoreError

        try:
            session = battle.reload_if_changed(
                self.store, battle_id=self.battle_id, session=self.session, registry=registry
            )
        except (StoreError, KeyError, ValueError) as exc:
            self.message.emit(f"Could not reload the battle: {exc}")
            return False
        if session is None:
            return False
        self.session = session
        self.return_to_present()
        self.changed.emit()
        self.message.emit("Reloaded: another member changed this battle")
        return True

    # ------------------------------------------------------------------ the past

    def show_step(self, n: int) -> bool:
        """Show the table as it was after step ``n`` (0: before the first), read-only;
        the present when ``n`` is the cursor."""
        session = self.session
        if n == session.cursor:
            return self.return_to_present()
        from app.usecases.access import StoreError

        try:
            self._past_state = session.replay(n, trust_recorded=session.data_changed)
        except (IndexError, ReplayError, StoreError) as exc:  # a damaged stored state too
            self.message.emit(str(exc))
            return False
        self.past = n
        self.viewing.emit(n)
        return True

    def return_to_present(self) -> bool:
        was = self.past
        self.past = None
        self._past_state = None
        self.viewing.emit(-1)
        return was is not None
