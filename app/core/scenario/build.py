"""A historical battle's armies in one ruleset, as rosters: each unit line from the
battle's file with its name, size, command and leader, its notes saying which of the
sources' forces it stands for and how many men that makes it, the leaders with what the
ruleset reads of them (the leader fields its engine declares), and the roster's notes
naming the battle, the scale and what a unit stands for.

Roster unit ids are ``h-1``, ``h-2``, ... in the file's order, so a battle's units can be
traced back to the forces they stand for (:func:`unit_forces`) after the battle, whoever
stored it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.core.capabilities import leader_fields
from app.core.leaderkeys import ROSTER_KEYS, unflat
from app.core.roster import Command, Leader, Roster, Unit, check, roster_problems
from app.core.scenario.library import Scenario
from app.core.scenario.schema import Force, SideArmy
from app.core.totals import strength_of
from app.rules.ruleset import Ruleset
from app.rules.scale import Scale

if TYPE_CHECKING:
    from app.core.campaign.model import RosterHead


def unit_id(n: int) -> str:
    """The roster id of the battle file's ``n``-th unit line (1-based)."""
    return f"h-{n}"


@dataclass(frozen=True)
class ForceShare:
    """What one unit of a line stands for: its force and the men (or elephants) of it."""

    force: Force
    men: float
    elephants: float


def _lines_of(army: SideArmy, force_id: str) -> int:
    return sum(u.count for u in army.units if u.force == force_id)


def shares(sc: Scenario, ruleset: str, side_id: str) -> dict[str, ForceShare]:
    """For each roster unit id of the side's army in ``ruleset``: the force it stands for
    and its share of it, the force's men split evenly over its units (what a unit stands
    for where the ruleset counts no men: GSB, D3)."""
    side = sc.side(side_id)
    army = sc.army(ruleset, side_id)
    forces = {f.id: f for f in side.forces}
    out: dict[str, ForceShare] = {}
    for n, u in enumerate(army.units, start=1):
        force = forces[u.force]
        units = _lines_of(army, u.force)
        out[unit_id(n)] = ForceShare(force, force.men / units, force.elephants / units)
    return out


def scale_of(sc: Scenario, rs: Ruleset, scale: str | None = None) -> Scale | None:
    """The roster scale: ``scale`` when given (one of the ruleset's: the same figures then
    stand for more or fewer men), else the battle's for this ruleset; None where the
    ruleset counts bases (ValueError when a scale is asked of one)."""
    setting = sc.data.rulesets[rs.id]
    if not rs.counts_figures:
        if scale is not None:
            raise ValueError(
                f"{rs.meta.short_name} counts bases, not figures: it has no figure scale "
                f"({sc.name} sets what each of its bases stands for)"
            )
        return None
    chosen = scale if scale is not None else setting.scale
    if chosen not in rs.meta.scales:
        raise ValueError(
            f"scale {str(chosen)[:20]!r} is not one of {rs.meta.short_name}'s "
            f"({', '.join(rs.meta.scales)})"
        )
    return Scale.parse(chosen)


def _unit_notes(share: ForceShare, each_men: int | None, count: int) -> str:
    f = share.force
    what = f"{f.elephants} elephants" if f.elephants and not f.men else f"{f.men:,} men"
    head = f"Stands for {f.name} ({what}, {f.cite}{', our reading' if f.reading else ''})"
    if each_men is not None:
        return f"{head}: {each_men:,} men each at this scale."
    part = share.elephants if f.elephants and not f.men else share.men
    unit = "elephants" if f.elephants and not f.men else "men"
    many = f" each of the {count}" if count > 1 else ""
    return f"{head}: about {round(part):,} {unit}{many}."


