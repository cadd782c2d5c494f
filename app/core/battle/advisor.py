"""The advisor: what a unit may do now under its ruleset, each choice with its exact odds and
what it is expected to bring, ranked by a stated measure (issue 30).

For a unit it lists each melee it can fight, each shot in range and sight, each charge in
reach (with the path the rules find) and a few useful moves: towards the enemy, to its
flank, back out of its reach, and into its leader's command range. Every entry is a command
the player could give now: it is tried on the battle as it stands, up to its first throw of
dice (:func:`refusal`: the state is a value, nothing changes), and kept only where the
rules allow it; a move's path also passes ``check_move`` with no rule broken. The odds are
the Actions dock's, from the same declarations; nothing here knows a rule.

**The measure.** What an outcome does to a unit is valued as the share of its fighting worth
it takes away (:meth:`~app.rules.mechanics.Mechanics.loss_share`: casualties, hits, disorder
points or rings, as its ruleset counts them; 1 for a unit out of the battle) plus one for a
unit lost (:meth:`~app.rules.mechanics.Mechanics.unit_lost`: destroyed, routed, ...) and a
little for a recoil or a rout. An action's score is what it is expected to give the enemy
less what it is expected to take (weighed by ``caution``), plus ``rout_weight`` times the
chance it breaks its target, less ``leader_weight`` times the chance it costs its own
leader. A charge is valued by the melee it brings about (its odds on the battle after the
charge). A move is valued by the ground it gains towards its aim, as a share of its
allowance, less what it risks: the worth of a charge the enemy could make on it where it
ends. The words of each entry give these numbers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

from app.core.battle.advice_paths import Route, path_towards, relative, turn_to
from app.core.battle.base import BattleCommand, CommandError, Context, unit_words
from app.core.battle.commands import Act
from app.core.battle.dice import RecordingDice
from app.core.battle.given import DiceWanted, GivenDice
from app.core.battle.moves import MoveUnit, plan_charge
from app.core.battle.nearby import gap_within, within
from app.core.battle.nearby import nearest as nearest_of
from app.core.battle.odds_summary import effects_words, likeliest, shares
from app.core.battle.state import BattleState, BattleUnit
from app.rules.dice import SeededDice
from app.rules.geometry import Footprint, edge_distance, heading_vector
from app.rules.mechanics import (
    Combatant,
    Effects,
    Mechanics,
    NotImplementedRule,
    Odds,
    TurnView,
)
from app.rules.paths import Leg, Path
from app.rules.ruleset import Ruleset

Kind = Literal["melee", "shoot", "charge", "move"]
Aim = Literal["advance", "flank", "back", "command", "face", "standoff"]
ALL_AIMS: frozenset[Aim] = frozenset(get_args(Aim))
#: how close two bases stand to be in contact, as a share of the unit's width
TOUCH = 0.05
#: charges looked for: against the nearest enemies within this many times the charge move
CHARGE_REACH = 1.25
CHARGES_TRIED = 3
#: a move that shifts a unit less than this (inches) and turns it less than a degree is no
#: move: what a unit has left after a move found by halving (0.008") is not offered
LEAST_MOVE = 0.1
#: what a move that takes a unit out of its leader's command range costs its score
COMMAND_LOSS = 0.05


@dataclass(frozen=True)
class Measure:
    """How a side weighs things (the advisor's stated measure, see the module's words):
    ``caution`` weighs what an action may cost against what it may give; ``rout_weight``
    the chance to break the target; ``leader_weight`` the risk to the unit's own leader;
    ``boldness`` what ground gained towards the enemy is worth; ``risk`` how much a move
    ending within the enemy's charge reach counts against it."""

    caution: float = 1.0
    rout_weight: float = 0.5
    leader_weight: float = 2.0
    boldness: float = 1.0
    risk: float = 0.5


STEADY = Measure()


