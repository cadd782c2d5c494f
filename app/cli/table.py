"""``castra battle ...`` on the table: moves along paths, charges, deployment, measuring,
terrain and the table's size and layout. Units are named by id or by name (an ambiguous
name is refused listing the ids); every bad value is one line, exit 1, no change."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Sequence
from typing import Any

from app.cli.battle_store import load as _load
from app.cli.battle_store import run as _run
from app.cli.common import MAX_COORD, CliError, number, print_json, table
from app.core.battle import (
    AddTerrain,
    BattleCommand,
    BattleSession,
    Deploy,
    LayOutTable,
    MoveUnit,
    RemoveTerrain,
    SetTable,
    default_table,
    plan_charge,
)
from app.core.battle.state import BattleState
from app.rules.inputs import control_problem
from app.rules.layouts import Layout, LayoutError, find_layout, fit_layout, layout_of, ready_made
from app.rules.measure import mm_per_unit
from app.rules.movement import MOVE_REASONS
from app.rules.paths import Leg, PathError, parse_path
from app.rules.ruleset import Ruleset
from app.rules.table import (
    MAX_POINTS,
    MAX_TABLE,
    TERRAIN_KINDS,
    Table,
    TerrainError,
    coordinate_problem,
)


def register(bsub: Any, battle_id: Callable[[str], int | float]) -> None:
    """Add the table's commands to ``castra battle``."""

    p = bsub.add_parser("charge", help="charge a unit into contact with an enemy")
    p.add_argument("battle", metavar="BATTLE", type=battle_id)
    p.add_argument("unit", metavar="UNIT")
    p.add_argument("target", metavar="TARGET")
    p.add_argument("--force", action="store_true", help="override the rule it breaks")
    p.set_defaults(func=cmd_charge)

    p = bsub.add_parser("deploy", help="place a unit inside its deployment zone (before play)")
    p.add_argument("battle", metavar="BATTLE", type=battle_id)
    p.add_argument("unit", metavar="UNIT")
    p.add_argument("x", type=number("X", -MAX_COORD, MAX_COORD, whole=False))
    p.add_argument("y", type=number("Y", -MAX_COORD, MAX_COORD, whole=False))
    p.add_argument("--facing", type=number("--facing", -MAX_COORD, MAX_COORD, whole=False))
    p.add_argument("--force", action="store_true", help="override the rule it breaks")
    p.set_defaults(func=cmd_deploy)

    p = bsub.add_parser("measure", help="distance, arcs, line of sight between two units")
    p.add_argument("battle", metavar="BATTLE", type=battle_id)
    p.add_argument("unit", metavar="UNIT")
    p.add_argument("target", metavar="TARGET")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_measure)

    p = bsub.add_parser("terrain", help="place or remove a terrain piece")
    p.add_argument("battle", metavar="BATTLE", type=battle_id)
    tsub = p.add_subparsers(dest="terrain_command", metavar="ACTION", required=True)
    q = tsub.add_parser("add", help="KIND X,Y X,Y ...: an area's corners or a line's points")
    q.add_argument("kind", choices=TERRAIN_KINDS, metavar="KIND")
    q.add_argument("points", nargs="+", metavar="X,Y")
    q.add_argument("--name", default="")
    q.add_argument("--width", type=number("--width", 0, MAX_COORD, whole=False))
    q.set_defaults(func=cmd_terrain_add)
    q = tsub.add_parser("remove", help="remove a piece by its id")
    q.add_argument("id", metavar="ID")
    q.set_defaults(func=cmd_terrain_remove)

    p = bsub.add_parser("table", help="the table: size, terrain, layouts (show, set, save)")
    p.add_argument("battle", metavar="BATTLE", type=battle_id)
    p.add_argument("--size", metavar="WxH", help="e.g. 72x48, in the ruleset's unit")
    p.add_argument("--layout", metavar="NAME", help="lay out a ready-made or saved table")
    p.add_argument("--save", metavar="NAME", help="save this table's terrain as a layout")
    p.add_argument("--replace", action="store_true", help="with --save: overwrite a layout")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_table)


