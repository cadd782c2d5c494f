"""Leg VI Carthago mechanics: charges, evades and free hacks (Charges)."""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.actions import Count, Throws, Total
from app.rules.contact import ContactHow, not_in_contact
from app.rules.geometry import Footprint, away_bearing
from app.rules.mechanics import (
    Combatant,
    Effects,
    Outcome,
    Resolution,
    Situation,
    TurnView,
    UnitChange,
)
from app.rules.movement import Breach
from app.rules.schema import Category
from app.rulesets.leg_vi.base import Pending, inches, plural
from app.rulesets.leg_vi.combat_rules import default_engaged_bases
from app.rulesets.leg_vi.movement import LegVIMovement
from app.rulesets.leg_vi.units import (
    CHARGING,
    CONTROL_HALT,
    EVADING,
    MOVED,
    OPEN_RANKS,
    REFORMED,
    ROUTING,
    SHAKEN,
    IllegalAction,
    LegUnit,
    dp_words,
    take_dps,
)

#: the free hack falls on evaders caught by chargers and routers caught by pursuers
HACK_RULE = "Leg VI, Charges and Pursue"
CHARGE_RULE = "Leg VI, Charges"


@dataclass(frozen=True)
class ChargePlan:
    """A charge before the dice: chargers, target, whether the charge is mutual, the
    target's response and the markers the chargers take."""

    a: LegUnit
    d: LegUnit
    mutual: bool
    response: str
    charging: frozenset[str]


@dataclass(frozen=True)
class HackPlan:
    """A free hack before the dice: hackers, victims and the dice, read as casualties."""

    a: LegUnit
    d: LegUnit
    dice: Count


