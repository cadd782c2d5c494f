"""A battle's result applied to a campaign army: leaders' fates by the ruleset's leader
rules, units' losses by the campaign's recovery rule, lost units kept aside.

- A leader's wounds from this battle are added to those he had; the wound that reaches the
  ruleset's ``[leaders] wounds_to_kill`` kills him (Leg VI, Risk to Leader: "a previously
  wounded leader is killed if wounded a second time"; Quincunx, Commanders: "a third wound
  kills him"). Where no wound kills (GSB, MWAN #90, D3) the wounds are kept, to no effect.
  Wounds stay from battle to battle (``[campaign] wounds_carry``; the errata
  "campaign-wounds" of each ruleset say why), so the next battle's mechanics read them: a
  wounded Leg VI leader has one action less, a wounded Quincunx commander moves 2 MF.
- A unit's losses come back by the recovery rule (none; half, rounded down; all); a unit
  lost (destroyed, eliminated, routed off) is taken out of the army into the side's lost
  units with the battle and the reason. Identical units (a roster line of ``count``) that
  end with different strengths are split into lines, with ids made from the line's id so
  that the same result always gives the same army.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.core.battle.result import LeaderOutcome, UnitOutcome
from app.core.campaign.model import CampaignError, CampaignSide, LostUnit, Recovery
from app.core.roster import Leader, LeaderStatus, Roster, Unit
from app.rules.ruleset import Ruleset


def recovery_of(rs: Ruleset, rule: Recovery) -> str:
    """The rule in force: the campaign's, or the ruleset's default for ``ruleset``."""
    return rs.campaign.recovery if rule == "ruleset" else rule


def recovered(start: int, end: int, rule: str) -> int:
    """The strength a unit that went in with ``start`` and came out with ``end`` has for
    the next battle under ``rule`` (none, half, all)."""
    losses = max(0, start - end)
    back = {"none": 0, "half": losses // 2, "all": losses}[rule]
    return end + back


def leader_after(rs: Ruleset, leader: Leader, outcome: LeaderOutcome) -> Leader:
    """``leader`` after his fate in a battle, by the ruleset's leader rules."""
    if outcome.fate in ("killed", "captured"):
        return replace(
            leader, status=LeaderStatus(outcome.fate), wounds=leader.wounds + outcome.wounds
        )
    carry = rs.campaign.wounds_carry
    wounds = (leader.wounds if carry else 0) + outcome.wounds
    if outcome.fate == "wounded" and outcome.wounds == 0:
        wounds += 1  # "wounded" with no count given is one wound
    to_kill = rs.leaders.wounds_to_kill
    if to_kill is not None and wounds >= to_kill:
        return replace(leader, status=LeaderStatus.KILLED, wounds=wounds)
    if (wounds > 0 and carry) or outcome.fate == "wounded":
        return replace(leader, status=LeaderStatus.WOUNDED, wounds=wounds)
    return replace(leader, status=LeaderStatus.FIT, wounds=wounds)


def _lines_after(rs: Ruleset, army: Roster, unit: Unit, size: int) -> Unit:
    """A multi-line unit (a Leg VI legion) that lost bases: the bases come off its first
    line (the one that fights first), then the next, each line keeping at least one."""
    entry = rs.army(army.army).entries.get(unit.entry)
    if entry is None or not entry.lines or size == unit.size:
        return replace(unit, size=size)
    lines = {ln.name: (unit.lines or {}).get(ln.name, ln.bases) for ln in entry.lines}
    to_lose = sum(lines.values()) - size
    for name in lines:
        while to_lose > 0 and lines[name] > 1:
            lines[name] -= 1
            to_lose -= 1
    return replace(unit, size=size, lines=lines)


def _split_id(base: str, k: int, taken: set[str]) -> str:
    ident = f"{base}.{k}"
    while ident in taken:
        k += 1
        ident = f"{base}.{k}"
    return ident


def units_after(
    rs: Ruleset,
    side: CampaignSide,
    outcomes: Sequence[UnitOutcome],
    rule: str,
    battle_id: str,
) -> CampaignSide:
    """The side's army after the battle's unit outcomes (units not in it are unchanged)."""
    army = side.army
    by_line: dict[str, list[UnitOutcome]] = {}
    for o in outcomes:
        by_line.setdefault(o.roster_unit, []).append(o)
    taken = {u.id for u in army.units}
    units: list[Unit] = []
    lost = list(side.lost)
    for unit in army.units:
        mine = sorted(by_line.pop(unit.id, []), key=lambda o: o.index)
        if not mine:
            units.append(unit)
            continue
        if len(mine) > unit.count or len({o.index for o in mine}) != len(mine):
            raise CampaignError(f"the result names {unit.name} more times than it has units")
        sizes: list[int] = []
        for o in mine:
            if o.lost:
                one = replace(unit, count=1, leader=None)
                lost.append(LostUnit(one, battle_id, o.reason or "lost"))
            else:
                sizes.append(min(unit.size, recovered(o.start, o.end, rule)))
        sizes += [unit.size] * (unit.count - len(mine))  # those that stayed out of it
        groups: dict[int, int] = {}
        for s in sizes:
            groups[s] = groups.get(s, 0) + 1
        for k, (size, count) in enumerate(groups.items()):
            ident = unit.id if k == 0 else _split_id(unit.id, k + 1, taken)
            taken.add(ident)
            line = _lines_after(rs, army, replace(unit, id=ident, count=count), size)
            units.append(line if k == 0 else replace(line, leader=None))
    if by_line:
        missing = ", ".join(sorted(by_line))
        raise CampaignError(f"the result names units {side.army.name} no longer has: {missing}")
    return replace(side, army=army.with_units(units), lost=tuple(lost))


def leaders_after(rs: Ruleset, side: CampaignSide, outcomes: Sequence[LeaderOutcome]) -> Roster:
    army = side.army
    fates = {o.leader: o for o in outcomes}
    unknown = set(fates) - {ld.id for ld in army.leaders}
    if unknown:
        raise CampaignError(f"the result names leaders {army.name} does not have: {unknown}")
    return replace(
        army,
        leaders=tuple(
            leader_after(rs, ld, fates[ld.id]) if ld.id in fates else ld for ld in army.leaders
        ),
    )
