"""``castra battle ...``: play a battle headless. Every command is saved in the store as soon
as it is done; undo, redo and replay reuse the recorded rolls.

When the battle's ruleset data has changed since it was recorded (a house-rules edit, a
Castra update), ``show``, ``log``, ``redo`` and ``replay`` say so in one line, and redo and
replay keep the recorded states: those rolls and results are what happened at the table."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import TYPE_CHECKING, Any

from app.cli import opponent
from app.cli import table as tablecmd
from app.cli.battle_store import load as _load
from app.cli.battle_store import run as _run
from app.cli.battle_store import updating as _updating
from app.cli.common import (
    MAX_COORD,
    MAX_ID,
    MAX_SMALL,
    CliError,
    LateParser,
    number,
    print_json,
    registry,
    resolve_roster,
    store,
    table,
)
from app.cli.odds import odds_rows, parse_sets, print_odds
from app.core.battle import (
    Act,
    Adjust,
    AdjustLeader,
    AttachLeader,
    BattleSession,
    CommandError,
    EndBattle,
    NextPhase,
    ReplayError,
    StartBattle,
    fitting_table,
    new_battle,
)
from app.core.battle.base import battle_name_problem
from app.core.battle.given import parse_faces
from app.core.battle.leader_fate import FATES
from app.core.battle.serialize import rolls_to_list, state_to_dict
from app.core.battle.setup import grown_table_note
from app.core.battle.state import BattleState
from app.core.roster import MAX_WOUNDS, MIN_WOUNDS
from app.core.validation import Severity, validate
from app.house import HouseError, with_house
from app.rules.mechanics import NotImplementedRule, Side, mechanics_for

if TYPE_CHECKING:
    from app.rules.engine import SideFlag

BATTLE_ID = number("BATTLE", 1, MAX_ID)


def register(sub: Any) -> None:
    battle = sub.add_parser("battle", help="play a battle headless (saved after every command)")
    bsub = battle.add_subparsers(
        dest="battle_command", metavar="ACTION", required=True, parser_class=LateParser
    )

    p = bsub.add_parser(
        "new",
        help="a battle between two rosters (files, store rosters, or ready armies RULESET:ARMY)",
    )
    p.add_argument(
        "roster_a",
        metavar="ROSTER_A",
        help="a roster file, a stored roster's id or name, or a ready army: RULESET:ARMY "
        '(e.g. leg-vi-carthago:roman or "Leg VI: Republican Roman"; castra armies RULESET)',
    )
    p.add_argument("roster_b", metavar="ROSTER_B", help="the other side, as ROSTER_A")
    p.add_argument("--name")
    p.add_argument("--seed", type=number("--seed", 0, MAX_ID), help="dice seed (default: random)")
    assert isinstance(p, LateParser)
    p.late = _new_later  # the engines are asked only when a battle is started
    p.set_defaults(func=cmd_new)

    p = bsub.add_parser("list", help="battles in the store")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_list)

    p = bsub.add_parser("show", help="turn, phase, initiative, units, leaders, sides")
    p.add_argument("battle", metavar="BATTLE", type=BATTLE_ID)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_show)

    p = bsub.add_parser("actions", help="the ruleset's actions and their options")
    p.add_argument("battle", metavar="BATTLE", type=BATTLE_ID)
    p.set_defaults(func=cmd_actions)

    p = bsub.add_parser("move", help="move a unit along a path, or to X Y (the same checks)")
    p.add_argument("battle", metavar="BATTLE", type=BATTLE_ID)
    p.add_argument("unit", metavar="UNIT")
    p.add_argument("x", nargs="?", type=number("X", -MAX_COORD, MAX_COORD, whole=False))
    p.add_argument("y", nargs="?", type=number("Y", -MAX_COORD, MAX_COORD, whole=False))
    p.add_argument("--facing", type=number("--facing", -MAX_COORD, MAX_COORD, whole=False))
    tablecmd.add_move_options(p)
    p.set_defaults(func=tablecmd.cmd_move)
    tablecmd.register(bsub, BATTLE_ID)

    for name, text in (("shoot", "shoot at a unit"), ("melee", "fight a melee")):
        p = bsub.add_parser(name, help=text)
        p.add_argument("battle", metavar="BATTLE", type=BATTLE_ID)
        p.add_argument("unit", metavar="UNIT")
        p.add_argument("target", metavar="TARGET")
        p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
        _dice_option(p)
        p.set_defaults(func=cmd_pair, action=name)

    p = bsub.add_parser("act", help="any action of the ruleset (see `battle actions`)")
    p.add_argument("battle", metavar="BATTLE", type=BATTLE_ID)
    p.add_argument("action", metavar="ACTION")
    p.add_argument("unit", metavar="UNIT", nargs="?")
    p.add_argument("target", metavar="TARGET", nargs="?")
    p.add_argument("--side", choices=("0", "1", "a", "b"), help="for side actions")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    _dice_option(p)
    p.set_defaults(func=cmd_act)

    p = bsub.add_parser("odds", help="exact odds of an action in the battle's current state")
    p.add_argument("battle", metavar="BATTLE", type=BATTLE_ID)
    p.add_argument("action", metavar="ACTION")
    p.add_argument("unit", metavar="UNIT", nargs="?")
    p.add_argument("target", metavar="TARGET", nargs="?")
    p.add_argument("--side", choices=("0", "1", "a", "b"), help="for side actions")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_odds)

    opponent.register(bsub, BATTLE_ID)

    for name, text in (
        ("next", "end this phase, begin the next"),
        ("undo", "undo a command"),
        ("redo", "redo with the recorded rolls"),
    ):
        p = bsub.add_parser(name, help=text)
        p.add_argument("battle", metavar="BATTLE", type=BATTLE_ID)
        if name == "next":
            _dice_option(p)
        p.set_defaults(func={"next": cmd_next, "undo": cmd_undo, "redo": cmd_redo}[name])

    p = bsub.add_parser("adjust", help="correct a unit by hand: strength, hits, rings, dps, marker")
    p.add_argument("battle", metavar="BATTLE", type=BATTLE_ID)
    p.add_argument("unit", metavar="UNIT")
    p.add_argument("field", choices=("strength", "hits", "rings", "dps", "marker"))
    p.add_argument("value", help="a number, or +marker / -marker")
    p.set_defaults(func=cmd_adjust)

    p = bsub.add_parser("attach", help="attach a leader to a unit (no unit: detach)")
    p.add_argument("battle", metavar="BATTLE", type=BATTLE_ID)
    p.add_argument("leader", metavar="LEADER")
    p.add_argument("unit", metavar="UNIT", nargs="?")
    p.set_defaults(func=cmd_attach)

    p = bsub.add_parser(
        "leader", help="the umpire's call on a leader: wounded, killed, captured, escaped, fit"
    )
    p.add_argument("battle", metavar="BATTLE", type=BATTLE_ID)
    p.add_argument("leader", metavar="LEADER", help="an id (A-scipio) or a name")
    p.add_argument("fate", choices=FATES)
    p.add_argument(
        "--wounds",
        type=number("--wounds", MIN_WOUNDS, MAX_WOUNDS),
        help="his wounds in all (default: one more when wounded, else as they are)",
    )
    p.set_defaults(func=cmd_leader)

    p = bsub.add_parser("end", help="declare the result")
    p.add_argument("battle", metavar="BATTLE", type=BATTLE_ID)
    p.add_argument("--winner", choices=("a", "b", "0", "1", "draw"), required=True)
    p.add_argument("--reason", default="declared by the players")
    p.set_defaults(func=cmd_end)

    p = bsub.add_parser("log", help="the battle's log in words, with the dice")
    p.add_argument("battle", metavar="BATTLE", type=BATTLE_ID)
    p.add_argument("--no-rolls", action="store_true")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_log)

    p = bsub.add_parser("replay", help="the state after step K, rebuilt from the recorded rolls")
    p.add_argument("battle", metavar="BATTLE", type=BATTLE_ID)
    p.add_argument("--step", type=number("--step", 0, MAX_SMALL), required=True)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_replay)


# ---------------------------------------------------------------------------- helpers


def _new_later(p: argparse.ArgumentParser) -> None:
    """``battle new``'s arguments after the seed: the conditions the engines declare a side
    may start under, then the table and the output."""
    for flag in _side_flags():
        p.add_argument(
            "--" + flag.name.replace("_", "-"), choices=("a", "b", "both"), help=flag.help
        )
    p.add_argument("--size", metavar="WxH", help="the table, e.g. 72x48 (default: the rules')")
    p.add_argument("--layout", metavar="NAME", help="a ready-made or saved table layout")
    p.add_argument(
        "--scenario",
        metavar="NAME",
        help="fight on a historical battle's field in its battle order (castra scenario list)",
    )
    p.add_argument("--json", action="store_true")


def _side_flags() -> list[SideFlag]:
    """The conditions the engines declare a side may start a battle under, each once."""
    from app.rules.engine import side_flags_of
    from app.rulesets import engines

    return side_flags_of(engines())


def _dice_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--dice",
        metavar="FACES",
        help="faces thrown at the table, in the order the rules throw them (4,6); "
        "the command says which dice are missing",
    )


def _faces(args: argparse.Namespace) -> list[int] | None:
    text = getattr(args, "dice", None)
    if text is None:
        return None
    try:
        return parse_faces(text)
    except ValueError as exc:
        raise CliError(f"--dice: {exc}") from None


def _side(text: str | None) -> Side | None:
    if text is None:
        return None
    return 0 if text in ("0", "a") else 1


def _warn_if_data_changed(session: BattleSession) -> bool:
    """Say once (on stderr) that the battle's data has changed; whether it has."""
    warning = session.data_warning()
    if warning is not None:
        print(f"castra: warning: {warning}", file=sys.stderr)
    return warning is not None


