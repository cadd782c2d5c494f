"""The worst-case exact odds per ruleset and action under a harsher search than ``make
bench``: every troop type at ``factor`` times the largest unit *any* entry of the ruleset
allows (so units no army list fields: GSB's one-base elephants as 16 bases, MWAN #90's
four-figure elephants as 72), at each factor on its own.

Searches every pair of troop types with the action's default options, then every option of
the slowest pairs (``bench.odds_search``), and prints one row per ruleset, action and factor:
the worst CPU time in milliseconds (median of five runs) and the matchup.

    .venv/bin/python scripts/odds_worst.py [--factors 1,4] [--only mwan90]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench import odds_search  # noqa: E402


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
        sizes = dict.fromkeys(troops, largest)
        for action in (a for a in mech.actions() if a.odds and a.targets == "pair"):
            for factor in factors:
                value, pair, changed, tried = odds_search(mech, action, sizes, (factor,))
                (ta, sa), (td, sd) = pair
                print(
                    f"{rs.id:10} {action.key:10} {factor:>2} {value:9.2f}  "
                    f"{ta} {sa} v {td} {sd} {changed or ''} ({tried} matchups)",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
