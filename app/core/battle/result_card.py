"""What a step just did, for the player who rolled: the result card the Actions dock shows
after Roll or Enter dice (issue 23: the result was only in a status line cut off at 1280
pixels and a truncated Log line).

Built from the step (its dice, its log lines), the state before it and the one it made (what
changed on the table: losses, rings, DPs, markers, moves, units out, leaders hit) and, where
the step is a ruleset action whose exact odds were shown before the roll, the chance its
outcome had. Plain words and numbers; nothing here knows a rule."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from app.core.battle.odds_summary import effects_words
from app.core.battle.session import Step
from app.core.battle.state import BattleLeader, BattleState, BattleUnit
from app.rules.mechanics import Odds


@dataclass(frozen=True)
class ResultCard:
    #: the step's first log line ("Melee: A1 Hastati against B2 Gauls.")
    title: str
    #: each throw: what it was for, the dice, the faces
    dice: tuple[str, ...]
    #: the outcome as the odds name it ("defender recoils") with each side's effects
    outcome: str | None
    #: what changed on the table, a line a unit or leader
    changes: tuple[str, ...]
    #: the rest of the step's log: what the dice meant
    lines: tuple[str, ...]
    #: the chance this outcome had, from the odds shown before the roll
    chance: Fraction | None = None

    @property
    def chance_words(self) -> str | None:
        if self.chance is None:
            return None
        pct = float(self.chance) * 100
        return f"{pct:.2f}%" if pct >= 0.01 else f"{pct:.2g}%"


def _unit_change(before: BattleUnit, after: BattleUnit, unit_word: str) -> str | None:
    b, a = before.status, after.status
    parts: list[str] = []
    if a.strength != b.strength:
        lost = b.strength - a.strength
        word = "lost" if lost > 0 else "regained"
        parts.append(f"{word} {abs(lost)} {unit_word} ({b.strength} \u2192 {a.strength})")
    for key, name in (("hits", "hit"), ("rings", "ring"), ("dps", "DP")):
        old, new = getattr(b, key), getattr(a, key)
        if new != old:
            delta = new - old
            plural = name + ("s" if abs(delta) != 1 else "")
            parts.append(f"{'+' if delta > 0 else '-'}{abs(delta)} {plural} (now {new})")
    added = sorted(set(a.markers) - set(b.markers))
    removed = sorted(set(b.markers) - set(a.markers))
    parts += [m.replace("_", " ") for m in added]
    parts += [f"no longer {m.replace('_', ' ')}" for m in removed]
    moved = math.hypot(after.x - before.x, after.y - before.y)
    if moved > 1e-6 and not a.eliminated:
        parts.append(f"moved {moved:.1f}")
    if a.eliminated and not b.eliminated:
        parts.append("out of the battle")
    if not parts:
        return None
    return f"{after.id} {after.name}: {', '.join(parts)}"


def _leader_change(before: BattleLeader, after: BattleLeader) -> str | None:
    if (before.status, before.wounds) == (after.status, after.wounds):
        return None
    text = f"{after.name}: {after.status}"
    if after.wounds and after.status in ("fit", "wounded"):
        text += f" ({after.wounds} wound{'s' if after.wounds != 1 else ''})"
    return text


def table_changes(before: BattleState, after: BattleState, unit_word: str) -> tuple[str, ...]:
    """What changed between two states, a line a unit or leader that changed."""
    lines: list[str] = []
    old_units = {u.id: u for u in before.units}
    for u in after.units:
        was = old_units.get(u.id)
        if was is not None and (line := _unit_change(was, u, unit_word)):
            lines.append(line)
    old_leaders = {ld.id: ld for ld in before.leaders}
    for ld in after.leaders:
        was_leader = old_leaders.get(ld.id)
        if was_leader is not None and (line := _leader_change(was_leader, ld)):
            lines.append(line)
    return tuple(lines)


def result_card(
    step: Step, before: BattleState, odds: Odds | None = None, unit_word: str = "figures"
) -> ResultCard:
    """The card of ``step``, done on ``before``; ``odds``: the exact odds shown for it
    before the roll (the chance of its outcome is read there), ``unit_word``: what strength
    counts (the mechanics' ``strength_unit``)."""
    lines = tuple(step.lines)
    outcome = step.outcome
    words: str | None = None
    chance: Fraction | None = None
    if outcome is not None:
        sides = [
            f"{who} {effects_words(e)}"
            for who, e in (("attacker", outcome.attacker), ("defender", outcome.defender))
            if effects_words(e) != "-"
        ]
        head = outcome.result or "no effect"
        words = head + (f" ({'; '.join(sides)})" if sides else "")
        if odds is not None:
            chance = odds.get(outcome)
    return ResultCard(
        title=lines[0] if lines else step.command.label,
        dice=tuple(
            f"{r.purpose}: {r.spec} \u2192 {', '.join(map(str, r.faces))}" for r in step.rolls
        ),
        outcome=words,
        changes=table_changes(before, step.state, unit_word),
        lines=lines[1:],
        chance=chance,
    )
