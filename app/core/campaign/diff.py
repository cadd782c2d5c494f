"""What a campaign step changes in the armies, in words, for the preview before it is done:
"Paullus: fit -> killed", "Hastati (left): 60 -> 41 figures"."""

from __future__ import annotations

from app.core.campaign.model import Campaign, CampaignSide
from app.core.roster import Leader, Unit
from app.rules.ruleset import Ruleset


def size_word(rs: Ruleset) -> str:
    return "figures" if rs.counts_figures else "bases"


def leader_state(ld: Leader) -> str:
    if ld.wounds and ld.status.value in ("wounded", "killed", "captured"):
        return f"{ld.status.value} ({ld.wounds} wound{'s' if ld.wounds != 1 else ''})"
    return ld.status.value


def _line(u: Unit, word: str) -> str:
    return f"{u.size} {word}" if u.count == 1 else f"{u.count} x {u.size} {word}"


def _side_diff(rs: Ruleset, a: CampaignSide, b: CampaignSide) -> list[str]:
    word = size_word(rs)
    out: list[str] = []
    old_leaders = {ld.id: ld for ld in a.army.leaders}
    for ld in b.army.leaders:
        was = old_leaders.pop(ld.id, None)
        if was is None:
            out.append(f"{ld.name}: joins as {ld.rank}")
            continue
        if (was.status, was.wounds) != (ld.status, ld.wounds):
            out.append(f"{ld.name}: {leader_state(was)} -> {leader_state(ld)}")
        if was.rank != ld.rank:
            out.append(f"{ld.name}: {was.rank} -> {ld.rank}")
    out += [f"{ld.name}: leaves the army" for ld in old_leaders.values()]
    old_units = {u.id: u for u in a.army.units}
    new_units = {u.id: u for u in b.army.units}
    for u in a.army.units:
        parts = [n for n in b.army.units if n.id == u.id or n.id.startswith(f"{u.id}.")]
        parts = [n for n in parts if n.id == u.id or n.id not in old_units]
        if not parts:
            continue
        if len(parts) == 1 and (parts[0].size, parts[0].count) == (u.size, u.count):
            continue
        after = " + ".join(_line(n, word) for n in parts)
        out.append(f"{u.name}: {_line(u, word)} -> {after}")
    for u in b.army.units:
        if u.id not in old_units and not any(u.id.startswith(f"{o}.") for o in old_units):
            out.append(f"{u.name}: joins ({_line(u, word)})")
    for lost in b.lost[len(a.lost) :]:
        u = lost.unit
        out.append(f"{u.name}: {u.size} {word} -> lost ({lost.reason})")
    gone = [u for u in a.army.units if u.id not in new_units]
    lost_ids = {x.unit.id for x in b.lost[len(a.lost) :]}
    out += [f"{u.name}: leaves the army" for u in gone if u.id not in lost_ids]
    return out


def diff(rs: Ruleset, before: Campaign, after: Campaign) -> list[str]:
    """One line a change, each side's lines after its name; empty when the armies are the
    same (a step that only records, say)."""
    out: list[str] = []
    old = {s.id: s for s in before.sides}
    for side in after.sides:
        lines = _side_diff(rs, old[side.id], side) if side.id in old else []
        if lines:
            out.append(f"{side.name}:")
            out += [f"  {line}" for line in lines]
    return out
