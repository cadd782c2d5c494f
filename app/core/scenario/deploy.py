"""A historical battle on the table: its field laid out at the table's size, each side's
units at the posts of its battle order, and the battle's own deployment zones where it
gives them (Hannibal's ambush at Lake Trasimene), ready for :class:`StartBattle`.

A post is an area of the table in fractions; its units stand in rows across it, the first
row along its front edge (the edge towards its units' facing), in the roster's order from
the left as the side sees it, spread evenly across the post; the next row behind. A roster
the battle's file did not make (a campaign's army after earlier battles) has no posts: each
of its units goes to a post that takes its kind of troops (the emptiest of those, so wings
stay even), else to the side's reserve post.

The table is the ruleset's own, or the first larger one (grown as for any big armies,
:data:`app.core.battle.setup.GROWTH`) on which every post holds its units; the field's
terrain and zones, in fractions, follow its size.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from app.core.battle.setup import GROWTH, Placer, default_table, new_battle
from app.core.battle.state import BattleState, BattleUnit
from app.core.roster import Roster
from app.core.scenario.build import side_of, unit_id, unit_posts
from app.core.scenario.library import Scenario
from app.core.scenario.schema import Post
from app.rules.contact import Zone
from app.rules.geometry import axes
from app.rules.layouts import Layout, LayoutPiece, fit_layout
from app.rules.measure import mm_per_unit
from app.rules.mechanics import Mechanics, Scalar, Side
from app.rules.movement import Breach
from app.rules.ruleset import Ruleset
from app.rules.schema import Category
from app.rules.table import Table, TerrainKind

#: the gap between rows, as a share of the depth of the row in front
ROW_GAP = 0.1
#: the widest gap between the units of a row (they spread across their post up to it), as
#: a share of their mean width
SPREAD = 0.5


def _turned(points: Sequence[tuple[float, float]], turn: bool) -> tuple[tuple[float, float], ...]:
    """``points`` (fractions) turned half about the table's centre when ``turn``."""
    return tuple((1 - x, 1 - y) for x, y in points) if turn else tuple(points)


def field_layout(
    sc: Scenario, in_place_of: Mapping[TerrainKind, TerrainKind], *, turned: bool = False
) -> Layout:
    """The battle's field as a layout, in the ruleset's kinds of terrain (``in_place_of``:
    Leg VI knows obstacles to cross, not rivers:
    :attr:`~app.rules.movement.MovementRules.terrain_in_place_of`); ``turned`` half about
    when the battle's second side stands at side A's edge."""
    swap = in_place_of
    pieces = tuple(
        LayoutPiece(swap.get(p.kind, p.kind), _turned(p.points, turned), p.name, p.width_mm)
        for p in sc.data.field.pieces
    )
    return Layout(sc.name, pieces, sc.data.field.note)


def zone_fractions(sc: Scenario, order: tuple[str, str]) -> tuple[Zone, Zone] | None:
    """The battle's own deployment zones for side A and side B (``order``: the battle's
    side ids as they stand on the table), None when it keeps the rulesets'."""
    a, b = (sc.side(s).zone for s in order)
    if a is None or b is None:
        return None
    turned = order != sc.side_ids
    return _turned(a, turned), _turned(b, turned)


def scenario_table(
    sc: Scenario, rs: Ruleset, width: float, height: float, order: tuple[str, str]
) -> Table:
    """A ``width`` by ``height`` table with the battle's field and zones on it, the field
    turned about when ``order`` puts the battle's second side at side A's edge."""
    blank = Table(width, height)
    layout = field_layout(sc, rs.engine.mechanics.terrain_in_place_of, turned=order != sc.side_ids)
    terrain = fit_layout(layout, blank, mm_per_unit(rs))
    return Table(width, height, terrain, zone_fractions(sc, order))


def _area(post: Post, table: Table) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = post.area
    return x0 * table.width, y0 * table.height, x1 * table.width, y1 * table.height


def _post_facing(post: Post, side: Side, mech: Mechanics) -> float:
    return mech.deployment_facing(side) if post.facing is None else post.facing % 360