def add_move_options(p: argparse.ArgumentParser) -> None:
    """``battle move``'s path options (its X Y form stays for scripts)."""
    p.add_argument("--path", help='legs, e.g. "forward 6; wheel 45 left; forward 3"')
    p.add_argument("--reason", choices=[r for r in MOVE_REASONS if r != "deploy"], default="move")
    p.add_argument("--force", action="store_true", help="override the rule it breaks")


# ---------------------------------------------------------------------------- units


def _resolve(what: str, named: Sequence[tuple[str, str]], text: str, known: str) -> str:
    """The id of the one of ``named`` (id, name) that ``text`` names: an id, a name, or a
    unique part of a name (case ignored); an ambiguous name is refused listing the ids, and
    one naming nothing with ``known``."""
    bad = control_problem(f"the {what}", text)
    if bad:
        raise CliError(bad)
    key = text.strip().casefold()
    for ident, _ in named:
        if ident.casefold() == key:
            return ident
    for test in (lambda n: n == key, lambda n: key in n):
        found = [(ident, name) for ident, name in named if test(name.casefold())]
        if len(found) == 1:
            return found[0][0]
        if len(found) > 1:
            listed = ", ".join(f"{ident} {name}" for ident, name in found[:12])
            more = " ..." if len(found) > 12 else ""
            raise CliError(f"{what} {text[:60]!r} is ambiguous: {listed}{more}; give an id")
    raise CliError(f"no {what} {text[:60]!r} in this battle ({what}s: {known})")


def resolve_unit(state: BattleState, text: str) -> str:
    """The id of the unit ``text`` names (an id, a name or a unique part of one)."""
    known = ", ".join(u.id for u in state.units[:16])
    return _resolve("unit", [(u.id, u.name) for u in state.units], text, known)


def resolve_leader(state: BattleState, text: str) -> str:
    """The id of the leader ``text`` names: an id (``A-scipio``), a name or a unique part of
    one."""
    known = ", ".join(f"{ld.id} {ld.name}" for ld in state.leaders[:16]) or "none"
    return _resolve("leader", [(ld.id, ld.name) for ld in state.leaders], text, known)


def _units(*texts: str | None) -> Callable[[BattleSession], tuple[str | None, ...]]:
    def ids(session: BattleSession) -> tuple[str | None, ...]:
        return tuple(None if t is None else resolve_unit(session.state, t) for t in texts)

    return ids


# ---------------------------------------------------------------------------- commands


def cmd_move(args: argparse.Namespace) -> int:
    """``battle move B UNIT X Y [--facing F]`` (the old form) or ``--path "..."``."""
    if args.path is not None:
        if args.x is not None or args.facing is not None:
            raise CliError("give either X Y or --path, not both")
        try:
            legs = parse_path(args.path)
        except PathError as exc:
            raise CliError(str(exc)) from None
        return _run(
            args.battle,
            lambda s: MoveUnit(
                unit=resolve_unit(s.state, args.unit),
                legs=legs,
                reason=args.reason,
                force=args.force,
            ),
        )
    if args.x is None or args.y is None:
        raise CliError('a move needs X Y, or --path "forward 6; wheel 45 left; ..."')
    # X Y [--facing F] is the path "to X,Y facing F" (F: the unit's facing when not given):
    # the same checks as any path and the map's drag, refused naming the rule unless --force
    # (which the log records)

    def build(s: BattleSession) -> BattleCommand:
        unit = resolve_unit(s.state, args.unit)
        facing = args.facing if args.facing is not None else s.state.unit(unit).facing
        try:
            to = Leg.to(args.x, args.y, facing)
        except PathError as exc:
            raise CliError(str(exc)) from None
        return MoveUnit(unit=unit, legs=(to,), reason=args.reason, force=args.force)

    return _run(args.battle, build)


def cmd_charge(args: argparse.Namespace) -> int:
    def build(s: BattleSession) -> BattleCommand:
        unit, target = _units(args.unit, args.target)(s)
        assert unit is not None and target is not None
        try:
            return plan_charge(s.state, s.mechanics, unit, target, force=args.force)
        except KeyError as exc:
            raise CliError(str(exc.args[0])) from None

    return _run(args.battle, build)