def _replay_failed(exc: ReplayError, session: BattleSession) -> CliError:
    """A divergence with unchanged data is a bug: one line, exit 1, the battle unchanged."""
    if session.recorded is None:
        why = (
            "this battle predates Castra recording its ruleset data, so a change to that "
            "data cannot be told from a bug"
        )
    else:
        why = "the ruleset data is unchanged, so this is a bug in Castra; please report it"
    return CliError(f"{exc}; {why} (the battle is unchanged)")


def _unit(session: BattleSession, text: str | None) -> str | None:
    """A UNIT argument (an id or a name) as the unit's id."""
    return None if text is None else tablecmd.resolve_unit(session.state, text)


def _sets(session: BattleSession, action: str, pairs: list[str]) -> dict[str, Any]:
    try:
        return parse_sets(session.mechanics, action, pairs)
    except NotImplementedRule as exc:
        raise CliError(str(exc)) from None


def state_summary(state: BattleState, session: BattleSession) -> dict[str, Any]:
    d = state_to_dict(state)
    phases = session.ruleset.turn.phases
    d["phase_name"] = phases[state.phase].name if state.phase < len(phases) else None
    return d


def print_state(state: BattleState, session: BattleSession) -> None:
    phases = session.ruleset.turn.phases
    init = "-" if state.initiative is None else state.sides[state.initiative].name
    print(
        f"{session.name}: {session.ruleset.meta.short_name}, turn {state.turn}, "
        f"{phases[state.phase].name}; initiative {init}"
    )
    if state.result is not None:
        who = "draw" if state.result.winner is None else state.sides[state.result.winner].name
        print(f"RESULT: {who} ({state.result.reason})")
    rows = []
    for u in state.units:
        s = u.status
        leader = state.leader_of(u.id)
        rows.append(
            (
                u.id,
                u.name,
                state.sides[u.side].name,
                f"{u.x:.1f}",
                f"{u.y:.1f}",
                f"{u.facing:.0f}",
                f"{s.strength}/{s.start_strength}",
                s.hits,
                s.rings,
                s.dps,
                ",".join(sorted(s.markers)) + (" OUT" if s.eliminated else ""),
                leader.name if leader else "",
            )
        )
    print(
        table(
            rows,
            (
                "id",
                "unit",
                "side",
                "x",
                "y",
                "face",
                "strength",
                "hits",
                "rings",
                "dps",
                "markers",
                "leader",
            ),
        )
    )
    for i, side in enumerate(state.sides):
        record = {k: v for k, v in side.record.items() if k not in ("army", "side_name")}
        print(f"{'AB'[i]} {side.name}: {json.dumps(record, ensure_ascii=False)}")
    if state.leaders:
        print(
            "Leaders: "
            + "; ".join(
                f"{ld.id} {ld.name} ({ld.status}, wounds {ld.wounds})" for ld in state.leaders
            )
        )


