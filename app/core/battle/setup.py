"""A new battle from two rosters: every unit on the table with its footprint, deployed in
lines facing each other, with its leaders, ready for :class:`StartBattle`."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from app.core.battle.state import BattleLeader, BattleState, BattleUnit, SideInfo
from app.core.roster import Roster, Unit
from app.rules.mechanics import Mechanics, Scalar, Side
from app.rules.ruleset import Ruleset

MM_PER_INCH = 25.4
#: A GSB unit width is the frontage of a unit (8 cm with the author's 15mm figures).
MM_PER_UNIT_WIDTH = 80.0


@dataclass(frozen=True)
class Table:
    width: float
    height: float


def default_table(rs: Ruleset) -> Table:
    """The ruleset's table where it gives one (GSB: 150 x 90 cm), else 6 by 4 feet."""
    size = rs.meta.table_size or ""
    m = re.match(r"\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(cm|in|inch|inches|\")?", size)
    if m:
        w, h = float(m.group(1)), float(m.group(2))
        unit = m.group(3) or "cm"
        mm = 10.0 if unit == "cm" else MM_PER_INCH
        return Table(_from_mm(rs, w * mm), _from_mm(rs, h * mm))
    return Table(_from_mm(rs, 72 * MM_PER_INCH), _from_mm(rs, 48 * MM_PER_INCH))


def _from_mm(rs: Ruleset, mm: float) -> float:
    per = {"inch": MM_PER_INCH, "cm": 10.0, "unit_width": MM_PER_UNIT_WIDTH}
    return mm / per[rs.meta.unit_of_measure]


