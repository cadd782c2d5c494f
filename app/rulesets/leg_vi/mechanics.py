"""Leg VI Carthago battle mechanics (engine ``leg-vi``).

Strength is counted in bases; wear in DPs (``Status.dps``); a legion records its number of
lines in ``Status.extra["lines"]`` and stands in ``"quincunx"``. Markers (``shaken``,
``routing``, ``control_halt``, ``rampage``, ...) are named in
:mod:`app.rulesets.leg_vi.rules`; every number comes from ``tables.toml``.

What the core must know (the contract leaves these to the ruleset):

* A unit that moves should get the ``moved`` marker (``dice_move`` and ``charge`` add it
  themselves); the rally check also compares the unit's position with the one recorded in
  ``extra["turn_start"]`` when the command phase began.
* Leader actions (``leader_move``, ``steady``, ``inspire``) read the leader from
  ``actor.leader``; for a detached leader moving alone the core may pass a stand-in
  combatant carrying him (only ``.leader`` and ``.side`` are read). Actions used this turn are
  kept in the side record as ``actions_used:<leader id>`` and ``leader_did:<leader id>``.
* ``LeaderView.actions`` is read as the leader's actions per turn before wounds (0: 2 for the
  General, 1 for a Commander, +1 if ``exceptional``); a side record
  ``leader_actions:<leader id>`` overrides it (the second in command's 1 action).
* A killed leader: a ``LeaderEvent("killed")`` now, and ``successor:<leader id>`` = the turn
  his second in command takes over in the side record. When that turn's command phase
  begins, ``begin_phase`` returns ``LeaderEvent(<leader id>, "fit", 0, ...)`` and sets
  ``leader_actions:<leader id>`` to 1: the core should then bring the leader back (as the
  successor, no wounds, attached where the player puts him).
* ``Situation.others`` of ``melee`` are the engaged units' supports (same side as the actor
  or the target); of ``rampage`` the units the elephant bursts through.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

from app.rules.dice import binomial, faces_dist
from app.rules.geometry import Aspect
from app.rules.mechanics import (
    ActionSpec,
    Combatant,
    Dice,
    Effects,
    LeaderEvent,
    LeaderView,
    Mechanics,
    NotImplementedRule,
    Odds,
    OptionSpec,
    Outcome,
    Resolution,
    Scalar,
    Side,
    Situation,
    Status,
    TurnView,
    UnitChange,
    Victory,
    add_odds,
    normalise,
)
from app.rules.ruleset import Ruleset
from app.rules.schema import Category
from app.rulesets.leg_vi.rules import (
    CHARGING,
    CONTROL_FREE,
    CONTROL_HALT,
    CONTROL_REPEAT,
    EVADING,
    HALTING_MARKERS,
    INSPIRE,
    LINES,
    LOOTING,
    MOVED,
    OPEN_RANKS,
    PER_TURN_MARKERS,
    PURSUING,
    RAMPAGE,
    RAMPAGE_DIRECTION,
    RAMPAGE_TESTED,
    REDRESSED,
    REFORMED,
    RELIEFS,
    RELIEVED,
    RETIRING,
    ROUTING,
    SHAKEN,
    STEADIED,
    STOP_ATTEMPTS,
    TURN_START,
    CombatSide,
    ElephantFate,
    IllegalAction,
    LeaderFate,
    LegUnit,
    SideResult,
    away_bearing,
    band_of,
    combat_dice,
    combat_effects,
    count_at_least,
    default_engaged_bases,
    dp_words,
    elephant_effects,
    elephant_fate_dist,
    faces,
    hit_faces,
    leader_fate_dist,
    leader_morale_dps,
    leg_unit,
    may_relieve,
    nearest,
    p_faces,
    position_key,
    reliefs_left,
    result_band,
    roll_elephant_fate,
    roll_leader_fate,
    scalar_int,
    shooting_dice,
    side_result,
    take_dps,
)
from app.rulesets.leg_vi.schema import Tables, Troop, tables, troops

AUTO = ("auto", "yes", "no")
#: one side's effects and notes by (side, result, DPs inflicted, elephant fate, leader fate)
SideCache = dict[tuple[str, SideResult, int, str, str], tuple[Effects, list[str]]]


@dataclass
class Pending:
    """DPs and a move gathered for a unit other than the actor and target: a support's share
    of the combat result (``band``) and morale DPs, applied together."""

    morale: int = 0
    band: int = 0
    markers: set[str] = field(default_factory=set)
    formation: str | None = None
    move: str | None = None
    shift: tuple[float, float] | None = None
    unit: Combatant | None = None


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def _flag(sit: Situation, key: str, default: bool) -> bool:
    return bool(sit.options.get(key, default))


def _inches(x: float) -> str:
    return f'{x:g}"'


class LegVIMechanics(Mechanics):
    """Leg VI Carthago: DPs and shaken, initiative, leader actions, control tests, march and
    dice moves with fatigue, shooting, charges and evades, combat with result bands,
    elephant critical hits and rampage, redress and rally, the die of death."""

    engine: ClassVar[str] = "leg-vi"
    strength_unit: ClassVar[str] = "bases"

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.t: Tables = tables(ruleset)
        self.troop_types: dict[str, Troop] = troops(ruleset)
        self.phase_ids: tuple[str, ...] = tuple(p.id for p in ruleset.turn.phases)
        self._actions = build_actions(self.t)

    # ------------------------------------------------------------------ helpers

    def u(self, c: Combatant) -> LegUnit:
        return leg_unit(c, self.troop_types, self.t)

    def _phase(self, view: TurnView | None) -> str | None:
        if view is None or not 0 <= view.phase < len(self.phase_ids):
            return None
        return self.phase_ids[view.phase]

    def _friends_near(
        self, view: TurnView | None, unit: Combatant, within: float
    ) -> list[Combatant]:
        """Friendly units within ``within`` inches of ``unit`` (not itself, not gone)."""
        if view is None:
            return []
        return [
            o
            for o in view.side_units(unit.side)
            if o.unit_id != unit.unit_id
            and not o.status.eliminated
            and self._distance(unit, o) <= within
        ]

    @staticmethod
    def _distance(a: Combatant, b: Combatant) -> float:
        return nearest(a, (b,))

    def _enemy_distance(
        self, view: TurnView | None, unit: Combatant, unbroken_only: bool = False
    ) -> float:
        if view is None:
            return math.inf
        enemies = [
            o
            for o in view.units
            if o.side != unit.side
            and not o.status.eliminated
            and not (unbroken_only and o.status.has(ROUTING))
        ]
        return nearest(unit, enemies)

    @staticmethod
    def _auto(sit: Situation, key: str, computed: Callable[[], bool]) -> bool:
        value = sit.choice(key, "auto")
        if value == "yes":
            return True
        if value == "no":
            return False
        return computed()

    # ------------------------------------------------------------------ set-up

    def initial_status(self, troop: str, size: int, grade: str | None) -> Status:
        """Leg VI, Unit Organisation: strength in bases. A legion (the legion lines' first
        troop type, in the legion's 10 bases) stands in quincunx with its three lines; light
        troops are always unformed; other formed troops start in line; elephants move
        freely and have no formation."""
        tt = self.troop_types[troop]
        legion = self.t.legion
        if troop == legion.lines[0].troop and size == self.t.unit_sizes.legion_bases:
            return Status(
                strength=size,
                start_strength=size,
                grade=grade,
                formation="quincunx",
                extra={LINES: len(legion.lines)},
            )
        if grade is None and tt.allowed_grades:
            grade = tt.allowed_grades[0]
        formation = {"formed": "line", "unformed": "unformed"}.get(tt.order)
        return Status(strength=size, start_strength=size, grade=grade, formation=formation)

    # ------------------------------------------------------------------ phases

    def begin_phase(self, view: TurnView, dice: Dice) -> Resolution:
        """Leg VI, Phase I: at the start of each turn dice for initiative (errata
        'initiative-die': a D6 each, re-roll ties), clear last turn's markers, record where
        each unit stands (for the rally rule), reset leaders' actions, and bring in the
        second in command of a leader killed last turn."""
        if self._phase(view) != "command":
            return Resolution()
        die = self.t.sequence.initiative_die
        rolls: list[tuple[int, int]] = []
        for _ in range(1000):
            (a,) = dice.roll(die, f"initiative for {view.side_names[0]}")
            (b,) = dice.roll(die, f"initiative for {view.side_names[1]}")
            rolls.append((a, b))
            if a != b:
                break
        else:  # pragma: no cover - a thousand ties in a row
            raise ArithmeticError("initiative tied a thousand times")
        a, b = rolls[-1]
        winner: Side = 0 if a > b else 1
        words = [
            "Initiative: "
            + "; ".join(
                f"{view.side_names[0]} {x}, {view.side_names[1]} {y}"
                + (" (tie, roll again)" if x == y else "")
                for x, y in rolls
            ),
            f"{view.side_names[winner]} wins the initiative and chooses to move first or second.",
        ]
        others = []
        for c in view.units:
            if c.status.eliminated:
                continue
            remove = PER_TURN_MARKERS & c.status.markers
            others.append(
                UnitChange(
                    c.unit_id,
                    Effects(
                        markers_remove=frozenset(remove),
                        extra={TURN_START: position_key(c)},
                        extra_remove=frozenset({INSPIRE}) & frozenset(c.status.extra),
                    ),
                )
            )
        sides: list[dict[str, Scalar]] = [{"initiative_roll": a}, {"initiative_roll": b}]
        events = []
        for side in (0, 1):
            for key in view.sides[side]:
                if key.startswith("actions_used:"):
                    sides[side][key] = 0
                elif key.startswith("leader_did:"):
                    sides[side][key] = ""
                elif (
                    key.startswith("successor:") and scalar_int(view.sides[side], key) == view.turn
                ):
                    lid = key.split(":", 1)[1]
                    n = self.t.die_of_death.successor_actions
                    sides[side][key] = 0
                    sides[side][f"leader_actions:{lid}"] = n
                    text = (
                        f"the second in command takes over from {lid} with {_plural(n, 'action')}"
                    )
                    events.append(LeaderEvent(lid, "fit", 0, text))
                    words.append(f"{view.side_names[side]}: {text}.")
        return Resolution(
            others=tuple(others),
            sides=(sides[0], sides[1]),
            initiative=winner,
            leader_events=tuple(events),
            explanation=tuple(words),
        )

    def end_phase(self, view: TurnView, dice: Dice) -> Resolution:
        """Leg VI, Phase I ends with the attempts to stop rampaging elephants (those not yet
        tried this turn); Phase VII rallies shaken units halted all turn beyond 8" of
        unbroken enemy, leaving them 4 DPs."""
        phase = self._phase(view)
        if phase == "command":
            return self._auto_stop_rampages(view, dice)
        if phase == "rally":
            return self._auto_rally(view)
        return Resolution()

    def _auto_stop_rampages(self, view: TurnView, dice: Dice) -> Resolution:
        others: list[UnitChange] = []
        words: list[str] = []
        for c in view.units:
            if c.status.eliminated or not c.status.has(RAMPAGE) or c.status.has(RAMPAGE_TESTED):
                continue
            res = self._stop_rampage(Situation(actor=c, view=view), dice)
            others.append(UnitChange(c.unit_id, res.outcome.attacker))
            words += res.explanation
        return Resolution(others=tuple(others), explanation=tuple(words))

    def _auto_rally(self, view: TurnView) -> Resolution:
        others: list[UnitChange] = []
        words: list[str] = []
        for c in view.units:
            u = self.u(c)
            if c.status.eliminated or u.elephant or not c.status.has(SHAKEN) or u.routing:
                continue
            ok, why = self._rally_check(Situation(actor=c, view=view), u)
            if ok:
                eff = self._rally_effects(u)
                others.append(UnitChange(c.unit_id, eff))
                words.append(f"{c.name} rallies with {self.t.rally.dps_after} DPs ({why}).")
        return Resolution(others=tuple(others), explanation=tuple(words))

    # ------------------------------------------------------------------ movement

    def move_allowance(self, unit: Combatant, view: TurnView | None = None) -> float | None:
        """Leg VI, Move Distances: a march move (8" infantry and elephants, 12" cavalry) for
        units beyond 8" of enemy, which must also end beyond 8"; otherwise dice decide
        (``dice_move``). Units halted by a control test, steadied or redressing do not move."""
        u = self.u(unit)
        if unit.status.markers & HALTING_MARKERS:
            return 0.0
        if unit.status.markers & {ROUTING, PURSUING, RAMPAGE}:
            return None
        if self._enemy_distance(view, unit) <= self.t.movement.march_beyond:
            return None
        return self.t.movement.classes[u.troop.movement_class].march_move

    # ------------------------------------------------------------------ actions

    def actions(self) -> Sequence[ActionSpec]:
        return self._actions

    def resolve(self, action: str, sit: Situation, dice: Dice) -> Resolution:
        handler = _RESOLVERS.get(action)
        if handler is None:
            self.action(action)  # raises NotImplementedRule naming the known actions
            raise NotImplementedRule(f"Leg VI: {action}")
        return handler(self, sit, dice)

    def odds(self, action: str, sit: Situation) -> Odds:
        handler = _ODDS.get(action)
        if handler is None:
            raise NotImplementedRule(f"Leg VI: odds of {action}")
        return normalise(handler(self, sit))

    def derive_options(self, action: str, sit: Situation) -> dict[str, Scalar]:
        """The base's reading of the table (the target's ``aspect``, the ``distance``), and
        for a combat who charged this turn, from the ``charging`` markers the charge action
        leaves (none: a combat going on from an earlier turn)."""
        out = super().derive_options(action, sit)
        if action == "melee" and sit.actor is not None and sit.target is not None:
            a, d = sit.actor.status.has(CHARGING), sit.target.status.has(CHARGING)
            out["charge"] = "both" if a and d else "attacker" if a else "defender" if d else "none"
        return out

    def victory(self, view: TurnView) -> Victory | None:
        """Leg VI has no victory rule: the players declare the result."""
        return None

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
            base += cmd.actions_exceptional_bonus if leader.exceptional else 0
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
        return update, f"{leader.name} {_plural(left, 'action')} left"

    def _sides(
        self, side: Side, update: dict[str, Scalar]
    ) -> tuple[Mapping[str, Scalar] | None, Mapping[str, Scalar] | None]:
        return (update, None) if side == 0 else (None, update)

    def _leader_move(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Command, Move (1 action): up to 12" in the command phase, detaching from
        and/or attaching to units; the core moves him."""
        c, leader = self._leader(sit)
        update, left = self._spend(sit, leader, "move")
        dist = self.t.command.actions["move"].move
        return Resolution(
            sides=self._sides(c.side, update),
            explanation=(f"{leader.name} moves up to {_inches(dist or 0)} ({left}).",),
        )

    def _steady(self, sit: Situation, dice: Dice) -> Resolution:
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
        words = f"{leader.name} steadies {c.name}: {_plural(n, 'DP')} removed"
        if remove:
            words += ", no longer shaken"
        return Resolution(
            outcome=Outcome(attacker=eff, result="steadied"),
            sides=self._sides(c.side, update),
            explanation=(f"{words}; it stays halted this turn but may charge ({left}).",),
        )

    def _inspire(self, sit: Situation, dice: Dice) -> Resolution:
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

    def _control_parts(self, sit: Situation) -> tuple[LegUnit, str, int, list[str]]:
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
        return u, ct.dice[key].die, mod, words

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

    def _control_test(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Control Test: 1 AvD for light troops and A grade, a D6 for others; +1
        charging, looting, routing or pursuing; an attached leader may add or take 1 after
        the roll. 1-2 halt all turn (no charge), 3-4 act as wished, 5-6 repeat the last move
        (errata 'control-test-range': off the table counts as the end band). Routing,
        pursuing or looting units carry on only on 5 or more."""
        u, die, mod, words = self._control_parts(sit)
        (roll,) = dice.roll(die, f"control test for {u.name}")
        final, _band, eff = self._control_result(sit, u, roll + mod)
        label = band_of(self.t.control_test.results, final).label
        words.insert(0, f"Control test for {u.name}: rolled {roll}")
        if final != roll + mod:
            words.append(f"{final - roll - mod:+d} by the attached leader")
        words.append(f"score {final}: {label}")
        return Resolution(
            outcome=Outcome(attacker=eff, result=label), explanation=("; ".join(words),)
        )

    def _control_odds(self, sit: Situation) -> Odds:
        u, die, mod, _ = self._control_parts(sit)
        out: Odds = {}
        for v, p in faces_dist(faces(die)).items():
            final, _band, eff = self._control_result(sit, u, v + mod)
            label = band_of(self.t.control_test.results, final).label
            add_odds(out, Outcome(attacker=eff, result=label), p)
        return out

    # ------------------------------------------------------------------ dice moves

    def _move_dice(self, sit: Situation, u: LegUnit, kind: str) -> list[str]:
        """Leg VI, Move Distances: AvD plus an optional D6; cavalry a third optional D6 only
        if it moved earlier this turn. Evade, rout, retire and pursue (and a charge carried
        on past evaders) roll every die the unit may use (errata 'maximum-dice')."""
        maximum = kind != "move"
        moved = u.c.status.has(MOVED) or sit.flag("moved_earlier")
        out = []
        for i, d in enumerate(self.t.movement.classes[u.troop.movement_class].dice):
            if not d.optional:
                out.append(d.dice)
            elif d.condition is not None:
                if moved and (maximum or sit.flag("third_d6")):
                    out.append(d.dice)
            elif maximum or _flag(sit, "extra_d6", True) or i == 0:
                out.append(d.dice)
        return out

    def _fatigue_on(self, u: LegUnit, kind: str) -> tuple[int, ...]:
        """Leg VI, Fatigue: HI in line (not triarii) a DP for each move die of 5-6; other
        formed troops in line or quincunx on a 6; none for elephants, unformed troops,
        columns, or unformed moves (evade, rout, retire, pursue)."""
        if kind not in ("move", "charge_on") or u.elephant or u.unformed or u.column:
            return ()
        return self.t.fatigue.rules[u.troop.fatigue].on_results

    def _move_outcome(self, u: LegUnit, kind: str, rolled: Sequence[int], first: bool) -> Outcome:
        mv = self.t.movement
        pips = sum(rolled)
        bonus = mv.bonus_per_die * len(rolled) if kind in mv.bonus_moves and first else 0.0
        dist = pips + bonus
        tired = count_at_least(rolled, self._fatigue_on(u, kind))
        dp = take_dps(u, tired, "fatigue")
        eff = Effects(
            dps=dp.dps,
            markers_add=frozenset({MOVED}) - u.c.status.markers,
            move=f"{kind.replace('_', ' ')} {_inches(dist)}",
        )
        result = f"{_inches(dist)}" + (f", {_plural(dp.dps, 'fatigue DP')}" if dp.dps else "")
        return Outcome(attacker=eff, result=result)

    def _dice_move_parts(self, sit: Situation) -> tuple[LegUnit, str, list[str]]:
        u = self.u(sit.attacker)
        kind = sit.choice("kind", "move")
        if kind == "move" and sit.attacker.status.markers & HALTING_MARKERS:
            raise IllegalAction(f"{u.name} must stay halted this turn")
        return u, kind, self._move_dice(sit, u, kind)

    def _dice_move(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Non-March Moves: rolled and moved in full (halting 4" from formed enemy);
        formed units take fatigue DPs, never past 3 DPs in all; first rout and retire moves
        add 1" a die."""
        u, kind, specs = self._dice_move_parts(sit)
        rolled = [dice.roll(s, f"{kind.replace('_', ' ')} die for {u.name}")[0] for s in specs]
        out = self._move_outcome(u, kind, rolled, _flag(sit, "first", True))
        dice_words = " + ".join(
            f"{'AvD' if s == 'avd' else s.upper()} {r}" for s, r in zip(specs, rolled, strict=True)
        )
        words = [f"{u.name} {kind.replace('_', ' ')}: {dice_words} = {out.attacker.move}"]
        if out.attacker.dps:
            words.append(f"fatigue: {_plural(out.attacker.dps, 'DP')}")
        return Resolution(outcome=out, explanation=("; ".join(words),))

    def _dice_move_odds(self, sit: Situation) -> Odds:
        u, kind, specs = self._dice_move_parts(sit)
        out: Odds = {}
        dists = [faces_dist(faces(s)) for s in specs]
        first = _flag(sit, "first", True)
        for combo in itertools.product(*(d.items() for d in dists)):
            p = Fraction(1)
            for _, q in combo:
                p *= q
            add_odds(out, self._move_outcome(u, kind, [v for v, _ in combo], first), p)
        return out

    # ------------------------------------------------------------------ redress, rally

    def _redress(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Redress Ranks: a non-shaken unit standing still (not in combat) removes
        DPs: A grade 1, +1 beyond 4" of enemy; B grade 1; C and D 1 only beyond 4"."""
        c = sit.attacker
        u = self.u(c)
        if u.shaken:
            raise IllegalAction("Leg VI, Rallying: a shaken unit cannot redress ranks")
        if sit.flag("in_combat"):
            raise IllegalAction("Leg VI, Redress Ranks: not while in combat")
        if u.elephant:
            raise IllegalAction("Elephants take no DPs")
        rd = self.t.redress
        beyond = self._auto(
            sit, "enemy_near", lambda: self._enemy_distance(sit.view, c) <= rd.enemy_distance
        )
        beyond = not beyond
        row = next((r for r in rd.rows.values() if u.grade in r.grades), None)
        n = 0 if row is None else row.removed + (row.extra_beyond_enemy if beyond else 0)
        n = min(n, c.status.dps)
        eff = Effects(dps=-n, markers_add=frozenset({REDRESSED}))
        where = "beyond" if beyond else "within"
        return Resolution(
            outcome=Outcome(attacker=eff, result=f"{_plural(n, 'DP')} removed"),
            explanation=(
                f"{c.name} ({u.grade} grade, {where} {_inches(rd.enemy_distance)} of enemy) "
                f"redresses ranks: {_plural(n, 'DP')} removed; it stays halted but may charge.",
            ),
        )

    def _rally_check(self, sit: Situation, u: LegUnit) -> tuple[bool, str]:
        c = u.c
        start = c.status.extra.get(TURN_START)
        halted = self._auto(
            sit,
            "halted_all_turn",
            lambda: not c.status.has(MOVED) and (start is None or start == position_key(c)),
        )
        beyond = self._auto(
            sit,
            "enemy_beyond",
            lambda: (
                self._enemy_distance(sit.view, c, unbroken_only=True) > self.t.rally.halted_beyond
            ),
        )
        far = _inches(self.t.rally.halted_beyond)
        if not halted:
            return False, "it did not stay halted all turn"
        if not beyond:
            return False, f"unbroken enemy within {far}"
        return True, f"halted all turn beyond {far} of unbroken enemy"

    def _rally_effects(self, u: LegUnit) -> Effects:
        return Effects(
            dps=self.t.rally.dps_after - u.c.status.dps, markers_remove=frozenset({SHAKEN})
        )

    def _rally(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Rallying Shaken Units: a shaken unit halted for the whole turn beyond 8"
        of visible unbroken enemy rallies in the rally phase, left with 4 DPs (errata
        'rally-with-4-dps'). The end of the rally phase does this for every such unit."""
        c = sit.attacker
        u = self.u(c)
        if not c.status.has(SHAKEN) or u.routing:
            raise IllegalAction(f"{c.name} is not a shaken unit that has stopped routing")
        ok, why = self._rally_check(sit, u)
        if not ok:
            return Resolution(
                outcome=Outcome(result="does not rally"),
                explanation=(f"{c.name} cannot rally: {why}.",),
            )
        n = self.t.rally.dps_after
        return Resolution(
            outcome=Outcome(attacker=self._rally_effects(u), result="rallies"),
            explanation=(f"{c.name} rallies with {n} DPs ({why}).",),
        )

    def _reform(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Reform unformed troops: one full move once the cause has passed, in any
        formation and facing; not light troops; the unit may not charge this turn."""
        c = sit.attacker
        u = self.u(c)
        if u.light or u.elephant:
            raise IllegalAction("Light troops are always unformed; elephants have no formation")
        lasting = {SHAKEN, ROUTING, PURSUING} & c.status.markers
        if lasting:
            raise IllegalAction(f"{c.name} cannot reform while {', '.join(sorted(lasting))}")
        formation = sit.choice("formation", "line")
        if formation == "quincunx" and not u.legion:
            raise IllegalAction("Only legions form quincunx")
        eff = Effects(
            formation=formation,
            markers_add=frozenset({REFORMED}),
            markers_remove=frozenset({EVADING, RETIRING}) & c.status.markers,
        )
        return Resolution(
            outcome=Outcome(attacker=eff, result=f"reformed in {formation}"),
            explanation=(f"{c.name} reforms in {formation}; it may not charge this turn.",),
        )

    def _relieve_ranks(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Relieve Ranks: a legion in quincunx, on a halt, fall-back or follow-up,
        removes 1 DP and gets the charge bonus if the combat goes on; once per line beyond
        the first."""
        c = sit.attacker
        u = self.u(c)
        if not u.quincunx or not reliefs_left(u):
            raise IllegalAction(f"{c.name} has no fresh line left to relieve ranks")
        move = self.t.after_combat_moves.moves["relieve_ranks"]
        n = min(move.dps_removed, c.status.dps)
        eff = Effects(
            dps=-n,
            markers_add=frozenset({RELIEVED}),
            extra={RELIEFS: scalar_int(c.status.extra, RELIEFS) + 1},
        )
        return Resolution(
            outcome=Outcome(attacker=eff, result="ranks relieved"),
            explanation=(
                f"{c.name} relieves ranks: {_plural(n, 'DP')} removed, charge bonus next round.",
            ),
        )

    def _manoeuvre(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Manoeuvre and Rough Terrain. Within 8" of enemy formed troops take a DP to
        wheel (HI not in column; triarii manoeuvre as MI), change formation, about face
        (formed cavalry) or pass through friends (unless one unit is unformed or stationary
        and none routs, errata 'passage-of-lines'). Side-steps are for A and B grade formed
        infantry; open ranks for legions in quincunx. Rough terrain and light cover cost the
        troop's row (blank: impassable). None of these once the unit has 3 DPs."""
        c = sit.attacker
        u = self.u(c)
        kind = sit.choice("kind", "wheel")
        mv = self.t.manoeuvres
        near = self._auto(
            sit, "enemy_near", lambda: self._enemy_distance(sit.view, c) <= mv.dp_range
        )
        n = 0
        formation: str | None = None
        add: frozenset[str] = frozenset()
        remove: frozenset[str] = frozenset()
        if kind in ("rough_terrain", "light_cover"):
            row_id = "unformed_infantry" if u.infantry and u.unformed else u.troop.rough_terrain
            row = self.t.rough_terrain.rows[row_id]
            cost = row.dps if kind == "rough_terrain" else row.light_cover_dps
            if cost is None:
                raise IllegalAction(f"Leg VI, Rough Terrain: impassable to {c.name}")
            n = cost
        elif kind == "side_step":
            if u.grade not in u.troop.side_step_grades or not u.formed_infantry:
                raise IllegalAction("Leg VI, Side-step: A and B grade formed infantry only")
        elif kind == "open_ranks":
            if not u.quincunx:
                raise IllegalAction("Leg VI, Open ranks: legions in quincunx only")
            if c.status.has(OPEN_RANKS):
                remove = frozenset({OPEN_RANKS})
            else:
                add = frozenset({OPEN_RANKS})
        elif kind in mv.items:
            hi_like = u.heavy_infantry and u.troop.manoeuvres_as is None
            charged = {
                "wheel": hi_like and not u.column,
                "change_formation": u.formed,
                "about_face": u.formed and u.cavalry,
                "passage_of_lines": u.formed and not sit.flag("exempt"),
            }.get(kind, False)
            n = mv.items[kind].dps if near and charged else 0
            if kind == "change_formation":
                formation = "column" if c.status.formation != "column" else "line"
                if u.legion and formation == "line":
                    formation = "quincunx"
        else:
            raise IllegalAction(f"unknown manoeuvre {kind!r}")
        dp = take_dps(u, n, "fatigue")
        eff = Effects(dps=dp.dps, formation=formation, markers_add=add, markers_remove=remove)
        label = kind.replace("_", " ")
        return Resolution(
            outcome=Outcome(attacker=eff, result=f"{label}: {_plural(dp.dps, 'DP')}"),
            explanation=(f"{c.name}: {label}, {_plural(dp.dps, 'DP')}.",),
        )

    def _leader_captured(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Risk to Leader: an unattached leader contacted by any enemy troops is
        captured (pass a stand-in combatant carrying him). Units within 4" take the morale
        DPs of a lost leader."""
        c, leader = sit.attacker, sit.attacker.leader
        if leader is None:
            raise IllegalAction("no leader given")
        pending: dict[str, Pending] = {}
        words = [f"{leader.name} is captured."]
        self._morale_others(
            sit.view, c, leader_morale_dps(self.t, leader), f"{leader.name} lost", pending, words
        )
        return Resolution(
            others=self._finish(sit.view, pending),
            leader_events=(LeaderEvent(leader.id, "captured", leader.wounds, words[0]),),
            explanation=tuple(words),
        )

    # ------------------------------------------------------------------ morale, moves

    def _morale_others(
        self,
        view: TurnView | None,
        unit: Combatant,
        n: int,
        why: str,
        pending: dict[str, Pending],
        words: list[str],
    ) -> None:
        """Leg VI, morale DPs: friends within 4" of a unit retiring, routed or destroyed, or
        of a leader killed or routed (elephants take none)."""
        if n <= 0:
            return
        within = self.t.morale_dps.triggers["friend_routed"].within or 0.0
        for o in self._friends_near(view, unit, within):
            if self.u(o).elephant:
                continue
            pending.setdefault(o.unit_id, Pending()).morale += n
            words.append(f"{o.name}: {_plural(n, 'morale DP')} ({why}).")

    def _finish(self, view: TurnView | None, pending: dict[str, Pending]) -> tuple[UnitChange, ...]:
        """Turn the DPs gathered for other units into effects: a support's share of its
        combat result (DPs, never casualties) and morale DPs (shaken units lose bases)."""
        out = []
        units = {c.unit_id: c for c in view.units} if view else {}
        for uid, p in pending.items():
            c = p.unit or units.get(uid)
            if c is None:
                continue
            u = self.u(c)
            r = take_dps(u, p.band + p.morale, "morale")
            band_only = take_dps(u, p.band, "combat")
            eff = Effects(
                dps=r.dps,
                casualties=max(0, r.casualties - band_only.casualties),
                markers_add=frozenset(p.markers | ({SHAKEN} if r.shaken else set()))
                - c.status.markers,
                formation=p.formation,
                move=p.move,
                shift=p.shift,
            )
            out.append(UnitChange(uid, eff))
        return tuple(out)

    def _dps(self, u: LegUnit, n: int, kind: str) -> Effects:
        r = take_dps(u, n, "morale" if kind == "morale" else "combat")
        return Effects(
            dps=r.dps,
            casualties=r.casualties,
            markers_add=frozenset({SHAKEN}) if r.shaken else frozenset(),
        )

    def _loss_morale(
        self,
        view: TurnView | None,
        c: Combatant,
        eff: Effects,
        changes: dict[str, Pending],
        words: list[str],
    ) -> None:
        """Morale DPs caused by what happened to ``c``: it routed or was destroyed (2 DPs
        within 4" unless light), retired (1 DP if HI or MI), its leader routed with it."""
        u = self.u(c)
        trig = self.t.morale_dps.triggers
        gone = eff.eliminated or eff.casualties >= c.status.strength
        if (ROUTING in eff.markers_add or gone) and not u.light:
            self._morale_others(
                view, c, trig["friend_routed"].dps, f"{c.name} lost", changes, words
            )
        elif RETIRING in eff.markers_add and u.category in (
            Category.HEAVY_INFANTRY,
            Category.MEDIUM_INFANTRY,
        ):
            self._morale_others(
                view, c, trig["friend_retiring"].dps, f"{c.name} retiring", changes, words
            )
        if ROUTING in eff.markers_add and c.leader is not None:
            self._morale_others(
                view,
                c,
                leader_morale_dps(self.t, c.leader),
                f"{c.leader.name} routed",
                changes,
                words,
            )

    def _morale(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, morale DPs taken at once: 1 for each friendly HI or MI unit retiring
        within 4", 2 for each non-light friend routed or destroyed within 4", 1 for a leader
        killed or routed within 4" (2 for the General), 2 for formed troops burst through by
        rampaging elephants. Elephants take none."""
        c = sit.attacker
        u = self.u(c)
        trig = self.t.morale_dps.triggers
        event = sit.choice("event", "friend_routed")
        if event == "general_lost":
            n = trig["leader_lost"].dps_general or trig["leader_lost"].dps
            label = trig["leader_lost"].event
        else:
            n, label = trig[event].dps, trig[event].event
        if event == "elephant_burst" and not u.formed:
            n = self.t.rampage.burst_through_dps_unformed
        n *= max(1, sit.number("count", 1))
        eff = Effects() if u.elephant else self._dps(u, n, "morale")
        r = take_dps(u, n, "morale")
        return Resolution(
            outcome=Outcome(attacker=eff, result=dp_words(r)),
            explanation=(f"{c.name}: {label}: {dp_words(r)}.",),
        )

    def _after_combat_move(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, After Combat Moves: the move the player chose (or was told) to make.
        Fall-back and retire blocked: stay and lose a base; rout blocked: surrender to enemy
        within 4". Retire, rout and pursue leave the unit unformed; morale DPs to friends
        within 4" come from a retirement or rout not already marked by the combat.

        On the table: the combat itself made a compulsory fall back, pass-through or
        retirement behind the triarii (``after_combat_shift``), so this moves only what it
        left to the player: a legion that could relieve ranks and chose to fall back goes
        1" back (to its rear, still facing the enemy). Moves of dice (retire, rout, pursue)
        are rolled with ``dice_move`` and made by the player."""
        c = sit.attacker
        u = self.u(c)
        key = sit.choice("move", "halt")
        moves = self.t.after_combat_moves.moves
        if key not in moves or key == "relieve_ranks":
            raise IllegalAction(f"unknown after-combat move {key!r}")
        move = moves[key]
        blocked = sit.flag("blocked")
        add: set[str] = set()
        casualties, eliminated = 0, False
        if key == "retire_behind_triarii" and not (
            u.quincunx and u.lines >= len(self.t.legion.lines)
        ):
            raise IllegalAction("Only a legion in three lines retires behind its triarii")
        if key == "retire":
            add.add(RETIRING)
        elif key == "rout":
            add |= {ROUTING, SHAKEN}
        elif key == "pursue":
            add.add(PURSUING)
        if blocked and move.blocked_casualties:
            casualties = move.blocked_casualties
        if blocked and key == "rout":
            within = move.surrender_within or 0.0
            eliminated = self._enemy_distance(sit.view, c) <= within or sit.view is None
        fresh = frozenset(add) - c.status.markers
        text = f"{move.name} {_inches(move.distance)}" if move.distance else move.name
        shift = None
        made = key in ("fall_back", "pass_through") or (
            key == "retire_behind_triarii" and c.depth > 0
        )
        if key == "fall_back" and move.distance is not None and may_relieve(u, (key,)):
            made = False
            if not blocked:
                shift = ((c.facing + 180.0) % 360, move.distance)
        if made:
            text += " (made with the combat)"
        eff = Effects(
            casualties=casualties,
            eliminated=eliminated,
            markers_add=fresh,
            formation="unformed" if (add and not move.formed and not u.light) else None,
            move=text + (" blocked" if blocked else ""),
            shift=shift,
        )
        words = [f"{c.name}: {eff.move}"]
        if made and blocked:
            words.append("the combat has already moved it: put it back where it stood")
        if casualties:
            words.append(f"unable to move, loses {_plural(casualties, 'base')}")
        if eliminated:
            words.append("unable to rout away, it surrenders")
        changes: dict[str, Pending] = {}
        self._loss_morale(sit.view, c, eff, changes, words)
        return Resolution(
            outcome=Outcome(attacker=eff, result=eff.move or key),
            others=self._finish(sit.view, changes),
            explanation=("; ".join(words),),
        )

    # ------------------------------------------------------------------ rampage

    def _rampage_parts(self, c: Combatant) -> tuple[int | None, list[str]]:
        if not c.status.has(RAMPAGE):
            raise IllegalAction(f"{c.name} is not rampaging")
        pending = c.status.extra.get(RAMPAGE_DIRECTION)
        return (int(pending) if pending is not None else None), list(self.t.rampage.move_dice)

    def _rampage_outcome(self, c: Combatant, direction: int, dist: int) -> Outcome:
        """The rampage move: the rolled direction clockwise from the elephant's facing (it
        has turned to face the cause) and the rolled inches, made on the table."""
        d = next(x for x in self.t.rampage.directions if x.roll == direction)
        eff = Effects(
            markers_add=frozenset({MOVED}) - c.status.markers,
            extra_remove=frozenset({RAMPAGE_DIRECTION}) & frozenset(c.status.extra),
            move=f"rampage {_inches(dist)} {d.direction.lower()} ({d.bearing_degrees} degrees)",
            shift=((c.facing + d.bearing_degrees) % 360, float(dist)),
        )
        return Outcome(attacker=eff, result=f"{d.direction}, {_inches(dist)}")

    def _rampage(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Elephant critical hits: a rampaging elephant turns to face the cause, rolls
        a D6 for direction (errata 'rampage-diagram': six ways 60 degrees apart) unless a
        failed stop attempt already rolled it, and moves at full speed (AvD + D6, errata
        'rampage-speed'). Formed troops it bursts through (``others``) take 2 DPs; unformed
        troops and legions with open ranks let it pass. The core moves the elephant the rolled
        inches in the rolled direction, read clockwise from its facing (``Effects.shift``):
        turn it to face the cause first, as the combat result says."""
        c = sit.attacker
        pending, specs = self._rampage_parts(c)
        if pending is None:
            (pending,) = dice.roll(self.t.rampage.direction_die, f"rampage direction for {c.name}")
        rolled = [dice.roll(s, f"rampage move for {c.name}")[0] for s in specs]
        out = self._rampage_outcome(c, pending, sum(rolled))
        words = [
            f"{c.name} rampages: direction {pending}, move {' + '.join(map(str, rolled))}"
            f" = {out.attacker.move}"
        ]
        changes = []
        for o in sit.others:
            ou = self.u(o)
            if ou.elephant or ou.unformed or o.status.has(OPEN_RANKS):
                words.append(f"{o.name} lets it pass")
                continue
            n = self.t.rampage.burst_through_dps_formed
            eff = self._dps(ou, n, "morale")
            changes.append(UnitChange(o.unit_id, eff))
            words.append(f"{o.name} is burst through: {dp_words(take_dps(ou, n, 'morale'))}")
        return Resolution(outcome=out, others=tuple(changes), explanation=("; ".join(words),))

    def _rampage_odds(self, sit: Situation) -> Odds:
        c = sit.attacker
        pending, specs = self._rampage_parts(c)
        dirs = (
            {pending: Fraction(1)}
            if pending is not None
            else faces_dist(faces(self.t.rampage.direction_die))
        )
        dist = {0: Fraction(1)}
        for s in specs:
            nxt: dict[int, Fraction] = {}
            for a, pa in dist.items():
                for b, pb in faces_dist(faces(s)).items():
                    nxt[a + b] = nxt.get(a + b, Fraction(0)) + pa * pb
            dist = nxt
        out: Odds = {}
        for d, pd in dirs.items():
            for m, pm in dist.items():
                add_odds(out, self._rampage_outcome(c, d, m), pd * pm)
        return out

    def _stop_bonus(self, c: Combatant) -> int:
        sr = self.t.stop_rampage
        tries = scalar_int(c.status.extra, STOP_ATTEMPTS)
        if sr.bonus_cumulative:
            return sr.bonus_per_turn_after_first * tries
        return sr.bonus_per_turn_after_first if tries else 0

    def _stop_outcome(self, c: Combatant, roll: int, direction: int | None) -> Outcome:
        sr = self.t.stop_rampage
        if roll + self._stop_bonus(c) >= sr.destroyed_on_at_least:
            return Outcome(attacker=Effects(eliminated=True), result="killed by its mahout")
        d = next(x for x in self.t.rampage.directions if x.roll == direction)
        eff = Effects(
            markers_add=frozenset({RAMPAGE_TESTED}) - c.status.markers,
            extra={
                STOP_ATTEMPTS: scalar_int(c.status.extra, STOP_ATTEMPTS) + 1,
                RAMPAGE_DIRECTION: d.roll,
            },
        )
        return Outcome(attacker=eff, result=f"rampage goes on: {d.direction.lower()}")

    def _stop_rampage(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Attempt to stop Rampage: a D6 per rampaging elephant, 5-6 and its mahout
        kills it, +2 for each turn of rampage after the first (errata 'stop-rampage-bonus',
        counted by attempts). Otherwise roll a new direction; it rampages again in the
        manoeuvre phase (``rampage`` action)."""
        c = sit.attacker
        self._rampage_parts(c)
        sr = self.t.stop_rampage
        (roll,) = dice.roll(sr.die, f"attempt to stop {c.name}'s rampage")
        bonus = self._stop_bonus(c)
        direction = None
        if roll + bonus < sr.destroyed_on_at_least:
            (direction,) = dice.roll(self.t.rampage.direction_die, f"new direction for {c.name}")
        out = self._stop_outcome(c, roll, direction)
        words = f"Stopping {c.name}'s rampage: {roll}" + (f" {bonus:+d}" if bonus else "")
        return Resolution(outcome=out, explanation=(f"{words}: {out.result}.",))

    def _stop_odds(self, sit: Situation) -> Odds:
        c = sit.attacker
        self._rampage_parts(c)
        out: Odds = {}
        dirs = faces_dist(faces(self.t.rampage.direction_die))
        for v, p in faces_dist(faces(self.t.stop_rampage.die)).items():
            if v + self._stop_bonus(c) >= self.t.stop_rampage.destroyed_on_at_least:
                add_odds(out, self._stop_outcome(c, v, None), p)
            else:
                for d, q in dirs.items():
                    add_odds(out, self._stop_outcome(c, v, d), p * q)
        return out

    # ------------------------------------------------------------------ leaders at risk

    def _leader_fallout(
        self,
        view: TurnView | None,
        c: Combatant,
        fate: LeaderFate,
        pending: dict[str, Pending],
        words: list[str],
        events: list[LeaderEvent],
        sides: list[dict[str, Scalar] | None],
    ) -> None:
        """Leg VI, Risk to Leader: a wound costs an action (a second one kills); a killed
        leader's second in command takes over next turn with 1 action, and units within 4"
        take 1 morale DP (2 for the General; his own unit's DPs are in its effects)."""
        leader = c.leader
        if leader is None or fate == "ok":
            return
        if fate == "wounded":
            events.append(
                LeaderEvent(leader.id, "wounded", leader.wounds + 1, f"{leader.name} wounded")
            )
            return
        dd = self.t.die_of_death
        text = f"{leader.name} killed"
        if view is not None:
            due = view.turn + dd.successor_delay_turns
            rec = sides[c.side] or {}
            rec[f"successor:{leader.id}"] = due
            sides[c.side] = rec
            text += f"; his second in command takes over in turn {due} with " + _plural(
                dd.successor_actions, "action"
            )
        events.append(LeaderEvent(leader.id, "killed", leader.wounds, text))
        words.append(text + ".")
        n = leader_morale_dps(self.t, leader)
        self._morale_others(view, c, n, f"{leader.name} killed", pending, words)

    # ------------------------------------------------------------------ shooting

    def _shoot_parts(self, sit: Situation) -> tuple[LegUnit, LegUnit, int, tuple[str, ...]]:
        a, d = self.u(sit.attacker), self.u(sit.defender)
        if not a.troop.shoots:
            raise IllegalAction(f"Leg VI, Shooting: only light troops shoot, not {a.name}")
        if a.routing:
            raise IllegalAction(f"{a.name} is routing")
        aspect = sit.choice("aspect", "front")
        strength = a.c.status.strength
        bases = min(sit.number("bases", 0) or strength, strength)
        sd = shooting_dice(self.t, a, d, bases, sit.flag("cover"), aspect)
        return a, d, sd.dice, sd.reasons

    def _shoot_outcome(
        self, d: LegUnit, hits: int, el_fate: ElephantFate, leader_fate: LeaderFate
    ) -> Outcome:
        label = _plural(hits, "hit")
        if d.elephant:
            eff = combat_effects_elephant(el_fate)
            if el_fate != "unharmed":
                label += f"; elephant {'destroyed' if el_fate == 'destroyed' else 'rampages'}"
            return Outcome(defender=eff, result=label)
        n = hits * self.t.shooting.dps_per_hit
        leader = d.c.leader
        morale = leader_morale_dps(self.t, leader) if leader and leader_fate == "killed" else 0
        eff = self._dps(d, n + morale, "shooting")
        if leader_fate != "ok":
            label += f"; leader {leader_fate}"
        return Outcome(defender=eff, result=label)

    def _shoot(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Shooting: 1 D6 per base in range (4"), halved once against light
        infantry, cover, formed HI from the front or a quincunx legion's front or flank
        (rounding up), -1 die per shooter DP, +1 die at elephants, at least 1 die. Each 6 is
        a DP (shaken targets lose a base instead); at an elephant each 6 is a critical-hit
        test. A leader with a unit taking a shooting DP rolls the die of death."""
        a, d, n, why = self._shoot_parts(sit)
        sh = self.t.shooting
        rolled = dice.roll(f"{n}{sh.die}", f"shooting by {a.name} at {d.name}")
        hits = count_at_least(rolled, sh.hit_on)
        words = [
            f"{a.name} shoots at {d.name}: " + "; ".join(why),
            f"rolled {' '.join(map(str, rolled))}: {_plural(hits, 'hit')}",
        ]
        el_fate: ElephantFate = "unharmed"
        fate: LeaderFate = "ok"
        if d.elephant:
            el_fate, ew = roll_elephant_fate(self.t, hits, 0, dice, d.name)
            words += ew
        elif hits * sh.dps_per_hit and d.c.leader is not None:
            fate, lw = roll_leader_fate(self.t, d.c.leader, dice, "his unit took a shooting DP")
            words += lw
        out = self._shoot_outcome(d, hits, el_fate, fate)
        pending: dict[str, Pending] = {}
        events: list[LeaderEvent] = []
        sides: list[dict[str, Scalar] | None] = [None, None]
        if not d.elephant:
            r = take_dps(d, hits * sh.dps_per_hit, "shooting")
            words.append(f"{d.name}: {dp_words(r)}")
        self._leader_fallout(sit.view, d.c, fate, pending, words, events, sides)
        self._loss_morale(sit.view, d.c, out.defender, pending, words)
        return Resolution(
            outcome=out,
            others=self._finish(sit.view, pending),
            sides=(sides[0], sides[1]),
            leader_events=tuple(events),
            explanation=tuple(words),
        )

    def _shoot_odds(self, sit: Situation) -> Odds:
        _a, d, n, _ = self._shoot_parts(sit)
        sh = self.t.shooting
        out: Odds = {}
        for hits, p in binomial(n, p_faces(sh.die, sh.hit_on)).items():
            if d.elephant:
                for el, q in elephant_fate_dist(self.t, hits).items():
                    add_odds(out, self._shoot_outcome(d, hits, el, "ok"), p * q)
            elif hits * sh.dps_per_hit:
                for lf, q in leader_fate_dist(self.t, d.c.leader).items():
                    add_odds(out, self._shoot_outcome(d, hits, "unharmed", lf), p * q)
            else:
                add_odds(out, self._shoot_outcome(d, hits, "unharmed", "ok"), p)
        return out

    # ------------------------------------------------------------------ charges

    def _check_charge(self, a: LegUnit, d: LegUnit) -> None:
        """Leg VI, Charges: light infantry charge only light infantry or elephants; light
        cavalry only cavalry or unformed troops; no unit charges while shaken, in column,
        halted by a control test or after re-forming this turn."""
        s = a.c.status
        for barred, why in (
            (a.shaken, "shaken"),
            (a.column, "in column"),
            (s.has(CONTROL_HALT), "halted by a control test"),
            (s.has(REFORMED), "re-formed this turn"),
        ):
            if barred:
                raise IllegalAction(f"Leg VI, Charges: {a.name} cannot charge ({why})")
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
            raise IllegalAction(f"Leg VI, Charges: {a.name} may charge only {allowed}")

    def _charge(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Charges: move into contact without dice (mutual charges meet half way).
        Light troops and medium cavalry may evade a full move (all their dice, unformed);
        A and B grade formed infantry may then halt on the vacated ground, others roll all
        their dice (with fatigue) and charge on: evaders caught (charge move reaching the
        ``distance`` plus the evade move) rout and suffer a free hack, one die per engaged base,
        a casualty on 4+. Elephants pass through light troops standing (1 DP to them) and
        through a legion's open ranks on 1-3. The evaders' rolled move is made on the table,
        directly away from the chargers (``Effects.shift``); the chargers' moves, whose end
        depends on what they meet, stay in words."""
        a, d = self.u(sit.attacker), self.u(sit.defender)
        self._check_charge(a, d)
        ch = self.t.charges
        mutual = sit.flag("mutual")
        response = "stand" if mutual else sit.choice("response", "stand")
        if response not in d.troop.charge_responses:
            raise IllegalAction(f"Leg VI, Charges: {d.name} may only stand")
        charging = frozenset({CHARGING, MOVED}) - a.c.status.markers
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
            (roll,) = dice.roll(ch.elephant_open_ranks_die, f"{a.name} at open ranks")
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
        return self._evade(sit, a, d, charging, words, dice)

    def _evade(
        self,
        sit: Situation,
        a: LegUnit,
        d: LegUnit,
        charging: frozenset[str],
        words: list[str],
        dice: Dice,
    ) -> Resolution:
        ch = self.t.charges
        specs = self._move_dice(Situation(actor=d.c), d, "evade")
        ev = [dice.roll(s, f"evade move for {d.name}")[0] for s in specs]
        unformed = "unformed" if not d.light else None
        words.append(f"{d.name} evades {_inches(sum(ev))} ({' + '.join(map(str, ev))})")
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
                    move=f"evade {_inches(sum(ev))}",
                    shift=away,
                ),
                result="evaded",
            )
            return Resolution(outcome=out, explanation=("; ".join(words),))
        cspecs = self._move_dice(Situation(actor=a.c), a, "charge_on")
        cm = [dice.roll(s, f"charge move for {a.name}")[0] for s in cspecs]
        chase = self._move_outcome(a, "charge_on", cm, False)
        gap = sit.number("distance", int(ch.range))
        caught = sum(cm) >= gap + sum(ev)
        words.append(
            f"{a.name} charges on {_inches(sum(cm))} ({' + '.join(map(str, cm))}) against "
            f"{_inches(gap)} + {_inches(sum(ev))}: " + ("caught" if caught else "got away")
        )
        eff_a = Effects(
            dps=chase.attacker.dps,
            markers_add=charging,
            move=("catch the evaders" if caught else f"charge on {_inches(sum(cm))}"),
        )
        if chase.attacker.dps:
            words.append(f"fatigue: {_plural(chase.attacker.dps, 'DP')}")
        if not caught:
            eff_d = Effects(
                markers_add=frozenset({EVADING, MOVED}) - d.c.status.markers,
                formation=unformed,
                move=f"evade {_inches(sum(ev))}",
                shift=away,
            )
            return Resolution(
                outcome=Outcome(attacker=eff_a, defender=eff_d, result="evaded"),
                explanation=("; ".join(words),),
            )
        fh = ch.free_hack
        bases = sit.number("engaged_bases", 0) or default_engaged_bases(self.t, a)
        n = bases * fh.dice_per_engaged_base
        hack = dice.roll(f"{n}{fh.die}", f"free hack by {a.name}")
        cas = sum(1 for f in hack if f >= fh.casualty_on_at_least)
        words.append(
            f"free hack {' '.join(map(str, hack))}: {_plural(cas, 'casualty')}; {d.name} routs"
        )
        eff_d = Effects(
            casualties=cas,
            markers_add=frozenset({ROUTING, SHAKEN, MOVED}) - d.c.status.markers,
            formation=unformed,
            move=f"evade {_inches(sum(ev))}, caught: rout",
            shift=away,
        )
        pending: dict[str, Pending] = {}
        self._loss_morale(sit.view, d.c, eff_d, pending, words)
        return Resolution(
            outcome=Outcome(attacker=eff_a, defender=eff_d, result="caught and routed"),
            others=self._finish(sit.view, pending),
            explanation=("; ".join(words),),
        )

    def _hack_parts(self, sit: Situation) -> tuple[LegUnit, LegUnit, int]:
        a, d = self.u(sit.attacker), self.u(sit.defender)
        fh = self.t.charges.free_hack
        bases = sit.number("engaged_bases", 0) or default_engaged_bases(self.t, a)
        return a, d, bases * fh.dice_per_engaged_base

    def _hack_outcome(self, d: LegUnit, cas: int) -> Outcome:
        eff = Effects(
            casualties=cas,
            markers_add=frozenset({ROUTING, SHAKEN}) - d.c.status.markers,
            formation="unformed" if not d.light and d.c.status.formation != "unformed" else None,
        )
        return Outcome(defender=eff, result=_plural(cas, "casualty"))

    def _free_hack(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Charges and Pursue: evaders caught by chargers, and routers caught by
        pursuers, suffer a free hack: one die per engaged base (errata 'free-hack-per-base'),
        a casualty for each 4+."""
        a, d, n = self._hack_parts(sit)
        fh = self.t.charges.free_hack
        rolled = dice.roll(f"{n}{fh.die}", f"free hack by {a.name} on {d.name}")
        cas = sum(1 for f in rolled if f >= fh.casualty_on_at_least)
        out = self._hack_outcome(d, cas)
        return Resolution(
            outcome=out,
            explanation=(
                f"{a.name} hacks at the routing {d.name} with {n} dice: "
                f"{' '.join(map(str, rolled))}: {out.result}.",
            ),
        )

    def _free_hack_odds(self, sit: Situation) -> Odds:
        _a, d, n = self._hack_parts(sit)
        fh = self.t.charges.free_hack
        p = p_faces(fh.die, [f for f in faces(fh.die) if f >= fh.casualty_on_at_least])
        out: Odds = {}
        for k, q in binomial(n, p).items():
            add_odds(out, self._hack_outcome(d, k), q)
        return out

    # ------------------------------------------------------------------ combat

    def _melee_sides(self, sit: Situation) -> tuple[CombatSide, CombatSide]:
        """The two sides with their situation: who charged (``charge``), who followed up or
        pursued into contact (``follow_up``), where the charged unit was struck (``flank``),
        advantage of ground, supports (a three-line quincunx legion is supported by its
        triarii), engaged bases (0 = counted from the formation), an average grade for
        several units, countercharged infantry and a later round."""
        a, d = self.u(sit.attacker), self.u(sit.defender)
        for x in (a, d):
            if x.routing or x.c.status.eliminated:
                raise IllegalAction(f"{x.name} is routing or gone: it cannot fight a combat")
        charge = sit.choice("charge", "attacker")
        follow = sit.choice("follow_up", "none")
        flank: Aspect = _ASPECTS.get(sit.choice("aspect", "front"), "front")
        ground = sit.choice("ground", "none")
        cc = sit.choice("countercharged", "none")
        later = sit.number("round", 1) >= 2
        a_struck: Aspect = flank if charge == "defender" else "front"
        d_struck: Aspect = flank if charge in ("attacker", "none") else "front"
        t = self.t

        def side(u: LegUnit, e: LegUnit, me: str, struck: Aspect, e_struck: Aspect) -> CombatSide:
            other = "defender" if me == "attacker" else "attacker"
            prefix = me[0]
            grade = sit.choice(f"{prefix}_grade", "unit")
            charged = charge in (me, "both")
            return CombatSide(
                unit=u,
                enemy=e,
                bases=sit.number(f"{prefix}_bases", 0) or default_engaged_bases(t, u),
                grade=u.grade if grade == "unit" else grade,
                supported=sit.flag(f"{prefix}_supported")
                or (
                    t.support.legion_third_line_supports
                    and u.quincunx
                    and u.lines >= len(t.legion.lines)
                ),
                charged=charged,
                followed_up=follow == me,
                enemy_charged=charge in (other, "both"),
                struck_in=struck,
                enemy_struck_in=e_struck,
                ground=ground == me,
                enemy_ground=ground == other,
                countercharged=cc == me
                or (charge == "both" and u.infantry and (e.cavalry or e.elephant)),
                later_round=later,
            )

        return side(a, d, "attacker", a_struck, d_struck), side(
            d, a, "defender", d_struck, a_struck
        )

    def _results(self, A: CombatSide, D: CombatSide, diff: int) -> tuple[SideResult, SideResult]:
        """Each side's band; the side that did not win is settled first, since a winner's
        follow-up or pursuit depends on the loser's move."""
        ba, bd = result_band(self.t, diff), result_band(self.t, -diff)
        if diff >= 0:
            rd = side_result(self.t, D, bd, ())
            return side_result(self.t, A, ba, rd.moves), rd
        ra = side_result(self.t, A, ba, ())
        return ra, side_result(self.t, D, bd, ra.moves)

    def _melee_outcome(
        self,
        A: CombatSide,
        D: CombatSide,
        ra: SideResult,
        rd: SideResult,
        ela: ElephantFate,
        eld: ElephantFate,
        la: LeaderFate,
        ld: LeaderFate,
        cache: SideCache | None = None,
    ) -> Outcome:
        cache = {} if cache is None else cache
        ea, na = self._side_outcome(A, ra, rd.inflicts, ela, la, "attacker", cache)
        ed, nd = self._side_outcome(D, rd, ra.inflicts, eld, ld, "defender", cache)
        bands = self.t.combat_results.bands
        notes = [f"{bands[ra.band].name} / {bands[rd.band].name}", *na, *nd]
        return Outcome(attacker=ea, defender=ed, result="; ".join(notes))

    def _side_outcome(
        self,
        s: CombatSide,
        r: SideResult,
        inflicted: int,
        el: ElephantFate,
        lf: LeaderFate,
        who: str,
        cache: SideCache,
    ) -> tuple[Effects, list[str]]:
        """One side's effects and notes (memoised within one odds computation, which asks
        for each many times)."""
        key = (who, r, inflicted, el, lf)
        hit = cache.get(key)
        if hit is not None:
            return hit
        eff = combat_effects(self.t, s, r, inflicted, el, lf)
        notes = []
        if s.unit.elephant and el != "unharmed":
            notes.append(f"{who} elephant {'destroyed' if el == 'destroyed' else 'rampages'}")
        if lf != "ok":
            notes.append(f"{who} leader {lf}")
        cache[key] = (eff, notes)
        return eff, notes

    def _melee(self, sit: Situation, dice: Dice) -> Resolution:
        """Leg VI, Resolving combat: each side rolls its dice (see ``combat_dice``), hits on
        5-6 or on 6 in the listed situations, plus one automatic hit for an attached leader.
        The hit difference gives each side's band (victory 4+, success +1..+3, inconclusive,
        set-back -1..-3, defeat -4 or worse) with its DPs, casualties, rout and after-combat
        move; elephants test critical hits instead of taking DPs; each attached leader rolls
        the die of death. Supports (``others``) share the DPs and the move. A compulsory move
        of a fixed distance (fall back, pass through, retire behind the triarii) is made on
        the table at once (``Effects.shift``, see ``after_combat_shift``); the rest stay in
        words for the after-combat moves phase."""
        A, D = self._melee_sides(sit)
        t = self.t
        words: list[str] = []
        hits = []
        for s in (A, D):
            n, why = combat_dice(t, s)
            on, hard = hit_faces(t, s)
            rolled = dice.roll(f"{n}{t.combat_dice.die}", f"combat dice for {s.unit.name}")
            auto = t.hit_numbers.leader_automatic_hits if s.leader else 0
            h = count_at_least(rolled, on) + auto
            hits.append(h)
            need = "6" if len(on) == 1 else f"{min(on)}-{max(on)}"
            words.append(
                f"{s.unit.name}: {n} dice ({'; '.join(why)}); hits on {need}"
                + (f" ({'; '.join(hard)})" if hard else "")
                + f"; rolled {' '.join(map(str, rolled))}: {_plural(h, 'hit')}"
                + (f" including {auto} for {s.leader.name}" if s.leader and auto else "")
            )
        diff = hits[0] - hits[1]
        ra, rd = self._results(A, D, diff)
        bands = t.combat_results.bands
        words.append(
            f"Hit difference {diff:+d}: {A.unit.name} {bands[ra.band].name.lower()}, "
            f"{D.unit.name} {bands[rd.band].name.lower()}"
        )
        fates: list[ElephantFate] = []
        for s, r in ((A, ra), (D, rd)):
            fate: ElephantFate = "unharmed"
            if s.unit.elephant:
                fate, ew = roll_elephant_fate(t, r.crit_tests, r.auto_crits, dice, s.unit.name)
                words += ew
            fates.append(fate)
        lfates: list[LeaderFate] = []
        for s in (A, D):
            lf, lw = roll_leader_fate(t, s.leader, dice, "his unit fought a round of combat")
            lfates.append(lf)
            words += lw
        out = self._melee_outcome(A, D, ra, rd, fates[0], fates[1], lfates[0], lfates[1])
        for s, eff in ((A, out.attacker), (D, out.defender)):
            if not s.unit.elephant:
                bits = [dp_words(take_dps(s.unit, eff.dps, "combat")) if eff.dps else ""]
                if eff.casualties:
                    bits.append(_plural(eff.casualties, "base") + " lost")
                if ROUTING in eff.markers_add:
                    bits.append("routs")
                words.append(
                    f"{s.unit.name}: "
                    + ", ".join(b for b in bits if b)
                    + (f"; {eff.move}" if eff.move else "")
                )
            elif eff.move:
                words.append(f"{s.unit.name}: {eff.move}")
        pending: dict[str, Pending] = {}
        events: list[LeaderEvent] = []
        sides: list[dict[str, Scalar] | None] = [None, None]
        for s, r, eff in ((A, ra, out.attacker), (D, rd, out.defender)):
            for o in sit.others:
                if o.side != s.unit.c.side or o.unit_id in (A.unit.c.unit_id, D.unit.c.unit_id):
                    continue
                p = pending.setdefault(o.unit_id, Pending(unit=o))
                p.band += r.dps
                # a support routs with the unit it backs; otherwise its own DPs decide shaken
                p.markers |= set(eff.markers_add) - (
                    set() if ROUTING in eff.markers_add else {SHAKEN}
                )
                p.formation = eff.formation
                p.move = eff.move
                p.shift = eff.shift  # a support makes the same move
                words.append(f"{o.name} (support) shares the result: {_plural(r.dps, 'DP')}")
        for s, eff, lf in ((A, out.attacker, lfates[0]), (D, out.defender, lfates[1])):
            self._leader_fallout(sit.view, s.unit.c, lf, pending, words, events, sides)
            self._loss_morale(sit.view, s.unit.c, eff, pending, words)
        return Resolution(
            outcome=out,
            others=self._finish(sit.view, pending),
            sides=(sides[0], sides[1]),
            leader_events=tuple(events),
            explanation=tuple(words),
        )

    def _melee_odds(self, sit: Situation) -> Odds:
        A, D = self._melee_sides(sit)
        t = self.t
        dists = []
        for s in (A, D):
            n, _ = combat_dice(t, s)
            on, _ = hit_faces(t, s)
            auto = t.hit_numbers.leader_automatic_hits if s.leader else 0
            dists.append(binomial(n, p_faces(t.combat_dice.die, on)))
            dists[-1] = {k + auto: p for k, p in dists[-1].items()}
        by_band: dict[int, Fraction] = {}
        for ha, pa in dists[0].items():
            for hd, pd in dists[1].items():
                diff = ha - hd
                by_band[diff] = by_band.get(diff, Fraction(0)) + pa * pd
        grouped: dict[str, tuple[int, Fraction]] = {}
        for diff, p in by_band.items():
            band = result_band(t, diff)
            old = grouped.get(band, (diff, Fraction(0)))
            grouped[band] = (old[0], old[1] + p)
        out: Odds = {}
        leaders_a = list(leader_fate_dist(t, A.leader).items())
        leaders_d = list(leader_fate_dist(t, D.leader).items())
        unharmed: dict[ElephantFate, Fraction] = {"unharmed": Fraction(1)}
        cache: SideCache = {}
        for _band, (diff, p) in grouped.items():
            ra, rd = self._results(A, D, diff)
            fa = elephant_fate_dist(t, ra.crit_tests, ra.auto_crits) if A.unit.elephant else None
            fd = elephant_fate_dist(t, rd.crit_tests, rd.auto_crits) if D.unit.elephant else None
            for ela, pa in (fa or unharmed).items():
                for eld, pd in (fd or unharmed).items():
                    for la, qa in leaders_a:
                        for ld, qd in leaders_d:
                            o = self._melee_outcome(A, D, ra, rd, ela, eld, la, ld, cache)
                            add_odds(out, o, p * pa * pd * qa * qd)
        return out


_ASPECTS: dict[str, Aspect] = {"front": "front", "flank": "flank", "rear": "rear"}


def combat_effects_elephant(fate: ElephantFate) -> Effects:
    eff = elephant_effects(fate)
    if fate == "rampage":
        return Effects(
            markers_add=eff.markers_add,
            extra=eff.extra,
            move="Rampage: turn to face the cause, then roll its direction (rampage action)",
        )
    return eff


# --------------------------------------------------------------------------- actions


def _opt(key: str, label: str, default: bool, help: str = "") -> OptionSpec:
    return OptionSpec(key, label, "bool", default, help=help)


def _int(key: str, label: str, default: int, lo: int, hi: int, help: str = "") -> OptionSpec:
    return OptionSpec(key, label, "int", default, minimum=lo, maximum=hi, help=help)


def _choice(key: str, label: str, choices: tuple[str, ...], help: str = "") -> OptionSpec:
    return OptionSpec(key, label, "choice", choices[0], choices=choices, help=help)


_GRADES = ("unit", "A", "B", "C", "D")


def build_actions(t: Tables) -> tuple[ActionSpec, ...]:
    """Every action, its labels built from the tables (a house-rules copy shows its
    own numbers)."""
    rng = int(t.charges.range)
    return (
        ActionSpec(
            "melee",
            "Combat",
            "pair",
            (
                _choice(
                    "charge",
                    "Who charged",
                    ("attacker", "defender", "both", "none"),
                    "This round's charge; 'none' for a combat that goes on",
                ),
                _choice(
                    "follow_up",
                    "Who followed up or pursued into contact",
                    ("none", "attacker", "defender"),
                ),
                _choice("aspect", "Where the charged unit was struck", ("front", "flank", "rear")),
                _choice(
                    "ground",
                    "Advantage of ground",
                    ("none", "attacker", "defender"),
                    "Defending a wood edge, higher ground or field works",
                ),
                _opt("a_supported", "Attacker supported", False),
                _opt("d_supported", "Defender supported", False),
                _int("a_bases", "Attacker engaged bases (0 = from formation)", 0, 0, 20),
                _int("d_bases", "Defender engaged bases (0 = from formation)", 0, 0, 20),
                _choice("a_grade", "Attacker grade (average of several units)", _GRADES),
                _choice("d_grade", "Defender grade (average of several units)", _GRADES),
                _choice(
                    "countercharged",
                    "Infantry that charged and was charged by cavalry or elephants",
                    ("none", "attacker", "defender"),
                ),
                _int("round", "Round of this combat", 1, 1, 20),
            ),
            odds=True,
            help="Resolve a round of combat between two units.",
        ),
        ActionSpec(
            "shoot",
            "Shoot",
            "pair",
            (
                _int("bases", "Shooting bases in range (0 = all)", 0, 0, t.unit_sizes.max_bases),
                _opt("cover", "Target in cover", False),
                _choice("aspect", "Side of the target shot at", ("front", "flank", "rear")),
            ),
            odds=True,
            help=f"Light troops shoot at the nearest enemy within {_inches(t.shooting.range)}.",
        ),
        ActionSpec(
            "charge",
            "Charge",
            "pair",
            (
                _choice("response", "Target's response", ("stand", "evade")),
                _opt("mutual", "Target charged too (meet half way)", False),
                _int(
                    "distance", "Inches between the units when the charge is declared", rng, 0, rng
                ),
                _opt("halt_on_vacated", "A/B formed infantry halt on the vacated ground", False),
                _int(
                    "engaged_bases", "Bases hacking evaders caught (0 = from formation)", 0, 0, 20
                ),
            ),
            help=f"Charge an enemy within {_inches(t.charges.range)}; the target responds.",
        ),
        ActionSpec(
            "free_hack",
            "Free hack",
            "pair",
            (_int("engaged_bases", "Engaged bases (0 = from formation)", 0, 0, 20),),
            odds=True,
            help="Pursuers or chargers catch routing or evading enemy: a free hack.",
        ),
        ActionSpec(
            "leader_move",
            "Leader: move",
            "unit",
            help=f"Move the leader up to {_inches(t.command.actions['move'].move or 0)}.",
        ),
        ActionSpec("steady", "Leader: steady", "unit", help="Take a DP off the leader's unit."),
        ActionSpec(
            "inspire",
            "Leader: inspire",
            "unit",
            help=f"Combat dice this turn (at most +{t.command.inspire_max_dice}).",
        ),
        ActionSpec(
            "control_test",
            "Control test",
            "unit",
            (
                _opt("impetus", "Charging, looting, routing or pursuing", False),
                _choice(
                    "prefer",
                    "Result the attached leader aims for",
                    ("free", "halt", "repeat", "none"),
                ),
            ),
            odds=True,
            help="A unit out of control, or stopping rout, pursuit or looting, tests.",
        ),
        ActionSpec(
            "dice_move",
            "Dice move",
            "unit",
            (
                _choice(
                    "kind",
                    "Kind of move",
                    ("move", "charge_on", "evade", "rout", "retire", "pursue"),
                ),
                _opt("extra_d6", "Add the optional D6", True),
                _opt("third_d6", "Cavalry: add the third D6 (moved earlier)", False),
                _opt("moved_earlier", "The unit moved earlier this turn", False),
                _opt("first", "First rout or retire move (+1 inch a die)", True),
            ),
            odds=True,
            help=f"A move within {_inches(t.movement.march_beyond)} of enemy; evade, rout, pursue.",
        ),
        ActionSpec(
            "redress",
            "Redress ranks",
            "unit",
            (
                _choice("enemy_near", f"Enemy within {_inches(t.redress.enemy_distance)}", AUTO),
                _opt("in_combat", "The unit is in combat", False),
            ),
            help="Stand still to remove DPs (not shaken units).",
        ),
        ActionSpec(
            "rally",
            "Rally",
            "unit",
            (
                _choice("halted_all_turn", "Halted the whole turn", AUTO),
                _choice(
                    "enemy_beyond",
                    f"Beyond {_inches(t.rally.halted_beyond)} of unbroken enemy",
                    AUTO,
                ),
            ),
            help=f"A shaken unit rallies with {t.rally.dps_after} DPs (the rally phase does it).",
        ),
        ActionSpec(
            "reform",
            "Reform",
            "unit",
            (_choice("formation", "New formation", ("line", "column", "quincunx")),),
            help="Unformed troops reform once the cause has passed (a full move).",
        ),
        ActionSpec("relieve_ranks", "Relieve ranks", "unit", help="Legion: bring up a fresh line."),
        ActionSpec(
            "manoeuvre",
            "Manoeuvre or rough terrain",
            "unit",
            (
                _choice(
                    "kind",
                    "Manoeuvre",
                    (
                        "wheel",
                        "change_formation",
                        "about_face",
                        "passage_of_lines",
                        "side_step",
                        "open_ranks",
                        "rough_terrain",
                        "light_cover",
                    ),
                ),
                _choice("enemy_near", f"Enemy within {_inches(t.manoeuvres.dp_range)}", AUTO),
                _opt("exempt", "Passage: one unit unformed or stationary, none routing", False),
            ),
            help=f"Manoeuvre DPs within {_inches(t.manoeuvres.dp_range)} of enemy; rough terrain.",
        ),
        ActionSpec(
            "leader_captured",
            "Leader captured",
            "unit",
            help="An unattached leader contacted by enemy troops is captured.",
        ),
        ActionSpec(
            "after_combat_move",
            "After-combat move",
            "unit",
            (
                _choice(
                    "move",
                    "Move",
                    (
                        "halt",
                        "fall_back",
                        "follow_up",
                        "pass_through",
                        "retire",
                        "retire_behind_triarii",
                        "rout",
                        "pursue",
                    ),
                ),
                _opt("blocked", "Unable to make the move", False),
            ),
            help="Make (or choose) the move a combat result calls for.",
        ),
        ActionSpec(
            "morale",
            "Morale DPs",
            "unit",
            (
                _choice(
                    "event",
                    "Cause",
                    (
                        "friend_routed",
                        "friend_retiring",
                        "leader_lost",
                        "general_lost",
                        "elephant_burst",
                    ),
                ),
                _int("count", "How many times", 1, 1, 10),
            ),
            help="DPs for friends routed or retiring, leaders lost, elephants bursting through.",
        ),
        ActionSpec(
            "rampage",
            "Elephant rampage",
            "unit",
            odds=True,
            help="Roll the rampaging elephant's direction and move.",
        ),
        ActionSpec(
            "stop_rampage",
            "Stop a rampage",
            "unit",
            odds=True,
            help="The mahout tries to kill a rampaging elephant.",
        ),
    )


Handler = Callable[[LegVIMechanics, Situation, Dice], Resolution]
OddsHandler = Callable[[LegVIMechanics, Situation], Odds]

_RESOLVERS: dict[str, Handler] = {
    "melee": LegVIMechanics._melee,
    "shoot": LegVIMechanics._shoot,
    "charge": LegVIMechanics._charge,
    "free_hack": LegVIMechanics._free_hack,
    "leader_move": LegVIMechanics._leader_move,
    "steady": LegVIMechanics._steady,
    "inspire": LegVIMechanics._inspire,
    "control_test": LegVIMechanics._control_test,
    "dice_move": LegVIMechanics._dice_move,
    "redress": LegVIMechanics._redress,
    "rally": LegVIMechanics._rally,
    "reform": LegVIMechanics._reform,
    "relieve_ranks": LegVIMechanics._relieve_ranks,
    "manoeuvre": LegVIMechanics._manoeuvre,
    "leader_captured": LegVIMechanics._leader_captured,
    "after_combat_move": LegVIMechanics._after_combat_move,
    "morale": LegVIMechanics._morale,
    "rampage": LegVIMechanics._rampage,
    "stop_rampage": LegVIMechanics._stop_rampage,
}

_ODDS: dict[str, OddsHandler] = {
    "melee": LegVIMechanics._melee_odds,
    "shoot": LegVIMechanics._shoot_odds,
    "free_hack": LegVIMechanics._free_hack_odds,
    "control_test": LegVIMechanics._control_odds,
    "dice_move": LegVIMechanics._dice_move_odds,
    "rampage": LegVIMechanics._rampage_odds,
    "stop_rampage": LegVIMechanics._stop_odds,
}