# ---------------------------------------------------------------------------- commands


def cmd_new(args: argparse.Namespace) -> int:
    from app.usecases.battle import create_battle

    rosters = (resolve_roster(args.roster_a), resolve_roster(args.roster_b))
    if rosters[0].ruleset != rosters[1].ruleset:
        raise CliError(
            f"the rosters are for different rulesets: {rosters[0].ruleset} and {rosters[1].ruleset}"
        )
    rs = registry().get(rosters[0].ruleset)
    for roster in rosters:  # an invalid roster still plays (the table decides), but says so
        for m in validate(rs, roster).messages:
            if m.severity is Severity.ERROR:
                print(f"castra: warning: {roster.name}: {m.subject}: {m.text}", file=sys.stderr)
    try:
        mech = mechanics_for(rs)
    except (NotImplementedRule, ImportError) as exc:
        raise CliError(str(exc)) from None
    records: tuple[dict[str, Any], dict[str, Any]] = ({}, {})
    for flag in _side_flags():
        sides = getattr(args, flag.name, None)
        if sides:
            records[0][flag.name] = sides in ("a", "both")
            records[1][flag.name] = sides in ("b", "both")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    name = args.name if args.name is not None else f"{rosters[0].name} vs {rosters[1].name}"
    bad = battle_name_problem(name)
    if bad:
        raise CliError(bad)
    if args.scenario is not None:
        return _new_on_field(args, rs, rosters, records, seed)
    # Deploy and start in memory, then store the battle with its first step in one
    # transaction: a start that fails leaves no empty battle behind.
    try:
        records = with_house(rs.id, rs.meta.engine, records)  # a club's own tables
    except HouseError as exc:
        raise CliError(f"the club's morale table: {exc}") from None
    try:
        fitting = fitting_table(rs, mech, rosters) if args.size is None else None
        table_ = tablecmd.new_table(rs, args.size, args.layout, fitting)
        state = new_battle(
            rs, mech, rosters, records=records, table=table_ or fitting, fit=args.size is not None
        )
        session = BattleSession(rs, mech, state, seed=seed, name=name)
        step = session.do(StartBattle())
    except (CommandError, NotImplementedRule, ValueError) as exc:
        raise CliError(str(exc)) from None
    bid = create_battle(store(), session=session, rosters=rosters)
    grown = grown_table_note(rs, mech, state) if args.size is None else None
    if args.json:
        print_json(
            {
                "id": bid,
                "name": name,
                "seed": seed,
                "table": {"width": state.width, "height": state.height},
                "log": list(step.lines),
            }
        )
    else:
        print(f"battle {bid}: {name} (seed {seed})")
        if grown:
            print(grown)
        for line in step.lines:
            print(line)
    return 0


