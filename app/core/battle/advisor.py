"""The advisor: what a unit may do now under its ruleset, each choice with its exact odds and
what it is expected to bring, ranked by a stated measure (issue 30).

For a unit it lists each melee it can fight, each shot in range and sight, each charge in
reach (with the path the rules find) and a few useful moves (towards the enemy, back to safety,
towards its leader). Every entry is a command the player could give now: a melee, a shot or a
charge is tried on the battle as it stands (up to its first throw of dice: nothing changes) and
kept only where the rules allow it; a move only where ``check_move`` forbids nothing. The odds
are the Actions dock's, from the same declarations; nothing here knows a rule.

**The measure.** Each outcome's effects on a unit are valued as the share of that unit's
strength it loses (casualties, and half a point for each hit, disorder point or ring), plus
one for a unit destroyed and a little for a rout or a recoil. An entry scores what it is
expected to give the enemy, less what it is expected to take (weighed by ``caution``), plus half
the chance it breaks its target, less twice the chance it costs a leader. Moves score by the
ground they close (or open, for a cautious player) and by coming within reach of the unit's
leader. The words of each entry say these numbers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from app.core.battle.base import BattleCommand, CommandError, Context, unit_words
from app.core.battle.commands import Act
from app.core.battle.dice import RecordingDice
from app.core.battle.given import DiceWanted, GivenDice
from app.core.battle.moves import MoveUnit, plan_charge
from app.core.battle.odds_summary import effects_words
from app.core.battle.state import BattleState, BattleUnit
from app.rules.dice import SeededDice
from app.rules.geometry import edge_distance, heading_vector
from app.rules.mechanics import Combatant, Effects, Mechanics, NotImplementedRule, Odds, Outcome
from app.rules.paths import Leg, Path
from app.rules.ruleset import Ruleset

Kind = Literal["melee", "shoot", "charge", "move"]
#: markers a ruleset adds to a unit that breaks (routs, runs, is broken)
BREAKING = frozenset({"routing", "routed", "broken", "rout", "berserk", "fleeing"})
#: words in an outcome's result that say a leader was hit
LEADER_WORDS = (" killed", " wounded", " captured")


@dataclass(frozen=True)
class Advice:
    """One thing a unit may do now, with what it is expected to bring."""

    kind: Kind
    unit: str
    target: str | None
    command: BattleCommand
    #: what it is, in words ("Charge Gauls (B1)")
    title: str
    #: the measure's parts: expected value given to the enemy, taken, the chance to break
    #: the target, the chance to lose a leader (all 0 for a move), and the score
    given: float
    taken: float
    breaks: float
    leader_risk: float
    score: float
    #: the odds the numbers come from (None for a move)
    odds: Odds | None = None
    #: how the numbers read, for the dock and the command line
    words: str = ""


def effect_value(e: Effects, unit: Combatant) -> float:
    """What ``e`` costs ``unit``, as a share of its strength (see the module's measure)."""
    strength = max(1, unit.status.strength)
    value = (e.casualties + 0.5 * (e.hits + e.dps + e.rings)) / strength
    if e.eliminated:
        value += 1.0
    if e.markers_add & BREAKING:
        value += 0.6
    move = (e.move or "").lower()
    if "rout" in move or "flee" in move:
        value += 0.3
    elif "recoil" in move or "retire" in move or "fall" in move:
        value += 0.1
    return value


def _breaks(e: Effects) -> bool:
    return e.eliminated or bool(e.markers_add & BREAKING)


@dataclass(frozen=True)
class Measure:
    """How a side weighs things: ``caution`` weighs what it may take against what it may
    give; ``boldness`` what a move closing on the enemy is worth."""

    caution: float = 1.0
    boldness: float = 1.0


STEADY = Measure()


def weigh(
    odds: Odds, actor: Combatant, target: Combatant, measure: Measure = STEADY
) -> tuple[float, float, float, float, float]:
    """(given, taken, breaks, leader risk, score) of an action with these exact odds."""
    given = taken = breaks = leader = 0.0
    for outcome, chance in odds.items():
        p = float(chance)
        given += p * effect_value(outcome.defender, target)
        taken += p * effect_value(outcome.attacker, actor)
        if _breaks(outcome.defender):
            breaks += p
        if _hits_leader(outcome, actor):
            leader += p
    score = given - measure.caution * taken + 0.5 * breaks - 2.0 * leader
    return given, taken, breaks, leader, score


def _hits_leader(outcome: Outcome, actor: Combatant) -> bool:
    if actor.leader is None:
        return False
    text = outcome.result.lower()
    return actor.leader.name.lower() in text and any(w in text for w in LEADER_WORDS)


# --------------------------------------------------------------------------- trying commands


def refusal(state: BattleState, rs: Ruleset, mech: Mechanics, command: BattleCommand) -> str | None:
    """Why ``command`` cannot be given now (its one-line refusal), or None when the rules
    allow it: it is carried out on the state as it stands up to its first throw of dice (the
    state is a value: nothing changes)."""
    dice = RecordingDice(GivenDice((), ask=True))
    try:
        command.execute(state, Context(rs, mech, dice))
    except DiceWanted:
        return None
    except CommandError as exc:
        return str(exc)
    except (NotImplementedRule, KeyError, ValueError) as exc:
        return str(exc.args[0]) if exc.args else str(exc)
    return None


def _after(state: BattleState, rs: Ruleset, mech: Mechanics, command: BattleCommand) -> BattleState:
    """The state ``command`` leads to with one fixed fall of the dice (to value what comes
    after a charge: the melee it brings about)."""
    return command.execute(state, Context(rs, mech, RecordingDice(SeededDice(0)))).state


# --------------------------------------------------------------------------- the advice


def _odds(
    state: BattleState, rs: Ruleset, mech: Mechanics, action: str, actor: str, target: str
) -> tuple[Act, Odds] | None:
    """The exact odds of ``action`` by ``actor`` on ``target`` when the rules allow it now."""
    keys = {a.key for a in mech.actions()}
    if action not in keys:
        return None
    cmd = Act(action=action, actor=actor, target=target)
    if refusal(state, rs, mech, cmd) is not None:
        return None
    try:
        spec = mech.action(action)
        if not spec.odds:
            return None
        return cmd, mech.odds(action, cmd.situation(state, mech))
    except (CommandError, NotImplementedRule, KeyError, ValueError):
        return None


#: how close two bases stand to be in contact, as a share of the mover's width
TOUCH = 0.05
#: charges looked for: against the nearest enemies within this many moves
CHARGE_REACH = 1.5
CHARGES_TRIED = 3


def _combat(
    state: BattleState,
    rs: Ruleset,
    mech: Mechanics,
    unit: BattleUnit,
    enemies: Sequence[BattleUnit],
    measure: Measure,
) -> list[Advice]:
    """Melees with the enemies it touches; shots at those within its shooting range."""
    out: list[Advice] = []
    me = state.combatant(unit)
    reach = mech.shooting_reach(state.view(), unit.id)
    for enemy in enemies:
        them = state.combatant(enemy)
        gap = edge_distance(unit.footprint, enemy.footprint)
        kinds: list[Kind] = []
        if gap <= TOUCH * unit.width:
            kinds.append("melee")
        if reach is not None and gap <= reach.range + 1e-6:
            kinds.append("shoot")
        for kind in kinds:
            found = _odds(state, rs, mech, kind, unit.id, enemy.id)
            if found is None:
                continue
            cmd, odds = found
            given, taken, breaks, leader, score = weigh(odds, me, them, measure)
            verb = "Fight" if kind == "melee" else "Shoot at"
            out.append(
                Advice(
                    kind,
                    unit.id,
                    enemy.id,
                    cmd,
                    f"{verb} {unit_words(state, enemy.id)}",
                    given,
                    taken,
                    breaks,
                    leader,
                    score,
                    odds,
                    _words(given, taken, breaks, leader, odds),
                )
            )
    return out


def _charges(
    state: BattleState,
    rs: Ruleset,
    mech: Mechanics,
    unit: BattleUnit,
    enemies: Sequence[BattleUnit],
    measure: Measure,
) -> list[Advice]:
    """Each charge the rules let ``unit`` make now against its nearest enemies in reach,
    valued by the melee it brings about."""
    out: list[Advice] = []
    me = state.combatant(unit)
    view = state.view()
    allowance = mech.move_allowance_for(view, view.unit(unit.id), "charge")
    bound = CHARGE_REACH * allowance if allowance is not None else math.inf
    near = sorted(
        (edge_distance(unit.footprint, e.footprint), e.id, e)
        for e in enemies
        if not e.status.eliminated
    )
    tried = [e for gap, _, e in near if TOUCH * unit.width < gap <= bound][:CHARGES_TRIED]
    for enemy in tried:
        try:
            cmd = plan_charge(state, mech, unit.id, enemy.id)
        except (CommandError, KeyError, ValueError, NotImplementedRule):
            continue
        if refusal(state, rs, mech, cmd) is not None:
            continue
        try:
            after = _after(state, rs, mech, cmd)
        except (CommandError, NotImplementedRule, KeyError, ValueError):
            continue
        melee = _odds(after, rs, mech, "melee", unit.id, enemy.id)
        if melee is None:  # the melee comes later (its phase): value it as it would stand
            given = taken = breaks = leader = 0.0
            score = 0.2 * measure.boldness
            odds = None
            words = "into contact; the melee follows in its phase"
        else:
            _, odds = melee
            them = after.combatant(after.unit(enemy.id))
            given, taken, breaks, leader, score = weigh(odds, me, them, measure)
            words = "then " + _words(given, taken, breaks, leader, odds)
        out.append(
            Advice(
                "charge",
                unit.id,
                enemy.id,
                cmd,
                f"Charge {unit_words(state, enemy.id)}",
                given,
                taken,
                breaks,
                leader,
                score + 0.05 * measure.boldness,
                odds,
                words,
            )
        )
    return out


def _moves(
    state: BattleState,
    mech: Mechanics,
    unit: BattleUnit,
    enemies: Sequence[BattleUnit],
    measure: Measure,
) -> list[Advice]:
    """A few moves the rules allow now: straight at the nearest enemy (as far as the
    allowance goes, stopping short of contact), back from it, and towards the unit's leader
    when he stands apart."""
    view = state.view()
    me = view.unit(unit.id)
    left = mech.move_allowance_for(view, me, "move")
    if left is None or left - unit.moved <= 0 or not enemies:
        return []
    left -= unit.moved
    nearest = min(enemies, key=lambda e: edge_distance(unit.footprint, e.footprint))
    gap = edge_distance(unit.footprint, nearest.footprint)
    out: list[Advice] = []
    bearing = math.degrees(math.atan2(nearest.x - unit.x, nearest.y - unit.y)) % 360
    plans: list[tuple[str, tuple[Leg, ...], float]] = []
    ahead = min(left, max(0.0, gap - 0.5))
    if ahead > 0.05:
        fx, fy = heading_vector(bearing)
        x, y = unit.x + fx * ahead, unit.y + fy * ahead
        plans.append(
            (
                f"Advance on {unit_words(state, nearest.id)}",
                (Leg.to(x, y, unit.facing),),
                measure.boldness * min(ahead, gap) / max(gap, 1e-6) * 0.3,
            )
        )
        plans.append(
            (f"Forward {ahead:.1f}", (Leg.straight(round(ahead, 3)),), measure.boldness * 0.1)
        )
    back = min(left, 2.0 * left / 3)
    if back > 0.05:
        plans.append(
            (
                f"Fall back {back:.1f}",
                (Leg.straight(round(-back, 3)),),
                (measure.caution - measure.boldness) * 0.1,
            )
        )
    for title, legs, score in plans:
        check = mech.check_move(view, unit.id, Path(legs), reason="move")
        if check.forbidden or check.needs_confirmation:
            continue
        cmd = MoveUnit(unit=unit.id, legs=legs)
        out.append(
            Advice(
                "move",
                unit.id,
                nearest.id if "on" in title else None,
                cmd,
                title,
                0.0,
                0.0,
                0.0,
                0.0,
                score,
                None,
                f"costs {check.cost:.1f} of {check.left if check.left is not None else '?'} left",
            )
        )
    return out


def _words(given: float, taken: float, breaks: float, leader: float, odds: Odds) -> str:
    likeliest = max(odds.items(), key=lambda kv: kv[1])
    outcome, chance = likeliest
    parts = [
        f"gives {given:.2f}, takes {taken:.2f} (shares of strength)",
        f"breaks it {breaks * 100:.0f}%",
    ]
    if leader:
        parts.append(f"a leader hit {leader * 100:.0f}%")
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
    if unit is not None:
        units: Iterable[BattleUnit] = [state.unit(unit)]
    else:
        units = [u for u in state.units if u.side == side and not u.status.eliminated]
    out: list[Advice] = []
    for u in units:
        if u.status.eliminated:
            continue
        enemies = [e for e in state.units if e.side != u.side and not e.status.eliminated]
        out += _combat(state, rs, mech, u, enemies, measure)
        out += _charges(state, rs, mech, u, enemies, measure)
        if moves:
            out += _moves(state, mech, u, enemies, measure)
    out.sort(key=lambda a: (-a.score, a.unit, a.title))
    return out
