"""Grown Slightly Bald mechanics: melee and shooting, each declared once.

``prepare`` works out the strike without dice (how many dice, the score they need, who is
exposed to what); ``play`` throws them: the attacker's dice (:class:`StrikeHits`), what the
hits cost the target (:class:`Wounds`), and, when the target is an elephant, the rampage on
each unit near it (:class:`Rampage`). Only the active unit rolls, so the target never strikes
back. The exact odds are ``play``'s structure (:meth:`GSBCombat.attack_odds`): given the
hits, the target's wounds and the rampage on its attacker are independent, so each is the
exact distribution of the very throw ``play`` makes; tests hold it equal to exploring
``play`` itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from app.rules.actions import Throws, exact_of
from app.rules.contact import TOUCH, not_in_contact
from app.rules.geometry import (
    Footprint,
    Point,
    axes,
    point_in_polygon,
    point_segment_distance,
    polygon_distance,
    unit_distance,
)
from app.rules.mechanics import (
    Combatant,
    Effects,
    Outcome,
    Resolution,
    SideUpdate,
    Situation,
    TurnView,
    UnitChange,
)
from app.rulesets.gsb.base import (
    DISENGAGED,
    FOUGHT,
    FOUGHT_AGAIN,
    GENERAL_MOVED,
    MOVED,
    SHOT,
    SHOT_AFTER_MOVING,
)
from app.rulesets.gsb.rules import (
    ATTACKS,
    NO_DAMAGE,
    OPEN,
    Body,
    Damage,
    Hurt,
    dice_text,
    effects_of,
    stars_and_fates,
)
from app.rulesets.gsb.schema import ShotTiming
from app.rulesets.gsb.throws import Rampage, StrikeHits, Wounds, rampage_table
from app.rulesets.gsb.turn import GSBTurn

SHOOT_RULE = "GSB, Shooting"
DISENGAGE_RULE = "GSB, Disengaging"
MELEE_RULE = "GSB, Melee"
#: each timing of ``tables.shooting.rows`` in words, after the troop's name
TIMING_WORDS: dict[ShotTiming, str] = {
    "after_move": "shoot after moving, and move no more once they have shot",
    "before_or_after_move": "shoot before or after moving, not in the middle of a move",
    "before_during_or_after_move": "shoot before, during or after moving",
}


@dataclass(frozen=True)
class Strike:
    """How one unit rolls against another: ``dice`` of ``die``, each hitting on ``need``
    after ``bonus``; ``terror`` is the elephant-terror face (it scores, and with ``reroll``
    is rolled again). ``why`` explains the dice in words."""

    die: str
    dice: int
    need: int
    bonus: int
    terror: int | None
    reroll: bool
    why: str

    def hits(self, cap: int, purpose: str = "") -> StrikeHits:
        """The throw of these dice, its hits counted up to ``cap``."""
        return StrikeHits(
            dice_text(self.die, max(self.dice, 1)),
            purpose,
            need=self.need,
            bonus=self.bonus,
            terror=self.terror,
            reroll=self.reroll,
            cap=cap,
        )

    def chances(self) -> tuple[Fraction, Fraction]:
        """(chance a die scores a hit and stops, chance it shows the terror face and is
        rolled again)."""
        return self.hits(0).chances()


@dataclass(frozen=True)
class Attack:
    """A melee or a volley worked out before any dice: the ``strike``; whether the target
    is ``fighting`` elephants (its morale loses a base on 4-6); whether these hits call for
    a general's death ``test``; which side has its general; whether the target is an
    elephant, and whether the attacker is then within its rampage radius."""

    strike: Strike
    melee: bool
    fighting: bool
    test: bool
    attacker_general: bool
    defender_general: bool
    elephant: bool
    rampage_on_attacker: bool


class GSBCombat(GSBTurn):
    """GSB, Melee and Shooting, with hit points, morale, generals and elephants."""

    # -- generals -------------------------------------------------------------------------

    def has_general(self, unit: Combatant, option: bool) -> bool:
        return option or (unit.leader is not None and unit.leader.rank == "general")

    def death_test_applies(self, melee: bool) -> bool:
        """GSB, Generals: the test follows hits (our reading: any hits; a data switch limits
        it to melee hits)."""
        return melee or self.t.general.test_when == "any_hit"

    # -- strikes --------------------------------------------------------------------------

    def melee_strike(self, sit: Situation) -> Strike:
        """GSB, Melee: dice by troop type (elephants as many as the opponent's basic dice);
        hills or woods cap them at 2; then +1 die (heavy cavalry +2) on a flank or rear and
        +1 die for the general (both after the cap). Hits on the target's number (errata
        hit-numbers: heavy infantry 6, the rest 5-6); the optional rules let heavy cavalry
        hit heavy infantry on 5s from flank or rear, or every type be hit on 5-6.
        Elephants' 4s score and are rolled again (terror)."""
        t = self.t
        att, dfn = sit.attacker, sit.defender
        attack = sit.choice("attack", "front")
        if attack not in ATTACKS:
            raise ValueError(f"attack must be one of {', '.join(ATTACKS)}")
        basic = t.melee.rows[att.troop].dice
        why = [f"{self.troop_name(att.troop)} {basic} dice"]
        if basic == "as_opponent":
            opp = t.melee.rows[dfn.troop].dice
            basic = t.melee.elephant_vs_elephant_dice if opp == "as_opponent" else opp
            why = [f"{self.troop_name(att.troop)} {basic} dice, as many as its opponent"]
        flank = 0
        if attack != "front":
            flank = t.melee.flank_rear_extra_dice_by_troop.get(
                att.troop, t.melee.flank_rear_extra_dice
            )
        general = self.has_general(att, sit.flag("attacker_general"))
        moved = sit.flag("general_moved") or att.status.has(GENERAL_MOVED)
        counts = general and not (moved and t.general.no_bonus_turn_moved)
        gen_dice = t.general.melee_bonus if counts and t.general.bonus_kind == "die" else 0
        bonus = t.general.melee_bonus if counts and t.general.bonus_kind == "score" else 0
        after = set(t.terrain.extras_added_after_cap)
        dice = basic + (0 if "flank" in after else flank) + (0 if "general" in after else gen_dice)
        terrain = sit.choice("terrain", OPEN)
        if terrain != OPEN:
            cap = t.terrain.rows[terrain].max_dice
            if dice > cap:
                why.append(f"{terrain}: at most {cap}")
            dice = min(dice, cap)
        dice += (flank if "flank" in after else 0) + (gen_dice if "general" in after else 0)
        if flank:
            why.append(f"+{flank} for the {attack}")
        if gen_dice:
            why.append(f"+{gen_dice} for the general")
        elif general and moved:
            why.append("the general joined this turn: no bonus")
        need = t.hit_numbers.rows[dfn.troop].hit_on
        for rid, rule in t.optional_rules.items():
            if (
                sit.options.get(f"optional_{rid}", rule.enabled)
                and rule.attacker in (None, att.troop)
                and dfn.troop == rule.target
                and attack in rule.situations
            ):
                need = min(need, rule.hit_on)
        if bonus:
            why.append(f"+{bonus} to each die for the general")
        terror = t.elephants.terror_face if self.is_elephant(att) else None
        return Strike(
            t.melee.die, dice, need, bonus, terror, t.elephants.terror_rerolls, ", ".join(why)
        )

    def shoot_strike(self, sit: Situation) -> Strike:
        """GSB, Shooting: medium infantry and light troops roll 2 dice at 1 UW, 6s hit."""
        s = self.t.shooting
        att = sit.attacker
        if att.troop not in s.rows or not self.gsb_troop(att.troop).shoots:
            raise ValueError(
                f"{att.name} ({self.troop_name(att.troop)}) cannot shoot: only medium "
                "infantry and light troops shoot"
            )
        return Strike(s.die, s.dice, s.hit_on, 0, None, False, f"{s.dice} dice at {s.range:g} UW")

    def shot_problem(self, view: TurnView, shooter: Combatant, target: Combatant) -> str | None:
        """GSB, Shooting, when both units stand on the table: why ``shooter`` may not shoot
        at ``target`` (out of its arc, beyond 1 UW from the middle of its front edge, or
        out of sight), or None."""
        if not (shooter.footprint.has_size and target.footprint.has_size):
            return None
        s = self.t.shooting
        who, whom = f"{shooter.name} ({shooter.unit_id})", f"{target.name} ({target.unit_id})"
        fp = shooter.footprint
        (fx, fy) = axes(fp.facing)[0]
        front = fp.depth / 2
        corners = target.footprint.corners()
        if s.arc_degrees is not None:
            ahead = max((px - fp.x) * fx + (py - fp.y) * fy for px, py in corners)
            if ahead <= front + TOUCH:
                return f"{SHOOT_RULE}: {whom} is not ahead of {who}'s front"
        centre = (fp.x + fx * front, fp.y + fy * front)
        gap = _point_to_polygon(centre, corners)
        if gap > s.range + TOUCH:
            return (
                f"{SHOOT_RULE}: {whom} is {gap:.2f} UW from the middle of {who}'s front, "
                f"beyond the {s.range:g} UW range"
            )
        if s.needs_line_of_sight:
            seen, blocked = self.line_of_sight(view, shooter.unit_id, target.unit_id)
            if not seen:
                return (
                    f"{SHOOT_RULE}: {who} has no line of sight to {whom} (blocked by "
                    f"{', '.join(blocked) or 'the table'})"
                )
        return None

    # -- when a unit shoots ---------------------------------------------------------------

    def shot_timing(self, unit: Combatant) -> ShotTiming | None:
        """When the troop shoots in its activation (``tables.shooting.rows``: after its
        move, before or after it, or also pausing during it); None for troops that do not
        shoot."""
        row = self.t.shooting.rows.get(unit.troop)
        return None if row is None else row.timing

    def _timing_words(self, unit: Combatant, timing: ShotTiming) -> str:
        return f"{self.troop_name(unit.troop).lower()} {TIMING_WORDS[timing]}"

    def shot_timing_problem(self, unit: Combatant) -> str | None:
        """GSB, Shooting: why ``unit`` may not shoot now in its activation, or None. It
        shoots once an activation, whatever its timing (errata shot-timing); where its move
        stands when it shoots is checked on the moves after the shot
        (:meth:`move_after_shot_problem`), since a shot before or after a move is the same
        shot until the unit moves again."""
        timing = self.shot_timing(unit)
        if timing is None or not unit.status.has(SHOT):
            return None
        return (
            f"{SHOOT_RULE}: {unit.name} ({unit.unit_id}) has already shot in this activation "
            f"({self._timing_words(unit, timing)}; one shot an activation, errata shot-timing)"
        )

    def move_after_shot_problem(self, unit: Combatant) -> str | None:
        """GSB, Shooting (the move check cites :data:`SHOOT_RULE` before it): why ``unit``,
        having shot in its activation, may not move on, or None. Medium infantry shoot
        after any move, so their shot ends their movement (errata mi-shooting-timing);
        light infantry shoot before or after moving: one that moved and then shot has
        finished its move (moving on would put the shot in the middle of it), one that shot
        first moves as it likes; light cavalry may pause to shoot and then continue (errata
        shot-timing)."""
        timing = self.shot_timing(unit)
        if timing is None or not unit.status.has(SHOT):
            return None
        who = f"{unit.name} ({unit.unit_id})"
        if timing == "after_move":
            return (
                f"{who} has shot ({self._timing_words(unit, timing)}): it moves no more this "
                "activation (errata mi-shooting-timing)"
            )
        if timing == "before_or_after_move" and unit.status.extra.get(SHOT_AFTER_MOVING):
            return (
                f"{who} moved, then shot ({self._timing_words(unit, timing)}): its move is "
                "over this activation (errata shot-timing)"
            )
        return None

    def shot_record(self, unit: Combatant) -> Effects:
        """What a shot leaves on the shooter for the rest of its activation: the ``shot``
        marker, and in its ``extra`` whether it had moved before (the core's ``moved``
        marker: a unit acts once a turn, so a move this turn was one of its activation).
        Cleared when the unit is next activated, or at the next initiative."""
        moved = unit.status.has(MOVED)
        return Effects(
            markers_add=frozenset({SHOT}), extra={SHOT_AFTER_MOVING: True} if moved else {}
        )

    # -- rampage --------------------------------------------------------------------------

    def rampage_bystanders(self, sit: Situation, elephant: Combatant) -> list[Combatant]:
        """GSB, Elephant rampage: units within 1 UW of the wounded elephant other than the
        actor and the target (who are handled as part of the outcome): ``sit.others`` when
        the core names them, else every unit whose footprint is within the radius."""
        e = self.t.elephants
        skip = {elephant.unit_id, sit.attacker.unit_id, sit.defender.unit_id}
        if sit.others:
            pool = list(sit.others)
        elif sit.view is not None:
            pool = [u for u in sit.view.units if unit_distance(u, elephant) <= e.rampage_radius]
        else:
            pool = []
        return [
            u
            for u in pool
            if u.unit_id not in skip
            and not u.status.eliminated
            and u.status.strength > 0
            and (e.rampage_affects == "all_units" or u.side != elephant.side)
        ]

    def _actor_in_rampage(self, melee: bool) -> bool:
        """The unit that wounded the elephant is within the radius: in contact in melee;
        a shooter is, since shooting range (1 UW) is no longer than the radius."""
        return melee or self.t.shooting.range <= self.t.elephants.rampage_radius

    # -- the actions ----------------------------------------------------------------------

    def _attack(self, sit: Situation, strike: Strike, melee: bool, fighting: bool) -> Attack:
        elephant = self.is_elephant(sit.defender)
        return Attack(
            strike,
            melee,
            fighting,
            self.death_test_applies(melee),
            self.has_general(sit.attacker, sit.flag("attacker_general")),
            self.has_general(sit.defender, sit.flag("defender_general")),
            elephant,
            elephant and self._actor_in_rampage(melee),
        )

    def _not_disengaged(self, unit: Combatant, verb: str) -> None:
        """GSB, Disengaging: a unit that left a melee this turn neither shoots nor fights."""
        if unit.status.has(DISENGAGED) and self.t.disengage.no_shoot_or_melee_after:
            raise ValueError(
                f"{DISENGAGE_RULE}: {unit.name} ({unit.unit_id}) disengaged from a melee this "
                f"turn and may not {verb} again until the next turn"
            )

    def may_act(self, action: str, sit: Situation) -> str | None:
        """GSB, Turn order: a melee or a shot is made only by the unit activated now
        (:meth:`activation_problem`: "Units fight ... only on their own turn", one unit at a
        time, once a turn); a melee once an activation, a second after destroying the
        first opponent. Their odds are still counted."""
        doing = {"melee": "fight in melee", "shoot": "shoot"}.get(action)
        if doing is None or sit.view is None or sit.actor is None:
            return None
        problem = self.activation_problem(sit.view, sit.actor, doing)
        if problem is None and action == "melee":
            problem = self.second_melee_problem(sit.view, sit.actor, sit.target)
        return problem

    def second_melee_problem(
        self, view: TurnView, unit: Combatant, target: Combatant | None
    ) -> str | None:
        """GSB, Melee: a unit fights one melee in its activation; "Units which charge into
        melee and destroy their opponents immediately may use any remaining movement to
        contact and fight a second melee": a second only once its first opponent is
        destroyed (out of the battle), against another enemy, and no third."""
        first = unit.status.extra.get(FOUGHT)
        if first is None:
            return None
        who = f"{unit.name} ({unit.unit_id})"
        if unit.status.extra.get(FOUGHT_AGAIN) or not self.t.melee.second_melee_after_destroying:
            return f"{MELEE_RULE}: {who} has fought its melee in this activation"
        foe = next((u for u in view.units if u.unit_id == str(first)), None)
        if foe is not None and not foe.status.eliminated:
            return (
                f"{MELEE_RULE}: {who} has fought {foe.name} ({foe.unit_id}) in this activation;"
                " only a unit that destroyed its opponent fights a second melee"
            )
        if target is not None and target.unit_id == str(first):
            return f"{MELEE_RULE}: {who} has destroyed {target.name} ({target.unit_id})"
        return None

    def prepare_melee(self, sit: Situation) -> Attack:
        """GSB, Melee: the active unit's strike; a target fighting an elephant loses a base
        on morale on 4-6 (made only in the unit's activation: :meth:`may_act`). Refused for
        a unit that disengaged this turn and, when both units stand on the table, for two
        units whose bases do not touch and for an enemy not at the unit's front ("Units
        fight to their front")."""
        self._not_disengaged(sit.attacker, "fight in melee")
        apart = not_in_contact(MELEE_RULE, sit.attacker, sit.defender)
        if apart is not None:
            raise ValueError(apart)
        a, d = sit.attacker, sit.defender
        if a.footprint.has_size and d.footprint.has_size and not at_front(a.footprint, d.footprint):
            raise ValueError(
                f"{MELEE_RULE}: units fight to their front, and {d.name} ({d.unit_id}) is not "
                f"at {a.name} ({a.unit_id})'s front (a unit attacked in flank turns to face "
                "first, errata turn-to-face)"
            )
        return self._attack(sit, self.melee_strike(sit), True, self.is_elephant(sit.attacker))

    def prepare_shoot(self, sit: Situation) -> Attack:
        """GSB, Shooting: 2 dice, 6s hit; hits cost bases and morale as in melee, and a
        wounded elephant rampages (the shooter, within 1 UW, rolls too); made only in the
        unit's activation (:meth:`may_act`). Refused for a unit that disengaged this turn,
        for one that has already shot in its activation
        (:meth:`shot_timing_problem`) and, when both units stand on the table, for a target
        out of the arc, out of range or out of sight (:meth:`shot_problem`)."""
        self._not_disengaged(sit.attacker, "shoot")
        timing = self.shot_timing_problem(sit.attacker)
        if timing is not None:
            raise ValueError(timing)
        if sit.view is not None:
            problem = self.shot_problem(sit.view, sit.attacker, sit.defender)
            if problem is not None:
                raise ValueError(problem)
        fighting = sit.flag("target_fighting_elephants")
        return self._attack(sit, self.shoot_strike(sit), False, fighting)

    def wounds(
        self, body: Body, taken: int, fighting: bool, general: bool, test: bool, name: str
    ) -> Wounds:
        r = self.loss
        return Wounds(
            r.morale_die,
            f"morale for {name} (a base lost)",
            rules=r,
            body=body,
            taken=taken,
            fighting=fighting,
            general=general,
            test=test,
            who=name,
        )

    def rampage(
        self, body: Body, hits: int, fighting: bool, general: bool, test: bool, name: str
    ) -> Rampage:
        r = self.loss
        return Rampage(
            r.rampage_die,
            f"elephant rampage on {name}",
            rules=r,
            body=body,
            elephant_hits=hits,
            fighting=fighting,
            general=general,
            test=test,
            who=name,
        )

    def play_attack(self, sit: Situation, plan: Attack, th: Throws) -> Resolution:
        """GSB, Melee / Shooting: the attacker's dice; the target takes the hits (at most
        its remaining hit points), loses bases and rolls morale, and its general tests for
        death; an elephant hit rampages on every unit within 1 UW, the attacker first. Units
        near the elephant other than these two change no :class:`Outcome`, so their dice are
        thrown only when rolling for real."""
        att, dfn = sit.attacker, sit.defender
        ab, db = self.body(att), self.body(dfn)
        s = plan.strike
        verb = "attacks" if plan.melee else "shoots at"
        lines = [
            f"{att.name} {verb} {dfn.name}: {s.dice} dice ({s.why}), hitting on {s.need}+"
            + (f", {s.terror}s score and roll again" if s.terror is not None else "")
        ]
        if s.dice > 0:
            taken, shown = th.throw(s.hits(db.remaining, f"{att.name} {verb} {dfn.name}"))
        else:
            taken, shown = 0, "no dice: 0 hit(s)"
        lines.append(shown)
        wounds = self.wounds(db, taken, plan.fighting, plan.defender_general, plan.test, dfn.name)
        dd, log = th.throw(wounds)
        lines += log.splitlines()
        hurt = [Hurt(dfn, db, dd)]
        ad = NO_DAMAGE
        if plan.elephant and taken:
            lines.append(
                f"the elephant is wounded: units within {self.t.elephants.rampage_radius:g} UW roll"
            )
            if plan.rampage_on_attacker:
                ramp = self.rampage(
                    ab, taken, plan.melee, plan.attacker_general, plan.test, att.name
                )
                ad, log = th.throw(ramp)
                lines += log.splitlines()
            for u in self.rampage_bystanders(sit, dfn) if th.rolling else ():
                ub = self.body(u)
                ramp = self.rampage(ub, taken, False, self.has_general(u, False), plan.test, u.name)
                ud, log = th.throw(ramp)
                lines += log.splitlines()
                hurt.append(Hurt(u, ub, ud))
        hurt.append(Hurt(att, ab, ad))
        outcome = self._outcome(ab, ad, db, dd, plan.melee)
        if outcome.attacker.move:
            lines.append(f"{att.name} {outcome.attacker.move}")
        others = tuple(
            UnitChange(h.unit.unit_id, effects_of(h.body, h.damage))
            for h in hurt[1:-1]
            if h.damage.taken
        )
        if not plan.melee:  # the shooter has shot in this activation
            others = (*others, UnitChange(att.unit_id, self.shot_record(att)))
        elif th.rolling and sit.view is not None and self._active_side(sit.view) is not None:
            # the melee of its activation, kept (one a turn; a second after destroying)
            again = FOUGHT in att.status.extra
            record = {FOUGHT_AGAIN: True} if again else {FOUGHT: dfn.unit_id}
            others = (*others, UnitChange(att.unit_id, Effects(extra=record)))
        sides, events, more = stars_and_fates(self.t, sit.view, hurt)
        if sit.view is not None and th.rolling:  # an open activation taken by this unit
            claim = self.claim_activation(sit.view, att)
            if claim.others:
                others = (*others, *claim.others)
                sides = _merged(sides, claim.sides)
                lines += claim.explanation
        return Resolution(
            outcome=outcome,
            others=others,
            sides=sides,
            leader_events=events,
            explanation=(*lines, *more),
        )

    def attack_odds(self, sit: Situation, plan: Attack) -> dict[Outcome, Fraction]:
        """The exact odds of :meth:`play_attack` from its structure: for each number of hits
        (every total of the target's remaining hit points or more is one, exactly), the
        target's :class:`Wounds` and, for an elephant hit, the :class:`Rampage` on the
        attacker (:func:`rampage_table`), which given the hits are independent. Added up in
        whole numbers over one denominator (Issue 14: big units answer in milliseconds)."""
        att, dfn = sit.attacker, sit.defender
        ab, db = self.body(att), self.body(dfn)
        s = plan.strike
        hits = exact_of(s.hits(db.remaining)) if s.dice > 0 else {0: Fraction(1)}
        rampage = plan.elephant and plan.rampage_on_attacker
        den_a, table = 1, [{NO_DAMAGE: 1}]  # no rampage: the attacker is never hurt
        if rampage:
            den_a, table = rampage_table(
                self.loss, ab, max(hits), plan.melee, plan.attacker_general, plan.test
            )
        steps = [
            (
                ph,
                exact_of(
                    self.wounds(db, taken, plan.fighting, plan.defender_general, plan.test, "")
                ),
                table[taken] if rampage else table[0],
            )
            for taken, ph in hits.items()
        ]
        den_h = math.lcm(*(ph.denominator for ph, _, _ in steps))
        den_d = math.lcm(*(p.denominator for _, d, _ in steps for p in d.values()))
        second = self._second_melee(plan.melee)
        attacker: dict[Damage, tuple[Effects, Effects, str]] = {}
        outcomes: list[tuple[Outcome, int]] = []
        for ph, wounds, on_attacker in steps:
            nh = ph.numerator * (den_h // ph.denominator)
            sides = []
            for ad, na in on_attacker.items():
                if ad not in attacker:  # the attacker's effects once per damage
                    a_eff = effects_of(ab, ad)
                    moved = replace(a_eff, move=second) if second and not ad.destroyed else a_eff
                    attacker[ad] = (a_eff, moved, self._rampage_label(ad))
                sides.append((*attacker[ad], na))
            for dd, pd in wounds.items():
                d_eff, label = effects_of(db, dd), f"target: {dd.describe()}"
                nd = nh * pd.numerator * (den_d // pd.denominator)
                for a_eff, moved, suffix, na in sides:
                    o = Outcome(moved if dd.destroyed else a_eff, d_eff, label + suffix)
                    outcomes.append((o, nd * na))
        den = den_h * den_d * den_a
        odds = {o: Fraction(n, den) for o, n in outcomes}
        if len(odds) < len(outcomes):  # two ways to one outcome: add them up
            summed: dict[Outcome, int] = {}
            for o, n in outcomes:
                summed[o] = summed.get(o, 0) + n
            odds = {o: Fraction(n, den) for o, n in summed.items()}
        return odds

    def _second_melee(self, melee: bool) -> str | None:
        """GSB, Melee: a unit that destroys its opponent may fight a second melee."""
        if melee and self.t.melee.second_melee_after_destroying:
            return "may use the rest of its move to fight a second melee"
        return None

    def _rampage_label(self, att: Damage) -> str:
        return f"; attacker (rampage): {att.describe()}" if att.taken else ""

    def _outcome(self, ab: Body, att: Damage, db: Body, dfn: Damage, melee: bool) -> Outcome:
        a_eff = effects_of(ab, att)
        second = self._second_melee(melee)
        if second and dfn.destroyed and not att.destroyed:
            a_eff = replace(a_eff, move=second)
        label = f"target: {dfn.describe()}{self._rampage_label(att)}"
        return Outcome(attacker=a_eff, defender=effects_of(db, dfn), result=label)


Updates = tuple[SideUpdate, SideUpdate]


def _merged(a: Updates, b: Updates) -> Updates:
    """Two resolutions' updates of the sides' records, the second's keys last."""
    out = [
        None if x is None and y is None else {**(x or {}), **(y or {})}
        for x, y in zip(a, b, strict=True)
    ]
    return (out[0], out[1])


#: how many points of a unit's front edge are tried for contact (besides the enemy's corners)
FRONT_SAMPLES = 9


def at_front(unit: Footprint, enemy: Footprint) -> bool:
    """Whether ``enemy`` touches ``unit``'s front edge somewhere other than at its two front
    corners (GSB, Melee: "Units fight to their front"): front to front, or an enemy's corner
    against the front; not an enemy touching only a corner of the front, as one flat against
    the unit's flank does."""
    fl, fr = unit.corners()[0], unit.corners()[1]
    ex, ey = fr[0] - fl[0], fr[1] - fl[1]
    length2 = ex * ex + ey * ey
    if length2 <= 0:
        return True
    theirs = enemy.corners()
    ts = [k / (FRONT_SAMPLES + 1) for k in range(1, FRONT_SAMPLES + 1)]
    for px, py in theirs:  # where the enemy's corners lie along the front
        ts.append(((px - fl[0]) * ex + (py - fl[1]) * ey) / length2)
    margin = 1e-6 / math.sqrt(length2)
    for t in ts:
        if not margin < t < 1 - margin:
            continue
        point = (fl[0] + ex * t, fl[1] + ey * t)
        if polygon_distance((point,), theirs) <= TOUCH:
            return True
    return False


def _point_to_polygon(p: Point, poly: Sequence[Point]) -> float:
    """Distance from ``p`` to the convex polygon ``poly`` (0 inside it)."""
    if point_in_polygon(p, poly):
        return 0.0
    return min(point_segment_distance(p, poly[i - 1], poly[i]) for i in range(len(poly)))