def _new_on_field(
    args: argparse.Namespace,
    rs: Any,
    rosters: tuple[Any, Any],
    records: tuple[dict[str, Any], dict[str, Any]],
    seed: int,
) -> int:
    """``battle new A B --scenario NAME``: the rosters on the historical battle's field, at
    its posts (the battle's own lines where the rosters are its, by kind of troops else)."""
    from app.cli.scenario import create_on_field, find, print_new

    if args.size is not None or args.layout is not None:
        raise CliError("--scenario lays out its own field: leave out --size and --layout")
    sc = find(args.scenario)
    if rs.id not in sc.rulesets:
        raise CliError(f"{sc.name} is not set for {rs.meta.short_name}")
    bid, session, _ = create_on_field(sc, rs, rosters, seed=seed, records=records, name=args.name)
    print_new(bid, session, sc, seed, args.json)
    return 0


def history_lines(session: BattleSession, rosters: tuple[Any, Any] | None) -> list[str]:
    """A historical battle beside what happened (empty for any other battle)."""
    state = session.state
    if state.scenario is None or rosters is None:
        return []
    from app.cli.scenario import library
    from app.core.scenario.history import compare

    try:
        sc = library().find(state.scenario)
        return compare(sc, session.ruleset, state, rosters, session.mechanics.lost_markers).lines()
    except (KeyError, ValueError) as exc:
        return [f"(not compared with history: {exc})"]


def cmd_list(args: argparse.Namespace) -> int:
    from app.usecases.battle import list_battles

    battles = list_battles(store())
    if args.json:
        print_json(
            [
                {
                    "id": b.id,
                    "name": b.name,
                    "ruleset": b.ruleset,
                    "sides": list(b.sides),
                    "steps": b.steps,
                    "winner": b.winner,
                    "result": b.result,
                }
                for b in battles
            ]
        )
        return 0
    rows = [
        (b.id, b.name, b.ruleset, f"{b.sides[0]} v {b.sides[1]}", b.steps, b.result or "")
        for b in battles
    ]
    print(table(rows, ("id", "name", "ruleset", "sides", "steps", "result")))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    st, session = _load(args.battle)
    _warn_if_data_changed(session)
    history: list[str] = []
    if session.state.scenario is not None:
        from app.usecases.battle import battle_rosters

        history = history_lines(
            session, battle_rosters(st, battle_id=args.battle, registry=registry())
        )
    if args.json:
        d = state_summary(session.state, session)
        if history:
            d["history"] = history
        print_json(d)
    else:
        print_state(session.state, session)
        if history:
            print("Beside history:")
            for line in history:
                print(f"  {line}")
    return 0


def cmd_actions(args: argparse.Namespace) -> int:
    _, session = _load(args.battle)
    for spec in session.mechanics.actions():
        odds = " (odds)" if spec.odds else ""
        print(f"{spec.key} [{spec.targets}]{odds}: {spec.label}")
        for o in spec.options:
            extra = f" ({', '.join(o.choices)})" if o.choices else ""
            print(f"    --set {o.key}=...  {o.kind}, default {o.default}: {o.label}{extra}")
    return 0


