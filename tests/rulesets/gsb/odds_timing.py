"""How long Grown Slightly Bald's exact odds take, searched for the worst case (issue 14: every
matchup up to 4x the largest unit the army lists allow answers in under 10 ms).

Not a test (timings belong to no test): run it by hand on the 2-core machine::

    .venv/bin/python -m tests.rulesets.gsb.odds_timing [--samples N] [--top K]

Every pair of troop types x every action with odds, at 1x and 4x the largest list size (4
bases, so 4 and 16 bases; elephants too, though their lists field one base: a 16-base elephant
unit is 64 hit points, the most a unit may have; with ``--own-sizes`` each troop type at 1x
and 4x its own largest list entry, so elephants of 1 and 4 bases),
each option set away from its default one at a time, plus random combinations of options,
generals (as units' leaders) and worn states (hits on the current base, bases lost). Each
matchup is timed cold: every throw cache is cleared first, as a player's first question about
a new matchup finds them. Times are the process's CPU time (the machine is shared), and the
slowest of each action are timed again, best of 5.
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
from app.rulesets.gsb import throws as gsb_throws

GENERALS = ("none", "attacker", "defender", "both")
STATES = ("fresh", "hit", "worn", "last-base")


@dataclass(frozen=True)
class Case:
    action: str
    mult: int
    attacker: str
    defender: str
    size_a: int
    size_d: int
    options: tuple[tuple[str, Scalar], ...]
    generals: str
    state: str

    def __str__(self) -> str:
        opts = " ".join(f"{k}={v}" for k, v in self.options)
        return (
            f"{self.action} {self.mult}x: {self.attacker}x{self.size_a}"
            f" vs {self.defender}x{self.size_d} generals={self.generals}"
            f" state={self.state} {opts}"
        )


def combatant(mech: Any, troop: str, size: int, side: int, general: bool, state: str) -> Combatant:
    """A unit of ``size`` bases; the target's ``state``: a hit on its current base, half its
    bases lost and its current base one hit from going, or its last base left."""
    status = mech.initial_status(troop, size, None)
    hp = mech.hits_per_base(troop)
    if state == "hit":
        status = replace(status, hits=min(1, hp - 1))
    elif state == "worn":
        status = replace(status, strength=max(1, size // 2), hits=hp - 1)
    elif state == "last-base":
        status = replace(status, strength=1)
    leader = LeaderView(f"g{side}", "General", "general") if general else None
    return Combatant(f"U{side}", troop, troop, 0 if side == 0 else 1, status, leader=leader)


def situation(mech: Mechanics, case: Case) -> Situation:
    spec = mech.action(case.action)
    options = {**spec.defaults(), **dict(case.options)}
    a = combatant(
        mech, case.attacker, case.size_a, 0, case.generals in ("attacker", "both"), "fresh"
    )
    if spec.targets == "side":
        return Situation(actor=a, side=0, options=options)
    d = combatant(
        mech, case.defender, case.size_d, 1, case.generals in ("defender", "both"), case.state
    )
    return Situation(actor=a, target=d, side=0, options=options)


def option_values(mech: Mechanics, action: str) -> dict[str, list[Scalar]]:
    out: dict[str, list[Scalar]] = {}
    for o in mech.action(action).options:
        if o.kind == "bool":
            out[o.key] = [False, True]
        elif o.kind == "int":
            lo = o.minimum if o.minimum is not None else 0
            hi = o.maximum if o.maximum is not None else lo + 12
            out[o.key] = sorted({lo, min(hi, lo + 1), min(hi, lo + 3), hi})
        else:
            out[o.key] = list(o.choices)
    return out


def list_sizes(mech: Mechanics, own: bool) -> dict[str, int]:
    """The largest size the army lists allow: of any unit (4 bases), or with ``own`` of each
    troop type's own entries (elephants 1)."""
    rs = mech.ruleset
    entries = [e for a in rs.armies.values() for e in a.entries.values()]
    largest = max(max(e.sizes) for e in entries)
    if not own:
        return {t: largest for t in rs.troops}
    return {
        t: max((max(e.sizes) for e in entries if e.troop == t), default=largest) for t in rs.troops
    }


def cases(mech: Mechanics, samples: int, seed: int, own: bool = False) -> Iterator[Case]:
    rs = mech.ruleset
    troops = sorted(rs.troops)
    sizes = list_sizes(mech, own)
    rng = random.Random(seed)
    for spec in mech.actions():
        if not spec.odds:
            continue
        values = option_values(mech, spec.key)
        defenders = troops if spec.targets != "side" else troops[:1]
        for mult in (1, 4):
            for att in troops:
                for dfn in defenders:
                    sa, sd = sizes[att] * mult, sizes[dfn] * mult
                    yield Case(spec.key, mult, att, dfn, sa, sd, (), "both", "fresh")
                    for key, vals in values.items():
                        for v in vals:
                            yield Case(
                                spec.key, mult, att, dfn, sa, sd, ((key, v),), "both", "fresh"
                            )
        for _ in range(samples):
            mult = rng.choice((1, 4))
            att, dfn = rng.choice(troops), rng.choice(defenders)
            opts = tuple((k, rng.choice(v)) for k, v in values.items() if rng.random() < 0.6)
            sa, sd = sizes[att] * mult, sizes[dfn] * mult
            yield Case(
                spec.key, mult, att, dfn, sa, sd, opts, rng.choice(GENERALS), rng.choice(STATES)
            )


def clear_caches() -> None:
    rule_actions.exact_of.cache_clear()
    capped_binomial.cache_clear()
    gsb_throws.morale_after_loss.cache_clear()
    gsb_throws.bases_left.cache_clear()
    gsb_throws.fates.cache_clear()


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
    p.add_argument(
        "--own-sizes",
        action="store_true",
        help="size each troop type by its own list entries (elephants 1 base, not 4)",
    )
    args = p.parse_args(argv)
    reg = Registry.load(find_engine, BUILTIN_DIR, [])
    rs = reg.get("grown-slightly-bald")
    mech: Any = rs.engine.mechanics(rs)
    timed: list[tuple[float, Case]] = []
    for case in cases(mech, args.samples, args.seed, args.own_sizes):
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
