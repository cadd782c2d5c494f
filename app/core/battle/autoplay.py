"""Castra playing one side or both of a battle, step by step (issue 30).

:class:`Table` stands for the table's clock: given the sides Castra plays, :meth:`Table.next`
says the next command it gives in a battle, or None when it is a person's turn (or the
battle is over). Whose turn a phase is comes from the mechanics (``side_to_move``, else
``side_in_play``; None: both sides act). In a phase that is Castra's side's, or that both
sides act in and Castra plays both, Castra ends the phase when its side is done; where a
person plays the other side, the person ends the phases both act in.

Where the ruleset has no victory rule, Castra takes the umpire's call by the ruleset's
documented default (:meth:`~app.rules.mechanics.Mechanics.umpire_result`) and ends the
battle with it: the log's line says it was Castra's call.

:func:`autoplay` runs a battle session on (headless: the command line, the tests, the
bench); the battle window steps it on a timer. Every command goes through
:meth:`BattleSession.do <app.core.battle.session.BattleSession.do>`, checked as a player's
is: a refusal there is an illegal step, counted and reported, never forced.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import overload

from app.core.battle.base import BattleCommand, CommandError
from app.core.battle.commands import EndBattle, NextPhase, StartBattle
from app.core.battle.opponent import Castra, Choice, PhaseLog, RandomPlayer, SidePlayer
from app.core.battle.players import Player, players_of
from app.core.battle.session import BattleSession, Step
from app.core.battle.state import BattleState
from app.rules.mechanics import Side


class _Commands(Sequence[BattleCommand]):
    """A session's commands as a sequence, read without copying its steps."""

    def __init__(self, session: BattleSession) -> None:
        self._steps = session.steps

    def __len__(self) -> int:
        return len(self._steps)

    @overload
    def __getitem__(self, i: int) -> BattleCommand: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[BattleCommand]: ...
    def __getitem__(self, i: int | slice) -> BattleCommand | Sequence[BattleCommand]:
        if isinstance(i, slice):
            return [s.command for s in self._steps[i]]
        return self._steps[i].command


def owner(state: BattleState, session: BattleSession) -> Side | None:
    """The side whose turn the phase is, or None when both sides act in it."""
    view = state.view()
    mech = session.mechanics
    side = mech.side_to_move(view)
    return mech.side_in_play(view) if side is None else side


@dataclass
class Table:
    """The sides Castra (or the baseline) plays in a battle, and what each has worked out in
    the phase it is playing."""

    players: dict[Side, SidePlayer]

    @staticmethod
    def of(
        players: Mapping[Side, Player], *, baseline: Mapping[Side, Player] | None = None
    ) -> Table:
        """Castra for ``players``, the random baseline for ``baseline``."""
        out: dict[Side, SidePlayer] = {s: Castra(p) for s, p in players.items()}
        for s, p in (baseline or {}).items():
            out[s] = RandomPlayer(p)
        return Table(out)

    @staticmethod
    def from_battle(state: BattleState) -> Table:
        """The sides the battle's record gives to Castra."""
        return Table.of(players_of(state))

    def plays(self, side: Side | None) -> bool:
        return side is not None and side in self.players

    def next(self, session: BattleSession) -> Choice | None:
        """The next command Castra gives in ``session``'s battle as it stands, or None when
        it is a person's turn or the battle is over."""
        state = session.state
        if state.result is not None or not self.players:
            return None
        if not state.started:
            if len(self.players) == 2:
                return Choice(StartBattle(), None, "Castra starts the battle")
            return None
        mech = session.mechanics
        verdict = mech.umpire_result(state.view())
        if verdict is not None:
            return Choice(
                EndBattle(verdict.winner, verdict.reason), None, "Castra: the umpire's call"
            )
        log = PhaseLog.of(_Commands(session), session.cursor)
        turn = owner(state, session)
        if turn is not None:
            sides: tuple[Side, ...] = (turn,)
        else:
            first: Side = state.initiative if state.initiative is not None else 0
            sides = (first, 1 if first == 0 else 0)
        for side in sides:
            player = self.players.get(side)
            if player is None:
                continue
            choice = player.next(state, session.ruleset, mech, log)
            if choice is not None:
                return choice
        if all(self.plays(s) for s in sides):
            return Choice(NextPhase(), None, "Castra: next phase")
        return None

    def refused(self, choice: Choice) -> None:
        """A command of ``choice`` was refused: its unit is left alone for the phase."""
        if choice.side is None:
            return
        unit = getattr(choice.command, "unit", None) or getattr(choice.command, "actor", None)
        player = self.players.get(choice.side)
        if player is not None and isinstance(unit, str):
            player.skip(unit)


@dataclass
class Report:
    """What a run of :func:`autoplay` did."""

    steps: int = 0
    #: commands the battle refused (an illegal step: each a line)
    refused: list[str] = field(default_factory=list)
    #: why it stopped: "result", "turns", "person" (a person's turn), "steps"
    stopped: str = ""


def autoplay(
    session: BattleSession,
    table: Table,
    *,
    turns: int | None = None,
    max_steps: int = 100_000,
    on_step: Callable[[Choice, Step], None] | None = None,
    do: Callable[[BattleCommand], Step] | None = None,
) -> Report:
    """Let ``table``'s players play ``session`` until the battle ends, it is a person's
    turn, ``turns`` more turns have begun, or ``max_steps`` commands are given. ``do``
    takes each command (by default ``session.do``; the command line saves each step as it
    is taken, in its own transaction)."""
    take = session.do if do is None else do
    report = Report()
    stop_at = None if turns is None else session.state.turn + turns
    while report.steps < max_steps:
        state = session.state
        if state.result is not None:
            report.stopped = "result"
            return report
        if stop_at is not None and state.turn >= stop_at:
            report.stopped = "turns"
            return report
        choice = table.next(session)
        if choice is None:
            report.stopped = "person"
            return report
        try:
            step = take(choice.command)
        except CommandError as exc:
            report.refused.append(f"{choice.command.title(state)}: {exc}")
            table.refused(choice)
            if isinstance(choice.command, NextPhase | StartBattle | EndBattle):
                report.stopped = "refused"
                return report
            continue
        report.steps += 1
        if on_step is not None:
            on_step(choice, step)
    report.stopped = "steps"
    return report
