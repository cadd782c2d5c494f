"""``castra battle advise`` and ``castra battle autoplay`` (issue 30): the advisor's list for
a unit or a side, and Castra playing a side (or both) of a stored battle headless. Each step
Castra takes is saved as soon as it is taken, as a player's is."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from app.cli.common import CliError, number, print_json, store
from app.cli.table import resolve_unit
from app.core.battle.base import BattleCommand, CommandError
from app.core.battle.odds_summary import by_chance
from app.core.battle.session import BattleSession
from app.core.battle.state import BattleState
from app.rules.inputs import control_problem
from app.rules.mechanics import Side


def register(bsub: Any, battle_id: Callable[[str], int | float]) -> None:
    """Add ``advise`` and ``autoplay`` to ``castra battle``."""
    p = bsub.add_parser(
        "advise", help="what a unit (or a side) may do now, each with its odds, best first"
    )
    p.add_argument("battle", metavar="BATTLE", type=battle_id)
    p.add_argument("unit", metavar="UNIT", nargs="?", help="a unit (default: the side to move)")
    p.add_argument("--side", metavar="SIDE", help="every unit of this side (a, b or its name)")
    p.add_argument("--limit", type=number("--limit", 1, 1000), default=12)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_advise)

    p = bsub.add_parser(
        "autoplay",
        help="Castra plays a side (or both) until it is the other side's turn or the battle "
        "ends; each step saved",
    )
    p.add_argument("battle", metavar="BATTLE", type=battle_id)
    p.add_argument(
        "--side",
        metavar="SIDE",
        required=True,
        help="the side Castra plays: a, b, its name, or both",
    )
    p.add_argument(
        "--turns",
        type=number("--turns", 1, 1000),
        help="stop after this many turns (default: "
        "until it is the other side's turn or the battle ends)",
    )
    p.add_argument(
        "--temperament",
        choices=("bold", "steady", "cautious"),
        help="its temperament (default: the battle's, else steady)",
    )
    p.add_argument(
        "--seed", type=number("--seed", 0, 2**63 - 1), help="its seed (default: the battle's)"
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_autoplay)


def side_named(state: BattleState, text: str) -> Side:
    """A SIDE argument: a or b, 0 or 1, or a side's name (case ignored)."""
    bad = control_problem("the side", text)
    if bad:
        raise CliError(bad)
    key = text.strip().casefold()
    if key in ("a", "0"):
        return 0
    if key in ("b", "1"):
        return 1
    for i, s in enumerate(state.sides):
        if s.name.casefold() == key:
            return 0 if i == 0 else 1
    names = ", ".join(s.name for s in state.sides)
    shown = text if len(text) <= 40 else text[:37] + "..."
    raise CliError(f"no side {shown!r} in this battle (a, b, or {names})")


def _load(battle_id: int) -> BattleSession:
    from app.cli.battle_store import load

    return load(battle_id)[1]


def cmd_advise(args: argparse.Namespace) -> int:
    from app.core.battle.advisor import advise

    session = _load(args.battle)
    state = session.state
    unit = None if args.unit is None else resolve_unit(state, args.unit)
    side = None if args.side is None else side_named(state, args.side)
    if unit is not None and side is not None:
        raise CliError("give a UNIT or --side, not both (the unit's advice is its own side's)")
    if unit is None and side is None:
        view = state.view()
        side = session.mechanics.side_to_move(view)
        if side is None:
            side = session.mechanics.side_in_play(view)
        if side is None:
            raise CliError("say which unit, or which side (--side a|b): both may act now")
    if state.result is not None:
        raise CliError(f"the battle is over ({state.result.reason})")
    found = advise(state, session.ruleset, session.mechanics, unit=unit, side=side)
    shown = found[: args.limit]
    if args.json:
        print_json([_advice_json(a) for a in shown])
        return 0
    if not shown:
        who = state.unit(unit).name if unit is not None else state.sides[side or 0].name
        print(f"{who}: nothing the rules allow now")
        return 0
    for i, a in enumerate(shown, 1):
        print(f"{i:2}. {state.unit(a.unit).name} ({a.unit}): {a.title}  [score {a.score:+.2f}]")
        print(f"    {a.words}")
    return 0


def _advice_json(a: Any) -> dict[str, Any]:
    return {
        "kind": a.kind,
        "unit": a.unit,
        "target": a.target,
        "title": a.title,
        "aim": a.aim,
        "command": a.command.to_dict(),
        "given": round(a.given, 4),
        "taken": round(a.taken, 4),
        "breaks": round(a.breaks, 4),
        "leader_risk": round(a.leader_risk, 4),
        "score": round(a.score, 4),
        "odds": None
        if a.odds is None
        else [{"p": str(p), "result": o.result} for o, p in by_chance(a.odds)],
        "words": a.words,
    }


def cmd_autoplay(args: argparse.Namespace) -> int:
    from app.core.battle.autoplay import Table, autoplay
    from app.core.battle.players import Player, player_of, temperament
    from app.usecases.access import StoreError
    from app.usecases.battle import updating_battle

    session = _load(args.battle)
    state = session.state
    if state.result is not None:
        raise CliError(f"the battle is over ({state.result.reason})")
    both = args.side.strip().casefold() == "both"
    sides: tuple[Side, ...] = (0, 1) if both else (side_named(state, args.side),)
    players: dict[Side, Player] = {}
    for side in sides:
        base = player_of(state, side) or Player(side, seed=session.seed)
        if args.temperament:
            base = Player(side, temperament(args.temperament), base.commands, base.seed)
        if args.seed is not None:
            base = Player(side, base.temperament, base.commands, int(args.seed))
        players[side] = base
    table = Table.of(players)
    st = store()
    lines: list[str] = []

    def do(command: BattleCommand) -> Any:
        # each step saved as it is taken, in its own transaction (the store's write lock
        # held for one step, not the whole run); refused if the battle changed meanwhile
        try:
            with updating_battle(st, battle_id=args.battle, session=session) as s:
                return s.do(command)
        except CommandError:
            raise  # refused by the rules: autoplay counts it, nothing was saved
        except (StoreError, ValueError, KeyError) as exc:
            raise CliError(f"the battle could not be saved: {exc}") from None

    def saved(choice: Any, step: Any) -> None:
        if args.json:
            lines.extend(step.lines)
            return
        print(f"[{session.cursor}] {_title(choice.command, step.state)}")
        for line in step.lines:
            print(f"    {line}")

    try:
        report = autoplay(session, table, turns=args.turns, on_step=saved, do=do)
    except CommandError as exc:  # pragma: no cover - autoplay counts refusals itself
        raise CliError(str(exc)) from None
    end = session.state
    why = {
        "result": f"the battle is over: {end.result.reason}"
        if end.result
        else "the battle is over",
        "turns": f"{args.turns} turn(s) played",
        "person": "it is the other side's turn",
        "steps": "the step limit was reached",
        "refused": "a command was refused",
    }.get(report.stopped, report.stopped)
    if args.json:
        print_json(
            {
                "steps": report.steps,
                "stopped": report.stopped,
                "refused": report.refused,
                "turn": end.turn,
                "result": None
                if end.result is None
                else {"winner": end.result.winner, "reason": end.result.reason},
                "log": lines,
            }
        )
    else:
        for r in report.refused:
            print(f"castra: refused: {r}", file=sys.stderr)
        print(f"Castra stops after {report.steps} step(s): {why}.")
    return 1 if report.refused else 0


def _title(command: BattleCommand, state: BattleState) -> str:
    return command.title(state)
