"""A battle in play: its steps (command, rolls, log lines, resulting state), a cursor for
undo and redo, and replay.

- ``do`` executes a command with fresh dice from the battle's seeded generator; the rolls are
  kept with the step.
- ``undo`` moves the cursor back; ``redo`` executes the step again with its recorded rolls
  (never rolling again) and checks it lands on the recorded state.
- ``replay(k)`` rebuilds the state after step ``k`` from the start, from the recorded rolls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from app.core.battle.commands import Act, BattleCommand, CommandError, Context
from app.core.battle.dice import Roll, fresh_dice, replay_dice
from app.core.battle.state import BattleState
from app.rules.mechanics import Mechanics, Odds, Scalar, Side
from app.rules.ruleset import Ruleset


class ReplayError(RuntimeError):
    """Replaying recorded rolls did not reproduce the recorded state (a determinism bug)."""


@dataclass(frozen=True)
class Step:
    command: BattleCommand
    rolls: tuple[Roll, ...]
    lines: tuple[str, ...]
    turn: int
    phase: int
    state: BattleState


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
        initial: BattleState,
        *,
        seed: int,
        steps: list[Step] | None = None,
        cursor: int | None = None,
        serial: int = 0,
        name: str = "",
    ) -> None:
        self.ruleset = ruleset
        self.mechanics = mechanics
        self.initial = initial
        self.seed = seed
        self.steps: list[Step] = steps or []
        self.cursor = len(self.steps) if cursor is None else cursor
        self.serial = max(serial, len(self.steps))
        self.name = name
        self.listeners: list[Callable[[BattleSession], None]] = []

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

    def do(self, command: BattleCommand) -> Step:
        """Execute ``command`` on the current state with fresh dice. A command that cannot be
        carried out raises :class:`CommandError` and changes nothing."""
        dice = fresh_dice(self.seed, self.serial)
        state = self.state
        done = command.execute(state, Context(self.ruleset, self.mechanics, dice))
        step = Step(command, tuple(dice.rolls), done.lines, state.turn, state.phase, done.state)
        self.serial += 1
        del self.steps[self.cursor :]
        self.steps.append(step)
        self.cursor += 1
        self._notify()
        return step

    def undo(self) -> Step:
        if not self.can_undo():
            raise CommandError("nothing to undo")
        self.cursor -= 1
        self._notify()
        return self.steps[self.cursor]

    def redo(self) -> Step:
        """Execute the next recorded step again with its recorded rolls."""
        if not self.can_redo():
            raise CommandError("nothing to redo")
        step = self.steps[self.cursor]
        again = self._reexecute(self.state, step)
        if again != step.state:
            raise ReplayError(f"redo of step {self.cursor + 1} ({step.command.label}) diverged")
        self.cursor += 1
        self._notify()
        return step

    def _reexecute(self, state: BattleState, step: Step) -> BattleState:
        dice, script = replay_dice(step.rolls)
        done = step.command.execute(state, Context(self.ruleset, self.mechanics, dice))
        if not script.exhausted:
            raise ReplayError(f"{step.command.label} used fewer rolls than were recorded")
        return done.state

    def replay(self, upto: int | None = None) -> BattleState:
        """The state after step ``upto`` (default: the cursor), rebuilt from the start by
        executing each command again with its recorded rolls."""
        upto = self.cursor if upto is None else upto
        if not 0 <= upto <= len(self.steps):
            raise IndexError(f"step {upto} is outside 0-{len(self.steps)}")
        state = self.initial
        for step in self.steps[:upto]:
            state = self._reexecute(state, step)
            if state != step.state:
                raise ReplayError(f"replay diverged at {step.command.label}")
        return state

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
