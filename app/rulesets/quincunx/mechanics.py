"""Quincunx (Duke Seifried, 1999): the battle mechanics.

Every number comes from ``tables.toml`` through :func:`app.rulesets.quincunx.schema.tables`;
the errata (``errata.toml``) say how garbled or silent passages were read, and this module
follows them. The rules as computations without dice (the melee cast by rings and shifts,
the outcome of a difference, missile dice, losses and elephant crews, geometry for command
and the rampage path) live in :mod:`~app.rulesets.quincunx.base`,
:mod:`~app.rulesets.quincunx.melee`, :mod:`~app.rulesets.quincunx.missiles`,
:mod:`~app.rulesets.quincunx.rules` and :mod:`~app.rulesets.quincunx.geometry`; the phase
hooks in :mod:`~app.rulesets.quincunx.turn`. This module casts the dice, counts the exact
odds and writes the explanations.

State kept on units (``Status``):

- ``rings``: rounds of melee fought without rest (the melee matrix column).
- markers set by the actions for the round's rest check: ``fought``, ``fired``, ``shot_at``
  (the core adds ``moved``); chits ``evaded`` (may not move next round) and ``no_fire``
  (pass-through fire: may not fire next round); ``straggler`` (25%: no combat value),
  ``berserk`` (the last elephant), ``to_rampage`` (a berserk elephant still to rampage this
  turn), ``out_of_command`` (set by the command check).
- ``extra``: ``melee_with`` (still in contact after an undecided round), ``elephant_target``
  and ``elephant_rounds`` (rounds against the current target), ``pre_melee_penalty`` and
  ``pre_melee_rounds`` (the lost pila volley), ``volley_used``, ``peltast_volley`` (loosed
  javelins before the melee), ``evaded_rounds``, ``no_fire_rounds``, ``move_class``
  (moving with a battleline or an elephant battlegroup).

Sides' records: ``initiative_die`` (d10 or d12), ``initiative_cast``, ``won_melee`` (forced
a recoil this turn: d12 next turn) and ``moving`` (this side moves in this round).

Rounds: a Quincunx turn is two rounds (move and counter-move: ``rounds_per_turn = 2``, the
core runs the phases once per round and says which in ``TurnView.round``). The initiative
phase casts the dice only in the first round; the rest phase ends a round and hands the next
one to the other side.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction

from app.rules.mechanics import (
    ActionSpec,
    Combatant,
    Dice,
    Effects,
    LeaderEvent,
    Mechanics,
    Odds,
    Outcome,
    Resolution,
    Side,
    SideUpdate,
    Situation,
    TurnView,
    UnitChange,
    Victory,
)
from app.rules.ruleset import Ruleset
from app.rulesets.quincunx.action_specs import action_specs
from app.rulesets.quincunx.geometry import units_in_path
from app.rulesets.quincunx.melee import MeleeRules
from app.rulesets.quincunx.missiles import MissileRules
from app.rulesets.quincunx.rules import (
    BERSERK,
    COMPASS,
    DISTANCE,
    HEADING,
    MELEE_WITH,
    MOVE_CLASS,
    MOVED,
    MOVING,
    OUT_OF_COMMAND,
    PELTAST_VOLLEY,
    STRAGGLER,
    TO_RAMPAGE,
    WON,
    Cast,
    Fight,
    Fighter,
    dice_counts,
    difference_counts,
    fmt,
    leader_fate,
)
from app.rulesets.quincunx.schema import Tables, tables
from app.rulesets.quincunx.turn import TurnHooks


def _sides(side: Side, mine: SideUpdate, other: SideUpdate) -> tuple[SideUpdate, SideUpdate]:
    return (mine, other) if side == 0 else (other, mine)


class QuincunxMechanics(TurnHooks, MeleeRules, MissileRules, Mechanics):
    """Quincunx: initiative, missilery, pre-melee volleys, melee by rings, rest, attrition,
    evasion, elephants and their rampage, leaders' bonus and risk, command range."""

    engine = "quincunx"
    strength_unit = "figures"
    #: Quincunx, Sequence: each turn is two rounds, move and counter-move.
    rounds_per_turn = 2

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.t: Tables = tables(ruleset)
        self._actions: tuple[ActionSpec, ...] | None = None

    def figure_ranks(self, troop: str) -> int:
        """Quincunx, Formations: a unit stands on the map in the deepest of the ranks its
        troop type forms in (two where the data gives none)."""
        formed = self.troop(troop).ranks_formed
        if formed:
            return max(1, max(int(r) for r in formed))
        return super().figure_ranks(troop)

    # ------------------------------------------------------------------ actions

    def actions(self) -> Sequence[ActionSpec]:
        if self._actions is None:
            self._actions = action_specs(self.t)
        return self._actions

    def _opts(self, action: str, sit: Situation) -> Situation:
        """The situation with every option filled in (defaults) and checked."""
        spec = self.action(action)
        merged = spec.defaults()
        for key, value in sit.options.items():
            spec.option(key)
            merged[key] = value
        return replace(sit, options=merged)

    def resolve(self, action: str, sit: Situation, dice: Dice) -> Resolution:
        handlers: dict[str, Callable[[Situation, Dice], Resolution]] = {
            "melee": self._resolve_melee,
            "shoot": self._resolve_shoot,
            "pre_melee": self._resolve_pre_melee,
            "evade": self._resolve_evade,
            "trample": self._resolve_trample,
            "rampage": self._resolve_rampage,
            "command_check": self._resolve_command,
            "formation": self._resolve_formation,
            "order": self._resolve_order,
        }
        if action not in handlers:
            self.action(action)  # raises NotImplementedRule naming the known actions
        return handlers[action](self._opts(action, sit), dice)

    def odds(self, action: str, sit: Situation) -> Odds:
        handlers: dict[str, Callable[[Situation], Odds]] = {
            "melee": self._odds_melee,
            "shoot": self._odds_shoot,
            "pre_melee": self._odds_pre_melee,
            "evade": self._odds_evade,
            "trample": self._odds_trample,
        }
        if action not in handlers:
            self.action(action)
            return super().odds(action, sit)
        return handlers[action](self._opts(action, sit))

    def victory(self, view: TurnView) -> Victory | None:
        """Quincunx has no victory rule: the players declare the result."""
        return None

    # ------------------------------------------------------------------ leaders

    def _leader_risk(
        self, units: Sequence[Combatant], dice: Dice
    ) -> tuple[list[LeaderEvent], list[str]]:
        """Quincunx, Commanders: when the unit a leader is attached to loses casualties he
        casts 2d6: double one kills him, any other double wounds him; a third wound kills."""
        events, lines = [], []
        for u in units:
            ld = u.leader
            if ld is None:
                continue
            faces = dice.roll(self.t.leaders.risk_dice, f"risk to {ld.name} with {u.name}")
            status, wounds = leader_fate(faces, ld.wounds, self._killing_wounds())
            text = {
                "killed": f"{ld.name} is killed",
                "wounded": f"{ld.name} is wounded ({wounds} wound{'s' if wounds != 1 else ''})",
                "fit": f"{ld.name} is unhurt",
            }[status]
            lines.append(f"Risk to {ld.name}: 2d6 = {faces[0]}, {faces[1]}: {text}.")
            if status != "fit":
                events.append(LeaderEvent(ld.id, status, wounds, text))
        return events, lines

    # ------------------------------------------------------------------ melee

    def _melee_setup(self, sit: Situation) -> Fight | Outcome:
        """Check a melee and build both casts; an Outcome when no fight takes place
        (stragglers met, horses shying from elephants)."""
        a, d = sit.attacker, sit.defender
        t = self.t
        for u in (a, d):
            if u.status.eliminated:
                raise ValueError(f"{u.name} is no longer on the table")
        if a.side == d.side:
            raise ValueError("a melee is fought against an enemy unit")
        if a.status.has(STRAGGLER):
            raise ValueError(f"{a.name} are stragglers with no combat ability")
        if a.status.has(OUT_OF_COMMAND):
            raise ValueError(f"{a.name} are out of command: they may defend, not attack")
        if d.status.has(STRAGGLER):
            return self._capture(a, d, self.pool(sit))
        shy = self._shy(a, d)
        if shy is not None:
            return shy
        initial = {"yes": True, "no": False}.get(
            sit.choice("initial_attack"), a.status.extra.get(MELEE_WITH) != d.unit_id
        )
        pre = sit.choice("pre_melee")
        fighters = []
        for me, foe, role in ((a, d, "attacker"), (d, a, "defender")):
            pen, pen_extra, pen_remove = self._penalty(me, pre, role)
            prefix = "" if role == "attacker" else "defender_"
            volleyed = sit.flag(f"{role}_volleyed") or bool(me.status.extra.get(PELTAST_VOLLEY))
            cast, el_extra = self._melee_cast(
                me,
                foe,
                initial=initial and role == "attacker",
                flank=sit.flag(f"{prefix}flank"),
                downhill=sit.flag(f"{prefix}downhill"),
                volleyed=volleyed,
                wood_edge=sit.flag("wood_edge") and role == "attacker",
                crossing=sit.flag(f"{role}_crossing"),
                penalty=pen,
                leader=sit.choice(f"{role}_leader"),
                elephant_round=sit.number("elephant_round") if self.is_elephant(me) else 0,
            )
            remove = pen_remove | ({PELTAST_VOLLEY} & set(me.status.extra))
            fighters.append(
                Fighter(
                    me,
                    cast,
                    t.melee_resolution.rings_per_round,
                    {**pen_extra, **el_extra},
                    frozenset(remove),
                )
            )
        return Fight("melee", fighters[0], fighters[1], self.pool(sit))

    def _fight_odds(self, f: Fight) -> Odds:
        a_counts, a_den = dice_counts(f.a.cast.dice, f.a.cast.modifier)
        d_counts, d_den = dice_counts(f.d.cast.dice, f.d.cast.modifier)
        by_diff: dict[int, int] = {}
        for av, ac in a_counts.items():
            for dv, dc in d_counts.items():
                by_diff[av - dv] = by_diff.get(av - dv, 0) + ac * dc
        weights: dict[Outcome, int] = {}
        for diff, w in by_diff.items():
            outcome = self._fight_outcome(f, diff, 0)[0]
            weights[outcome] = weights.get(outcome, 0) + w
        den = a_den * d_den
        return {o: Fraction(w, den) for o, w in weights.items()}

    def _cast_dice(self, unit: Combatant, cast: Cast, dice: Dice, why: str) -> tuple[int, str]:
        faces: list[int] = []
        for spec in cast.dice:
            faces.extend(dice.roll(spec, f"{unit.name} {why}"))
        total = cast.total(faces)
        shown = " + ".join(str(x) for x in faces)
        return total, f"{unit.name} casts {cast.words}: {shown} -> {total}."

    def _fight_resolve(self, f: Fight, dice: Dice, why: str) -> Resolution:
        a_total, a_line = self._cast_dice(f.a.unit, f.a.cast, dice, why)
        d_total, d_line = self._cast_dice(f.d.unit, f.d.cast, dice, why)
        outcome, winner, losers, words = self._fight_outcome(f, a_total, d_total)
        lines = [a_line, d_line]
        diff = abs(a_total - d_total)
        cas = diff // self.t.melee_resolution.casualty_divisor
        if cas == 0:
            lines.append(f"Difference {diff}: no casualties; the units stay in contact.")
        else:
            low = f.a.unit if a_total < d_total else f.d.unit
            lines.append(
                f"Difference {diff}: {cas} casualt{'ies' if cas != 1 else 'y'} to {low.name}."
            )
            lines.extend(w + "." for w in words)
            for who, eff in ((f.a.unit, outcome.attacker), (f.d.unit, outcome.defender)):
                if eff.move:
                    lines.append(f"{who.name} {eff.move}.")
        lines.append(f"Result: {outcome.result}.")
        events, risk = self._leader_risk(losers, dice)
        lines.extend(risk)
        sides: tuple[SideUpdate, SideUpdate] = (None, None)
        if winner is not None:
            sides = _sides(winner, {WON: True}, None)
            lines.append("The winner's side will cast a d12 for the next initiative.")
        return Resolution(
            outcome=outcome, sides=sides, leader_events=tuple(events), explanation=tuple(lines)
        )

    def _resolve_melee(self, sit: Situation, dice: Dice) -> Resolution:
        f = self._melee_setup(sit)
        if isinstance(f, Outcome):
            return Resolution(
                outcome=f, explanation=(f"{sit.attacker.name} v {sit.defender.name}: {f.result}.",)
            )
        return self._fight_resolve(f, dice, "melee die")

    def _odds_melee(self, sit: Situation) -> Odds:
        """Exact odds of a melee round: each side's total distribution (its die, the pike's
        extra d6, modifiers) convolved; the outcome follows from the difference alone."""
        f = self._melee_setup(sit)
        if isinstance(f, Outcome):
            return {f: Fraction(1)}
        return self._fight_odds(f)

    # ------------------------------------------------------------------ missilery

    def _resolve_shoot(self, sit: Situation, dice: Dice) -> Resolution:
        shot = self._shot_setup(sit)
        a, d = sit.attacker, sit.defender
        if isinstance(shot, Outcome):
            return Resolution(outcome=shot, explanation=(f"{a.name} at {d.name}: {shot.result}.",))
        faces = dice.roll(shot.dice, f"{a.name} shooting at {d.name}")
        difference = max(faces) - min(faces)
        outcome, words = self._shot_outcome(shot, difference)
        lines = [
            f"{a.name} shoot at {d.name}: " + "; ".join(shot.words) + ".",
            f"Dice {faces[0]} and {faces[1]}: difference {difference}"
            + (
                f" {shot.modifier:+d} = {max(0, difference + shot.modifier)}"
                if shot.modifier
                else ""
            )
            + f": {outcome.result}.",
            *(w + "." for w in words),
        ]
        losers = (d,) if outcome.defender.casualties else ()
        events, risk = self._leader_risk(losers, dice)
        lines.extend(risk)
        return Resolution(outcome=outcome, leader_events=tuple(events), explanation=tuple(lines))

    def _odds_shoot(self, sit: Situation) -> Odds:
        """Exact odds of a missile volley: the distribution of the difference of the pair."""
        shot = self._shot_setup(sit)
        if isinstance(shot, Outcome):
            return {shot: Fraction(1)}
        counts, den = difference_counts(shot.dice)
        weights: dict[Outcome, int] = {}
        for diff, w in counts.items():
            o = self._shot_outcome(shot, diff)[0]
            weights[o] = weights.get(o, 0) + w
        return {o: Fraction(w, den) for o, w in weights.items()}

    # ------------------------------------------------------------------ pre-melee volley

    def _pre_setup(self, sit: Situation) -> tuple[str | None, str | None] | Outcome:
        a, d = sit.attacker, sit.defender
        if a.side == d.side:
            raise ValueError("the pre-melee volley is cast against an enemy unit")
        if a.status.extra.get(MELEE_WITH) == d.unit_id:
            return Outcome(result="no volley: the melee is already under way")
        dies = (self.volley_die(a), self.volley_die(d))
        if dies == (None, None):
            return Outcome(result="no volley on either side")
        return dies

    def _resolve_pre_melee(self, sit: Situation, dice: Dice) -> Resolution:
        a, d = sit.attacker, sit.defender
        dies = self._pre_setup(sit)
        if isinstance(dies, Outcome):
            return Resolution(outcome=dies, explanation=(f"{a.name} v {d.name}: {dies.result}.",))
        casts = [0, 0]
        lines = []
        for i, (u, die) in enumerate(((a, dies[0]), (d, dies[1]))):
            if die is None:
                lines.append(f"{u.name} have no volley (left) and lose it automatically.")
            elif None not in dies:
                casts[i] = dice.roll(die, f"{u.name} pre-melee volley")[0]
                lines.append(f"{u.name} cast {die} for their volley: {casts[i]}.")
        outcome = self._pre_outcome(sit, dies, casts[0], casts[1])
        lines.append(f"Result: {outcome.result}.")
        return Resolution(outcome=outcome, explanation=tuple(lines))

    def _odds_pre_melee(self, sit: Situation) -> Odds:
        dies = self._pre_setup(sit)
        if isinstance(dies, Outcome):
            return {dies: Fraction(1)}
        a_counts, a_den = dice_counts([dies[0]] if dies[0] else [])
        d_counts, d_den = dice_counts([dies[1]] if dies[1] else [])
        weights: dict[Outcome, int] = {}
        for av, ac in a_counts.items():
            for dv, dc in d_counts.items():
                o = self._pre_outcome(sit, dies, av, dv)
                weights[o] = weights.get(o, 0) + ac * dc
        return {o: Fraction(w, a_den * d_den) for o, w in weights.items()}

    # ------------------------------------------------------------------ evasion

    def _evade_setup(self, sit: Situation) -> tuple[str, str, int]:
        a, d = sit.attacker, sit.defender
        if not self.skirmishing(a):
            raise ValueError(f"{a.name} are not in skirmish mode and cannot evade")
        if self.skirmishing(d):
            raise ValueError(f"{d.name} are skirmishers: only a formed attacker can be evaded")
        ev = self.t.evasion
        return ev.evader_die, ev.attacker_die, self.move_class(a).move_factors

    def _resolve_evade(self, sit: Situation, dice: Dice) -> Resolution:
        a, d = sit.attacker, sit.defender
        e_die, k_die, allowance = self._evade_setup(sit)
        e = dice.roll(e_die, f"{a.name} evading")[0]
        k = dice.roll(k_die, f"{d.name} pursuing")[0]
        outcome = self._evade_outcome(sit, allowance, e - k)
        return Resolution(
            outcome=outcome,
            explanation=(
                f"{a.name} try to evade {d.name}: {e_die} = {e} against {k_die} = {k} "
                f"(need {sit.number('needed')} MF, move {allowance} MF).",
                f"Result: {outcome.result}.",
            ),
        )

    def _odds_evade(self, sit: Situation) -> Odds:
        e_die, k_die, allowance = self._evade_setup(sit)
        e_counts, e_den = dice_counts([e_die])
        k_counts, k_den = dice_counts([k_die])
        weights: dict[Outcome, int] = {}
        for ev, ec in e_counts.items():
            for kv, kc in k_counts.items():
                o = self._evade_outcome(sit, allowance, ev - kv)
                weights[o] = weights.get(o, 0) + ec * kc
        return {o: Fraction(w, e_den * k_den) for o, w in weights.items()}

    # ------------------------------------------------------------------ elephants

    def _resolve_trample(self, sit: Situation, dice: Dice) -> Resolution:
        fight = self._trample_fight(sit.attacker, sit.defender, self.pool(sit))
        return self._fight_resolve(fight, dice, "trample")

    def _odds_trample(self, sit: Situation) -> Odds:
        return self._fight_odds(self._trample_fight(sit.attacker, sit.defender, self.pool(sit)))

    def _resolve_rampage(self, sit: Situation, dice: Dice) -> Resolution:
        """Quincunx, Rampage Chart: cast a d8 for the direction and a d6 for move factors;
        the elephant tramples every unit in its path (nearest first) with d12+2, friend or
        foe; it stops if it is killed. The core moves it along the path (``Effects.shift``;
        ``extra`` records the bearing and the inches), stopping at the table's edge: taking
        it off when it leaves the table is the players' call."""
        el = sit.attacker
        if not el.status.has(BERSERK):
            raise ValueError(f"{el.name} is not a berserk elephant")
        t = self.t
        face = dice.roll(t.rampage.direction_die, f"{el.name} rampage direction")[0]
        name = t.rampage.directions[str(face)]
        bearing = (self.north_bearing(el, sit.view) + COMPASS[name.lower()]) % 360
        mf = sum(dice.roll(t.rampage.move_die, f"{el.name} rampage move factors"))
        inches = mf * self._per_mf
        lines = [
            f"{el.name} rampages: {t.rampage.direction_die} = {face} ({name}), "
            f'{t.rampage.move_die} = {mf} MF ({fmt(inches)}").'
        ]
        pool = sit.others or (sit.view.units if sit.view is not None else ())
        path = units_in_path(el, bearing, inches, pool)
        changes: list[UnitChange] = []
        events: list[LeaderEvent] = []
        lost, killed = 0, False
        for victim in path:
            res = self._fight_resolve(self._trample_fight(el, victim, pool), dice, "trample")
            lines.append(f"It tramples into {victim.name}:")
            lines.extend(res.explanation)
            events.extend(res.leader_events)
            changes.append(UnitChange(victim.unit_id, res.outcome.defender))
            hit = res.outcome.attacker
            lost += hit.casualties
            el = replace(el, status=el.status.apply(hit))
            if el.status.eliminated:
                killed = True
                lines.append(f"{el.name} is killed and the rampage ends.")
                break
        if not path:
            lines.append("Nothing stands in its path.")
        eff = Effects(
            casualties=lost,
            eliminated=killed,
            markers_add=frozenset({MOVED}),
            markers_remove=frozenset({TO_RAMPAGE}),
            move=f"rampages {self._mf(mf)} {name}",
            extra={HEADING: int(bearing), DISTANCE: int(inches)},
            # the core moves the elephant along its path (a dead one stays where it fell)
            shift=None if killed else (float(bearing), float(inches)),
        )
        return Resolution(
            outcome=Outcome(attacker=eff, result=f"rampages {mf} MF {name}"),
            others=tuple(changes),
            leader_events=tuple(events),
            explanation=tuple(lines),
        )

    # ------------------------------------------------------------------ small actions

    def _resolve_command(self, sit: Situation, dice: Dice) -> Resolution:
        """Quincunx, Commanders: a unit out of command cannot move (it may still defend
        itself). ``others`` are the other units of the battlegroup."""
        unit = sit.attacker
        at = None
        if sit.flag("commander_detached"):
            at = (float(sit.number("commander_x")), float(sit.number("commander_y")))
        ok = self._command(unit, sit.others, at)
        if ok:
            eff = Effects(markers_remove=frozenset({OUT_OF_COMMAND}))
            result = "in command"
        else:
            eff = Effects(markers_add=frozenset({OUT_OF_COMMAND}))
            result = "out of command: cannot move"
        return Resolution(
            outcome=Outcome(attacker=eff, result=result), explanation=(f"{unit.name} is {result}.",)
        )

    def _resolve_formation(self, sit: Situation, dice: Dice) -> Resolution:
        """Quincunx, Movement and Formations: peltasts are formed (three ranks) or skirmish
        (one or two ranks); units may move with a battleline or an elephant battlegroup."""
        unit = sit.attacker
        tr = self.troop(unit.troop)
        to = sit.choice("to")
        if to != unit.status.formation and tr.formation != "either":
            raise ValueError(f"{unit.name} are always {tr.formation}")
        cls = sit.choice("move_class")
        changed = to != unit.status.formation
        eff = Effects(
            formation=to,
            markers_add=frozenset({MOVED}) if changed else frozenset(),
            extra={} if cls == "own" else {MOVE_CLASS: cls},
            extra_remove=frozenset({MOVE_CLASS}) if cls == "own" else frozenset(),
        )
        text = f"{unit.name}: {to}" + ("" if cls == "own" else f", moving as {cls}")
        return Resolution(outcome=Outcome(attacker=eff, result=text), explanation=(text + ".",))

    def _resolve_order(self, sit: Situation, dice: Dice) -> Resolution:
        """Quincunx, Sequence: the higher initiative cast chooses move or counter-move."""
        if sit.side is None:
            raise ValueError("say which side chooses")
        side: Side = sit.side
        if sit.view is not None and sit.view.initiative not in (None, side):
            raise ValueError("only the side with the initiative chooses")
        first = sit.choice("choose") == "move"
        names = sit.view.side_names if sit.view is not None else ("side 0", "side 1")
        mover = names[side] if first else names[1 - side]
        return Resolution(
            sides=_sides(side, {MOVING: first}, {MOVING: not first}),
            explanation=(
                f"{names[side]} chooses to {'move' if first else 'counter-move'}: "
                f"{mover} moves first.",
            ),
        )