def footprint(rs: Ruleset, army: str, unit: Unit) -> tuple[float, float]:
    """Width and depth of one unit on the table, from the ruleset's basing: bases side by side
    in one line (a multi-line unit has as many lines as the entry gives); figures based singly
    stand in the troop type's ranks (two where the data gives none)."""
    entry = rs.army(army).entries.get(unit.entry)
    troop = rs.troops.get(entry.troop) if entry is not None else None
    if troop is None:
        return (_from_mm(rs, 40.0 * max(unit.size, 1) ** 0.5), _from_mm(rs, 20.0))
    b = troop.basing
    if rs.counts_figures:
        if b.per == "base" and b.figures_per_base:
            bases = math.ceil(unit.size / b.figures_per_base)
            return (_from_mm(rs, bases * b.frontage_mm), _from_mm(rs, b.depth_mm))
        ranks = max(1, int(getattr(troop, "ranks", 2) or 2))
        files = math.ceil(unit.size / ranks)
        return (_from_mm(rs, files * b.frontage_mm), _from_mm(rs, ranks * b.depth_mm))
    if entry is not None and entry.lines:
        front = max(line.bases for line in entry.lines)
        return (_from_mm(rs, front * b.frontage_mm), _from_mm(rs, len(entry.lines) * b.depth_mm))
    if rs.meta.unit_of_measure == "unit_width":
        # GSB measures in unit widths: a unit is one unit width wide, its bases set as many
        # abreast as fit (errata: four 40 mm bases two wide and two deep make the 8 cm unit)
        files = max(1, min(unit.size, int(MM_PER_UNIT_WIDTH // b.frontage_mm)))
        ranks = math.ceil(unit.size / files)
        return (_from_mm(rs, files * b.frontage_mm), _from_mm(rs, ranks * b.depth_mm))
    return (_from_mm(rs, unit.size * b.frontage_mm), _from_mm(rs, b.depth_mm))


def _expand(rs: Ruleset, mech: Mechanics, roster: Roster, side: Side) -> list[BattleUnit]:
    prefix = "AB"[side]
    out: list[BattleUnit] = []
    army = rs.army(roster.army)
    for unit in roster.units:
        entry = army.entries.get(unit.entry)
        if entry is None:
            raise ValueError(
                f"{roster.name}: unit {unit.name} names entry {unit.entry!r}, which the "
                f"{rs.meta.short_name} data no longer has"
            )
        width, depth = footprint(rs, roster.army, unit)
        for i in range(unit.count):
            n = len(out) + 1
            name = unit.name if unit.count == 1 else f"{unit.name} {i + 1}"
            out.append(
                BattleUnit(
                    id=f"{prefix}{n}",
                    side=side,
                    name=name,
                    entry=unit.entry,
                    troop=entry.troop,
                    status=mech.initial_status(entry.troop, unit.size, unit.grade),
                    width=width,
                    depth=depth,
                    facing=0.0 if side == 0 else 180.0,
                    command=unit.command,
                    roster_unit=unit.id,
                )
            )
    return out


def _deploy(units: list[BattleUnit], side: Side, table: Table) -> list[BattleUnit]:
    """Side 0 along the near edge facing +y, side 1 along the far edge facing it; rows wrap
    when a line is wider than the table."""
    from dataclasses import replace

    gap = table.width * 0.01
    rows: list[list[BattleUnit]] = [[]]
    used = 0.0
    for u in units:
        if rows[-1] and used + u.width + gap > table.width * 0.95:
            rows.append([])
            used = 0.0
        rows[-1].append(u)
        used += u.width + gap
    placed: list[BattleUnit] = []
    y = table.height * 0.15
    for row in rows:
        total = sum(u.width for u in row) + gap * (len(row) - 1)
        x = (table.width - total) / 2
        depth = max(u.depth for u in row)
        for u in row:
            cy = y + depth / 2 if side == 0 else table.height - y - depth / 2
            placed.append(replace(u, x=x + u.width / 2, y=cy))
            x += u.width + gap
        y += depth + gap * 2
    return placed


def new_battle(
    rs: Ruleset,
    mech: Mechanics,
    rosters: tuple[Roster, Roster],
    *,
    table: Table | None = None,
    records: tuple[Mapping[str, Scalar], Mapping[str, Scalar]] = ({}, {}),
) -> BattleState:
    """The battle before its first command: both rosters deployed, leaders with their units.
    ``records`` adds to each side's record (e.g. D3 ``supply_problems``)."""
    for roster in rosters:
        if roster.ruleset != rs.id:
            raise ValueError(f"roster {roster.name!r} is for {roster.ruleset}, not {rs.id}")
    table = table or default_table(rs)
    units: list[BattleUnit] = []
    leaders: list[BattleLeader] = []
    sides: list[SideInfo] = []
    for side_index, roster in enumerate(rosters):
        side: Side = 0 if side_index == 0 else 1
        mine = _deploy(_expand(rs, mech, roster, side), side, table)
        first_of: dict[str | None, BattleUnit] = {}
        for u in mine:
            first_of.setdefault(u.roster_unit, u)
        units += mine
        general = next((ld for ld in roster.leaders if ld.rank == "general"), None)
        for ld in roster.leaders:
            if not ld.status.can_field:
                continue
            host = next((u for u in roster.units if u.leader == ld.id), None)
            attached = first_of.get(host.id) if host is not None else None
            leaders.append(
                BattleLeader(
                    id=f"{'AB'[side]}-{ld.id}",
                    side=side,
                    name=ld.name,
                    rank=ld.rank,
                    status=ld.status.value,
                    wounds=ld.wounds,
                    bonus=ld.bonus or 0,
                    exceptional=ld.exceptional,
                    quality=ld.quality,
                    attached_to=attached.id if attached else None,
                    x=attached.x if attached else table.width / 2,
                    y=attached.y if attached else (2.0 if side == 0 else table.height - 2.0),
                )
            )
        quality = (general.quality if general and general.quality else None) or "average"
        sides.append(
            SideInfo(
                name=roster.side,
                army=roster.army,
                roster=roster.name,
                record={
                    "army": roster.army,
                    "side_name": roster.side,
                    "commander_quality": quality,
                    "supply_problems": False,
                    **records[side_index],
                },
            )
        )
    return BattleState(
        ruleset=rs.id,
        sides=(sides[0], sides[1]),
        units=tuple(units),
        leaders=tuple(leaders),
        width=table.width,
        height=table.height,
    )