@dataclass(frozen=True)
class _Frame:
    """A post's area seen from its units: the front and back along the facing, the left
    and right across it."""

    forward: tuple[float, float]
    right: tuple[float, float]
    front: float
    back: float
    left: float
    rightmost: float

    @classmethod
    def of(cls, area: tuple[float, float, float, float], facing: float) -> _Frame:
        x0, y0, x1, y1 = area
        fwd, right = axes(facing)
        corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        along = [fwd[0] * x + fwd[1] * y for x, y in corners]
        across = [right[0] * x + right[1] * y for x, y in corners]
        return cls(fwd, right, max(along), min(along), min(across), max(across))

    def point(self, along: float, across: float) -> tuple[float, float]:
        (fx, fy), (rx, ry) = self.forward, self.right
        return fx * along + rx * across, fy * along + ry * across


def _rows(units: Sequence[BattleUnit], room: float) -> list[list[BattleUnit]]:
    rows: list[list[BattleUnit]] = [[]]
    used = 0.0
    for u in units:
        gap = ROW_GAP * u.width * 0.5
        if rows[-1] and used + gap + u.width > room + 1e-9:
            rows.append([])
            used = 0.0
        used += (gap if rows[-1] else 0.0) + u.width
        rows[-1].append(u)
    return [r for r in rows if r]


def place_in_post(
    units: Sequence[BattleUnit],
    area: tuple[float, float, float, float],
    facing: float,
    behind: Sequence[BattleUnit] = (),
) -> tuple[list[BattleUnit], bool]:
    """``units`` in rows across ``area`` facing ``facing``, beginning behind the units of
    ``behind`` (a line in front of this one) where they reach farther back than the area's
    front; and whether they all fit in the area (rows that do not stand on behind it)."""
    frame = _Frame.of(area, facing)
    room = frame.rightmost - frame.left
    placed: list[BattleUnit] = []
    fits = True
    front = frame.front
    if behind:
        rear = min(
            frame.forward[0] * x + frame.forward[1] * y
            for u in behind
            for x, y in u.footprint.corners()
        )
        gap = ROW_GAP * min(u.depth for u in behind)
        front = min(front, rear - gap)
    for row in _rows(units, room):
        total = sum(u.width for u in row)
        if total > room + 1e-9:
            fits = False
        spare = max(room - total, 0.0)
        gap = min(spare / (len(row) + 1), SPREAD * total / len(row))
        start = frame.left + (spare - gap * (len(row) - 1)) / 2
        depth = max(u.depth for u in row)
        along = front - depth / 2
        x = start
        for u in row:
            cx, cy = frame.point(along, x + u.width / 2)
            placed.append(replace(u, x=cx, y=cy, facing=facing))
            x += u.width + gap
        if front - depth < frame.back - 1e-9:
            fits = False
        front -= depth * (1 + ROW_GAP)
    return placed, fits


def assign_posts(
    units: Sequence[BattleUnit],
    posts: Sequence[Post],
    named: Mapping[str, str],
    category: Mapping[str, Category],
) -> dict[str, list[BattleUnit]]:
    """Post id -> its units, in order: a unit whose roster line names a post (``named``,
    by roster unit id) goes there; any other to the emptiest post that takes its kind
    (``category``: troop id -> kind), else to the reserve post, else to the first post."""
    out: dict[str, list[BattleUnit]] = {p.id: [] for p in posts}
    width: dict[str, float] = {p.id: 0.0 for p in posts}
    room = {p.id: max(p.area[2] - p.area[0], 1e-6) for p in posts}
    reserve = next((p.id for p in posts if p.reserve), posts[0].id)
    for u in units:
        post = named.get(u.roster_unit or "")
        if post is None or post not in out:
            kind = category.get(u.troop)
            takers = [p.id for p in posts if kind in p.takes]
            post = min(takers, key=lambda p: width[p] / room[p]) if takers else reserve
        out[post].append(u)
        width[post] += u.width
    return out


@dataclass(frozen=True)
class Placing:
    """How the units of one battle are placed: the order of the battle's sides on the table
    and, per side, the posts its roster's lines name (empty for a roster the file did not
    make)."""

    order: tuple[str, str]
    named: tuple[Mapping[str, str], Mapping[str, str]]


def made_here(sc: Scenario, roster: Roster) -> bool:
    """Whether ``roster`` is one the battle's file made (its name begins with the battle's:
    "The Trebia: Rome"), kept as made or edited since."""
    return roster.name.startswith(f"{sc.name}:")


