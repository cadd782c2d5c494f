"""A new battle from two rosters: every unit on the table with its footprint, deployed in
lines inside its side's deployment zone facing the enemy, with its leaders, ready for
:class:`StartBattle`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from fractions import Fraction

from app.core.battle.state import BattleLeader, BattleState, BattleUnit, SideInfo
from app.core.leaderkeys import battle_fields
from app.core.roster import Roster
from app.rules.contact import Zone, zone_holds
from app.rules.geometry import bbox_of
from app.rules.measure import MM_PER, mm_per_unit
from app.rules.mechanics import Combatant, LeaderView, Mechanics, Scalar, Side, TurnView
from app.rules.ruleset import Ruleset
from app.rules.schema import TableSize
from app.rules.table import Table

__all__ = [
    "APP_DEFAULT_TABLE",
    "Table",
    "default_table",
    "fitting_table",
    "grown_table_note",
    "new_battle",
]

#: The app's table for a ruleset whose source gives no table size: 6 by 4 feet, a common
#: wargames table. Not a rules number (no source says it); a battle may be set up on any table.
APP_DEFAULT_TABLE = TableSize(width=6, height=4, unit="ft")

#: How a table grows, both sides in proportion, for armies that do not stand inside their
#: deployment zones on the ruleset's own (the Quincunx model armies, 73 units of 25mm
#: figures, need 9 x 6 ft where the app's table is 6 x 4)
GROWTH = (1.25, 1.5, 2.0, 2.5, 3.0)


def default_table(rs: Ruleset) -> Table:
    """The table the ruleset's source gives (``meta.table``; GSB: 150 x 90 cm), else the
    app's default (:data:`APP_DEFAULT_TABLE`), in the ruleset's unit of measure."""
    size = rs.meta.table or APP_DEFAULT_TABLE
    mm, per = MM_PER[size.unit], mm_per_unit(rs)
    return Table(float(Fraction(size.width) * mm / per), float(Fraction(size.height) * mm / per))


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
        width, depth = mech.footprint(entry, unit.size)
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


def _rows(units: list[BattleUnit], width: float, gap: float) -> list[list[BattleUnit]]:
    """The units in rows no wider than 95% of ``width``, in roster order."""
    rows: list[list[BattleUnit]] = [[]]
    used = 0.0
    for u in units:
        if rows[-1] and used + u.width + gap > width * 0.95:
            rows.append([])
            used = 0.0
        rows[-1].append(u)
        used += u.width + gap
    return [r for r in rows if r]


def _classic(
    units: list[BattleUnit], side: Side, table: Table, touching: bool = False
) -> list[BattleUnit]:
    """The lines Castra drew up before battles had deployment zones: the first row 15% of
    the table's depth from the side's edge, the next in front of it. Kept where it lies in
    the zone, so a battle set up from the same rosters opens as it always did. ``touching``:
    the units of a row stand side by side with no gap (the ruleset's lines touch)."""
    gap = table.width * 0.01
    side_gap = 0.0 if touching else gap
    placed: list[BattleUnit] = []
    y = table.height * 0.15
    for row in _rows(units, table.width, side_gap):
        total = sum(u.width for u in row) + side_gap * (len(row) - 1)
        x = (table.width - total) / 2
        depth = max(u.depth for u in row)
        for u in row:
            cy = y + depth / 2 if side == 0 else table.height - y - depth / 2
            placed.append(replace(u, x=x + u.width / 2, y=cy))
            x += u.width + side_gap
        y += depth + gap * 2
    return placed


def _in_zone(
    units: list[BattleUnit], side: Side, zone: Zone, touching: bool = False
) -> list[BattleUnit]:
    """The side's units in rows inside its deployment ``zone``: the first row along the
    zone's front edge (the one nearest the enemy), the next behind it; rows wrap when a line
    is wider than the zone. An army too big for its zone goes on in rows in front of it.
    ``touching``: the units of a row stand side by side with no gap."""
    x0, y0, x1, y1 = bbox_of(zone)
    width = x1 - x0
    gap = width * 0.01
    side_gap = 0.0 if touching else gap
    placed: list[BattleUnit] = []
    back = gap  # how far behind the front edge the next row begins
    ahead = 0.0  # rows that did not fit, in front of the zone
    depth_of_zone = y1 - y0
    for row in _rows(units, width, side_gap):
        total = sum(u.width for u in row) + side_gap * (len(row) - 1)
        x = x0 + (width - total) / 2
        depth = max(u.depth for u in row)
        if back + depth <= depth_of_zone:
            offset = -(back + depth / 2)
            back += depth + gap * 2
        else:
            offset = ahead + gap + depth / 2
            ahead += depth + gap * 2
        cy = y1 + offset if side == 0 else y0 - offset
        for u in row:
            placed.append(replace(u, x=x + u.width / 2, y=cy))
            x += u.width + side_gap
    return placed


def _deploy(
    units: list[BattleUnit],
    side: Side,
    zone: Zone,
    facing: float,
    table: Table,
    touching: bool = False,
) -> list[BattleUnit]:
    """The side's units facing ``facing``, inside its deployment ``zone``: the classic
    lines (:func:`_classic`) when every base lies in the zone, else rows packed from the
    zone's front edge (:func:`_in_zone`); side by side with no gap where ``touching``."""
    units = [replace(u, facing=facing) for u in units]
    classic = _classic(units, side, table, touching)
    if all(zone_holds(zone, u.footprint.corners()) for u in classic):
        return classic
    return _in_zone(units, side, zone, touching)


def _before(rosters: tuple[Roster, Roster], table: Table) -> TurnView:
    """The view of the table before any unit stands on it (for the deployment zones)."""
    return TurnView(
        turn=1,
        phase=0,
        initiative=None,
        units=(),
        sides=({}, {}),
        armies=(rosters[0].army, rosters[1].army),
        side_names=(rosters[0].side, rosters[1].side),
        table=table,
    )


def _stands_in_zones(
    rs: Ruleset, mech: Mechanics, rosters: tuple[Roster, Roster], table: Table
) -> bool:
    """Whether both armies, deployed as :func:`new_battle` deploys them, stand wholly inside
    their zones on ``table``."""
    zones = mech.deployment_zones(_before(rosters, table))
    for index, roster in enumerate(rosters):
        side: Side = 0 if index == 0 else 1
        units = _expand(rs, mech, roster, side)
        placed = _deploy(
            units, side, zones[side], mech.deployment_facing(side), table, mech.deploy_touching
        )
        if not all(zone_holds(zones[side], u.footprint.corners()) for u in placed):
            return False
    return True


def fitting_table(rs: Ruleset, mech: Mechanics, rosters: tuple[Roster, Roster]) -> Table:
    """The ruleset's table (:func:`default_table`), or, when the two armies would not stand
    inside their deployment zones on it, the first size of it grown by :data:`GROWTH` on
    which they do: a player lays out a bigger table for bigger armies. Armies too big even
    for the largest keep the ruleset's table (their last rows then stand in front of their
    zones). No terrain: a layout is fitted to the size afterwards."""
    base = default_table(rs)
    if _stands_in_zones(rs, mech, rosters, base):
        return base
    for factor in GROWTH:
        grown = Table(round(base.width * factor, 3), round(base.height * factor, 3))
        if _stands_in_zones(rs, mech, rosters, grown):
            return grown
    return base


def grown_table_note(rs: Ruleset, mech: Mechanics, state: BattleState) -> str | None:
    """One line saying the battle's table is larger than the ruleset's and why (None when it
    is not): "Table 108 x 72", larger than Quincunx's 72 x 48": the armies stand in their
    deployment zones only on the larger one."""
    base = default_table(rs)
    if state.width <= base.width and state.height <= base.height:
        return None
    u = mech.length_symbol()
    return (
        f"Table {state.width:g} x {state.height:g}{u}, larger than {rs.meta.short_name}'s "
        f"{base.width:g} x {base.height:g}{u}: the armies stand in their deployment zones "
        "only on the larger one."
    )


def _place_leaders(
    mech: Mechanics, roster: Roster, side: Side, mine: list[BattleUnit], table: Table
) -> list[BattleLeader]:
    """The side's fieldable leaders where they stand when the battle begins: with the unit
    the roster attaches each to (the first of a line of identical units); else where his
    ruleset puts him (:meth:`Mechanics.leader_post`: with the unit nearest the centre of his
    command where the rules want him with a unit), else detached just behind the centre of
    his command (or of his side, when he leads none)."""
    first_of: dict[str | None, BattleUnit] = {}
    for u in mine:
        first_of.setdefault(u.roster_unit, u)
    everyone = [u.as_combatant() for u in mine]
    placed: list[BattleLeader] = []
    for ld in roster.leaders:
        if not ld.status.can_field:
            continue
        led = {c.id for c in roster.commands if c.leader == ld.id}
        command = [c for c, u in zip(everyone, mine, strict=True) if u.command in led]
        host_line = next((u for u in roster.units if u.leader == ld.id), None)
        host = first_of.get(host_line.id) if host_line is not None else None
        if host is None:
            view = LeaderView(ld.id, ld.name, ld.rank, wounds=ld.wounds, side=side)
            post = mech.leader_post(view, command, everyone)
            host = next((u for u in mine if u.id == post), None)
        if host is not None:
            x, y = host.x, host.y
        else:
            x, y = _behind(command or everyone, side, table)
        placed.append(
            BattleLeader(
                id=f"{'AB'[side]}-{ld.id}",
                side=side,
                name=ld.name,
                rank=ld.rank,
                status=ld.status.value,
                wounds=ld.wounds,
                fields=battle_fields(ld.fields),
                attached_to=host.id if host is not None else None,
                x=x,
                y=y,
                commands=tuple(sorted(led)),
            )
        )
    return placed


def _behind(units: list[Combatant], side: Side, table: Table) -> tuple[float, float]:
    """A point behind the centre of ``units`` (half a base's depth behind the rearmost of
    them, towards the side's own table edge), on the table; the middle of the side's edge
    when there are none."""
    if not units:
        return table.width / 2, (2.0 if side == 0 else table.height - 2.0)
    x = sum(u.x for u in units) / len(units)
    margin = max(u.depth for u in units) / 2
    if side == 0:
        y = min(u.y - u.depth / 2 for u in units) - margin
    else:
        y = max(u.y + u.depth / 2 for u in units) + margin
    return x, min(max(y, 0.0), table.height)


#: How a caller stands a side's units on the table in place of :func:`_deploy`: given the
#: side's units (footprints, facing the enemy), the side, its deployment zone and the table,
#: the units placed (a historical battle's battle order: ``app.core.scenario``)
Placer = Callable[[list[BattleUnit], Side, Zone, Table], list[BattleUnit]]


def new_battle(
    rs: Ruleset,
    mech: Mechanics,
    rosters: tuple[Roster, Roster],
    *,
    table: Table | None = None,
    records: tuple[Mapping[str, Scalar], Mapping[str, Scalar]] = ({}, {}),
    fit: bool = False,
    place: Placer | None = None,
) -> BattleState:
    """The battle before its first command: both rosters deployed, leaders with their units.
    Each side's record holds its ``army`` and ``side_name``, what the ruleset keeps there
    from the start (:meth:`Mechanics.side_record`), then ``records`` (e.g. D3
    ``supply_problems``). Each unit's footprint is the ruleset's
    (:meth:`Mechanics.footprint`), placed inside its side's deployment zone
    (:meth:`Mechanics.deployment_zones`) facing the enemy; ``table`` may bring terrain
    (none given: :func:`fitting_table`, the ruleset's table or a larger one the armies fit).
    ``fit``: the table's size was chosen (``battle new --size``): a unit the deployment
    leaves off it is refused (ValueError naming them), not started off the table.
    ``place`` stands each side's units in place of the lines Castra draws up; a ``table``
    with its own deployment zones (:attr:`Table.zones`) keeps them in the battle."""
    for roster in rosters:
        if roster.ruleset != rs.id:
            raise ValueError(f"roster {roster.name!r} is for {roster.ruleset}, not {rs.id}")
    table = table or fitting_table(rs, mech, rosters)
    zones = mech.deployment_zones(_before(rosters, table))
    units: list[BattleUnit] = []
    leaders: list[BattleLeader] = []
    sides: list[SideInfo] = []
    for side_index, roster in enumerate(rosters):
        side: Side = 0 if side_index == 0 else 1
        if place is None:
            mine = _deploy(
                _expand(rs, mech, roster, side),
                side,
                zones[side],
                mech.deployment_facing(side),
                table,
                mech.deploy_touching,
            )
        else:
            facing = mech.deployment_facing(side)
            expanded = [replace(u, facing=facing) for u in _expand(rs, mech, roster, side)]
            mine = place(expanded, side, zones[side], table)
        units += mine
        general = next((ld for ld in roster.leaders if ld.rank == "general"), None)
        leaders += _place_leaders(mech, roster, side, mine, table)
        view = None
        if general is not None:
            view = LeaderView(
                general.id,
                general.name,
                general.rank,
                wounds=general.wounds,
                fields=battle_fields(general.fields),
                side=side,
            )
        sides.append(
            SideInfo(
                name=roster.side,
                army=roster.army,
                roster=roster.name,
                record={
                    "army": roster.army,
                    "side_name": roster.side,
                    **mech.side_record(roster.army, view),
                    **records[side_index],
                },
            )
        )
    off = [u.id for u in units if fit and not table.holds(u.footprint.corners())]
    if off:
        raise ValueError(
            f"{', '.join(off[:10])}{' ...' if len(off) > 10 else ''} do not fit on a "
            f"{table.width:g} by {table.height:g} table; choose a larger one"
        )
    return BattleState(
        ruleset=rs.id,
        sides=(sides[0], sides[1]),
        units=tuple(units),
        leaders=tuple(leaders),
        terrain=table.terrain,
        width=table.width,
        height=table.height,
        zones=table.zone_fractions,
    )
