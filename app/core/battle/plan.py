"""A simple plan for a whole side Castra plays (issue 30): advance or hold a line, refuse a
flank, keep or commit the reserve, keep the general safe; chosen from the situation and the
side's temperament each time the side acts, and given to each unit as a role.

The situation is read from the table alone: each side's worth (the strength left in its
units not lost), the enemy's weight on each wing of the side's front, which
units stand behind a friend (the reserve) and whether any unit is already in contact.

- **Advance** when the side's worth against the enemy's is at least the temperament's bar
  (bold 0.5, steady 0.9, cautious 1.3), from turn 4 (steady) or 6 (cautious) whatever the
  odds (a line the enemy does not attack wins nothing), or when the umpire's last turns
  come and the side has lost more; else **hold the line**: units stay out of the enemy's
  charge reach, shoot and take only the fights that pay.
- **Refuse a flank** (steady and cautious, when advancing): the wing facing the enemy's
  heavier wing (by a quarter or more for steady; always for cautious) holds back.
- **Commit the reserve** once a unit of the side is in contact, from turn 3, or always when
  bold; until then units standing behind a friend wait.
- **Keep the general safe**: the unit the general stands with weighs the risk to him and to
  itself twice as heavily and does not lead the advance.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from app.core.battle.advisor import Aim, Measure
from app.core.battle.nearby import within
from app.core.battle.players import MEASURES, Player, Temperament
from app.core.battle.state import BattleState, BattleUnit
from app.rules.geometry import heading_vector
from app.rules.mechanics import Mechanics

Posture = Literal["advance", "hold"]
Role = Literal["attack", "hold", "refused", "reserve", "general"]
Wing = Literal["left", "right"]

#: worth against the enemy's at which each temperament advances
ADVANCE_AT: dict[Temperament, float] = {
    Temperament.BOLD: 0.5,
    Temperament.STEADY: 0.9,
    Temperament.CAUTIOUS: 1.3,
}
#: the turn from which each temperament advances whatever the odds (a line held that the
#: enemy does not attack wins no battle)
HOLD_UNTIL: dict[Temperament, int] = {
    Temperament.BOLD: 1,
    Temperament.STEADY: 4,
    Temperament.CAUTIOUS: 6,
}
#: the turn from which the reserve is committed whatever happens
COMMIT_TURN = 3
#: touching, as a share of a unit's width
TOUCH = 0.05


@dataclass(frozen=True)
class SidePlan:
    """The side's plan and each unit's role in it, with the plan in words."""

    posture: Posture
    refused: Wing | None
    reserve_committed: bool
    general_unit: str | None
    roles: Mapping[str, Role]
    words: str

    def role(self, unit_id: str) -> Role:
        return self.roles.get(unit_id, "attack")


def worth(mech: Mechanics, units: Sequence[BattleUnit], state: BattleState) -> float:
    """What a side's units are worth: the strength left (figures or bases, as the ruleset
    counts them; at least one a unit) of each unit not lost."""
    total = 0.0
    for u in units:
        if not mech.unit_lost(state.combatant(u)):
            total += max(1, u.status.strength)
    return total


def _lateral(units: Sequence[BattleUnit]) -> tuple[float, float, float, float]:
    """The side's centre and its right-hand direction (from its units' mean facing)."""
    cx = sum(u.x for u in units) / len(units)
    cy = sum(u.y for u in units) / len(units)
    sx = sum(math.sin(math.radians(u.facing)) for u in units)
    sy = sum(math.cos(math.radians(u.facing)) for u in units)
    facing = math.degrees(math.atan2(sx, sy))
    rx, ry = heading_vector(facing + 90)
    return cx, cy, rx, ry


def _behind_a_friend(unit: BattleUnit, friends: Sequence[BattleUnit]) -> bool:
    """Whether a friend stands in front of ``unit``, overlapping its frontage, within twice
    its depth (a second line)."""
    fx, fy = heading_vector(unit.facing)
    for f in friends:
        if f.id == unit.id:
            continue
        dx, dy = f.x - unit.x, f.y - unit.y
        ahead = dx * fx + dy * fy
        across = abs(dx * fy - dy * fx)
        if 0 < ahead <= 2 * (unit.depth + f.depth) and across < (unit.width + f.width) / 2:
            return True
    return False


def choose_plan(state: BattleState, mech: Mechanics, player: Player) -> SidePlan:
    """The side's plan now (see the module's words)."""
    side = player.side
    mine = [u for u in state.units if u.side == side and not mech.unit_lost(state.combatant(u))]
    theirs = [u for u in state.units if u.side != side and not mech.unit_lost(state.combatant(u))]
    temper = player.temperament
    if not mine or not theirs:
        return SidePlan("advance", None, True, None, {}, "advance")
    ratio = worth(mech, mine, state) / max(worth(mech, theirs, state), 1e-6)
    posture: Posture = "advance" if ratio >= ADVANCE_AT[temper] else "hold"
    if state.turn >= HOLD_UNTIL[temper]:  # a line held that nobody attacks wins nothing
        posture = "advance"
    rule = mech.umpire_default()
    if rule is not None and state.turn >= rule.turns - 1:
        lost = [mech.units_lost(state.view(), s) for s in (0, 1)]
        share = [n / t if t else 0.0 for n, t in lost]
        if share[side] > share[1 - side]:
            posture = "advance"
    cx, cy, rx, ry = _lateral(mine)

    def wing_of(u: BattleUnit) -> Wing:
        return "right" if (u.x - cx) * rx + (u.y - cy) * ry >= 0 else "left"

    refused: Wing | None = None
    if posture == "advance" and temper is not Temperament.BOLD:
        weight = {"left": 0.0, "right": 0.0}
        for e in theirs:
            weight[wing_of(e)] += float(e.status.fraction_left)
        heavy: Wing = "left" if weight["left"] > weight["right"] else "right"
        light = weight["right" if heavy == "left" else "left"]
        if temper is Temperament.CAUTIOUS or weight[heavy] >= 1.25 * max(light, 1e-6):
            refused = heavy
    engaged = any(within(u.footprint, theirs, TOUCH * u.width) for u in mine)
    committed = temper is Temperament.BOLD or engaged or state.turn >= COMMIT_TURN
    general = next(
        (
            ld.attached_to
            for ld in state.leaders
            if ld.side == side and ld.active and ld.rank == "general" and ld.attached_to
        ),
        None,
    )
    roles: dict[str, Role] = {}
    for u in mine:
        role: Role = "attack" if posture == "advance" else "hold"
        if refused is not None and wing_of(u) == refused:
            role = "refused"
        if not committed and _behind_a_friend(u, mine):
            role = "reserve"
        if u.id == general and temper is not Temperament.BOLD:
            role = "general"
        roles[u.id] = role
    words = ["advance on the enemy" if posture == "advance" else "hold the line"]
    if refused:
        words.append(f"refuse the {refused} flank")
    words.append("reserve committed" if committed else "reserve held back")
    if general is not None:
        words.append(
            "keep the general safe" if roles.get(general) == "general" else "the general leads"
        )
    return SidePlan(posture, refused, committed, general, roles, "; ".join(words))


def measure_for(temper: Temperament, role: Role) -> Measure:
    """The measure a unit of ``temper`` weighs its choices by in its ``role``."""
    m = MEASURES[temper]
    if role == "hold":
        return replace(m, boldness=0.3 * m.boldness, risk=2.0 * m.risk)
    if role == "refused":
        return replace(m, boldness=0.0, risk=2.0 * m.risk, caution=1.5 * m.caution)
    if role == "reserve":
        return replace(m, boldness=0.0)
    if role == "general":
        return replace(
            m,
            boldness=0.5 * m.boldness,
            risk=2.0 * m.risk,
            caution=1.5 * m.caution,
            leader_weight=2.0 * m.leader_weight,
        )
    return m


#: the moves a unit looks at in each role
AIMS: dict[Role, frozenset[Aim]] = {
    "attack": frozenset({"advance", "flank", "face", "command"}),
    "hold": frozenset({"standoff", "back", "face", "command"}),
    "refused": frozenset({"back", "face", "command"}),
    "reserve": frozenset({"face", "command"}),
    "general": frozenset({"standoff", "back", "command", "face"}),
}
