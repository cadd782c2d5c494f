"""MWAN #90 Punic rules mechanics: the dice of missiles, pre-melee javelins, melee and
dispersal as plans (who rolls how many dice, needing what), their outcome, and the rolls.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import cache

from app.rules.actions import RUN_LIMIT, Throws, TooManyFaces
from app.rules.contact import not_in_contact
from app.rules.dice import product_fractions
from app.rules.mechanics import Combatant, Effects, Outcome, Resolution, Situation
from app.rules.schema import Category
from app.rules.values import CheckedOdds, paired_outcomes
from app.rulesets.mwan90.movement import MELEE_RULE
from app.rulesets.mwan90.rules import (
    AS_UNIT,
    ATTACKS,
    DISORDERED,
    MISSILE_FIGURES,
    MOVED,
    SKIRMISH,
    SUPPORTED,
    TRIPLED,
    WEDGE,
    Plan,
    describe,
    hit_weights,
    hits_throw,
    routed,
    split,
    with_,
)
from app.rulesets.mwan90.shooting import MWANShooting

#: each kind's result label from the attacker's (``a``) and the defender's (``d``) effects
_LABELS = {"shoot": "target {d}", "disperse": "formed unit {a}; skirmishers {d}"}
_LABEL_BOTH = "attacker {a}; defender {d}"


class MWANCombat(MWANShooting):
    """MWAN #90, Missiles and Melee: plans, outcomes, rolls and their aftermath."""

    # -- plans ----------------------------------------------------------------------------

    def plan(self, action: str, sit: Situation) -> Plan:
        if action == "shoot":
            return self.shoot_plan(sit)
        if action == "javelins":
            return self.javelin_plan(sit)
        if action == "disperse":
            return self.disperse_plan(sit)
        return self.melee_plan(sit)

    def _hits_need(self, cls: str) -> int:
        return self.t.hits.rows[cls].hit_on

    def shoot_plan(self, sit: Situation) -> Plan:
        """MWAN #90, Missiles: one die per figure with a clear shot (on the table, counted
        from the positions: :meth:`clear_shooters`; without them, all the figures the unit
        had when the missile phase began; the player's count, when given, instead), hitting
        on 6 whatever
        the target; bows and slings reach 15", javelins 9". Against cavalry supported by
        medium infantry the dice are shared out, the larger half at the cavalry. Units in
        melee cannot be shot at (checked when the footprints are known); on the table the
        target must be in range, in the arc and in sight (:meth:`check_shot`)."""
        m = self.t.missiles
        att, dfn = sit.attacker, sit.defender
        found = self.weapon_of(att)
        if found is None:
            raise ValueError(f"{att.name} ({self.mw_troop(att.troop).name}) have no missiles")
        if m.no_shooting_at_units_in_melee and sit.view and self._in_contact(dfn, sit.view):
            raise ValueError(f"{dfn.name} is in melee: units in melee cannot be shot at")
        weapon, reach = found
        self.check_shot(sit, weapon, reach)
        figures = int(att.status.extra.get(MISSILE_FIGURES, att.status.strength))
        chosen = sit.number("shooters", 0)
        counted = None if chosen else self.clear_shooters(sit, reach, figures)
        shooters = min(chosen or (counted[0] if counted else figures), figures)
        dice = shooters * m.dice_per_figure
        why = [f'{shooters} figure(s) shooting, {weapon} ({reach:g}" range)']
        if chosen:
            why.append("figures with a clear shot: the player's count")
        elif counted is not None and counted[1] < counted[2]:
            why.append(
                f"{counted[1]} of {counted[2]} stretches of the shooting edge have a clear "
                "shot in range (errata clear-shot-figures)"
            )
        dice, more = split(dice, sit.choice("split", "none"), "cavalry", "support")
        why += more
        form_d = self.formation(dfn)
        return Plan(
            kind="shoot",
            dice_a=dice,
            need_a=m.hit_on,
            die=m.die,
            cap_d=self.hit_cap(dfn, form_d),
            form_d=form_d,
            form_a=self.formation(att),
            why=(f"{att.name} shoots at {dfn.name}: {dice} dice hitting on {m.hit_on}+", *why),
        )

    def _javelin_dice(self, sit: Situation, unit: Combatant, prefix: str) -> int:
        """MWAN #90, Missiles and Melee 2: only the first rank of javelin-armed formed
        infantry throws, just before the first round of a melee."""
        troop = self.mw_troop(unit.troop)
        if not troop.pre_melee_javelins or not self.formed(unit):
            return 0
        pj = self.t.missiles.pre_melee_javelins
        front = self._front(sit, unit, prefix, troop.ranks)
        return min(unit.status.strength, front * pj.ranks) * pj.dice_per_figure

    def javelin_plan(self, sit: Situation) -> Plan:
        """MWAN #90, Melee 2: pre-melee javelins, both sides at once, hitting on 6 (our
        reading: the missile score); on the table only between units in contact."""
        m = self.t.missiles
        att, dfn = sit.attacker, sit.defender
        self.check_javelins(sit)
        fa, fd = self.formation(att), self.formation(dfn)
        da, dd = self._javelin_dice(sit, att, "a"), self._javelin_dice(sit, dfn, "d")
        return Plan(
            kind="javelins",
            dice_a=da,
            need_a=m.hit_on,
            dice_d=dd,
            need_d=m.hit_on,
            die=m.die,
            cap_a=self.hit_cap(att, fa),
            cap_d=self.hit_cap(dfn, fd),
            form_a=fa,
            form_d=fd,
            why=(f"pre-melee javelins: {att.name} {da} dice, {dfn.name} {dd} dice, 6s hit",),
        )

    def disperse_plan(self, sit: Situation) -> Plan:
        """MWAN #90, Melee 1: formed troops that reach skirmishers move on through them; each
        skirmisher passed gets one shot (6s hit) and is removed."""
        d = self.t.dispersal
        att, dfn = sit.attacker, sit.defender
        fa, fd = self.formation(att), self.formation(dfn)
        if fa == SKIRMISH or fd != SKIRMISH:
            raise ValueError("only formed troops disperse, and only skirmishers are dispersed")
        n = min(sit.number("skirmishers", 0) or dfn.status.strength, dfn.status.strength)
        return Plan(
            kind="disperse",
            dice_d=n * d.shots_per_skirmisher,
            need_d=d.hit_on,
            die=self.t.missiles.die,
            cap_a=self.hit_cap(att, fa),
            form_a=fa,
            form_d=fd,
            dispersed=n if d.skirmishers_removed else 0,
            why=(f"{att.name} moves through {n} of {dfn.name}: one shot each, then removed",),
        )

    def _front(self, sit: Situation, unit: Combatant, prefix: str, ranks: int) -> int:
        """Figures of the front rank in contact (option; 0 = the whole front rank)."""
        return sit.number(f"{prefix}_front", 0) or math.ceil(unit.status.strength / ranks)

    def _figure_dice(
        self, sit: Situation, unit: Combatant, form: str, prefix: str, opp_form: str
    ) -> tuple[int, str]:
        """MWAN #90, Melee 2 and 4: formed troops count the figures in contact to their front
        in two ranks (Greek heavy infantry three), plus the two ranks of supporting medium
        infantry and one figure per flank overlapping the enemy; a wedge counts all its
        figures and its supporter's and has no flanks; skirmishers count only figures
        touching enemy skirmishers; elephants roll 6 dice each."""
        t = self.t
        troop = self.mw_troop(unit.troop)
        s = unit.status.strength
        if form == SKIRMISH:
            if opp_form != SKIRMISH:
                return 0, f"{unit.name}: skirmishers fight only enemy skirmishers"
            figures = min(s, sit.number(f"{prefix}_front", 0) or s)
            why = f"{figures} skirmisher(s) in contact"
        elif form == WEDGE:
            extra = sit.number(f"{prefix}_wedge_support", 0)
            extra = extra if t.formations.wedge.counts_supporter_figures else 0
            figures = s + extra
            why = f"wedge: {s} figures + {extra} of its supporter"
        else:
            front = self._front(sit, unit, prefix, troop.ranks)
            figures = min(s, front * troop.ranks)
            why = (
                f"{figures} in contact"
                if troop.ranks == 1
                else f"{figures} figures ({front} in front, {troop.ranks} ranks)"
            )
            overlaps = sit.number(f"{prefix}_overlaps", 0)
            if opp_form == WEDGE and t.formations.wedge.no_flanks:
                overlaps = 0
            if overlaps:
                figures += overlaps * t.melee.overlap_figures_per_flank
                why += f", +{overlaps * t.melee.overlap_figures_per_flank} overlapping"
            support = sit.number(f"{prefix}_support", 0)
            if support:
                figures += support * t.melee.support_mi_ranks
                why += f", +{support * t.melee.support_mi_ranks} supporting medium infantry"
        dice = figures * troop.dice_per_figure * t.melee.dice_per_figure
        if troop.dice_per_figure != 1:
            why += f" x {troop.dice_per_figure} dice each"
        return dice, f"{unit.name}: {dice} dice ({why})"

    def melee_plan(self, sit: Situation) -> Plan:
        """MWAN #90, Melee 3-5: both sides roll at once. On a flank or rear attack the
        attacked unit is disordered and, if heavy, the attacker's dice against it are tripled
        (errata flank-rear-triple; the option ``flank_tripled = attacked`` triples the heavy
        unit's own dice instead, the text as written). Elephants attacking cavalry disorder
        it. Hits by the target's class: heavy (elephants, an immobile shield wall) 6, light or
        medium 5-6, skirmish 4-6. Against cavalry supported by medium infantry the dice are
        shared out. Refused when both units stand on the table and their bases do not
        touch (a melee is between units in contact, Movement 1)."""
        t = self.t
        att, dfn = sit.attacker, sit.defender
        apart = not_in_contact(MELEE_RULE, att, dfn)
        if apart is not None:
            raise ValueError(apart)
        fa = self.formation(att, sit.choice("a_formation", AS_UNIT))
        fd = self.formation(dfn, sit.choice("d_formation", AS_UNIT))
        if (fa == SKIRMISH) != (fd == SKIRMISH):
            raise ValueError(
                "skirmishers may not close with formed troops, and formed troops that reach "
                "skirmishers disperse them: use the disperse action"
            )
        moved_a = sit.flag("a_moved") or att.status.has(MOVED)
        moved_d = sit.flag("d_moved") or dfn.status.has(MOVED)
        cls_a, cls_d = self.hit_class(att, fa, moved_a), self.hit_class(dfn, fd, moved_d)
        da, why_a = self._figure_dice(sit, att, fa, "a", fd)
        dd, why_d = self._figure_dice(sit, dfn, fd, "d", fa)
        attack = sit.choice("attack", "front")
        if attack not in ATTACKS:
            raise ValueError(f"attack must be one of {', '.join(ATTACKS)}")
        flanked = attack != "front" and not (fd == WEDGE and t.formations.wedge.no_flanks)
        fr = t.melee.flank_rear
        why = [why_a, why_d]
        if attack != "front" and not flanked:
            why.append(f"{dfn.name} is a wedge and has no flanks")
        tripled = sit.choice("flank_tripled", fr.multiplied_side)
        if tripled not in TRIPLED:
            raise ValueError(f"flank_tripled must be one of {', '.join(TRIPLED)}")
        if flanked and cls_d in fr.only_if_attacked:
            head = f"{dfn.name} ({cls_d}) is attacked in the {attack}"
            if tripled == "attacked":
                dd *= fr.multiplier
                why.append(f"{head}: its own dice x{fr.multiplier} = {dd} (the text as written)")
            else:
                da *= fr.multiplier
                why.append(f"{head}: {att.name}'s dice x{fr.multiplier} = {da}")
        supported = sit.choice("supported_cavalry", "none")
        if supported not in SUPPORTED:
            raise ValueError(f"supported_cavalry must be one of {', '.join(SUPPORTED)}")
        if supported != "none":
            cav = att if supported == "attacker" else dfn
            if not self.mw_troop(cav.troop).category.mounted:
                raise ValueError(f"{cav.name} is not cavalry")
            if supported == "defender":
                da, more = split(da, "cavalry", "cavalry", "support")
            else:
                dd, more = split(dd, "cavalry", "cavalry", "support")
            why += more
        disorder = flanked and fr.attacked_disordered
        if self.mw_troop(att.troop).disorders_cavalry and self.mw_troop(dfn.troop).category.mounted:
            disorder = True
            why.append(f"{dfn.name} are cavalry attacked by elephants: disordered")
        need_a, need_d = self._hits_need(cls_d), self._hits_need(cls_a)
        why.append(f"{att.name} hit on {need_a}+ ({cls_d}), {dfn.name} on {need_d}+ ({cls_a})")
        if dfn.status.has(DISORDERED) and t.melee.disordered_attacked_tests_as_routed_into:
            why.append(
                f"{dfn.name} was already disordered: it checks morale as if routed into "
                "(the morale_check action)"
            )
        die = t.melee.die
        return Plan(
            kind="melee",
            dice_a=da,
            need_a=need_a,
            dice_d=dd,
            need_d=need_d,
            die=die,
            cap_a=self.hit_cap(att, fa),
            cap_d=self.hit_cap(dfn, fd),
            form_a=fa,
            form_d=fd,
            disorder_d=disorder,
            why=(f"{att.name} attacks {dfn.name} ({attack})", *why),
        )

    # -- outcomes -------------------------------------------------------------------------

    def outcome(self, plan: Plan, sit: Situation, on_a: int, on_d: int) -> Outcome:
        """The effects of ``on_a`` hits on the attacker and ``on_d`` on the defender."""
        ea = self.losses(sit.attacker, plan.form_a, on_a)
        return self.outcome_of(plan, ea, self.defender_effects(plan, sit, on_d))

    def defender_effects(self, plan: Plan, sit: Situation, on_d: int) -> Effects:
        """The defender's losses, its disorder (flank or rear, or cavalry attacked by
        elephants), or, for skirmishers passed through, their removal."""
        if plan.dispersed:
            gone = plan.dispersed >= sit.defender.status.strength
            return Effects(casualties=plan.dispersed, eliminated=gone)
        ed = self.losses(sit.defender, plan.form_d, on_d)
        if plan.disorder_d and not ed.eliminated:
            ed = with_(ed, markers_add=ed.markers_add | {DISORDERED})
        return ed

    def outcome_of(
        self, plan: Plan, ea: Effects, ed: Effects, words: Callable[[Effects], str] = describe
    ) -> Outcome:
        """The outcome from each side's effects, with the bonus move of :meth:`_bonus_to`.
        ``words`` describes an effect."""
        to_a, to_d = self._bonus_to(plan, ea.eliminated, ed.eliminated)
        if to_a:
            ea = self._with_bonus_move(ea)
        if to_d:
            ed = self._with_bonus_move(ed)
        label = _LABELS.get(plan.kind, _LABEL_BOTH).format(a=words(ea), d=words(ed))
        return Outcome(ea, ed, label)

    @staticmethod
    def _bonus_to(plan: Plan, attacker_gone: bool, defender_gone: bool) -> tuple[bool, bool]:
        """MWAN #90, Melee 6: a unit that routs its opponent (or destroys it) gets a 4" bonus
        move, and may use it to start another melee. Whether the attacker, and whether the
        defender, gets it, from whether each is gone (routed and removed, or destroyed)."""
        if plan.kind != "melee" or attacker_gone == defender_gone:
            return False, False
        return defender_gone, attacker_gone

    def _with_bonus_move(self, e: Effects, text: str | None = None) -> Effects:
        """``e`` with the bonus move (``text``, when given, is :meth:`_bonus_move`'s)."""
        return with_(e, move=text or self._bonus_move())

    def _bonus_move(self) -> str:
        bonus = self.t.melee.post_melee_bonus_move
        return f'bonus move {bonus:g}"' + (
            " (may start another melee)" if self.t.melee.bonus_move_may_charge else ""
        )

    def play_hits(self, sit: Situation, plan: Plan, th: Throws) -> Resolution:
        """Throw the plan's dice: the attacker's first, then the defender's (each one roll,
        when it has any), and apply the hits, capped where more change nothing."""
        att, dfn = sit.attacker, sit.defender
        lines = list(plan.why)
        on_d = on_a = 0
        if plan.dice_a:
            purpose = f"{att.name} {plan.kind}"
            throw = hits_throw(plan.die, plan.dice_a, plan.need_a, plan.cap_d, purpose)
            on_d, words = th.throw(throw)
            lines.append(f"{att.name}: {words}")
        if plan.dice_d:
            purpose = f"{dfn.name} {plan.kind}"
            throw = hits_throw(plan.die, plan.dice_d, plan.need_d, plan.cap_a, purpose)
            on_a, words = th.throw(throw)
            lines.append(f"{dfn.name}: {words}")
        outcome = self.outcome(plan, sit, on_a, on_d)
        if th.rolling:
            for unit, eff in ((att, outcome.attacker), (dfn, outcome.defender)):
                lines += self._aftermath(sit, unit, eff)
        return Resolution(outcome=outcome, explanation=tuple(lines))

    def hits_odds(self, sit: Situation, plan: Plan) -> dict[Outcome, Fraction]:
        """The closed form of :meth:`play_hits`'s odds, for throws too large to explore
        quickly (melee and javelins at four times the list sizes): each side's hits are its
        capped binomial (:func:`hit_weights`, in whole numbers), both sides' throws are
        independent, and every pair of effects gives the outcome ``play_hits`` gives.
        Tests hold it equal to exploring ``play_hits``."""
        att, dfn = sit.attacker, sit.defender
        on_d, den_d = self._weights(plan.dice_a, plan.need_a, plan.cap_d, plan)
        on_a, den_a = self._weights(plan.dice_d, plan.need_d, plan.cap_a, plan)
        # equal effects (hits past a rout) are added up before they are paired
        eff_d: dict[Effects, int] = {}
        for h, w in on_d.items():
            e = self.defender_effects(plan, sit, h)
            eff_d[e] = eff_d.get(e, 0) + w
        eff_a: dict[Effects, int] = {}
        for h, w in on_a.items():
            e = self.losses(att, plan.form_a, h)
            eff_a[e] = eff_a.get(e, 0) + w
        # the odds' total, checked here in whole numbers (CheckedOdds): each side's weights
        # sum to its denominator, every pair is there and its chance is the product
        for side, den in ((eff_d, den_d), (eff_a, den_a)):
            if sum(side.values()) != den or min(side.values()) <= 0:
                raise ArithmeticError(f"{plan.kind}: one side's chances do not sum to 1")
        pairs = len(eff_a) * len(eff_d)
        if pairs > RUN_LIMIT:
            raise TooManyFaces(
                f"{att.name} against {dfn.name}: {pairs:,} outcomes are too many to count exactly"
            )
        # as outcome_of gives them, each effect shown (with the bonus move or without it),
        # its words and hash found once, not once per pair
        label = _LABELS.get(plan.kind, _LABEL_BOTH)
        before, after = label.split("{d}")  # the attacker's words go in these pieces

        move = self._bonus_move()

        @cache
        def shown(e: Effects, bonus: bool) -> tuple[Effects, str, int]:
            e = self._with_bonus_move(e, move) if bonus else e
            return e, describe(e), hash(e)

        @cache
        def columns(defender_gone: bool) -> tuple[list[tuple[Effects, str, str, int]], list[int]]:
            """Each attacker's effects against a defender gone or not: as shown, the
            label's pieces around the defender's words and its hash; and the columns where
            the defender gets the bonus move."""
            out, moved = [], []
            for j, ea in enumerate(eff_a):
                to_a, to_d = self._bonus_to(plan, ea.eliminated, defender_gone)
                e, wa, ha = shown(ea, to_a)
                out.append((e, before.format(a=wa), after.format(a=wa), ha))
                if to_d:
                    moved.append(j)
            return out, moved

        chances = product_fractions(list(eff_d.values()), den_d, list(eff_a.values()), den_a)
        odds = CheckedOdds()
        for ed, row in zip(eff_d, chances, strict=True):
            cols, moved = columns(ed.eliminated)
            _, wd, hd = shown(ed, False)
            outcomes = paired_outcomes(cols, ed, wd, hd)
            for j in moved:  # the attacker gone and the defender not: a few
                em, wm, hm = shown(ed, True)
                outcomes[j] = paired_outcomes(cols[j : j + 1], em, wm, hm)[0]
            odds.update(zip(outcomes, row, strict=True))
        if len(odds) == pairs:  # each pair of effects its own outcome
            return odds
        return self._merged(plan, eff_a, den_a, eff_d, den_d)

    def _merged(
        self,
        plan: Plan,
        eff_a: dict[Effects, int],
        den_a: int,
        eff_d: dict[Effects, int],
        den_d: int,
    ) -> dict[Outcome, Fraction]:
        """The odds when two pairs of effects give one outcome: the whole-number weights
        added up first."""
        merged: dict[Outcome, int] = {}
        for ed, wd in eff_d.items():
            for ea, wa in eff_a.items():
                o = self.outcome_of(plan, ea, ed)
                merged[o] = merged.get(o, 0) + wd * wa
        den = den_a * den_d
        return {o: Fraction(w, den) for o, w in merged.items()}

    def _weights(self, dice: int, need: int, cap: int, plan: Plan) -> tuple[dict[int, int], int]:
        """The hits of one side's throw as whole-number weights (no dice: none, surely)."""
        if not dice:
            return {0: 1}, 1
        return hit_weights(hits_throw(plan.die, dice, need, cap, ""))

    def _aftermath(self, sit: Situation, unit: Combatant, eff: Effects) -> list[str]:
        """MWAN #90, Morale 2-3: a routed unit is removed; friendly formed units within 6" of
        its rout path (away from the victor, towards the table edge) must check morale,
        subtracting 3 if the routers are elephants."""
        lines: list[str] = []
        if eff.move:
            lines.append(f"{unit.name}: {eff.move}")
        if not routed(eff):
            return lines
        m = self.t.morale
        lines.append(f"{unit.name} routs and is removed; its rout path runs {m.rout_path}")
        near = []
        if sit.view is not None:
            near = [
                u.name
                for u in sit.view.units
                if u.side == unit.side
                and u.unit_id != unit.unit_id
                and not u.status.eliminated
                and self.formed(u)
                and math.hypot(u.x - unit.x, u.y - unit.y) <= m.check_within
            ]
        elephants = self.mw_troop(unit.troop).category is Category.ELEPHANT
        lines.append(
            f'friendly formed units within {m.check_within:g}" of the rout path check morale'
            + (f" ({m.routing_elephants_modifier:+d} for routing elephants)" if elephants else "")
            + (f"; near it now: {', '.join(near)}" if near else "")
        )
        return lines
