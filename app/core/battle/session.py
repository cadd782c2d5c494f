"""A battle in play: its steps (command, rolls, log lines, resulting state), a cursor for
undo and redo, and replay.

- ``do`` executes a command with fresh dice from the battle's seeded generator; the rolls are
  kept with the step.
- ``undo`` moves the cursor back; ``redo`` executes the step again with its recorded rolls
  (never rolling again) and checks it lands on the recorded state.
- ``replay(k)`` rebuilds the state after step ``k`` from the start, from the recorded rolls.

Re-executing is only a check when the rules are the ones the battle was recorded with. A
battle remembers that (:class:`DataStamp`); when the ruleset's data has changed since (a
house-rules edit, a Castra update), the same rolls may rightly give another result, and the
caller asks for ``trust_recorded``: the recorded rolls and states are what happened.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from app.core.battle.commands import Act, BattleCommand, CommandError, Context, command_from_dict
from app.core.battle.dice import RecordingDice, Roll, fresh_dice, replay_dice
from app.core.battle.given import DiceRequest, DiceWanted, GivenDice
from app.core.battle.serialize import rolls_from_list, rolls_to_list, state_from_dict, state_to_dict
from app.core.battle.state import BattleState
from app.core.battle.timeline import SNAPSHOT_EVERY, state_digest
from app.rules.fingerprint import fingerprint
from app.rules.mechanics import Mechanics, Odds, Outcome, Scalar, Side
from app.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from app.core.battle.timeline import Timeline


def nonfinite_problem(state: BattleState) -> str | None:
    """What of ``state`` is not a finite number (a unit's or leader's position or facing,
    the table), or None. Checked after every command: a NaN that entered a battle would make
    its redo and replay fail for good, since NaN equals nothing, itself included."""
    for u in state.units:
        # one sum a unit first: finite only when every term is (a NaN or an infinity in any
        # makes it not); only a unit whose sum is not (or overflows) is looked at term by
        # term, for the message (a 1,000-unit battle is checked after every command)
        if math.isfinite(u.x + u.y + u.facing + u.width + u.depth + u.moved):
            continue
        for what, value in (
            ("x", u.x),
            ("y", u.y),
            ("facing", u.facing),
            ("width", u.width),
            ("depth", u.depth),
            ("moved distance", u.moved),
        ):
            if not math.isfinite(value):
                return f"{u.name} ({u.id}) would get a {what} of {value}"
    for ld in state.leaders:
        if not (math.isfinite(ld.x) and math.isfinite(ld.y)):
            return f"{ld.name} would get a position of ({ld.x}, {ld.y})"
    if not (math.isfinite(state.width) and math.isfinite(state.height)):
        return "the table would not have a finite size"
    return None


class ReplayError(RuntimeError):
    """Replaying recorded rolls did not reproduce the recorded state (a determinism bug)."""


#: Errors a command may raise when executed again on changed data or a diverging script.
_REEXECUTE_ERRORS = (ValueError, LookupError, NotImplementedError, ArithmeticError)


class Step:
    """One executed command: its recorded rolls, its log lines, the turn and phase it was
    given in, and the state it produced.

    ``state`` may be given as a function that builds it: a stored battle keeps each step's
    state as JSON and decodes it only when it is first read, so loading a battle of hundreds
    of steps does not decode hundreds of states. Either way the step is immutable, compares
    by value and serialises the same.
    """

    __slots__ = (
        "_cache",
        "_command",
        "_digest",
        "_lines",
        "_load",
        "_phase",
        "_rolls",
        "_state",
        "_turn",
        "outcome",
    )

    def __init__(
        self,
        command: BattleCommand,
        rolls: tuple[Roll, ...],
        lines: tuple[str, ...],
        turn: int,
        phase: int,
        state: BattleState | Callable[[], BattleState],
        *,
        digest: str | None = None,
        cache: bool = True,
    ) -> None:
        """``digest``: the recorded digest of the state (computed from it when not given).
        ``cache``: whether a state given as a function is kept once built (a stored battle
        says False: its :class:`~app.core.battle.timeline.Timeline` keeps a few)."""
        self._command = command
        self._digest = digest
        self._cache = cache
        self._rolls = rolls
        self._lines = lines
        self._turn = turn
        self._phase = phase
        self._state: BattleState | None = None
        self._load: Callable[[], BattleState] | None = None
        #: what a ruleset action did, as its odds count it, when the step was just done
        #: (not stored: a step read back from the store has None)
        self.outcome: Outcome | None = None
        if isinstance(state, BattleState):
            self._state = state
        else:
            self._load = state

    @property
    def command(self) -> BattleCommand:
        return self._command

    @property
    def rolls(self) -> tuple[Roll, ...]:
        return self._rolls

    @property
    def lines(self) -> tuple[str, ...]:
        return self._lines

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def phase(self) -> int:
        return self._phase

    @property
    def state(self) -> BattleState:
        if self._state is None:
            assert self._load is not None
            state = self._load()
            if not self._cache:
                return state
            self._state = state
            self._load = None
        return self._state

    @property
    def digest(self) -> str:
        """The digest of the recorded state (:func:`app.core.battle.timeline.digest`)."""
        if self._digest is None:
            self._digest = state_digest(self.state)
        return self._digest

    @property
    def decoded(self) -> bool:
        """Whether the state is built (always, unless it was given as a function not yet
        called)."""
        return self._state is not None

    def _key(self) -> tuple[object, ...]:
        return (self.command, self.rolls, self.lines, self.turn, self.phase, self.state)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Step):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __repr__(self) -> str:
        state = "..." if self._state is None else repr(self._state)
        return (
            f"Step(command={self.command!r}, rolls={self.rolls!r}, lines={self.lines!r}, "
            f"turn={self.turn!r}, phase={self.phase!r}, state={state})"
        )


@dataclass(frozen=True)
class DataStamp:
    """The ruleset data a battle was recorded with: ``meta.data_version`` and the
    fingerprint of the folder's TOML files (:func:`app.rules.fingerprint.fingerprint`)."""

    data_version: str
    fingerprint: str

    @classmethod
    def of(cls, ruleset: Ruleset) -> DataStamp:
        return cls(ruleset.meta.data_version, fingerprint(ruleset))