def cmd_deploy(args: argparse.Namespace) -> int:
    return _run(
        args.battle,
        lambda s: Deploy(
            unit=resolve_unit(s.state, args.unit),
            x=args.x,
            y=args.y,
            facing=args.facing,
            force=args.force,
        ),
    )


def cmd_measure(args: argparse.Namespace) -> int:
    _, session = _load(args.battle)
    state = session.state
    a, b = resolve_unit(state, args.unit), resolve_unit(state, args.target)
    if a == b:
        raise CliError("measure between two different units")
    m = session.mechanics.measure(state.view(), a, b)
    if args.json:
        print_json(
            {
                "unit": a,
                "target": b,
                "distance": m.distance,
                "arc": m.arc,
                "target_arc": m.target_arc,
                "los": m.los,
                "blocked_by": list(m.blocked_by),
                "crossing": list(m.crossing),
                "command_distance": m.command_distance,
            }
        )
        return 0
    u = session.mechanics.length_symbol()
    ua, ub = state.unit(a), state.unit(b)
    names = {t.id: f"{t.kind} {t.id}" + (f' "{t.name}"' if t.name else "") for t in state.terrain}
    names.update({x.id: f"{x.name} ({x.id})" for x in state.units})
    print(f"{ua.name} ({a}) to {ub.name} ({b}): {m.distance:.1f}{u}, base edge to base edge")
    print(f"{b} stands in {a}'s {m.arc} arc; {a} stands in {b}'s {m.target_arc} arc")
    sight = "clear" if m.los else "blocked by " + ", ".join(names[i] for i in m.blocked_by)
    print(f"line of sight: {sight}")
    if m.crossing:
        print("terrain between: " + ", ".join(names[i] for i in m.crossing))
    cd = "no leader on the table" if m.command_distance is None else f"{m.command_distance:.1f}{u}"
    print(f"{a} from its commander: {cd}")
    return 0


def _point(text: str, i: int) -> tuple[float, float]:
    bad = control_problem(f"point {i}", text)
    if bad:
        raise CliError(bad)
    parts = text.split(",")
    if len(parts) != 2:
        raise CliError(f"point {i} must be X,Y, not {text[:30]!r}")
    out = []
    for axis, part in zip("xy", parts, strict=True):
        try:
            value = float(part) if len(part) <= 40 else float("inf")
        except ValueError:
            raise CliError(f"point {i} {axis} must be a number, not {part[:30]!r}") from None
        problem = coordinate_problem(f"point {i} {axis}", value)
        if problem:
            raise CliError(problem)
        out.append(value)
    return out[0], out[1]


def cmd_terrain_add(args: argparse.Namespace) -> int:
    if len(args.points) > MAX_POINTS:
        raise CliError(f"a piece has at most {MAX_POINTS} points, not {len(args.points):,}")
    points = tuple(_point(t, i + 1) for i, t in enumerate(args.points))
    return _run(
        args.battle,
        AddTerrain(terrain=args.kind, points=points, name=args.name, width=args.width),
    )


def cmd_terrain_remove(args: argparse.Namespace) -> int:
    return _run(args.battle, RemoveTerrain(id=args.id))


_SIZE = re.compile(r"\s*([^xX*]+?)\s*[xX*]\s*([^xX*]+?)\s*")


def parse_size(text: str) -> tuple[float, float]:
    """``72x48`` (width by depth, in the ruleset's unit)."""
    bad = control_problem("--size", text)
    if bad:
        raise CliError(bad)
    m = _SIZE.fullmatch(text) if len(text) <= 60 else None
    if m is None:
        raise CliError(f"--size must be WIDTHxDEPTH such as 72x48, not {text[:30]!r}")
    out = []
    for what, part in (("width", m[1]), ("depth", m[2])):
        try:
            value = float(part)
        except ValueError:
            raise CliError(f"the table {what} must be a number, not {part[:30]!r}") from None
        problem = coordinate_problem(f"the table {what}", value, MAX_TABLE)
        if problem:
            raise CliError(problem)
        if value <= 0:
            raise CliError(f"the table {what} must be more than 0, not {value:g}")
        out.append(value)
    return out[0], out[1]


