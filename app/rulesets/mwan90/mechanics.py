"""MWAN #90 Punic rules (untitled magazine article, 1997): battle mechanics.

A figure-counting game: one die per figure, hits by the target's class, formed units routing
at three figures (elephant units at one). ``Status.strength`` counts figures (elephants for an
elephant unit); ``Status.formation`` is ``formed``, ``skirmish`` (unformed), or for barbarians
``shield_wall`` or ``wedge``. Markers: ``disordered``, ``routed``, ``moved`` (a shield wall
that moved this turn is no longer heavy).

Every number comes from ``tables.toml`` (:mod:`app.rulesets.mwan90.schema`). The article breaks
off in its morale section: the ``morale_check`` action raises :class:`NotImplementedRule`
saying so, unless a user has supplied the rows in a house-rules copy (``complete = true``).

Side records: ``lost_initiative`` (for the tie rule) and ``initiative_roll``. During the
missile phase each unit's ``extra["missile_figures"]`` holds its figures at the start of the
phase, so that missiles are simultaneous: a unit shoots with the figures it began with.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import ClassVar

from app.rules.dice import dist_of, parse_dice
from app.rules.mechanics import (
    ActionSpec,
    Combatant,
    Dice,
    Effects,
    Mechanics,
    NotImplementedRule,
    Odds,
    Outcome,
    Resolution,
    Side,
    Situation,
    Status,
    TurnView,
    UnitChange,
    add_odds,
    normalise,
)
from app.rules.schema import Category
from app.rulesets.gsb.rules import footprint_distance
from app.rulesets.mwan90.rules import (
    AS_UNIT,
    ATTACKS,
    BOTH,
    CONTACT,
    DISORDERED,
    FORMATIONS,
    FORMED,
    MISSILE_FIGURES,
    MOVED,
    ROUTED,
    SHIELD_WALL,
    SKIRMISH,
    SUPPORTED,
    UNFORMED,
    WEDGE,
    Plan,
    action_specs,
    capped_binomial,
    chance,
    describe,
    morale_missing,
    morale_outcome,
    morale_rows,
    roll_hits,
    routed,
    row_for,
    split,
    with_,
)
from app.rulesets.mwan90.schema import MoraleRow, Tables, Troop, rout_threshold, tables


class MWAN90Mechanics(Mechanics):
    """MWAN #90: initiative with its tie rule, simultaneous missiles, pre-melee javelins,
    melee by figures in contact with flank tripling, rout at 3 figures, bonus move,
    barbarian shield wall and wedge, dispersal of skirmishers, and the truncated morale
    table."""

    engine: ClassVar[str] = "mwan90"
    strength_unit: ClassVar[str] = "figures"

    # -- data -----------------------------------------------------------------------------

    @property
    def t(self) -> Tables:
        return tables(self.ruleset)

    def mw_troop(self, troop: str) -> Troop:
        tr = self.ruleset.troop(troop)
        if not isinstance(tr, Troop):
            raise TypeError(f"{troop!r} is not an MWAN #90 troop type")
        return tr

    def formation(self, unit: Combatant, option: str = AS_UNIT) -> str:
        """The unit's formation: the option when set, else its Status, else by its type."""
        troop = self.mw_troop(unit.troop)
        form = option if option != AS_UNIT else unit.status.formation
        if form is None:
            form = SKIRMISH if troop.formed == "never" else FORMED
        if form not in FORMATIONS:
            raise ValueError(f"formation must be one of {', '.join(FORMATIONS)}")
        if form == SKIRMISH and troop.formed == "always":
            raise ValueError(f"{troop.name} are always formed")
        if form != SKIRMISH and troop.formed == "never":
            raise ValueError(f"{troop.name} are never formed")
        if form in (SHIELD_WALL, WEDGE) and not troop.barbarian:
            raise ValueError(f"only barbarians form a {form.replace('_', ' ')}")
        return form

    def formed(self, unit: Combatant, option: str = AS_UNIT) -> bool:
        """MWAN #90, Movement 2: skirmish infantry are never formed; medium infantry and light
        cavalry acting as skirmishers are unformed too."""
        return self.formation(unit, option) != SKIRMISH

    def hit_class(self, unit: Combatant, form: str, moved: bool) -> str:
        """MWAN #90, Melee 5 and 7: the target's class; an immobile shield wall is heavy."""
        if form == SHIELD_WALL and not moved:
            return self.t.formations.shield_wall.while_immobile_counts_as
        return self.mw_troop(unit.troop).hit_class

    def rout_at(self, unit: Combatant, form: str) -> int | None:
        """MWAN #90, Morale 1-2: formed units rout at 3 figures (elephants at 1); unformed
        units do not."""
        if form == SKIRMISH:
            return None
        return rout_threshold(self.t, self.mw_troop(unit.troop))

    # -- set-up and turn ------------------------------------------------------------------

    def initial_status(self, troop: str, size: int, grade: str | None) -> Status:
        """A unit of ``size`` figures, formed unless its type never is."""
        tr = self.mw_troop(troop)
        form = SKIRMISH if tr.formed == "never" else FORMED
        return Status(strength=size, start_strength=size, grade=grade, formation=form)

    def _phase_id(self, view: TurnView) -> str:
        phases = self.ruleset.turn.phases
        return phases[view.phase].id if 0 <= view.phase < len(phases) else ""

    def begin_phase(self, view: TurnView, dice: Dice) -> Resolution:
        """MWAN #90, Turn sequence: initiative opens the turn; at the start of the missile
        phase each unit's figures are noted, since missiles are exchanged simultaneously."""
        pid = self._phase_id(view)
        if pid == "initiative":
            return self._initiative(view, dice)
        if pid == "missiles":
            return Resolution(
                others=tuple(
                    UnitChange(u.unit_id, Effects(extra={MISSILE_FIGURES: u.status.strength}))
                    for u in view.units
                    if not u.status.eliminated
                )
            )
        return Resolution()

    def end_phase(self, view: TurnView, dice: Dice) -> Resolution:
        """After missiles the noted figures are dropped; after melee, disorder ends for
        units out of contact with the enemy (our reading; needs footprints)."""
        pid = self._phase_id(view)
        if pid == "missiles":
            return Resolution(
                others=tuple(
                    UnitChange(u.unit_id, Effects(extra_remove=frozenset({MISSILE_FIGURES})))
                    for u in view.units
                    if MISSILE_FIGURES in u.status.extra
                )
            )
        if pid == "melee" and self.t.melee.disorder_clears == "out_of_contact":
            clear = [
                u
                for u in view.units
                if u.status.has(DISORDERED) and self._in_contact(u, view) is False
            ]
            return Resolution(
                others=tuple(
                    UnitChange(u.unit_id, Effects(markers_remove=frozenset({DISORDERED})))
                    for u in clear
                ),
                explanation=tuple(
                    f"{u.name} is out of contact: no longer disordered" for u in clear
                ),
            )
        return Resolution()

    def _in_contact(self, unit: Combatant, view: TurnView) -> bool | None:
        """Whether the unit touches an enemy; None when footprints are unknown."""
        enemies = [u for u in view.units if u.side != unit.side and not u.status.eliminated]
        if unit.width <= 0 or any(u.width <= 0 for u in enemies):
            return None
        return any(footprint_distance(unit, u) <= CONTACT for u in enemies)

    def _initiative(self, view: TurnView, dice: Dice) -> Resolution:
        """MWAN #90, Turn sequence 1: toss for initiative (a d6 each, our reading); on the
        first turn a tie is tossed again; later the side that lost the previous initiative
        wins a tie. The winner chooses to move first or second (Castra gives it the
        initiative)."""
        die = self.t.initiative.die
        lines: list[str] = []
        while True:
            a = dice.roll(die, f"initiative for {view.side_names[0]}")[0]
            b = dice.roll(die, f"initiative for {view.side_names[1]}")[0]
            lines.append(f"initiative: {view.side_names[0]} {a}, {view.side_names[1]} {b}")
            if a != b:
                winner: Side = 0 if a > b else 1
                break
            lost = [s for s in BOTH if view.sides[s].get("lost_initiative")]
            if view.turn > 1 and len(lost) == 1:
                winner = lost[0]
                lines.append(f"a tie: {view.side_names[winner]} lost last turn and wins it")
                break
            lines.append(
                "a tie: toss again"
                if view.turn <= 1
                else "a tie, and no record of last turn's loser: toss again"
            )
        lines.append(f"{view.side_names[winner]} wins the initiative and chooses the move order")
        rolls = (a, b)
        return Resolution(
            initiative=winner,
            sides=(
                {"lost_initiative": winner != 0, "initiative_roll": rolls[0]},
                {"lost_initiative": winner != 1, "initiative_roll": rolls[1]},
            ),
            explanation=tuple(lines),
        )

    def move_allowance(self, unit: Combatant, view: TurnView | None = None) -> float | None:
        """MWAN #90, Movement: 8" for every class (only cavalry in line and formed medium
        infantry are stated; errata); a unit in contact with the enemy is pinned."""
        if view is not None and self.t.movement.pinned_in_melee and self._in_contact(unit, view):
            return 0.0
        return float(self.t.movement.rows[self.mw_troop(unit.troop).move_class].move)

    # -- actions --------------------------------------------------------------------------

    def actions(self) -> Sequence[ActionSpec]:
        """Shoot, pre-melee javelins, melee, dispersal of skirmishers and the morale check."""
        return action_specs(self.t)

    def resolve(self, action: str, sit: Situation, dice: Dice) -> Resolution:
        self.action(action)
        if action == "morale_check":
            return self._morale(sit, dice)
        plan = self.plan(action, sit)
        return self._roll(plan, sit, dice)

    def odds(self, action: str, sit: Situation) -> Odds:
        self.action(action)
        if action == "morale_check":
            return self._morale_odds(sit)
        plan = self.plan(action, sit)
        on_def = capped_binomial(plan.dice_a, plan.p_a, plan.cap_d)
        on_att = capped_binomial(plan.dice_d, plan.p_d, plan.cap_a)
        eff_d = {h: self.defender_effects(plan, sit, h) for h in on_def}
        eff_a = {h: self.losses(sit.attacker, plan.form_a, h) for h in on_att}
        odds: Odds = {}
        for on_d, pd in on_def.items():
            for on_a, pa in on_att.items():
                add_odds(odds, self.outcome_of(plan, eff_a[on_a], eff_d[on_d]), pd * pa)
        return normalise(odds)

    # -- casualties -----------------------------------------------------------------------

    def losses(self, unit: Combatant, form: str, hits: int) -> Effects:
        """MWAN #90, Melee 5 and Morale 2: each hit removes a figure (an elephant); a formed
        unit reduced to 3 figures (an elephant unit to 1) routs and is removed."""
        s = unit.status.strength
        lost = min(s, hits * self.t.melee.figures_lost_per_hit)
        if lost == 0:
            return Effects()
        if lost == s:
            return Effects(casualties=s, eliminated=True)
        limit = self.rout_at(unit, form)
        if limit is not None and s - lost <= limit:
            removed = self.t.morale.routed_removed
            return Effects(
                casualties=s if removed else lost,
                eliminated=removed,
                markers_add=frozenset({ROUTED}),
            )
        return Effects(casualties=lost)

    def hit_cap(self, unit: Combatant, form: str) -> int:
        """Hits past which nothing changes: the unit has routed or is gone."""
        s = unit.status.strength
        limit = self.rout_at(unit, form)
        removed = self.t.morale.routed_removed
        need = s if limit is None or not removed else min(s, max(1, s - limit))
        return math.ceil(need / self.t.melee.figures_lost_per_hit)

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
        """MWAN #90, Missiles: one die per figure with a clear shot (all the figures the
        unit had when the missile phase began, unless told fewer), hitting on 6 whatever
        the target; bows and slings reach 15", javelins 9". Against cavalry supported by
        medium infantry the dice are shared out, the larger half at the cavalry. Units in
        melee cannot be shot at (checked when the footprints are known)."""
        m = self.t.missiles
        att, dfn = sit.attacker, sit.defender
        troop = self.mw_troop(att.troop)
        if not troop.shoots or not troop.weapons:
            raise ValueError(f"{att.name} ({troop.name}) have no missiles")
        if m.no_shooting_at_units_in_melee and sit.view and self._in_contact(dfn, sit.view):
            raise ValueError(f"{dfn.name} is in melee: units in melee cannot be shot at")
        weapon = troop.weapons[0].name
        figures = int(att.status.extra.get(MISSILE_FIGURES, att.status.strength))
        shooters = min(sit.number("shooters", 0) or figures, figures)
        dice = shooters * m.dice_per_figure
        why = [f'{shooters} figure(s) shooting, {weapon} ({m.ranges[weapon]:g}" range)']
        dice, more = split(dice, sit.choice("split", "none"), "cavalry", "support")
        why += more
        form_d = self.formation(dfn)
        return Plan(
            kind="shoot",
            dice_a=dice,
            p_a=chance(m.die, m.hit_on),
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
        reading: the missile score)."""
        m = self.t.missiles
        att, dfn = sit.attacker, sit.defender
        fa, fd = self.formation(att), self.formation(dfn)
        da, dd = self._javelin_dice(sit, att, "a"), self._javelin_dice(sit, dfn, "d")
        p = chance(m.die, m.hit_on)
        return Plan(
            kind="javelins",
            dice_a=da,
            p_a=p,
            need_a=m.hit_on,
            dice_d=dd,
            p_d=p,
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
            p_d=chance(self.t.missiles.die, d.hit_on),
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
        attacked unit is disordered and, if heavy, its own dice are tripled (as written;
        errata). Elephants attacking cavalry disorder it. Hits by the target's class: heavy
        (elephants, an immobile shield wall) 6, light or medium 5-6, skirmish 4-6. Against
        cavalry supported by medium infantry the dice are shared out."""
        t = self.t
        att, dfn = sit.attacker, sit.defender
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
        if flanked and cls_d in fr.only_if_attacked:
            if fr.multiplied_side == "attacked":
                dd *= fr.multiplier
                why.append(f"{dfn.name} is heavy and attacked in the {attack}: its dice x3 = {dd}")
            else:
                da *= fr.multiplier
                why.append(
                    f"{dfn.name} is heavy and attacked in the {attack}: {att.name}'s dice x3"
                )
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
            p_a=chance(die, need_a),
            need_a=need_a,
            dice_d=dd,
            p_d=chance(die, need_d),
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

    def outcome_of(self, plan: Plan, ea: Effects, ed: Effects) -> Outcome:
        """The outcome from each side's effects. MWAN #90, Melee 6: a unit that routs its
        opponent (or destroys it) gets a 4" bonus move, and may use it to start another
        melee."""
        if plan.kind == "melee" and ea.eliminated != ed.eliminated:
            bonus = self.t.melee.post_melee_bonus_move
            text = f'bonus move {bonus:g}"' + (
                " (may start another melee)" if self.t.melee.bonus_move_may_charge else ""
            )
            if ed.eliminated and not ea.eliminated:
                ea = with_(ea, move=text)
            if ea.eliminated and not ed.eliminated:
                ed = with_(ed, move=text)
        return Outcome(attacker=ea, defender=ed, result=self._label(plan, ea, ed))

    def _label(self, plan: Plan, ea: Effects, ed: Effects) -> str:
        if plan.kind == "shoot":
            return f"target {describe(ed)}"
        if plan.kind == "disperse":
            return f"formed unit {describe(ea)}; skirmishers {describe(ed)}"
        return f"attacker {describe(ea)}; defender {describe(ed)}"

    def _roll(self, plan: Plan, sit: Situation, dice: Dice) -> Resolution:
        att, dfn = sit.attacker, sit.defender
        lines = list(plan.why)
        on_d = on_a = 0
        if plan.dice_a:
            on_d, faces = roll_hits(
                dice, plan.die, plan.dice_a, plan.need_a, f"{att.name} {plan.kind}"
            )
            lines.append(f"{att.name}: {faces}: {on_d} hit(s)")
        if plan.dice_d:
            on_a, faces = roll_hits(
                dice, plan.die, plan.dice_d, plan.need_d, f"{dfn.name} {plan.kind}"
            )
            lines.append(f"{dfn.name}: {faces}: {on_a} hit(s)")
        outcome = self.outcome(plan, sit, min(on_a, plan.cap_a), min(on_d, plan.cap_d))
        for unit, eff in ((att, outcome.attacker), (dfn, outcome.defender)):
            lines += self._aftermath(sit, unit, eff)
        return Resolution(outcome=outcome, explanation=tuple(lines))

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

    # -- morale ---------------------------------------------------------------------------

    def morale_missing(self) -> str:
        """What to tell a player who asks for a morale check the data cannot give."""
        return morale_missing(self.ruleset)

    def _morale_rows(self, sit: Situation) -> tuple[str, int, tuple[MoraleRow, ...]]:
        if not self.t.morale.complete or not self.t.morale.rows:
            raise NotImplementedRule(self.morale_missing())
        return morale_rows(self.t, sit.choice("unit_in", ""), sit.flag("routing_elephants"))

    def _exempt(self, sit: Situation) -> bool:
        """MWAN #90, Morale 1: unformed units do not check morale."""
        return not self.t.morale.unformed_check and not self.formed(sit.attacker)

    def _morale(self, sit: Situation, dice: Dice) -> Resolution:
        """MWAN #90, Morale 3: a friendly formed unit near a rout path (or a disordered unit
        attacked in melee) checks morale, -3 on the die if the routers are elephants. The
        results table is lost from the source: only a user's own rows are used."""
        unit = sit.attacker
        if self._exempt(sit):
            return Resolution(
                outcome=Outcome(result=UNFORMED),
                explanation=(f"{unit.name} is unformed and does not check morale",),
            )
        unit_in, mod, rows = self._morale_rows(sit)
        die = self.t.morale.die or ""
        faces = dice.roll(die, f"morale check for {unit.name} ({unit_in})")
        score = sum(faces) + parse_dice(die).modifier + mod
        row = row_for(rows, score)
        assert row is not None  # _morale_rows checked every score
        outcome = morale_outcome(self.t, unit, row)
        text = f"{unit.name} checks morale ({unit_in}): rolled {' '.join(map(str, faces))}"
        if mod:
            text += f" {mod:+d} for routing elephants"
        return Resolution(
            outcome=outcome,
            explanation=(f"{text} = {score}: {row.result} (your table)",),
        )

    def _morale_odds(self, sit: Situation) -> Odds:
        if self._exempt(sit):
            return {Outcome(result=UNFORMED): Fraction(1)}
        _, mod, rows = self._morale_rows(sit)
        odds: Odds = {}
        for score, p in dist_of(self.t.morale.die or "").items():
            row = row_for(rows, score + mod)
            assert row is not None
            add_odds(odds, morale_outcome(self.t, sit.attacker, row), p)
        return normalise(odds)
