"""Leg VI Carthago mechanics: the leaders' actions (Command: move, steady, inspire) and the
control test.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.rules.actions import Throws, Total
from app.rules.mechanics import (
    Combatant,
    Effects,
    LeaderView,
    Outcome,
    Resolution,
    Scalar,
    Situation,
)
from app.rulesets.leg_vi import EXCEPTIONAL
from app.rulesets.leg_vi.base import LegVIBase, inches, plural
from app.rulesets.leg_vi.units import (
    CHARGING,
    CONTROL_FREE,
    CONTROL_HALT,
    CONTROL_REPEAT,
    INSPIRE,
    LOOTING,
    PURSUING,
    ROUTING,
    SHAKEN,
    STEADIED,
    IllegalAction,
    LegUnit,
    band_of,
    scalar_int,
)


@dataclass(frozen=True)
class ControlPlan:
    """A control test before the die: the unit, its die, the modifier and why."""

    u: LegUnit
    die: str
    modifier: int
    words: tuple[str, ...]


class LegVICommand(LegVIBase):
    """Leg VI, Command: a leader's actions and their budget; Control Test."""

    # ------------------------------------------------------------------ leaders

    def _leader(self, sit: Situation) -> tuple[Combatant, LeaderView]:
        c = sit.attacker
        if c.leader is None:
            raise IllegalAction(f"{c.name} has no leader attached")
        phase = self._phase(sit.view)
        if phase is not None and phase != "command":
            raise IllegalAction("Leg VI, Command: leader actions are taken in the command phase")
        return c, c.leader

    def leader_budget(self, leader: LeaderView, record: Mapping[str, Scalar]) -> int:
        """Leg VI, Command: a General has 2 actions, a Commander 1, an exceptional leader one
        more; each wound costs one (a second in command has 1)."""
        cmd = self.t.command
        base = scalar_int(record, f"leader_actions:{leader.id}") or leader.actions
        if not base:
            base = cmd.actions_general if leader.rank == "general" else cmd.actions_commander
            base += cmd.actions_exceptional_bonus if EXCEPTIONAL.flag(leader.fields) else 0
        return max(0, base - leader.wounds * self.t.die_of_death.actions_lost_per_wound)

    def _spend(
        self, sit: Situation, leader: LeaderView, kind: str
    ) -> tuple[dict[str, Scalar], str]:
        side = sit.attacker.side
        record: Mapping[str, Scalar] = sit.view.sides[side] if sit.view else {}
        used = scalar_int(record, f"actions_used:{leader.id}")
        budget = self.leader_budget(leader, record)
        if used + self.t.command.actions[kind].cost > budget:
            raise IllegalAction(
                f"{leader.name} has no action left this turn ({used} of {budget} used)"
            )
        did = str(record.get(f"leader_did:{leader.id}", ""))
        if kind in self.t.command.not_same_turn and did and did != kind:
            raise IllegalAction(
                f"Leg VI, Command: {leader.name} may not {did} and {kind} in the same turn"
            )
        update: dict[str, Scalar] = {f"actions_used:{leader.id}": used + 1}
        if kind in self.t.command.not_same_turn:
            update[f"leader_did:{leader.id}"] = kind
        left = budget - used - 1
        return update, f"{leader.name} {plural(left, 'action')} left"

    def _leader_move(self, sit: Situation, plan: None, th: Throws) -> Resolution:
        """Leg VI, Command, Move (1 action): up to 12" in the command phase, detaching from
        and/or attaching to units; the core moves him."""
        c, leader = self._leader(sit)
        update, left = self._spend(sit, leader, "move")
        dist = self.t.command.actions["move"].move
        return Resolution(
            sides=self._sides(c.side, update),
            explanation=(f"{leader.name} moves up to {inches(dist or 0)} ({left}).",),
        )

    def _steady(self, sit: Situation, plan: None, th: Throws) -> Resolution:
        """Leg VI, Command, Steady (1 action): take 1 DP off his unit, even in combat; a
        shaken unit stops being shaken (Rallying). Unit and leader stay halted in the move
        phases but may charge."""
        c, leader = self._leader(sit)
        u = self.u(c)
        if u.routing:
            raise IllegalAction(f"{c.name} is routing: it must pass a control test first")
        if u.elephant:
            raise IllegalAction("Elephants take no DPs")
        update, left = self._spend(sit, leader, "steady")
        n = min(self.t.command.actions["steady"].dps_removed or 0, c.status.dps)
        remove = frozenset({SHAKEN}) & c.status.markers
        eff = Effects(dps=-n, markers_add=frozenset({STEADIED}), markers_remove=remove)
        words = f"{leader.name} steadies {c.name}: {plural(n, 'DP')} removed"
        if remove:
            words += ", no longer shaken"
        return Resolution(
            outcome=Outcome(attacker=eff, result="steadied"),
            sides=self._sides(c.side, update),
            explanation=(f"{words}; it stays halted this turn but may charge ({left}).",),
        )

    def _inspire(self, sit: Situation, plan: None, th: Throws) -> Resolution:
        """Leg VI, Command, Inspire (1 action): +1 combat die for his unit this turn for each
        inspire action, at most +2."""
        c, leader = self._leader(sit)
        now = scalar_int(c.status.extra, INSPIRE)
        f = self.t.combat_factors.factors["inspire"]
        limit = min(f.limit or self.t.command.inspire_max_dice, self.t.command.inspire_max_dice)
        if (now + 1) * f.dice > limit:
            raise IllegalAction(f"{c.name} is already inspired to the limit (+{limit} dice)")
        update, left = self._spend(sit, leader, "inspire")
        eff = Effects(extra={INSPIRE: now + 1})
        return Resolution(
            outcome=Outcome(attacker=eff, result="inspired"),
            sides=self._sides(c.side, update),
            explanation=(
                f"{leader.name} inspires {c.name}: +{(now + 1) * f.dice} combat dice this turn "
                f"({left}).",
            ),
        )

    # ------------------------------------------------------------------ control test

    def _control_prepare(self, sit: Situation) -> ControlPlan:
        c = sit.attacker
        u = self.u(c)
        ct = self.t.control_test
        key = "light_or_a_grade" if (u.light or u.grade == "A") else "others"
        mod = 0
        words = [f"{ct.dice[key].who}: {ct.dice[key].die}"]
        impetus = sit.flag("impetus") or any(
            c.status.has(m) for m in (ROUTING, PURSUING, LOOTING, CHARGING)
        )
        if impetus:
            mod += ct.modifiers["impetus"].value
            words.append(f"{ct.modifiers['impetus'].value:+d} {ct.modifiers['impetus'].label}")
        return ControlPlan(u, ct.dice[key].die, mod, tuple(words))

    def _control_result(self, sit: Situation, u: LegUnit, value: int) -> tuple[int, str, Effects]:
        """The band after the optional leader shift: the attached leader may move the score
        by 1 either way after the roll, to reach the ``prefer`` band if he can."""
        ct = self.t.control_test
        prefer = sit.choice("prefer", "free")
        shifts = [0]
        if u.c.leader is not None and prefer != "none":
            step = ct.modifiers["leader"].value
            shifts += [step, -step]
        final = value
        for s in shifts:
            if band_of(ct.results, value + s).result == prefer:
                final = value + s
                break
        band = band_of(ct.results, final).result
        marker = {"halt": CONTROL_HALT, "free": CONTROL_FREE, "repeat": CONTROL_REPEAT}[band]
        status = u.c.status
        remove = {CONTROL_HALT, CONTROL_FREE, CONTROL_REPEAT} - {marker}
        # Pursuit, rout and looting go on only on a repeat (pursuit: a score of 5 or more).
        if final < ct.pursuit_continues_at_least:
            remove |= {PURSUING, LOOTING, ROUTING}
        eff = Effects(
            markers_add=frozenset({marker}) - status.markers,
            markers_remove=frozenset(remove) & status.markers,
        )
        return final, band, eff

    def _control_play(self, sit: Situation, plan: ControlPlan, th: Throws) -> Resolution:
        """Leg VI, Control Test: 1 AvD for light troops and A grade, a D6 for others; +1
        charging, looting, routing or pursuing; an attached leader may add or take 1 after
        the roll. 1-2 halt all turn (no charge), 3-4 act as wished, 5-6 repeat the last move
        (errata 'control-test-range': off the table counts as the end band). Routing,
        pursuing or looting units carry on only on 5 or more."""
        u, mod = plan.u, plan.modifier
        roll, _ = th.throw(Total(plan.die, f"control test for {u.name}"))
        final, _band, eff = self._control_result(sit, u, roll + mod)
        label = band_of(self.t.control_test.results, final).label
        words = [f"Control test for {u.name}: rolled {roll}", *plan.words]
        if final != roll + mod:
            words.append(f"{final - roll - mod:+d} by the attached leader")
        words.append(f"score {final}: {label}")
        return Resolution(
            outcome=Outcome(attacker=eff, result=label), explanation=("; ".join(words),)
        )