def scenario_roster(sc: Scenario, rs: Ruleset, side_id: str, *, scale: str | None = None) -> Roster:
    """The side's army in ``rs`` as a roster named "<battle>: <side>" (ValueError when the
    battle is not set for the ruleset, or a scale it does not have is asked)."""
    if rs.id not in sc.data.rulesets:
        set_for = ", ".join(sc.rulesets) or "none"
        raise ValueError(f"{sc.name} is not set for {rs.meta.short_name} (rulesets: {set_for})")
    setting = sc.data.rulesets[rs.id]
    side = sc.side(side_id)
    army = sc.army(rs.id, side_id)
    listed = rs.army(army.army)
    roster_scale = scale_of(sc, rs, scale)
    reads = leader_fields(rs)
    people = {ld.id: ld for ld in side.leaders}
    leaders = tuple(
        Leader(
            id=al.id,
            name=people[al.id].name,
            rank=al.rank,
            notes=people[al.id].notes,
            fields={k: v for k, v in unflat(al.model_dump(), ROSTER_KEYS).items() if k in reads},
        )
        for al in army.leaders
    )
    commands = tuple(Command(c.id, c.name, c.leader, c.kind) for c in army.commands)
    share = shares(sc, rs.id, side_id)
    units: list[Unit] = []
    for n, su in enumerate(army.units, start=1):
        entry = listed.entries[su.entry]
        size = su.size or entry.default_size
        men = strength_of(rs, entry, size, roster_scale).men
        each = None if men is None else men * setting.factor
        units.append(
            Unit(
                id=unit_id(n),
                entry=su.entry,
                name=su.name or entry.name,
                size=size,
                count=su.count,
                grade=su.grade or entry.default_grade,
                command=su.command,
                leader=su.leader,
                notes=_unit_notes(share[unit_id(n)], each, su.count),
            )
        )
    notes = [
        f"{sc.name} ({sc.data.battle.date}), {side.name}: the army of {side.commander}, "
        f"from the sources ({'; '.join(sc.data.battle.sources)}).",
        f"In {rs.meta.short_name}: {setting.represents}",
    ]
    if roster_scale is not None and setting.scale is not None and roster_scale != setting.scale:
        more = roster_scale.men_per_figure > Scale(setting.scale).men_per_figure
        notes.append(
            f"At {roster_scale} the figures stand for {'more' if more else 'fewer'} men than "
            f"at the battle's {setting.scale}."
        )
    if setting.notes:
        notes.append(setting.notes)
    if army.notes:
        notes.append(army.notes)
    if army.beyond_lists:
        notes.append(f"Beyond the army list: {army.beyond_lists}")
    roster = Roster(
        name=f"{sc.name}: {side.name}"[:200],
        ruleset=rs.id,
        army=army.army,
        side=side.name,
        scale=roster_scale,
        units=tuple(units),
        leaders=leaders,
        commands=commands,
        data_version=rs.meta.data_version,
        notes=" ".join(notes),
    )
    check(roster_problems(roster, ("name", "side")))
    return roster


def scenario_rosters(
    sc: Scenario, rs: Ruleset, *, scale: str | None = None
) -> tuple[Roster, Roster]:
    """Both sides' rosters, side A's (the file's first side) first."""
    a, b = sc.side_ids
    return scenario_roster(sc, rs, a, scale=scale), scenario_roster(sc, rs, b, scale=scale)


def unit_posts(sc: Scenario, ruleset: str, side_id: str) -> dict[str, str]:
    """Roster unit id -> the post the battle's order of battle puts it at."""
    army = sc.army(ruleset, side_id)
    return {unit_id(n): u.post for n, u in enumerate(army.units, start=1)}


def force_men(sc: Scenario, rs: Ruleset, roster: Roster) -> dict[str, tuple[int, int]]:
    """For each force of the roster's side: (men the roster's units stand for at its
    scale and the battle's factor, men the sources give). Only where the ruleset counts men
    (Quincunx and MWAN #90 by figure scale, Leg VI by base); ValueError elsewhere."""
    side_id = side_of(sc, roster)
    setting = sc.data.rulesets[rs.id]
    share = shares(sc, rs.id, side_id)
    listed = rs.army(roster.army)
    got: Counter[str] = Counter()
    for u in roster.units:
        if u.id not in share:
            continue
        lines = dict(u.lines) if u.lines else None
        men = strength_of(rs, listed.entries.get(u.entry), u.size, roster.scale, lines).men
        if men is None:
            raise ValueError(f"{rs.meta.short_name} gives no men for a {u.entry}")
        got[share[u.id].force.id] += men * u.count * setting.factor
    return {f.id: (got[f.id], f.men) for f in sc.side(side_id).forces}


def side_of(sc: Scenario, roster: Roster | RosterHead) -> str:
    """The battle's side the roster fights for: the side of the same name (Rome, Carthage),
    else the one whose army in this ruleset takes the roster's army list; ValueError when
    neither says."""
    for side_id in sc.side_ids:
        if sc.side(side_id).name.casefold() == roster.side.casefold():
            return side_id
    found = [
        s
        for s in sc.side_ids
        if (army := sc.side(s).armies.get(roster.ruleset)) is not None and army.army == roster.army
    ]
    if len(found) == 1:
        return found[0]
    names = " or ".join(sc.side(s).name for s in sc.side_ids)
    raise ValueError(f"{roster.name}: cannot tell whether it fights as {names} at {sc.name}")