@dataclass(frozen=True)
class Advice:
    """One thing a unit may do now, with what it is expected to bring."""

    kind: Kind
    unit: str
    target: str | None
    command: BattleCommand
    #: what it is, in words ("Charge Gauls (B1)")
    title: str
    #: the measure's parts: expected worth given to the enemy and taken, the chance to
    #: break the target, the chance to lose the unit's leader (all 0 for a move), the score
    given: float
    taken: float
    breaks: float
    leader_risk: float
    score: float
    #: the odds the numbers come from (None for a move)
    odds: Odds | None = None
    #: how the numbers read, for the dock and the command line
    words: str = ""
    #: where a move or a charge leaves the unit (None for a melee or a shot)
    end: Footprint | None = None
    #: what a move aims at
    aim: Aim | None = None
    #: ground gained towards the aim, as a share of the allowance (moves)
    gain: float = 0.0
    #: the worth of the enemy's best charge on the unit where it ends (moves)
    threat: float = 0.0
    notes: tuple[str, ...] = field(default=(), compare=False)


# --------------------------------------------------------------------------- the measure


def effect_value(mech: Mechanics, e: Effects, unit: Combatant) -> float:
    """What ``e`` costs ``unit`` (see the module's measure)."""
    value = mech.loss_share(unit, e)
    if _breaks(mech, e, unit):
        value += 1.0
    move = (e.move or "").lower()
    if "rout" in move or "flee" in move:
        value += 0.2
    elif "recoil" in move or "retire" in move or "fall" in move or "back" in move:
        value += 0.05
    return value


def _breaks(mech: Mechanics, e: Effects, unit: Combatant) -> bool:
    """Whether ``e`` leaves ``unit`` lost to its side (destroyed, routed, ...)."""
    if e.eliminated:
        return True
    if not (e.markers_add or e.casualties):
        return False
    after = replace(unit, status=unit.status.apply(e))
    return mech.unit_lost(after) and not mech.unit_lost(unit)


def weigh(
    mech: Mechanics,
    odds: Odds,
    actor: Combatant,
    target: Combatant,
    measure: Measure = STEADY,
    action: str = "melee",
) -> tuple[float, float, float, float, float]:
    """(given, taken, breaks, leader risk, score) of ``action`` with these exact odds: the
    leader risk is the chance its own leader is hit (the ruleset's
    :meth:`~app.rules.mechanics.Mechanics.leader_risk` of what the action does to it)."""
    given = taken = breaks = leader = 0.0
    for outcome, p in zip(odds, shares(odds), strict=True):
        given += p * effect_value(mech, outcome.defender, target)
        taken += p * effect_value(mech, outcome.attacker, actor)
        if _breaks(mech, outcome.defender, target):
            breaks += p
        leader += p * mech.leader_risk(actor, outcome.attacker, action)
    score = (
        given
        - measure.caution * taken
        + measure.rout_weight * breaks
        - measure.leader_weight * leader
    )
    return given, taken, breaks, leader, score


# --------------------------------------------------------------------------- trying commands


def attempt(
    state: BattleState, rs: Ruleset, mech: Mechanics, command: BattleCommand
) -> tuple[str | None, BattleState | None]:
    """``command`` carried out on the state as it stands up to its first throw of dice (the
    state is a value: nothing changes): (why it is refused, None), or (None, the state it
    leads to when it throws no dice, else None)."""
    dice = RecordingDice(GivenDice((), ask=True))
    try:
        done = command.execute(state, Context(rs, mech, dice))
    except DiceWanted:
        return None, None
    except CommandError as exc:
        return str(exc), None
    except (NotImplementedRule, KeyError, ValueError) as exc:
        return (str(exc.args[0]) if exc.args else str(exc)), None
    return None, done.state


def refusal(state: BattleState, rs: Ruleset, mech: Mechanics, command: BattleCommand) -> str | None:
    """Why ``command`` cannot be given now (its one-line refusal), or None when the rules
    allow it (:func:`attempt`)."""
    return attempt(state, rs, mech, command)[0]


