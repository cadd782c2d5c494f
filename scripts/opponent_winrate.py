"""Castra the opponent against a baseline that picks uniformly among the legal choices
(issue 30): seeded battles per ruleset on the ready armies, each played to the ruleset's
result (its victory rule, or the umpire's call by its documented default), Castra taking
Rome in even-seeded battles and Carthage in odd ones so neither army favours it.

    make opponent           # or: .venv/bin/python scripts/opponent_winrate.py [--battles 50]
                            #       [--ruleset ID ...] [--turns 40] [--jobs 2]

Prints one line per battle and a table per ruleset: battles, Castra's wins, draws, losses,
its win rate, battles that reached no result within ``--turns``, and any command the rules
refused (an illegal step: there should be none). Exits 1 if a command was refused.

Both players see the same legal choices (:mod:`app.core.battle.opponent`): the baseline
draws each unit's choice (or doing nothing) uniformly, and each side decision's choice
uniformly. Castra's temperament is steady.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

RULESETS = ("d3-ancients", "grown-slightly-bald", "leg-vi-carthago", "mwan90", "quincunx")


@dataclass(frozen=True)
class Battle:
    ruleset: str
    seed: int
    castra: int
    outcome: str  # "won", "drawn", "lost", "none"
    turn: int
    refused: int
    reason: str
    cpu: float


def play(ruleset: str, seed: int, turns: int) -> Battle:
    from app.core.battle import BattleSession, StartBattle, new_battle
    from app.core.battle.autoplay import Table, autoplay
    from app.core.battle.players import Player
    from app.core.ready import ready_armies, ready_roster
    from app.paths import load_registry
    from app.rules.mechanics import mechanics_for

    start = time.process_time()
    rs = load_registry(only={ruleset}).get(ruleset)
    mech = mechanics_for(rs)
    a, b = (ready_roster(rs, r.army) for r in ready_armies(rs))
    castra: Literal[0, 1] = 0 if seed % 2 == 0 else 1
    other: Literal[0, 1] = 1 if castra == 0 else 0
    session = BattleSession(rs, mech, new_battle(rs, mech, (a, b)), seed=seed)
    session.do(StartBattle())
    table = Table.of(
        {castra: Player(castra, seed=seed)},
        baseline={other: Player(other, seed=seed + 100_000)},
    )
    report = autoplay(session, table, turns=turns)
    result = session.state.result
    if result is None:
        outcome = "none"
    elif result.winner is None:
        outcome = "drawn"
    else:
        outcome = "won" if result.winner == castra else "lost"
    return Battle(
        ruleset,
        seed,
        castra,
        outcome,
        session.state.turn,
        len(report.refused),
        result.reason if result else f"no result after {turns} turns",
        time.process_time() - start,
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=50)
    parser.add_argument("--ruleset", action="append", choices=RULESETS)
    parser.add_argument("--turns", type=int, default=40, help="give up after so many turns")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args(argv)
    rulesets = args.ruleset or list(RULESETS)
    seeds = range(args.first_seed, args.first_seed + args.battles)
    # seed by seed across the rulesets: a run stopped early has every ruleset's first battles
    jobs = [(r, s, args.turns) for s in seeds for r in rulesets]
    results: list[Battle] = []
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for battle in pool.map(_play, jobs):
                _line(battle)
                results.append(battle)
    else:
        for job in jobs:
            battle = _play(job)
            _line(battle)
            results.append(battle)
    print()
    print("| Ruleset | Battles | Castra won | Drawn | Lost | No result | Win rate | Refused |")
    print("|---|---|---|---|---|---|---|---|")
    refused = 0
    for r in rulesets:
        mine = [b for b in results if b.ruleset == r]
        count = {
            k: sum(1 for b in mine if b.outcome == k) for k in ("won", "drawn", "lost", "none")
        }
        bad = sum(b.refused for b in mine)
        refused += bad
        rate = count["won"] / len(mine) if mine else 0.0
        print(
            f"| {r} | {len(mine)} | {count['won']} | {count['drawn']} | {count['lost']} | "
            f"{count['none']} | {rate:.0%} | {bad} |"
        )
    return 1 if refused else 0


def _play(job: tuple[str, int, int]) -> Battle:
    return play(*job)


def _line(b: Battle) -> None:
    side = "Rome" if b.castra == 0 else "Carthage"
    print(
        f"{b.ruleset:20} seed {b.seed:3} Castra {side:8} {b.outcome:5} turn {b.turn:3} "
        f"refused {b.refused} {b.cpu:6.1f}s  {b.reason[:90]}",
        flush=True,
    )


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