class LegVICharges(LegVIMovement):
    """Leg VI, Charges: who may charge whom, the target's response, evaders caught and
    the free hack."""

    # ------------------------------------------------------------------ charges

    def _charge_refusal(self, a: LegUnit, d: LegUnit) -> str | None:
        """Leg VI, Charges: why ``a`` may not charge ``d`` (None: it may): light infantry
        charge only light infantry or elephants; light cavalry only cavalry or unformed
        troops; no unit charges while shaken, in column, halted by a control test or after
        re-forming this turn."""
        s = a.c.status
        for barred, why in (
            (a.shaken, "shaken"),
            (a.column, "in column"),
            (s.has(CONTROL_HALT), "halted by a control test"),
            (s.has(REFORMED), "re-formed this turn"),
        ):
            if barred:
                return f"{a.name} cannot charge ({why})"
        targets = a.troop.charge_targets
        fits = {
            "any": True,
            "light_infantry": d.category == Category.LIGHT_INFANTRY,
            "elephant": d.elephant,
            "cavalry": d.cavalry,
            "unformed": d.unformed,
        }
        if not any(fits[k] for k in targets):
            allowed = ", ".join(k.replace("_", " ") for k in targets)
            return f"{a.name} may charge only {allowed}, not {d.name}"
        return None

    def _check_charge(self, a: LegUnit, d: LegUnit) -> None:
        """The charge action's refusal (:meth:`_charge_refusal`)."""
        why = self._charge_refusal(a, d)
        if why is not None:
            raise IllegalAction(f"{CHARGE_RULE}: {why}")

    def charge_problems(
        self, view: TurnView, unit: Combatant, target: Combatant, end: Footprint | None
    ) -> list[Breach]:
        """Leg VI, Charges, on the table: the charge action's own rules of who may charge
        whom (:meth:`_charge_refusal`), so the table's charge refuses what the action
        refuses."""
        why = self._charge_refusal(self.u(unit), self.u(target))
        return [] if why is None else [Breach(CHARGE_RULE, why)]

    def on_contact(
        self, view: TurnView, unit_id: str, target_id: str, how: ContactHow
    ) -> Resolution:
        """Leg VI, Charges: a charge made on the table (the map's Charge, ``battle charge``)
        is the charge itself, the target standing to receive it: the charger is marked as
        charging, as the charge action marks it, so the combat that follows counts its
        charge ("who charged", errata 'charge-move-length'). A target that evades answers with the
        charge action before the chargers move."""
        unit = view.unit(unit_id)
        add = frozenset({CHARGING, MOVED}) - unit.status.markers
        if CHARGING not in add:
            return Resolution()
        target = view.unit(target_id)
        return Resolution(
            others=(UnitChange(unit_id, Effects(markers_add=add)),),
            explanation=(
                f"{unit.name} ({unit_id}) has charged {target.name} ({target_id}): the combat "
                f"counts the charge ({CHARGE_RULE}).",
            ),
        )

    def _charge_prepare(self, sit: Situation) -> ChargePlan:
        a, d = self.u(sit.attacker), self.u(sit.defender)
        self._check_charge(a, d)
        mutual = sit.flag("mutual")
        response = "stand" if mutual else sit.choice("response", "stand")
        if response not in d.troop.charge_responses:
            raise IllegalAction(f"Leg VI, Charges: {d.name} may only stand")
        charging = frozenset({CHARGING, MOVED}) - a.c.status.markers
        return ChargePlan(a, d, mutual, response, charging)

    def _charge_play(self, sit: Situation, plan: ChargePlan, th: Throws) -> Resolution:
        """Leg VI, Charges: move into contact without dice (mutual charges meet half way).
        Light troops and medium cavalry may evade a full move (all their dice, unformed);
        A and B grade formed infantry may then halt on the vacated ground, others roll all
        their dice (with fatigue) and charge on: evaders caught (charge move reaching the
        ``distance`` plus the evade move) rout and suffer a free hack, one die per engaged base,
        a casualty on 4+. Elephants pass through light troops standing (1 DP to them) and
        through a legion's open ranks on 1-3. The evaders' rolled move is made on the table,
        directly away from the chargers (``Effects.shift``); the chargers' moves, whose end
        depends on what they meet, stay in words."""
        a, d, mutual, response, charging = plan.a, plan.d, plan.mutual, plan.response, plan.charging
        ch = self.t.charges
        words = [f"{a.name} charges {d.name}"]
        if a.elephant and d.light and response == "stand":
            n = ch.light_charged_by_elephant_dps
            eff_d = self._dps(d, n, "morale")
            words.append(
                f"the elephant passes through: {d.name} {dp_words(take_dps(d, n, 'morale'))}"
            )
            out = Outcome(
                attacker=Effects(markers_add=charging, move="pass through"),
                defender=eff_d,
                result="elephant passes through",
            )
            return Resolution(outcome=out, explanation=("; ".join(words),))
        if a.elephant and d.quincunx and d.c.status.has(OPEN_RANKS):
            roll, _ = th.throw(Total(ch.elephant_open_ranks_die, f"{a.name} at open ranks"))
            if roll in ch.elephant_open_ranks_pass_on:
                words.append(f"open ranks ({roll}): it passes through to the legion's rear")
                out = Outcome(
                    attacker=Effects(markers_add=charging, move="pass through to the rear"),
                    result="passes through the open ranks",
                )
                return Resolution(outcome=out, explanation=("; ".join(words),))
            words.append(f"open ranks ({roll}): it makes contact")
        if response == "stand":
            meet = " (mutual charge: meet half way)" if mutual else ""
            eff_d = (
                Effects(markers_add=frozenset({CHARGING, MOVED}) - d.c.status.markers)
                if mutual
                else Effects(move="stand to receive")
            )
            words.append("contact" + meet)
            out = Outcome(
                attacker=Effects(markers_add=charging, move="charge into contact" + meet),
                defender=eff_d,
                result="contact",
            )
            return Resolution(outcome=out, explanation=("; ".join(words),))
        return self._evade(sit, a, d, charging, words, th)

    def _evade(
        self,
        sit: Situation,
        a: LegUnit,
        d: LegUnit,
        charging: frozenset[str],
        words: list[str],
        th: Throws,
    ) -> Resolution:
        ch = self.t.charges
        specs = self._move_dice(Situation(actor=d.c), d, "evade")
        ev = [th.throw(Total(s, f"evade move for {d.name}"))[0] for s in specs]
        unformed = "unformed" if not d.light else None
        words.append(f"{d.name} evades {inches(sum(ev))} ({' + '.join(map(str, ev))})")
        # the evaders make their full move directly away from the chargers, on the table
        away = (away_bearing(a.c, d.c), float(sum(ev)))
        if (
            sit.flag("halt_on_vacated")
            and a.grade in ch.halt_on_vacated_grades
            and a.formed_infantry
        ):
            words.append(f"{a.name} halts on the vacated ground")
            out = Outcome(
                attacker=Effects(markers_add=charging, move="halt on the vacated ground"),
                defender=Effects(
                    markers_add=frozenset({EVADING, MOVED}) - d.c.status.markers,
                    formation=unformed,
                    move=f"evade {inches(sum(ev))}",
                    shift=away,
                ),
                result="evaded",
            )
            return Resolution(outcome=out, explanation=("; ".join(words),))
        cspecs = self._move_dice(Situation(actor=a.c), a, "charge_on")
        cm = [th.throw(Total(s, f"charge move for {a.name}"))[0] for s in cspecs]
        chase = self._move_outcome(a, "charge_on", cm, False)
        gap = sit.number("distance", int(ch.range))
        caught = sum(cm) >= gap + sum(ev)
        words.append(
            f"{a.name} charges on {inches(sum(cm))} ({' + '.join(map(str, cm))}) against "
            f"{inches(gap)} + {inches(sum(ev))}: " + ("caught" if caught else "got away")
        )
        eff_a = Effects(
            dps=chase.attacker.dps,
            markers_add=charging,
            move=("catch the evaders" if caught else f"charge on {inches(sum(cm))}"),
        )
        if chase.attacker.dps:
            words.append(f"fatigue: {plural(chase.attacker.dps, 'DP')}")
        if not caught:
            eff_d = Effects(
                markers_add=frozenset({EVADING, MOVED}) - d.c.status.markers,
                formation=unformed,
                move=f"evade {inches(sum(ev))}",
                shift=away,
            )
            return Resolution(
                outcome=Outcome(attacker=eff_a, defender=eff_d, result="evaded"),
                explanation=("; ".join(words),),
            )
        fh = ch.free_hack
        bases = sit.number("engaged_bases", 0) or default_engaged_bases(self.t, a)
        n = bases * fh.dice_per_engaged_base
        cas, hack = th.throw(
            Count(f"{n}{fh.die}", f"free hack by {a.name}", need=fh.casualty_on_at_least)
        )
        words.append(f"free hack {hack}: {plural(cas, 'casualty')}; {d.name} routs")
        eff_d = Effects(
            casualties=cas,
            markers_add=frozenset({ROUTING, SHAKEN, MOVED}) - d.c.status.markers,
            formation=unformed,
            move=f"evade {inches(sum(ev))}, caught: rout",
            shift=away,
        )
        pending: dict[str, Pending] = {}
        self._loss_morale(sit.view, d.c, eff_d, pending, words)
        return Resolution(
            outcome=Outcome(attacker=eff_a, defender=eff_d, result="caught and routed"),
            others=self._finish(sit.view, pending),
            explanation=("; ".join(words),),
        )

    def _hack_prepare(self, sit: Situation) -> HackPlan:
        """The free hack's dice; refused when both units stand on the table and the hackers
        do not touch their victims (they hack only at enemies they caught)."""
        apart = not_in_contact(HACK_RULE, sit.attacker, sit.defender)
        if apart is not None:
            raise IllegalAction(apart)
        a, d = self.u(sit.attacker), self.u(sit.defender)
        fh = self.t.charges.free_hack
        bases = sit.number("engaged_bases", 0) or default_engaged_bases(self.t, a)
        n = bases * fh.dice_per_engaged_base
        dice = Count(
            f"{n}{fh.die}", f"free hack by {a.name} on {d.name}", need=fh.casualty_on_at_least
        )
        return HackPlan(a, d, dice)

    def _hack_outcome(self, d: LegUnit, cas: int) -> Outcome:
        eff = Effects(
            casualties=cas,
            markers_add=frozenset({ROUTING, SHAKEN}) - d.c.status.markers,
            formation="unformed" if not d.light and d.c.status.formation != "unformed" else None,
        )
        return Outcome(defender=eff, result=plural(cas, "casualty"))

    def _free_hack_play(self, sit: Situation, plan: HackPlan, th: Throws) -> Resolution:
        """Leg VI, Charges and Pursue: evaders caught by chargers, and routers caught by
        pursuers, suffer a free hack: one die per engaged base (errata 'free-hack-per-base'),
        a casualty for each 4+."""
        cas, shown = th.throw(plan.dice)
        out = self._hack_outcome(plan.d, cas)
        return Resolution(
            outcome=out,
            explanation=(
                f"{plan.a.name} hacks at the routing {plan.d.name} with "
                f"{plan.dice.dice.count} dice: {shown}: {out.result}.",
            ),
        )