def after(state: BattleState, rs: Ruleset, mech: Mechanics, command: BattleCommand) -> BattleState:
    """The state ``command`` leads to with one fixed fall of the dice (to value what comes
    after a charge: the melee it brings about)."""
    return command.execute(state, Context(rs, mech, RecordingDice(SeededDice(0)))).state


def pair_odds(state: BattleState, mech: Mechanics, action: str, actor: str, target: str) -> Odds:
    """The exact odds of ``action`` by ``actor`` on ``target`` in ``state``, with the options
    the table fills in (as the Actions dock reads them); raises when the rules refuse it."""
    cmd = Act(action=action, actor=actor, target=target)
    return mech.odds(action, cmd.situation(state, mech))


# --------------------------------------------------------------------------- the advice


@dataclass
class Advisor:
    """What the units of one battle state may do (made per state: it keeps what it has
    worked out, each enemy's charge reach, so the units of a side are advised cheaply)."""

    state: BattleState
    rs: Ruleset
    mech: Mechanics
    measure: Measure = STEADY
    _reach: dict[str, float] = field(default_factory=dict)

    @property
    def view(self) -> TurnView:
        return self.state.view()

    def has(self, action: str) -> bool:
        return any(a.key == action for a in self.mech.actions())

    # -- melee and shooting ------------------------------------------------------------

    def _pair(self, kind: Kind, unit: BattleUnit, enemy: BattleUnit) -> Advice | None:
        if not self.has(kind):
            return None
        spec = self.mech.action(kind)
        cmd = Act(action=kind, actor=unit.id, target=enemy.id)
        if refusal(self.state, self.rs, self.mech, cmd) is not None:
            return None
        if not spec.odds:
            return None
        try:
            odds = pair_odds(self.state, self.mech, kind, unit.id, enemy.id)
        except (CommandError, NotImplementedRule, KeyError, ValueError):
            return None
        me, them = self.state.combatant(unit), self.state.combatant(enemy)
        given, taken, breaks, leader, score = weigh(self.mech, odds, me, them, self.measure, kind)
        verb = "Fight" if kind == "melee" else "Shoot at"
        return Advice(
            kind,
            unit.id,
            enemy.id,
            cmd,
            f"{verb} {unit_words(self.state, enemy.id)}",
            given,
            taken,
            breaks,
            leader,
            score,
            odds,
            odds_words(given, taken, breaks, leader, odds),
        )

    def combat(self, unit: BattleUnit, enemies: Sequence[BattleUnit]) -> list[Advice]:
        """Melees with the enemies it touches; shots at those within its shooting range."""
        out: list[Advice] = []
        reach = self.mech.shooting_reach(self.view, unit.id)
        touch = TOUCH * unit.width
        limit = max(touch, reach.range if reach is not None else 0.0)
        for gap, enemy in within(unit.footprint, enemies, limit):
            if gap <= TOUCH * max(unit.width, enemy.width):
                found = self._pair("melee", unit, enemy)
                if found is not None:
                    out.append(found)
            if reach is not None and gap <= reach.range + 1e-6:
                found = self._pair("shoot", unit, enemy)
                if found is not None:
                    out.append(found)
        return out

    # -- charges -------------------------------------------------------------------------

    def allowance(self, unit: BattleUnit, reason: Literal["move", "charge"]) -> float | None:
        view = self.view
        full = self.mech.move_allowance_for(view, view.unit(unit.id), reason)
        return None if full is None else max(0.0, full - unit.moved)

    def charges(self, unit: BattleUnit, enemies: Sequence[BattleUnit]) -> list[Advice]:
        """Each charge the rules let ``unit`` make now against its nearest enemies in reach,
        valued by the melee it brings about."""
        if self.mech.may_move(self.view, unit.id, "charge") is not None:
            return []
        left = self.allowance(unit, "charge")
        if left is not None and left <= 0:
            return []
        bound = CHARGE_REACH * left if left is not None else math.inf
        near = within(unit.footprint, enemies, bound)
        tried = [e for gap, e in near if TOUCH * unit.width < gap][:CHARGES_TRIED]
        out: list[Advice] = []
        for enemy in tried:
            found = self.charge(unit, enemy)
            if found is not None:
                out.append(found)
        return out

    def charge(self, unit: BattleUnit, enemy: BattleUnit) -> Advice | None:
        """``unit``'s charge on ``enemy`` when the rules allow it now, valued by the melee
        after it."""
        try:
            cmd = plan_charge(self.state, self.mech, unit.id, enemy.id)
        except (CommandError, KeyError, ValueError, NotImplementedRule):
            return None
        if refusal(self.state, self.rs, self.mech, cmd) is not None:
            return None
        try:
            then = after(self.state, self.rs, self.mech, cmd)
        except (CommandError, NotImplementedRule, KeyError, ValueError):
            return None
        end = then.unit(unit.id).footprint
        me = self.state.combatant(unit)
        try:
            odds: Odds | None = pair_odds(then, self.mech, "melee", unit.id, enemy.id)
        except (CommandError, NotImplementedRule, KeyError, ValueError):
            odds = None
        title = f"Charge {unit_words(self.state, enemy.id)}"
        if odds is None:  # the rules give no melee odds here (yet): contact alone
            score = 0.1 * self.measure.boldness
            return Advice(
                "charge", unit.id, enemy.id, cmd, title, 0, 0, 0, 0, score, None,
                "into contact (no melee odds to read yet)", end,
            )  # fmt: skip
        them = then.combatant(then.unit(enemy.id))
        given, taken, breaks, leader, score = weigh(self.mech, odds, me, them, self.measure)
        words = "then " + odds_words(given, taken, breaks, leader, odds)
        return Advice(
            "charge", unit.id, enemy.id, cmd, title, given, taken, breaks, leader,
            score + 0.05 * self.measure.boldness, odds, words, end,
        )  # fmt: skip

    # -- moves ---------------------------------------------------------------------------

    def enemy_reach(self, enemy: BattleUnit) -> float:
        """How far ``enemy`` could charge in its next move (the ruleset's
        :meth:`~app.rules.mechanics.Mechanics.charge_reach`)."""
        if enemy.id not in self._reach:
            self._reach[enemy.id] = self.mech.charge_reach(self.view, enemy.id)
        return self._reach[enemy.id]

    def threat(self, unit: BattleUnit, end: Footprint, enemies: Sequence[BattleUnit]) -> float:
        """What ``unit`` standing at ``end`` risks: the share of its worth the enemy units
        within charge reach of it could take, a rough reckoning (each such enemy counts its
        strength against the unit's, at most one)."""
        mine = max(1, unit.status.strength)
        risk = 0.0
        for e in enemies:
            if gap_within(end, e.footprint, self.enemy_reach(e)) is not None:
                risk += min(1.0, 0.5 * e.status.strength / mine)
        return min(risk, 2.0)

    def moves(
        self,
        unit: BattleUnit,
        enemies: Sequence[BattleUnit],
        aims: frozenset[Aim] = ALL_AIMS,
    ) -> list[Advice]:
        """A few moves the rules allow now, each with its aim (of ``aims``): straight at the
        nearest enemy as far as it may (stopping short of contact: contact is a charge), to
        just outside that enemy's charge reach, round to its flank, back away from it, into
        the command range of its leader, and turning to face an enemy standing within reach
        off its front."""
        view = self.view
        if not aims or self.mech.may_move(view, unit.id, "move") is not None or not enemies:
            return []
        left = self.allowance(unit, "move")
        if left is None or left <= 1e-3 or not self.may_step(unit, left):
            return []
        found = nearest_of(unit.footprint, enemies)
        assert found is not None
        gap, nearest = found
        margin = max(0.1 * unit.depth, 0.05)
        name = unit_words(self.state, nearest.id)
        plans: list[tuple[Aim, str, Route | None, float]] = []
        go = min(left, max(0.0, gap - margin))
        if "advance" in aims:  # at the nearest enemy
            route = path_towards(view, self.mech, unit.id, nearest.x, nearest.y, go)
            plans.append(("advance", f"Advance on {name}", route, gap))
        standoff = gap - (self.enemy_reach(nearest) + margin)
        if "standoff" in aims and 0.05 < standoff < go - 0.05:  # to just outside its reach
            route = path_towards(view, self.mech, unit.id, nearest.x, nearest.y, standoff)
            plans.append(("standoff", f"Close to just beyond {name}'s reach", route, gap))
        if "flank" in aims:  # round its flank: the side of it nearer this unit, level with it
            fx, fy = heading_vector(nearest.facing + 90)
            side = 1.0 if (unit.x - nearest.x) * fx + (unit.y - nearest.y) * fy >= 0 else -1.0
            off = nearest.width / 2 + unit.width / 2 + margin
            tx, ty = nearest.x + side * fx * off, nearest.y + side * fy * off
            flank_gap = math.hypot(tx - unit.x, ty - unit.y)
            route = path_towards(view, self.mech, unit.id, tx, ty, min(left, flank_gap))
            plans.append(("flank", f"Round the flank of {name}", route, flank_gap))
        if "back" in aims:  # back, away from the nearest enemy
            bx, by = 2 * unit.x - nearest.x, 2 * unit.y - nearest.y
            route = path_towards(view, self.mech, unit.id, bx, by, left)
            plans.append(("back", f"Fall back from {name}", route, 0.0))
        if "command" in aims:
            cmd_plan = self._command_plan(unit, left)
            if cmd_plan is not None:
                plans.append(cmd_plan)
        if (
            "face" in aims
            and gap <= self.enemy_reach(nearest) + 1e-6
            and abs(relative(unit.footprint, nearest.x, nearest.y)) > 45
        ):
            route = turn_to(view, self.mech, unit.id, nearest.x, nearest.y)
            plans.append(("face", f"Turn to face {name}", route, gap))
        out: list[Advice] = []
        seen: set[tuple[float, float, float]] = set()
        for aim, title, route, before in plans:
            if route is None:
                continue
            key = (round(route.end.x, 2), round(route.end.y, 2), round(route.end.facing, 1))
            if key in seen or _no_move(unit.footprint, route.end):
                continue
            seen.add(key)
            cmd = MoveUnit(unit=unit.id, legs=route.legs)
            why, moved = attempt(self.state, self.rs, self.mech, cmd)
            if why is None:
                out.append(
                    self._move(unit, aim, title, route, before, nearest, enemies, left, moved)
                )
        return out

    def in_command(self, state: BattleState, unit_id: str) -> bool:
        """Whether the unit is in command in ``state`` by its ruleset's command rules
        (:meth:`~app.rules.mechanics.Mechanics.commanded`; True where it has none)."""
        return self.mech.commanded(state.view(), unit_id) is not False

    def may_step(self, unit: BattleUnit, left: float) -> bool:
        """Whether the unit may move at all now: a step straight on or back breaks no rule
        outright (a cheap test before the paths, in rulesets whose moves ``check_move``
        alone holds to their phase; a step short of a move that must be made in full only
        asks the umpire)."""
        step = min(0.05, left)
        view = self.view
        return any(
            not self.mech.check_move(view, unit.id, Path((Leg.straight(d),))).forbidden
            for d in (step, -step)
        )

    def _command_plan(
        self, unit: BattleUnit, left: float
    ) -> tuple[Aim, str, Route | None, float] | None:
        view = self.view
        me = view.unit(unit.id)
        reach = self.mech.command_reach(view, unit.id)
        if reach is None:
            return None
        distance = self.mech.command_distance(view, me)
        if distance is None or distance <= reach.radius:
            return None
        cx, cy = reach.centre
        far = min(left, distance - reach.radius + 0.1)
        route = path_towards(view, self.mech, unit.id, cx, cy, far)
        return ("command", "Into its leader's command range", route, distance)

    def _move(
        self,
        unit: BattleUnit,
        aim: Aim,
        title: str,
        route: Route,
        before: float,
        nearest: BattleUnit,
        enemies: Sequence[BattleUnit],
        left: float,
        moved: BattleState | None,
    ) -> Advice:
        end = route.end
        scale = max(left, 1e-3)
        if aim in ("advance", "standoff"):
            gain = (before - edge_distance(end, nearest.footprint)) / scale
        elif aim == "flank":
            gain = 0.5 * (before - edge_distance(end, nearest.footprint)) / scale
        elif aim == "command":
            gain = 0.5
        elif aim == "face":
            gain = 0.2
        else:
            gain = 0.0
        threat = self.threat(unit, end, enemies)
        now = self.threat(unit, unit.footprint, enemies)
        m = self.measure
        score = 0.1 * m.boldness * gain - m.risk * 0.1 * (threat - now)
        if aim == "back":
            score = m.risk * 0.1 * (now - threat) - 0.02 * m.boldness
        cmd = MoveUnit(unit=unit.id, legs=route.legs)
        check = route.check
        words = f"costs {check.cost:.1f} of {left:.1f} left"
        if threat:
            words += f"; within reach of the enemy (risk {threat:.2f})"
        if (
            moved is not None
            and self.in_command(self.state, unit.id)
            and not self.in_command(moved, unit.id)
        ):
            score -= COMMAND_LOSS
            words += "; ends out of its leader's command range"
        return Advice(
            "move", unit.id, nearest.id if aim != "command" else None, cmd, title,
            0.0, 0.0, 0.0, 0.0, score, None, words, end, aim, gain, threat,
        )  # fmt: skip

    # -- all of it -----------------------------------------------------------------------

    def enemies_of(self, unit: BattleUnit) -> list[BattleUnit]:
        return [e for e in self.state.units if e.side != unit.side and not e.status.eliminated]

    def unit(
        self, unit_id: str, *, moves: bool = True, aims: frozenset[Aim] = ALL_AIMS
    ) -> list[Advice]:
        """Everything the unit may do now, best first."""
        u = self.state.unit(unit_id)
        if u.status.eliminated:
            return []
        enemies = self.enemies_of(u)
        out = self.combat(u, enemies)
        out += self.charges(u, enemies)
        if moves:
            out += self.moves(u, enemies, aims)
        out.sort(key=lambda a: (-a.score, a.title))
        return out


