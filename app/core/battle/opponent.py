"""Castra as the opponent: it plays a side through the same commands a player gives (moves,
charges, shots, melees, the ruleset's own activations, cards and initiative choices), one
command at a time, so every step is logged, undoable and replayable (issue 30).

In each phase the side may act in, Castra takes the side's decisions due now
(:meth:`~app.rules.mechanics.Mechanics.side_decisions`, with the ruleset's documented
default choice), then goes through its units: the units in contact first, then the nearest
the enemy (or, where a unit must be activated first, the units with most to do), each
taking its decision before it acts (GSB's activation) and then the best of the advisor's
entries for it by the measure of its temperament and its role in the side's plan
(:mod:`app.core.battle.plan`), as long as one is worth taking; then the decisions due when
the side is done (MWAN #90's end of move). Each unit moves or charges once a phase, shoots
once and fights one melee (a pair fights once a phase); nothing else is remembered, so a
battle resumed or undone mid-phase is picked up from its log.

Its choices are deterministic: ties and the order of units equal in every way are settled
by a generator seeded with the player's seed and the turn, round and phase.

:class:`RandomPlayer` is the baseline the opponent is measured against: it picks uniformly
among the same legal choices.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from app.core.battle.advisor import ALL_AIMS, Advice, Advisor, Aim, effect_value, refusal
from app.core.battle.base import BattleCommand, CommandError, Context, unit_words
from app.core.battle.commands import Act, NextPhase, StartBattle
from app.core.battle.dice import RecordingDice
from app.core.battle.moves import Charge, MoveUnit
from app.core.battle.nearby import nearest
from app.core.battle.plan import AIMS, Role, SidePlan, choose_plan, measure_for
from app.core.battle.players import MEASURES, THRESHOLDS, Player
from app.core.battle.state import BattleState, BattleUnit
from app.rules.dice import parse_dice
from app.rules.mechanics import Mechanics, NotImplementedRule, Scalar, Side, SideDecision
from app.rules.ruleset import Ruleset

#: the most commands a side gives in one phase (a guard: a ruleset that lets a unit act
#: without end would otherwise keep Castra acting)
PHASE_LIMIT = 400


@dataclass(frozen=True)
class Choice:
    """A command Castra (or the baseline) gives for ``side``, and why, in words."""

    command: BattleCommand
    side: Side | None
    why: str


@dataclass(frozen=True)
class PhaseLog:
    """The commands given since the phase began (the battle's log back to its last change
    of phase), and what they say about who has done what."""

    commands: tuple[BattleCommand, ...] = ()

    @staticmethod
    def of(commands: Sequence[BattleCommand], upto: int | None = None) -> PhaseLog:
        """The phase's part of ``commands[:upto]`` (a battle's commands in order), read back
        from its end."""
        out: list[BattleCommand] = []
        i = len(commands) if upto is None else upto
        while i > 0:
            i -= 1
            cmd = commands[i]
            if isinstance(cmd, NextPhase | StartBattle):
                break
            out.append(cmd)
        return PhaseLog(tuple(reversed(out)))

    def done(self, unit: str) -> set[str]:
        """What ``unit`` has done this phase: ``move`` (a move or a charge), ``charge``,
        ``shoot``, ``melee``, and the ruleset's actions it took."""
        out: set[str] = set()
        for cmd in self.commands:
            if isinstance(cmd, MoveUnit) and cmd.unit == unit:
                out.add("move")
            elif isinstance(cmd, Charge) and cmd.unit == unit:
                out |= {"move", "charge"}
            elif isinstance(cmd, Act) and cmd.actor == unit:
                out.add(cmd.action)
        return out

    def fought(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` have fought a melee this phase (either attacking)."""
        return any(
            isinstance(c, Act) and c.action == "melee" and {c.actor, c.target} == {a, b}
            for c in self.commands
        )

    def took(self, decision: SideDecision) -> bool:
        """Whether ``decision`` (its action, for its unit and side) was taken this phase."""
        return any(
            isinstance(c, Act)
            and c.action == decision.action
            and c.actor == decision.unit
            and (c.side == decision.side or c.actor is not None)
            for c in self.commands
        )


def decision_command(d: SideDecision, options: Mapping[str, Scalar] | None = None) -> Act:
    """The ``Act`` that takes decision ``d`` with ``options`` (default: its own)."""
    chosen = dict(d.options if options is None else options)
    return Act(action=d.action, actor=d.unit, target=d.target, side=d.side, options=chosen)


class MaxDice:
    """Dice that fall at their highest face: a decision valued as if it went the side's
    way (an activation roll that succeeds)."""

    def roll(self, spec: str, purpose: str) -> tuple[int, ...]:
        parsed = parse_dice(spec)
        return tuple(max(parsed.faces) for _ in range(parsed.count))


@dataclass
class _Phase:
    """What the side has worked out in the phase it is playing."""

    key: tuple[int, int, int]
    order: list[str]
    plan: SidePlan | None
    cursor: int = 0
    skipped: set[str] = field(default_factory=set)
    #: how many commands the phase's log held when the side last looked
    seen: int = 0


class SidePlayer:
    """What both players share: the phase's decisions, the walk through the units, the
    limits of a phase. Subclasses choose (:meth:`pick`, :meth:`pick_choice`, :meth:`order`)."""

    name = "player"

    def __init__(self, player: Player) -> None:
        self.player = player
        self.side: Side = player.side
        self._phase: _Phase | None = None
        #: each unit's advice by state (the state kept with it, so its id is not reused)
        self._advice: dict[tuple[int, str, bool], tuple[BattleState, list[Advice]]] = {}

    # -- what subclasses decide ------------------------------------------------------------

    def order(
        self, state: BattleState, rs: Ruleset, mech: Mechanics, units: list[BattleUnit]
    ) -> list[str]:
        raise NotImplementedError

    def pick(
        self, state: BattleState, unit: BattleUnit, found: list[Advice], rng: random.Random
    ) -> Advice | None:
        raise NotImplementedError

    def pick_choice(self, d: SideDecision, rng: random.Random) -> Mapping[str, Scalar] | None:
        raise NotImplementedError

    def advisor(
        self, state: BattleState, rs: Ruleset, mech: Mechanics, unit: BattleUnit
    ) -> Advisor:
        return Advisor(state, rs, mech)

    def aims(self, unit: BattleUnit) -> frozenset[Aim]:
        """The moves ``unit`` looks at (all of them)."""
        return ALL_AIMS

    def worth_a_decision(
        self, state: BattleState, rs: Ruleset, mech: Mechanics, d: SideDecision, rng: random.Random
    ) -> bool:
        """Whether to take a ``before`` decision for its unit."""
        return True

    # -- the walk ------------------------------------------------------------------------

    def _rng(self, state: BattleState, log: PhaseLog) -> random.Random:
        return random.Random(
            f"{self.player.seed}:{self.side}:{state.turn}:{state.round}:{state.phase}:"
            f"{len(log.commands)}"
        )

    def next(
        self, state: BattleState, rs: Ruleset, mech: Mechanics, log: PhaseLog
    ) -> Choice | None:
        """The next command this side gives in the phase, or None when it is done."""
        if state.result is not None or not state.started:
            return None
        key = (state.turn, state.round, state.phase)
        if self._phase is not None and len(log.commands) < self._phase.seen:
            # steps were undone: the side works the phase out afresh from the battle as it
            # stands (its walk had gone past the units whose commands were taken back)
            self._phase = None
        if self._phase is None or self._phase.key != key:
            self._advice.clear()
            units = [u for u in state.units if u.side == self.side and not u.status.eliminated]
            plan = choose_plan(state, mech, self.player) if units else None
            self._phase = _Phase(key, [], plan)
            self._phase.order = self.order(state, rs, mech, units)
        phase = self._phase
        phase.seen = len(log.commands)
        if len(log.commands) >= PHASE_LIMIT:
            return None
        rng = self._rng(state, log)
        view = state.view()
        decisions = list(mech.side_decisions(view, self.side))
        # the decisions due now
        for d in decisions:
            if d.when != "now" or log.took(d):
                continue
            options = self.pick_choice(d, rng)
            if options is None:
                continue
            cmd = decision_command(d, options)
            if refusal(state, rs, mech, cmd) is None:
                return Choice(cmd, self.side, f"{self.name}: {d.rule}")
        # the units
        before = {d.unit: d for d in decisions if d.when == "before" and d.unit}
        while phase.cursor < len(phase.order):
            uid = phase.order[phase.cursor]
            unit = next((u for u in state.units if u.id == uid), None)
            if unit is None or unit.status.eliminated or uid in phase.skipped:
                phase.cursor += 1
                continue
            due = before.get(uid)
            if due is not None and not log.took(due):
                cmd = decision_command(due)
                if refusal(state, rs, mech, cmd) is None and self.worth_a_decision(
                    state, rs, mech, due, rng
                ):
                    return Choice(
                        cmd, self.side, f"{self.name}: {unit_words(state, uid)}: {due.rule}"
                    )
                phase.cursor += 1
                continue
            found = self._allowed(state, rs, mech, unit, log)
            best = self.pick(state, unit, found, rng)
            if best is None:
                phase.cursor += 1
                continue
            return Choice(best.command, self.side, f"{self.name}: {best.title}: {best.words}")
        # done: the decisions due once the side has finished
        for d in decisions:
            if d.when == "done" and not log.took(d):
                cmd = decision_command(d, self.pick_choice(d, rng) or d.options)
                if refusal(state, rs, mech, cmd) is None:
                    return Choice(cmd, self.side, f"{self.name}: {d.rule}")
        return None

    def _allowed(
        self, state: BattleState, rs: Ruleset, mech: Mechanics, unit: BattleUnit, log: PhaseLog
    ) -> list[Advice]:
        """The advisor's entries for ``unit`` within a phase's limits (worked out once for
        a state: the states of a battle never change)."""
        did = log.done(unit.id)
        moves = "move" not in did
        key = (id(state), unit.id, moves)
        kept = self._advice.get(key)
        if kept is not None and kept[0] is state:
            found = kept[1]
        else:
            advisor = self.advisor(state, rs, mech, unit)
            found = advisor.unit(unit.id, moves=moves, aims=self.aims(unit))
            self._advice[key] = (state, found)
        out = []
        for a in found:
            if a.kind in ("move", "charge") and "move" in did:
                continue
            if a.kind == "shoot" and "shoot" in did:
                continue
            if a.kind == "melee" and (
                "melee" in did or (a.target is not None and log.fought(unit.id, a.target))
            ):
                continue
            out.append(a)
        return out

    def skip(self, unit_id: str) -> None:
        """Leave ``unit_id`` alone for the rest of the phase (its command was refused)."""
        if self._phase is not None:
            self._phase.skipped.add(unit_id)

    @property
    def plan(self) -> SidePlan | None:
        return None if self._phase is None else self._phase.plan


class Castra(SidePlayer):
    """Castra playing a side by the advisor's rankings and its plan."""

    name = "Castra"

    def order(
        self, state: BattleState, rs: Ruleset, mech: Mechanics, units: list[BattleUnit]
    ) -> list[str]:
        """Units in contact first, then the nearest the enemy; where units must be
        activated first (a ``before`` decision), those with most to do first."""
        enemies = [u for u in state.units if u.side != self.side and not u.status.eliminated]

        def gap(u: BattleUnit) -> float:
            found = nearest(u.footprint, enemies)
            return 0.0 if found is None else found[0]

        ranked = sorted(units, key=lambda u: (gap(u), u.id))
        view = state.view()
        before = {
            d.unit: d for d in mech.side_decisions(view, self.side) if d.when == "before" and d.unit
        }
        if not before:
            return [u.id for u in ranked]
        potential: dict[str, float] = {}
        for u in ranked:
            d = before.get(u.id)
            probe = state
            if d is not None:
                try:
                    probe = after_with_max_dice(state, rs, mech, decision_command(d))
                except (ValueError, KeyError):
                    potential[u.id] = -1.0
                    continue
            found = self._allowed(probe, rs, mech, probe.unit(u.id), PhaseLog())
            potential[u.id] = max((a.score for a in found), default=-1.0)
        return [u.id for u in sorted(ranked, key=lambda u: -potential[u.id])]

    def advisor(
        self, state: BattleState, rs: Ruleset, mech: Mechanics, unit: BattleUnit
    ) -> Advisor:
        return Advisor(state, rs, mech, measure_for(self.player.of(unit), self.role(unit)))

    def role(self, unit: BattleUnit) -> Role:
        plan = self.plan
        return plan.role(unit.id) if plan is not None else "attack"

    def aims(self, unit: BattleUnit) -> frozenset[Aim]:
        """The moves that serve the unit's role in the plan."""
        return AIMS[self.role(unit)]

    def pick(
        self, state: BattleState, unit: BattleUnit, found: list[Advice], rng: random.Random
    ) -> Advice | None:
        """The best entry by the unit's measure, if it reaches its temperament's bar (ties
        broken by the seeded generator)."""
        if not found:
            return None
        bar = THRESHOLDS[self.player.of(unit)]
        top = max(a.score for a in found)
        if top <= bar:
            return None
        best = [a for a in found if a.score >= top - 1e-9]
        return best[0] if len(best) == 1 else rng.choice(best)

    def pick_choice(self, d: SideDecision, rng: random.Random) -> Mapping[str, Scalar] | None:
        """The ruleset's default choice; an optional decision is taken (a card played)."""
        return dict(d.options)

    def worth_a_decision(
        self, state: BattleState, rs: Ruleset, mech: Mechanics, d: SideDecision, rng: random.Random
    ) -> bool:
        """Take a unit's decision (GSB's activation, Leg VI's dice move) only when the unit
        then has something worth doing (valued as if the decision's dice went its way),
        better than what it may do without it, by more than the decision is expected to
        cost the unit itself (Leg VI's fatigue on a dice move: its odds, by the measure)."""
        if d.unit is None:
            return True
        cmd = decision_command(d)
        try:
            probe = after_with_max_dice(state, rs, mech, cmd)
        except (ValueError, KeyError):
            return False
        unit = probe.unit(d.unit)
        then = self.pick(probe, unit, self._allowed(probe, rs, mech, unit, PhaseLog()), rng)
        if then is None:
            return False
        here = state.unit(d.unit)
        now = self.pick(state, here, self._allowed(state, rs, mech, here, PhaseLog()), rng)
        cost = MEASURES[self.player.of(here)].caution * self.decision_cost(state, mech, cmd)
        return then.score - cost > (now.score if now is not None else 0.0) + 1e-9

    @staticmethod
    def decision_cost(state: BattleState, mech: Mechanics, cmd: Act) -> float:
        """What a decision is expected to cost its own unit, by its exact odds where it has
        them (0 where it has none)."""
        if cmd.actor is None or not mech.action(cmd.action).odds:
            return 0.0
        try:
            odds = mech.odds(cmd.action, cmd.situation(state, mech))
        except (CommandError, NotImplementedRule, KeyError, ValueError):
            return 0.0
        me = state.combatant(state.unit(cmd.actor))
        return sum(float(p) * effect_value(mech, o.attacker, me) for o, p in odds.items())


class RandomPlayer(SidePlayer):
    """The baseline: every choice uniformly among the legal ones (a unit's entries and
    doing nothing; a decision's choices; an optional decision taken or not), units in a
    random order."""

    name = "Random"

    def order(
        self, state: BattleState, rs: Ruleset, mech: Mechanics, units: list[BattleUnit]
    ) -> list[str]:
        rng = random.Random(
            f"{self.player.seed}:{self.side}:{state.turn}:{state.round}:{state.phase}"
        )
        ids = [u.id for u in units]
        rng.shuffle(ids)
        return ids

    def pick(
        self, state: BattleState, unit: BattleUnit, found: list[Advice], rng: random.Random
    ) -> Advice | None:
        if not found:
            return None
        i = rng.randrange(len(found) + 1)
        return None if i == len(found) else found[i]

    def pick_choice(self, d: SideDecision, rng: random.Random) -> Mapping[str, Scalar] | None:
        choices = list(d.all_choices())
        if d.optional:
            i = rng.randrange(len(choices) + 1)
            return None if i == len(choices) else dict(choices[i])
        return dict(rng.choice(choices))

    def worth_a_decision(
        self, state: BattleState, rs: Ruleset, mech: Mechanics, d: SideDecision, rng: random.Random
    ) -> bool:
        return True


def after_with_max_dice(
    state: BattleState, rs: Ruleset, mech: Mechanics, command: BattleCommand
) -> BattleState:
    """The state after ``command`` with every die at its highest face (ValueError when it
    is refused)."""
    try:
        return command.execute(state, Context(rs, mech, RecordingDice(MaxDice()))).state
    except CommandError as exc:
        raise ValueError(str(exc)) from None


__all__ = ["Castra", "Choice", "PhaseLog", "RandomPlayer", "SidePlayer"]
