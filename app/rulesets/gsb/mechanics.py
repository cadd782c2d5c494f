"""Grown Slightly Bald (five minute Punic War rules, blog post): battle mechanics.

A base-counting game. ``Status.strength`` counts bases; ``Status.hits`` the hits on the
current base. The active player activates units one at a time (two free, then a rising d10
read 0-9); in melee only the active unit rolls, so there is no return fire. Every number comes
from ``tables.toml`` (:mod:`app.rulesets.gsb.schema`); the procedures that need dice twice (once
rolled, once as exact odds) live in :mod:`app.rulesets.gsb.rules`.

Side records (``TurnView.sides``): ``stars`` (victory stars won), ``units_at_start``,
``activations`` (successful activations this turn) and ``passed`` (a failed activation roll
handed play over). Unit markers: ``activated`` (acted this turn) and ``general_moved`` (the
general joined this unit this turn, so gives no bonus); both are cleared when a turn begins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import ClassVar

from app.rules.geometry import unit_distance
from app.rules.mechanics import (
    ActionSpec,
    Combatant,
    Dice,
    Odds,
    Outcome,
    Resolution,
    Side,
    Situation,
    TurnView,
    UnitChange,
    Victory,
    add_odds,
    normalise,
)
from app.rulesets.gsb.base import BOTH, GENERAL_MOVED, other_side
from app.rulesets.gsb.rules import (
    ATTACKS,
    NO_DAMAGE,
    OPEN,
    Body,
    Damage,
    Hurt,
    Strike,
    action_specs,
    damage_odds,
    effects_of,
    rampage_odds,
    roll_rampage,
    stars_and_fates,
    take_damage,
)
from app.rulesets.gsb.turn import TurnRules


class GSBMechanics(TurnRules):
    """Grown Slightly Bald: initiative, activation ladder, shooting, melee with elephant
    terror and rampage, base loss with morale, the general's death test, victory stars."""

    engine: ClassVar[str] = "gsb"
    strength_unit: ClassVar[str] = "bases"

    # -- actions --------------------------------------------------------------------------

    def actions(self) -> Sequence[ActionSpec]:
        """Activate (a side), shoot and melee (a pair), with their options."""
        return action_specs(self.t)

    def resolve(self, action: str, sit: Situation, dice: Dice) -> Resolution:
        self.action(action)
        if action == "activate":
            return self._activate(sit, dice)
        if action == "shoot":
            return self._shoot(sit, dice)
        return self._melee(sit, dice)

    def odds(self, action: str, sit: Situation) -> Odds:
        self.action(action)
        if action == "activate":
            return self._activate_odds(sit)
        if action == "shoot":
            return self._shoot_odds(sit)
        return self._melee_odds(sit)

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
        +1 die for the general (both after the cap). Hits on the target's number; the
        optional rule lets heavy cavalry hit heavy infantry on 5s from flank or rear.
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
                and att.troop == rule.attacker
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

    # -- melee and shooting ---------------------------------------------------------------

    def _actor_in_rampage(self, melee: bool) -> bool:
        """The unit that wounded the elephant is within the radius: in contact in melee;
        a shooter is, since shooting range (1 UW) is no longer than the radius."""
        return melee or self.t.shooting.range <= self.t.elephants.rampage_radius

    def _label(self, att: Damage, dfn: Damage) -> str:
        text = f"target: {dfn.describe()}"
        if att.taken:
            text += f"; attacker (rampage): {att.describe()}"
        return text

    def _outcome(self, ab: Body, att: Damage, db: Body, dfn: Damage, melee: bool) -> Outcome:
        a_eff = effects_of(ab, att)
        if (
            melee
            and dfn.destroyed
            and not att.destroyed
            and self.t.melee.second_melee_after_destroying
        ):
            a_eff = replace(a_eff, move="may use the rest of its move to fight a second melee")
        return Outcome(attacker=a_eff, defender=effects_of(db, dfn), result=self._label(att, dfn))

    def _odds(self, sit: Situation, strike: Strike, melee: bool, fighting: bool) -> Odds:
        att, dfn = sit.attacker, sit.defender
        ab, db = self.body(att), self.body(dfn)
        r = self.loss
        test = self.death_test_applies(melee)
        d_gen = self.has_general(dfn, sit.flag("defender_general"))
        a_gen = self.has_general(att, sit.flag("attacker_general"))
        rampage = self.is_elephant(dfn) and self._actor_in_rampage(melee)
        odds: Odds = {}
        for hits, ph in strike.odds(db.remaining).items():
            hurt_att: tuple[tuple[Damage, Fraction], ...] = ((NO_DAMAGE, Fraction(1)),)
            if rampage and hits:
                hurt_att = rampage_odds(r, ab, hits, melee, a_gen, test)
            for dd, pd in damage_odds(r, db, hits, fighting, d_gen, test):
                for ad, pa in hurt_att:
                    add_odds(odds, self._outcome(ab, ad, db, dd, melee), ph * pd * pa)
        return normalise(odds)

    def _resolve(
        self, sit: Situation, strike: Strike, melee: bool, fighting: bool, dice: Dice
    ) -> Resolution:
        att, dfn = sit.attacker, sit.defender
        ab, db = self.body(att), self.body(dfn)
        r = self.loss
        test = self.death_test_applies(melee)
        d_gen = self.has_general(dfn, sit.flag("defender_general"))
        a_gen = self.has_general(att, sit.flag("attacker_general"))
        verb = "attacks" if melee else "shoots at"
        lines = [
            f"{att.name} {verb} {dfn.name}: {strike.dice} dice ({strike.why}), "
            f"hitting on {strike.need}+"
            + (f", {strike.terror}s score and roll again" if strike.terror is not None else "")
        ]
        scored, shown = strike.roll(dice, f"{att.name} {verb} {dfn.name}")
        taken = min(scored, db.remaining)
        lines.append(f"{shown}: {scored} hit(s)" + (f", {taken} count" if taken != scored else ""))
        dd, log = take_damage(r, db, taken, fighting, d_gen, test, dice, dfn.name)
        lines += log
        hurt = [Hurt(dfn, db, dd)]
        ad = NO_DAMAGE
        if self.is_elephant(dfn) and taken:
            lines.append(
                f"the elephant is wounded: units within {self.t.elephants.rampage_radius:g} UW roll"
            )
            if self._actor_in_rampage(melee):
                ad, log = roll_rampage(r, ab, taken, melee, a_gen, test, dice, att.name)
                lines += log
            for u in self.rampage_bystanders(sit, dfn):
                ub = self.body(u)
                ud, log = roll_rampage(
                    r, ub, taken, False, self.has_general(u, False), test, dice, u.name
                )
                lines += log
                hurt.append(Hurt(u, ub, ud))
        hurt.append(Hurt(att, ab, ad))
        outcome = self._outcome(ab, ad, db, dd, melee)
        if outcome.attacker.move:
            lines.append(f"{att.name} {outcome.attacker.move}")
        others = tuple(
            UnitChange(h.unit.unit_id, effects_of(h.body, h.damage))
            for h in hurt[1:-1]
            if h.damage.taken
        )
        sides, events, more = stars_and_fates(self.t, sit.view, hurt)
        return Resolution(
            outcome=outcome,
            others=others,
            sides=sides,
            leader_events=events,
            explanation=(*lines, *more),
        )

    def _melee_fighting(self, sit: Situation) -> bool:
        """The target fights an elephant: its morale loses a base on 4-6."""
        return self.is_elephant(sit.attacker)

    def _melee(self, sit: Situation, dice: Dice) -> Resolution:
        """GSB, Melee: the active unit rolls; the target takes the hits, loses bases and
        rolls morale; an elephant hit rampages."""
        strike = self.melee_strike(sit)
        return self._resolve(sit, strike, True, self._melee_fighting(sit), dice)

    def _melee_odds(self, sit: Situation) -> Odds:
        """Exact odds of a melee. Elephant terror makes the hits unbounded; every total of
        the target's remaining hit points or more is one outcome (exact, see
        :func:`hits_dist`)."""
        strike = self.melee_strike(sit)
        return self._odds(sit, strike, True, self._melee_fighting(sit))

    def _shoot(self, sit: Situation, dice: Dice) -> Resolution:
        """GSB, Shooting: 2 dice, 6s hit; hits cost bases and morale as in melee, and a
        wounded elephant rampages (the shooter, within 1 UW, rolls too)."""
        strike = self.shoot_strike(sit)
        fighting = sit.flag("target_fighting_elephants")
        return self._resolve(sit, strike, False, fighting, dice)

    def _shoot_odds(self, sit: Situation) -> Odds:
        """Exact odds of :meth:`_shoot`."""
        strike = self.shoot_strike(sit)
        fighting = sit.flag("target_fighting_elephants")
        return self._odds(sit, strike, False, fighting)

    # -- the end --------------------------------------------------------------------------

    def victory(self, view: TurnView) -> Victory | None:
        """GSB, Victory: stars equal to half the enemy's units at the start (rounded up)
        win. If both sides reach it at once, more stars win; equal stars are a draw."""
        reached: list[tuple[Side, int, int]] = []
        for side in BOTH:
            need = self._stars_needed(view, side)
            stars = int(view.sides[side].get("stars", 0))
            if need and stars >= need:
                reached.append((side, stars, need))
        if not reached:
            return None
        if len(reached) == 2 and reached[0][1] == reached[1][1]:
            return Victory(
                None, f"both sides reached their victory stars ({reached[0][1]}): a draw"
            )
        side, stars, need = max(reached, key=lambda x: x[1])
        enemy = view.side_names[other_side(side)]
        return Victory(
            side,
            f"{view.side_names[side]} has {stars} victory stars, at least half of "
            f"{enemy}'s units ({need} needed)",
        )