def _no_move(start: Footprint, end: Footprint) -> bool:
    """Whether ``end`` is no move from ``start`` (see :data:`LEAST_MOVE`)."""
    turn = abs((end.facing - start.facing + 180) % 360 - 180)
    return math.hypot(end.x - start.x, end.y - start.y) < LEAST_MOVE and turn < 1.0


def odds_words(given: float, taken: float, breaks: float, leader: float, odds: Odds) -> str:
    """The measure's numbers and the likeliest result, in words."""
    outcome, chance = likeliest(odds)
    parts = [
        f"gives {given:.2f}, takes {taken:.2f} (shares of worth)",
        f"breaks it {breaks * 100:.0f}%",
    ]
    if leader:
        parts.append(f"its leader hit {leader * 100:.0f}%")
    head = outcome.result or effects_words(outcome.defender)
    parts.append(f"likeliest: {head} ({float(chance) * 100:.0f}%)")
    return "; ".join(parts)


def advise(
    state: BattleState,
    rs: Ruleset,
    mech: Mechanics,
    *,
    unit: str | None = None,
    side: int | None = None,
    measure: Measure = STEADY,
    moves: bool = True,
) -> list[Advice]:
    """What ``unit`` (or every unit of ``side``) may do now, best first."""
    if state.result is not None or not state.started:
        return []
    advisor = Advisor(state, rs, mech, measure)
    if unit is not None:
        ids: Iterable[str] = [unit]
    else:
        ids = [u.id for u in state.units if u.side == side and not u.status.eliminated]
    out: list[Advice] = []
    for uid in ids:
        out += advisor.unit(uid, moves=moves)
    out.sort(key=lambda a: (-a.score, a.unit, a.title))
    return out


__all__ = [
    "Advice",
    "Advisor",
    "Measure",
    "advise",
    "refusal",
    "weigh",
]