@dataclass(frozen=True)
class LogEntry:
    step: int
    turn: int
    phase: int
    label: str
    lines: tuple[str, ...]
    rolls: tuple[Roll, ...]


class BattleSession:
    def __init__(
        self,
        ruleset: Ruleset,
        mechanics: Mechanics,
        initial: BattleState | Callable[[], BattleState],
        *,
        seed: int,
        steps: list[Step] | None = None,
        cursor: int | None = None,
        serial: int = 0,
        name: str = "",
        recorded: DataStamp | None = None,
        version: int | None = None,
        timeline: Timeline | None = None,
    ) -> None:
        """``recorded``: the data a stored battle was recorded with (None for a new battle,
        which is recorded with the current data, or for one stored before Castra kept it).
        ``version``: the stored battle's version when it was loaded (a write from a stale
        copy is refused by the store). ``timeline``: a stored battle's recorded states
        (snapshots every few steps, the changes between; replay starts at a snapshot).
        ``initial``: the state before the first step, or a function that builds it (a stored
        battle's, built only when it is read)."""
        self.ruleset = ruleset
        self.mechanics = mechanics
        self._initial: BattleState | None = None
        self._initial_load: Callable[[], BattleState] | None = None
        if isinstance(initial, BattleState):
            self._initial = initial
        else:
            self._initial_load = initial
        self.seed = seed
        self.steps: list[Step] = steps or []
        self.cursor = len(self.steps) if cursor is None else cursor
        self.serial = max(serial, len(self.steps))
        self.name = name
        self.recorded = recorded
        self.version = version
        self.timeline = timeline
        #: Why the last ``redo(trust_recorded=True)`` did not reproduce its recorded state
        #: (None when it did); the recorded state was kept.
        self.last_divergence: str | None = None
        self.listeners: list[Callable[[BattleSession], None]] = []

    @property
    def initial(self) -> BattleState:
        """The state before the first step."""
        if self._initial is None:
            assert self._initial_load is not None
            self._initial = self._initial_load()
            self._initial_load = None
        return self._initial

    # ------------------------------------------------------------------ data

    @cached_property
    def current_data(self) -> DataStamp:
        """The ruleset data as it is now (read once per session)."""
        return DataStamp.of(self.ruleset)

    @property
    def data_changed(self) -> bool:
        """Whether the ruleset's data differs from what the battle was recorded with (False
        when that is not known)."""
        return self.recorded is not None and self.recorded != self.current_data

    def data_warning(self) -> str | None:
        """One line for the players when :attr:`data_changed`, else None."""
        if not self.data_changed:
            return None
        was, now = self.recorded, self.current_data
        assert was is not None
        return (
            f"this battle was recorded with {self.ruleset.id} data {was.data_version} "
            f"(fingerprint {was.fingerprint[:12]}); the data has changed since "
            f"(now {now.data_version}, {now.fingerprint[:12]}): "
            "redo and replay use the recorded states"
        )

    # ------------------------------------------------------------------ state

    @property
    def state(self) -> BattleState:
        return self.steps[self.cursor - 1].state if self.cursor else self.initial

    def can_undo(self) -> bool:
        return self.cursor > 0

    def can_redo(self) -> bool:
        return self.cursor < len(self.steps)

    def undo_label(self) -> str | None:
        return self.steps[self.cursor - 1].command.label if self.can_undo() else None

    def redo_label(self) -> str | None:
        return self.steps[self.cursor].command.label if self.can_redo() else None

    # ------------------------------------------------------------------ changes

    def do(self, command: BattleCommand, *, faces: Sequence[int] | None = None) -> Step:
        """Execute ``command`` on the current state with fresh dice, or with ``faces`` the
        players threw (:mod:`app.core.battle.given`: taken in order, as many as each throw
        has dice, each checked against its die; every face must be used). A command that
        cannot be carried out raises :class:`CommandError` and changes nothing."""
        given = None if faces is None else GivenDice(faces)
        dice = fresh_dice(self.seed, self.serial) if given is None else RecordingDice(given)
        state = self.state
        done = command.execute(state, Context(self.ruleset, self.mechanics, dice))
        if given is not None and given.unused:
            thrown = sum(len(r.faces) for r in dice.rolls)
            raise CommandError(
                f"{command.label} threw {thrown} {'die' if thrown == 1 else 'dice'} "
                f"but {thrown + given.unused} faces were given; the battle is unchanged"
            )
        problem = nonfinite_problem(done.state)
        if problem is not None:
            raise CommandError(f"{command.label}: {problem}; the battle is unchanged")
        lines = done.lines
        if given is not None and dice.rolls:
            lines += ("Dice thrown at the table, entered by hand.",)
        step = Step(command, tuple(dice.rolls), lines, state.turn, state.phase, done.state)
        step.outcome = done.outcome
        self.serial += 1
        del self.steps[self.cursor :]
        self.steps.append(step)
        self.cursor += 1
        self._notify()
        return step

    def next_request(self, command: BattleCommand, faces: Sequence[int] = ()) -> DiceRequest | None:
        """The next throw ``command`` makes after the ``faces`` given so far, or None when
        those are all it throws (then ``do(command, faces=faces)`` carries it out). The
        command runs on the current state and changes nothing; a command that cannot be
        carried out raises :class:`CommandError`, as ``do`` would."""
        dice = RecordingDice(GivenDice(faces, ask=True))
        try:
            command.execute(self.state, Context(self.ruleset, self.mechanics, dice))
        except DiceWanted as wanted:
            return wanted.request
        return None

    def undo(self) -> Step:
        if not self.can_undo():
            raise CommandError("nothing to undo")
        self.cursor -= 1
        self._notify()
        return self.steps[self.cursor]

    def redo(self, *, trust_recorded: bool = False) -> Step:
        """Execute the next recorded step again with its recorded rolls.

        With unchanged data the result must be the recorded state, else :class:`ReplayError`
        (a determinism bug). With ``trust_recorded`` (for a battle whose data has changed,
        see :attr:`data_changed`) a step that no longer reproduces keeps its recorded state,
        and :attr:`last_divergence` says why."""
        if not self.can_redo():
            raise CommandError("nothing to redo")
        step = self.steps[self.cursor]
        self.last_divergence = None
        try:
            self._check(self.state, step)
        except ReplayError as exc:
            message = f"redo of step {self.cursor + 1} ({step.command.label}) {exc}"
            if not trust_recorded:
                raise ReplayError(message) from exc
            self.last_divergence = message
        self.cursor += 1
        self._notify()
        return step

    def _check(self, state: BattleState, step: Step) -> BattleState:
        """Execute ``step`` again on ``state`` with its recorded rolls and return the state
        it gives; ReplayError (saying how) unless that is the recorded state (its digest)."""
        dice, script = replay_dice(step.rolls)
        try:
            done = step.command.execute(state, Context(self.ruleset, self.mechanics, dice))
        except _REEXECUTE_ERRORS as exc:
            raise ReplayError(f"diverged: {exc}") from exc
        if not script.exhausted:
            raise ReplayError("diverged: it used fewer rolls than were recorded")
        if state_digest(done.state) != step.digest:
            raise ReplayError("diverged from the recorded state")
        return done.state

    def replay(self, upto: int | None = None, *, trust_recorded: bool = False) -> BattleState:
        """The state after step ``upto`` (default: the cursor), rebuilt from the nearest
        state recorded whole before it (a stored battle keeps one every
        :data:`~app.core.battle.timeline.SNAPSHOT_EVERY` steps) by executing each command
        again with its recorded rolls, each checked against its recorded digest. With
        ``trust_recorded`` (the data has changed, so re-executing proves nothing) it is the
        recorded state."""
        upto = self.cursor if upto is None else upto
        if not 0 <= upto <= len(self.steps):
            raise IndexError(f"step {upto} is outside 0-{len(self.steps)}")
        if trust_recorded:
            return self.steps[upto - 1].state if upto else self.initial
        start = self.nearest_snapshot(upto)
        state = self.steps[start - 1].state if start else self.initial
        for n, step in enumerate(self.steps[start:upto], start=start + 1):
            try:
                state = self._check(state, step)
            except ReplayError as exc:
                raise ReplayError(f"replay of step {n} ({step.command.label}) {exc}") from exc
        return state

    def nearest_snapshot(self, n: int) -> int:
        """The last step at or before ``n`` whose state replay may start from: a stored
        snapshot, or for a battle in memory every
        :data:`~app.core.battle.timeline.SNAPSHOT_EVERY` steps."""
        if self.timeline is not None:
            return self.timeline.nearest_snapshot(n)
        return n - n % SNAPSHOT_EVERY

    # ------------------------------------------------------------------ reading

    def log(self, upto: int | None = None) -> list[LogEntry]:
        upto = self.cursor if upto is None else upto
        return [
            LogEntry(i + 1, s.turn, s.phase, s.command.label, s.lines, s.rolls)
            for i, s in enumerate(self.steps[:upto])
        ]

    def log_text(self, *, rolls: bool = True) -> str:
        out: list[str] = []
        for e in self.log():
            out.append(f"[{e.step}] turn {e.turn}: " + " ".join(e.lines))
            if rolls:
                out += [f"      roll {r}" for r in e.rolls]
        return "\n".join(out)

    def odds(
        self,
        action: str,
        actor: str | None,
        target: str | None,
        options: Mapping[str, Scalar] | None = None,
        side: Side | None = None,
    ) -> Odds:
        """Exact odds of ``action`` in the current state, options filled as a command would."""
        act = Act(action=action, actor=actor, target=target, side=side, options=options or {})
        return self.mechanics.odds(action, act.situation(self.state, self.mechanics))

    def _notify(self) -> None:
        for listener in list(self.listeners):
            listener(self)


# --------------------------------------------------------------------------- as dicts


def step_to_dict(step: Step, *, with_state: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {
        "command": step.command.to_dict(),
        "rolls": rolls_to_list(step.rolls),
        "lines": list(step.lines),
        "turn": step.turn,
        "phase": step.phase,
    }
    if with_state:
        out["state"] = state_to_dict(step.state)
    return out


def step_from_dict(d: Mapping[str, Any]) -> Step:
    return Step(
        command=command_from_dict(d["command"]),
        rolls=rolls_from_list(d["rolls"]),
        lines=tuple(d["lines"]),
        turn=int(d["turn"]),
        phase=int(d["phase"]),
        state=state_from_dict(d["state"]),
    )
