"""Applying a mechanics :class:`Resolution` to a battle state, and saying what happened."""

from __future__ import annotations

from dataclasses import replace

from app.core.battle.state import BattleState, BattleUnit
from app.rules.geometry import heading_vector
from app.rules.mechanics import Combatant, Effects, Mechanics, Resolution, Victory


def describe_unit(c: Combatant) -> str:
    return f"{c.name} ({c.unit_id})"


def describe_effects(name: str, e: Effects, strength_unit: str) -> str | None:
    """``Hastati (A3) lose 2 figures, take 2 rings and recoil 12"`` or None for no effect."""
    parts: list[str] = []
    if e.casualties:
        unit = (
            strength_unit[:-1]
            if e.casualties == 1 and strength_unit.endswith("s")
            else (strength_unit)
        )
        parts.append(f"lose {e.casualties} {unit}")
    if e.hits:
        parts.append(f"{'take' if e.hits > 0 else 'remove'} {abs(e.hits)} hit(s)")
    if e.dps:
        parts.append(f"{'take' if e.dps > 0 else 'remove'} {abs(e.dps)} DP(s)")
    if e.rings:
        parts.append(f"{'take' if e.rings > 0 else 'remove'} {abs(e.rings)} ring(s)")
    if e.markers_add:
        parts.append("become " + ", ".join(sorted(e.markers_add)))
    if e.markers_remove:
        parts.append("are no longer " + ", ".join(sorted(e.markers_remove)))
    if e.formation:
        parts.append(f"are now {e.formation}")
    if e.move:
        parts.append(e.move)
    if e.eliminated:
        parts.append("are out of the battle")
    if not parts:
        return None
    return f"{name} " + ", ".join(parts) + "."


def _shifted(state: BattleState, unit: BattleUnit, bearing: float, distance: float) -> BattleUnit:
    """The unit moved ``distance`` along ``bearing`` (kept on the table), leader with it."""
    vx, vy = heading_vector(bearing)
    x = min(max(unit.x + vx * distance, 0.0), state.width)
    y = min(max(unit.y + vy * distance, 0.0), state.height)
    return replace(unit, x=x, y=y)


def apply_resolution(
    state: BattleState,
    res: Resolution,
    actor: str | None,
    target: str | None,
    mech: Mechanics,
) -> tuple[BattleState, list[str]]:
    """The state after ``res`` and the log lines: the mechanics' explanation, then what
    happened to each unit, side and leader."""
    lines = list(res.explanation)
    changes: list[tuple[str, Effects]] = []
    if actor is not None:
        changes.append((actor, res.outcome.attacker))
    if target is not None:
        changes.append((target, res.outcome.defender))
    changes += [(c.unit_id, c.effects) for c in res.others]
    changed: dict[str, BattleUnit] = {}
    for unit_id, effects in changes:
        if effects.is_empty:
            continue
        unit = changed.get(unit_id) or state.unit(unit_id)
        was_out = unit.status.eliminated
        # say only the markers that change (a hook may clear markers a unit does not have)
        seen = replace(
            effects,
            markers_add=effects.markers_add - unit.status.markers,
            markers_remove=effects.markers_remove & unit.status.markers,
        )
        unit = replace(unit, status=unit.status.apply(effects))
        if effects.shift is not None:
            unit = _shifted(state, unit, *effects.shift)
        changed[unit.id] = unit
        said = describe_effects(f"{unit.name} ({unit.id})", seen, mech.strength_unit)
        if said:
            lines.append(said)
        if unit.status.eliminated and not was_out and not effects.eliminated:
            lines.append(f"{unit.name} ({unit.id}) is out of the battle.")
    state = state.replace_units(changed)
    result = f"Result: {res.outcome.result}."
    if res.outcome.result and result not in res.explanation:
        lines.append(result)
    sides = list(state.sides)
    for i, update in enumerate(res.sides):
        if update:
            sides[i] = replace(sides[i], record={**sides[i].record, **update})
    state = replace(state, sides=(sides[0], sides[1]))
    if res.initiative is not None:
        state = replace(state, initiative=res.initiative)
    for event in res.leader_events:
        leader = state.leader(event.leader_id)
        attached = leader.attached_to if event.status in ("fit", "wounded") else None
        state = state.replace_leader(
            replace(leader, status=event.status, wounds=event.wounds, attached_to=attached)
        )
        lines.append(event.text)
    # Leaders stay with their units; a leader whose unit has left the battle is on his own.
    for leader in state.leaders:
        if leader.attached_to is None:
            continue
        host = state.unit(leader.attached_to)
        if host.status.eliminated:
            state = state.replace_leader(replace(leader, attached_to=None))
        elif (leader.x, leader.y) != (host.x, host.y):
            state = state.replace_leader(replace(leader, x=host.x, y=host.y))
    return state, lines


def check_victory(state: BattleState, mech: Mechanics) -> tuple[BattleState, list[str]]:
    """Ask the ruleset's victory rule; end the battle when it names a result."""
    if state.result is not None:
        return state, []
    won: Victory | None = mech.victory(state.view())
    if won is None:
        return state, []
    who = "A draw" if won.winner is None else f"{state.sides[won.winner].name} wins"
    return replace(state, result=won), [f"{who}: {won.reason}."]