def named_posts(sc: Scenario, roster: Roster, side_id: str) -> dict[str, str]:
    """Roster unit id -> post, for the lines of a roster the battle's file made that are
    still the file's (same id, same entry); a line added or changed since, or any line of
    another roster, has none and goes where its kind of troops goes."""
    if not made_here(sc, roster) or roster.ruleset not in sc.data.sides[side_id].armies:
        return {}
    army = sc.army(roster.ruleset, side_id)
    posts = unit_posts(sc, roster.ruleset, side_id)
    entries = {unit_id(n): u.entry for n, u in enumerate(army.units, start=1)}
    return {u.id: posts[u.id] for u in roster.units if u.id in posts and entries[u.id] == u.entry}


def placing(sc: Scenario, rosters: tuple[Roster, Roster]) -> Placing:
    """Which battle side each roster fights as (``rosters[0]`` stands at side A's edge), and
    the posts its lines name (:func:`named_posts`)."""
    order = (side_of(sc, rosters[0]), side_of(sc, rosters[1]))
    if order[0] == order[1]:
        raise ValueError(
            f"both rosters fight as {sc.side(order[0]).name} at {sc.name}; one is the other side"
        )
    return Placing(
        order, (named_posts(sc, rosters[0], order[0]), named_posts(sc, rosters[1], order[1]))
    )


def _flip(post: Post) -> Post:
    """The post as it stands when its side is the battle's other side (at the other edge):
    the area turned half about the table's centre, the facing reversed."""
    x0, y0, x1, y1 = post.area
    facing = None if post.facing is None else (post.facing + 180) % 360
    return post.model_copy(update={"area": (1 - x1, 1 - y1, 1 - x0, 1 - y0), "facing": facing})


def side_posts(sc: Scenario, side_id: str, flipped: bool) -> tuple[Post, ...]:
    posts = sc.side(side_id).posts
    return tuple(_flip(p) for p in posts) if flipped else posts


def _placer(
    sc: Scenario, rs: Ruleset, mech: Mechanics, how: Placing, table_fits: list[bool]
) -> Placer:
    category = {tid: t.category for tid, t in rs.troops.items()}
    flipped = how.order != sc.side_ids

    def place(units: list[BattleUnit], side: Side, zone: Zone, table: Table) -> list[BattleUnit]:
        posts = side_posts(sc, how.order[side], flipped)
        by_post = assign_posts(units, posts, how.named[side], category)
        out: list[BattleUnit] = []
        stood: dict[str, list[BattleUnit]] = {}
        for post in posts:
            front = [u for ahead in post.behind for u in stood.get(ahead, [])]
            if not by_post[post.id]:
                stood[post.id] = front  # an empty line: the next stands behind the one before
                continue
            placed, fits = place_in_post(
                by_post[post.id], _area(post, table), _post_facing(post, side, mech), front
            )
            stood[post.id] = placed
            table_fits.append(fits)
            out += placed
        order = {u.id: i for i, u in enumerate(units)}
        return sorted(out, key=lambda u: order[u.id])

    return place


def scenario_battle(
    sc: Scenario,
    rs: Ruleset,
    mech: Mechanics,
    rosters: tuple[Roster, Roster],
    *,
    records: tuple[Mapping[str, Scalar], Mapping[str, Scalar]] = ({}, {}),
) -> BattleState:
    """The battle before its first command: the field, each side at its posts, leaders with
    their troops, on the ruleset's table or the first larger one every post holds its
    units on."""
    how = placing(sc, rosters)
    base = default_table(rs)
    sizes = [(base.width, base.height)] + [
        (round(base.width * f, 3), round(base.height * f, 3)) for f in GROWTH
    ]
    first_fit: BattleState | None = None
    state: BattleState | None = None
    for width, height in sizes:
        fits: list[bool] = []
        table = scenario_table(sc, rs, width, height, how.order)
        state = new_battle(
            rs,
            mech,
            rosters,
            table=table,
            records=records,
            place=_placer(sc, rs, mech, how, fits),
        )
        if all(fits):
            if not deployment_breaches(state, mech):
                return replace(state, scenario=sc.id)
            first_fit = first_fit or state
    assert state is not None
    return replace(first_fit or state, scenario=sc.id)


def deployment_breaches(state: BattleState, mech: Mechanics) -> list[Breach]:
    """Every rule of the ruleset's deployment (:meth:`check_deploy`) the battle's units
    break as they stand: none for a battle set up as its sources describe it."""
    view = state.view()
    out: list[Breach] = []
    for u in state.units:
        out += mech.check_deploy(view, u.id, u.footprint)
    return out