def _layouts_dir() -> Any:
    from app.paths import data_dir

    return data_dir() / "tables"


def _saved() -> list[Layout]:
    import sys

    from app.core.layouts import saved_layouts

    layouts, problems = saved_layouts(_layouts_dir())
    for line in problems:
        print(f"castra: warning: {line}", file=sys.stderr)
    return layouts


def cmd_table(args: argparse.Namespace) -> int:
    size = None if args.size is None else parse_size(args.size)
    if args.replace and args.save is None:
        raise CliError("--replace goes with --save")
    if args.save is not None:
        if size is not None or args.layout is not None:
            raise CliError("--save saves the table as it is; give it alone")
        return _save(args)
    if size is None and args.layout is None:
        return _show(args)
    saved = _saved() if args.layout is not None else []
    code = 0
    if size is not None:
        code = _run(args.battle, SetTable(width=size[0], height=size[1]))
    if args.layout is not None:

        def lay_out(s: BattleSession) -> BattleCommand:
            try:
                lay = find_layout(args.layout, s.mechanics.terrain_in_place_of, saved)
                pieces = fit_layout(lay, s.state.table, mm_per_unit(s.ruleset))
            except (LayoutError, TerrainError) as exc:
                raise CliError(str(exc)) from None
            return LayOutTable(layout=lay.name, pieces=pieces)

        code = _run(args.battle, lay_out)
    return code


def new_table(
    rs: Ruleset, size: str | None, layout: str | None, base: Table | None = None
) -> Table | None:
    """The table ``battle new --size --layout`` asks for (None: the ruleset's default, or the
    larger table the armies need). A layout without ``--size`` is laid on ``base`` (that
    table: :func:`app.core.battle.fitting_table`), else on the ruleset's default."""
    if size is None and layout is None:
        return None
    table_ = base or default_table(rs)
    if size is not None:
        w, h = parse_size(size)
        table_ = Table(w, h)
    if layout is not None:
        try:
            lay = find_layout(layout, rs.engine.mechanics.terrain_in_place_of, _saved())
            table_ = Table(table_.width, table_.height, fit_layout(lay, table_, mm_per_unit(rs)))
        except (LayoutError, TerrainError) as exc:
            raise CliError(str(exc)) from None
    return table_


def _save(args: argparse.Namespace) -> int:
    from app.core.layouts import save_layout

    _, session = _load(args.battle)
    try:
        lay = layout_of(args.save, session.state.table, mm_per_unit(session.ruleset))
        path = save_layout(_layouts_dir(), lay, replace=args.replace)
    except LayoutError as exc:
        hint = "; give --replace to overwrite it" if "already" in str(exc) else ""
        raise CliError(f"{exc}{hint}") from None
    print(f"saved layout {lay.name!r} ({len(lay.pieces)} pieces): {path}")
    return 0


def _show(args: argparse.Namespace) -> int:
    _, session = _load(args.battle)
    state = session.state
    u = session.mechanics.length_symbol()
    names = [lay.name for lay in (*ready_made(session.mechanics.terrain_in_place_of), *_saved())]
    if args.json:
        print_json(
            {
                "width": state.width,
                "height": state.height,
                "terrain": [p.to_dict() for p in state.terrain],
                "layouts": names,
            }
        )
        return 0
    print(f"table {state.width:g}{u} by {state.height:g}{u}; {len(state.terrain)} terrain pieces")
    if state.terrain:
        rows = [
            (
                p.id,
                p.kind,
                p.name,
                " ".join(f"{x:g},{y:g}" for x, y in p.points),
                "" if p.width is None else f"{p.width:g}",
            )
            for p in state.terrain
        ]
        print(table(rows, ("id", "kind", "name", "points", "width")))
    print("layouts: " + ", ".join(names))
    return 0