def cmd_pair(args: argparse.Namespace) -> int:
    return _run(
        args.battle,
        lambda session: Act(
            action=args.action,
            actor=_unit(session, args.unit),
            target=_unit(session, args.target),
            options=_sets(session, args.action, args.set),
        ),
        _faces(args),
    )


def cmd_act(args: argparse.Namespace) -> int:
    return _run(
        args.battle,
        lambda session: Act(
            action=args.action,
            actor=_unit(session, args.unit),
            target=_unit(session, args.target),
            side=_side(args.side),
            options=_sets(session, args.action, args.set),
        ),
        _faces(args),
    )


def cmd_odds(args: argparse.Namespace) -> int:
    _, session = _load(args.battle)
    options = _sets(session, args.action, args.set)
    spec = session.mechanics.action(args.action)
    if not spec.odds:
        raise CliError(f"{spec.label} has no odds in {session.ruleset.meta.short_name}")
    try:
        unit, target = _unit(session, args.unit), _unit(session, args.target)
        odds = session.odds(args.action, unit, target, options, _side(args.side))
    except (CommandError, NotImplementedRule, KeyError, ValueError) as exc:
        raise CliError(str(exc.args[0]) if exc.args else str(exc)) from None
    if args.json:
        print_json({"action": args.action, "outcomes": odds_rows(odds)})
    else:
        print_odds(odds)
    return 0


def cmd_next(args: argparse.Namespace) -> int:
    return _run(args.battle, NextPhase(), _faces(args))


def cmd_undo(args: argparse.Namespace) -> int:
    with _updating(args.battle) as session:
        try:
            step = session.undo()
        except CommandError as exc:
            raise CliError(str(exc)) from None
    print(f"undid: {step.command.label}")
    return 0


def cmd_redo(args: argparse.Namespace) -> int:
    with _updating(args.battle) as session:
        changed = _warn_if_data_changed(session)
        try:
            step = session.redo(trust_recorded=changed)
        except CommandError as exc:
            raise CliError(str(exc)) from None
        except ReplayError as exc:
            raise _replay_failed(exc, session) from None
    if session.last_divergence is not None:
        print(
            f"castra: warning: with the current data, {session.last_divergence}; "
            "kept the recorded state",
            file=sys.stderr,
        )
    print(f"redid: {step.command.label} (same rolls)")
    for line in step.lines:
        print(line)
    for roll in step.rolls:
        print(f"  roll {roll}")
    return 0


def cmd_adjust(args: argparse.Namespace) -> int:
    return _run(
        args.battle,
        lambda session: Adjust(
            unit=tablecmd.resolve_unit(session.state, args.unit),
            field=args.field,
            value=args.value,
        ),
    )


def cmd_attach(args: argparse.Namespace) -> int:
    return _run(
        args.battle,
        lambda session: AttachLeader(
            leader=tablecmd.resolve_leader(session.state, args.leader),
            unit=_unit(session, args.unit),
        ),
    )


def cmd_leader(args: argparse.Namespace) -> int:
    return _run(
        args.battle,
        lambda session: AdjustLeader(
            leader=tablecmd.resolve_leader(session.state, args.leader),
            status=args.fate,
            wounds=args.wounds,
        ),
    )


def cmd_end(args: argparse.Namespace) -> int:
    winner = None if args.winner == "draw" else _side(args.winner)
    return _run(args.battle, EndBattle(winner=winner, reason=args.reason))


def cmd_log(args: argparse.Namespace) -> int:
    _, session = _load(args.battle)
    _warn_if_data_changed(session)
    if args.json:
        print_json(
            [
                {
                    "step": e.step,
                    "turn": e.turn,
                    "phase": e.phase,
                    "label": e.label,
                    "lines": list(e.lines),
                    "rolls": rolls_to_list(e.rolls),
                }
                for e in session.log()
            ]
        )
    else:
        print(session.log_text(rolls=not args.no_rolls))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    _, session = _load(args.battle)
    changed = _warn_if_data_changed(session)
    try:
        state = session.replay(args.step, trust_recorded=changed)
    except IndexError as exc:
        raise CliError(str(exc)) from None
    except ReplayError as exc:
        raise _replay_failed(exc, session) from None
    if args.json:
        print_json(state_summary(state, session))
    else:
        print(f"after step {args.step} of {len(session.steps)}:")
        print_state(state, session)
    return 0
