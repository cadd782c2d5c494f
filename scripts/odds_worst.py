"""The worst-case exact odds per ruleset and action, at 1x and 4x the largest list size.

Searches every pair of army-list troop types (each at ``factor`` times the largest size any
entry allows) with the action's default options, then every option of the slowest pair (as
``scripts/bench.py`` does at 1x), and prints one row per ruleset, action and factor: the
worst time in milliseconds (median of five runs), the matchup and the number of outcomes.

    .venv/bin/python scripts/odds_worst.py [--factors 1,4] [--only mwan90]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench import RUNS, _odds_ms  # noqa: E402


def _variants(action: Any) -> list[dict[str, Any]]:
    defaults = action.defaults()
    variants = [defaults]
    for o in action.options:
        if o.kind == "bool":
            values: list[Any] = [True]
        elif o.kind == "int":
            values = [v for v in (o.minimum, o.maximum) if v is not None]
        else:
            values = list(o.choices)
        variants += [{**defaults, o.key: v} for v in values]
    return variants


def main(argv: list[str]) -> int:
    from app.paths import load_registry
    from app.rules.mechanics import mechanics_for

    parser = argparse.ArgumentParser()
    parser.add_argument("--factors", default="1,4")
    parser.add_argument("--only", default="")
    args = parser.parse_args(argv)
    factors = [int(f) for f in args.factors.split(",")]
    reg = load_registry(only={args.only} if args.only else None)
    print(f"{'ruleset':10} {'action':10} {'x':>2} {'worst ms':>9}  matchup")
    for rs in sorted(reg, key=lambda r: r.id):
        if not rs.builtin:
            continue
        mech = mechanics_for(rs)
        troops = sorted({e.troop for a in rs.armies.values() for e in a.entries.values()})
        largest = max(max(e.sizes) for a in rs.armies.values() for e in a.entries.values())
        for action in (a for a in mech.actions() if a.odds and a.targets == "pair"):
            defaults = action.defaults()
            for factor in factors:
                size = largest * factor
                pairs = [((x, size), (y, size)) for x in troops for y in troops]
                timed = {p: _odds_ms(mech, action.key, p, defaults) for p in pairs}
                slowest = max(pairs, key=lambda p: timed[p])
                variants = _variants(action)
                costs = [_odds_ms(mech, action.key, slowest, o) for o in variants]
                worst = variants[costs.index(max(costs))]
                value = _odds_ms(mech, action.key, slowest, worst, RUNS)
                changed = {k: v for k, v in worst.items() if defaults.get(k) != v}
                (ta, sa), (td, sd) = slowest
                print(
                    f"{rs.id:10} {action.key:10} {factor:>2} {value:9.2f}  "
                    f"{ta} {sa} v {td} {sd} {changed or ''} ({len(pairs)} pairs)",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
