"""Record ``castra odds --json`` for a fixed set of matchups across the five rulesets.

Run once before a refactor of the mechanics (``python scripts/record_odds_fixture.py``); the
test ``tests/rules/test_odds_fixture.py`` then asks the same questions of the code as it is
and requires identical fractions, except for the matchups a recorded rule decision changed.
The matchups are chosen deterministically: every odds action of every ruleset, every troop type
as attacker against a rotating defender, and each option of the action set away from its
default once, plus a few damaged-unit states.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.rulesets import find_engine
from tests.rules.test_odds_fixture import FIXTURE as OUT
from tests.rules.test_odds_fixture import ask


def matchups() -> list[list[str]]:
    reg = Registry.load(find_engine)
    asked: list[list[str]] = []
    for rs in reg:
        mech = mechanics_for(rs)
        fielded = sorted({e.troop for a in rs.armies.values() for e in a.entries.values()})
        troops = [t for t in rs.troops if t in fielded]
        n = len(troops)
        for spec in mech.actions():
            if not spec.odds:
                continue
            base = [rs.id, "--action", spec.key]
            for i, att in enumerate(troops):
                for k in (7, 3, 5):
                    dfn = troops[(i * k + 3) % n]
                    asked.append([*base, "--attacker", att, "--defender", dfn])
                if rs.meta.engine == "leg-vi":
                    asked.append(
                        [*base, "--attacker", att, "--defender", dfn, "--marker-a", "rampage"]
                    )
            a, d = troops[0], troops[min(1, n - 1)]
            for o in spec.options:
                if o.kind == "bool":
                    values = ["yes" if not o.default else "no"]
                elif o.kind == "int":
                    low = o.minimum if o.minimum is not None else 0
                    values = [str(max(low, 1)), str(max(low, 2))]
                else:
                    values = [c for c in o.choices if c != o.default][:3]
                for v in values:
                    for att, dfn in ((a, d), (troops[-1], troops[n // 2])):
                        asked.append(
                            [*base, "--attacker", att, "--defender", dfn, "--set", f"{o.key}={v}"]
                        )
            for extra in (["--rings-a", "2"], ["--dps-d", "2"], ["--leader-a", "1"]):
                asked.append([*base, "--attacker", a, "--defender", d, *extra])
    return asked


def record() -> list[dict[str, Any]]:
    return [ask(argv) for argv in matchups()]


if __name__ == "__main__":
    rows = record()
    answered = sum(1 for r in rows if "outcomes" in r)
    lines = ",\n".join(json.dumps(r, sort_keys=True, separators=(",", ":")) for r in rows)
    OUT.write_text("[\n" + lines + "\n]\n", encoding="utf-8")
    print(f"{len(rows)} matchups ({answered} answered) -> {OUT}", file=sys.stderr)
