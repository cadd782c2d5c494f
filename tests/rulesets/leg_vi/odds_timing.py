"""How long Leg VI's exact odds take, searched for the worst case (issue 14: every matchup up
to 4x the largest unit the army lists allow answers in under 10 ms).

Not a test (timings belong to no test): run it by hand on the 2-core machine::

    .venv/bin/python -m tests.rulesets.leg_vi.odds_timing [--samples N] [--top K]

Every pair of fielded troop types x every action with odds, at 1x and 4x the largest list
size (the largest unit of all, a 10-base legion, so 10 and 40 bases; elephants too, which
only makes their dice capped sooner), each option set away from its default one at a time,
plus random combinations of options, leaders (none, either, both, one wounded) and worn
states (DPs, shaken, a rampaging elephant). Each matchup is timed cold: the throw caches are
cleared first, as a player's first question about a new matchup finds them. Times are the
process's CPU time (the machine is shared; wall-clock time there measures the neighbours),
and the slowest are timed again, best of 5.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from app.rules import actions as rule_actions
from app.rules.dice import capped_binomial
from app.rules.mechanics import Combatant, LeaderView, Mechanics, Scalar, Situation
from app.rules.registry import BUILTIN_DIR, Registry
from app.rulesets import find_engine


@dataclass(frozen=True)
class Case:
    action: str
    mult: int
    attacker: str
    defender: str
    size_a: int
    size_d: int
    options: tuple[tuple[str, Scalar], ...]
    leaders: str
    state: str

    def __str__(self) -> str:
        opts = " ".join(f"{k}={v}" for k, v in self.options)
        return (
            f"{self.action} {self.mult}x: {self.attacker}x{self.size_a}"
            f" vs {self.defender}x{self.size_d} leaders={self.leaders} state={self.state} {opts}"
        )


LEADERS = ("none", "attacker", "defender", "both", "both-wounded")
STATES = ("fresh", "dps", "shaken", "rampage")


def _leader(lid: str, rank: str, wounds: int) -> LeaderView:
    return LeaderView(lid, lid.title(), rank, wounds=wounds)


def combatant(
    mech: Mechanics, troop: str, size: int, side: int, leader: LeaderView | None, state: str
) -> Combatant:
    status = mech.initial_status(troop, size, None)
    if state == "dps":
        status = replace(status, dps=2)
    elif state == "shaken":
        status = replace(status, dps=5, markers=status.markers | {"shaken"})
    elif state == "rampage":
        status = replace(status, markers=status.markers | {"rampage"})
    return Combatant(f"U{side}", troop, troop, 0 if side == 0 else 1, status, leader=leader)


def situation(mech: Mechanics, case: Case) -> Situation:
    wounds = 1 if case.leaders == "both-wounded" else 0
    la = (
        _leader("mago", "commander", wounds)
        if case.leaders in ("attacker", "both", "both-wounded")
        else None
    )
    ld = (
        _leader("scipio", "general", wounds)
        if case.leaders in ("defender", "both", "both-wounded")
        else None
    )
    a = combatant(mech, case.attacker, case.size_a, 0, la, case.state)
    d = combatant(mech, case.defender, case.size_d, 1, ld, "fresh")
    spec = mech.action(case.action)
    return Situation(actor=a, target=d, side=0, options={**spec.defaults(), **dict(case.options)})


def option_values(mech: Mechanics, action: str) -> dict[str, list[Scalar]]:
    out: dict[str, list[Scalar]] = {}
    for o in mech.action(action).options:
        if o.kind == "bool":
            out[o.key] = [False, True]
        elif o.kind == "int":
            lo = o.minimum if o.minimum is not None else 0
            hi = o.maximum if o.maximum is not None else lo + 10
            out[o.key] = sorted({lo, min(hi, lo + 1), min(hi, lo + 2), hi})
        else:
            out[o.key] = list(o.choices)
    return out


def cases(mech: Mechanics, samples: int, seed: int) -> Iterator[Case]:
    rs = mech.ruleset
    fielded = sorted({e.troop for a in rs.armies.values() for e in a.entries.values()})
    largest = max(max(e.sizes) for a in rs.armies.values() for e in a.entries.values())
    rng = random.Random(seed)
    for spec in mech.actions():
        if not spec.odds:
            continue
        values = option_values(mech, spec.key)
        for mult in (1, 4):
            size = largest * mult
            for att in fielded:
                for dfn in fielded:
                    sa = 1 * mult if att == "el" else size
                    sd = 1 * mult if dfn == "el" else size
                    state = "rampage" if spec.key in ("rampage", "stop_rampage") else "fresh"
                    yield Case(spec.key, mult, att, dfn, sa, sd, (), "both", state)
                    for key, vals in values.items():
                        for v in vals:
                            yield Case(spec.key, mult, att, dfn, sa, sd, ((key, v),), "both", state)
        for _ in range(samples):
            mult = rng.choice((1, 4))
            att, dfn = rng.choice(fielded), rng.choice(fielded)
            sa = mult if att == "el" else largest * mult
            sd = mult if dfn == "el" else largest * mult
            opts = tuple((k, rng.choice(v)) for k, v in values.items() if rng.random() < 0.6)
            state = "rampage" if spec.key in ("rampage", "stop_rampage") else rng.choice(STATES)
            yield Case(spec.key, mult, att, dfn, sa, sd, opts, rng.choice(LEADERS), state)


def clear_caches() -> None:
    rule_actions.exact_of.cache_clear()
    capped_binomial.cache_clear()


def time_case(mech: Mechanics, case: Case) -> float | None:
    try:
        sit = situation(mech, case)
    except (ValueError, KeyError):
        return None
    clear_caches()
    start = time.process_time()
    try:
        mech.odds(case.action, sit)
    except ValueError:
        return None
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--samples", type=int, default=2000, help="random combinations per action")
    p.add_argument("--top", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    reg = Registry.load(find_engine, BUILTIN_DIR, [])
    mech: Any = reg.get("leg-vi-carthago").engine.mechanics(reg.get("leg-vi-carthago"))
    timed: list[tuple[float, Case]] = []
    for case in cases(mech, args.samples, args.seed):
        t = time_case(mech, case)
        if t is not None:
            timed.append((t, case))
    timed.sort(key=lambda tc: -tc[0])
    print(f"{len(timed)} matchups timed (CPU time, cold caches)")
    for mult in (1, 4):
        # the slowest of each action again, best of 5, so one hiccup does not decide it
        slowest: dict[str, list[Case]] = {}
        for _t, case in timed:
            if case.mult == mult and len(slowest.setdefault(case.action, [])) < args.top:
                slowest[case.action].append(case)
        worst: dict[str, tuple[float, Case]] = {}
        for action, picked in slowest.items():
            for case in picked:
                runs = [t for t in (time_case(mech, case) for _ in range(5)) if t is not None]
                if runs and min(runs) > worst.get(action, (0.0, case))[0]:
                    worst[action] = (min(runs), case)
        print(f"\nworst per action at {mult}x the largest list size (best of 5):")
        for t, case in sorted(worst.values(), key=lambda tc: -tc[0]):
            print(f"  {t * 1000:7.2f} ms  {case}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
