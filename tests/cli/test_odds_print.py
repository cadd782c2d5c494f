"""What ``castra odds`` prints and writes as JSON (and ``castra battle advise --json``'s
odds) is what the plain Fraction sorting and sums gave before they were made quick for the
odds of big units (issue 26): the same rows in the same order, the same floats, the same
text, on real odds of every ruleset and on the 4,900 outcomes of MWAN #90's biggest
melee."""

from __future__ import annotations

import contextlib
import io
from fractions import Fraction
from typing import Any

from app.cli.common import table
from app.cli.odds import effects_dict, effects_text, expectations, odds_rows, print_odds
from app.core.battle.odds_summary import by_chance
from app.rules.mechanics import Odds
from app.rules.registry import Registry
from tests.core.battle.test_odds_summary import big_melee, real_odds


def plain_odds_rows(odds: Odds) -> list[dict[str, Any]]:
    rows = sorted(odds.items(), key=lambda kv: (-kv[1], kv[0].result))
    return [
        {
            "result": o.result,
            "attacker": effects_dict(o.attacker),
            "defender": effects_dict(o.defender),
            "probability": float(p),
            "fraction": f"{p.numerator}/{p.denominator}",
        }
        for o, p in rows
    ]


def plain_expectations(odds: Odds) -> dict[str, float]:
    out: dict[str, Fraction] = {}
    for o, p in odds.items():
        for side, e in (("attacker", o.attacker), ("defender", o.defender)):
            for key in ("casualties", "hits", "dps"):
                out[f"{side}_{key}"] = out.get(f"{side}_{key}", Fraction(0)) + p * getattr(e, key)
    return {k: round(float(v), 4) for k, v in out.items() if v}


def plain_print(odds: Odds) -> str:
    rows = [
        (
            o.result or "-",
            effects_text(o.attacker),
            effects_text(o.defender),
            f"{float(p) * 100:6.2f}%",
            f"{p.numerator}/{p.denominator}",
        )
        for o, p in sorted(odds.items(), key=lambda kv: (-kv[1], kv[0].result))
    ]
    text = table(rows, ("result", "attacker", "defender", "chance", "exact")) + "\n"
    exp = plain_expectations(odds)
    if exp:
        text += "\nExpected: " + ", ".join(f"{k.replace('_', ' ')} {v:g}" for k, v in exp.items())
        text += "\n"
    return text


def printed(odds: Odds) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print_odds(odds)
    return out.getvalue()


def test_odds_print_and_json_as_the_plain_way(registry: Registry) -> None:
    real = [(name, odds) for name, _, _, odds in real_odds(registry, pairs_each=3)]
    real.append(("mwan90 biggest melee", big_melee(registry)[2]))
    for name, odds in real:
        assert odds_rows(odds) == plain_odds_rows(odds), name
        got = expectations(odds)
        assert list(got.items()) == list(plain_expectations(odds).items()), name
        assert printed(odds) == plain_print(odds), name
        advised = [{"p": str(p), "result": o.result} for o, p in by_chance(odds)]
        plain = sorted(odds.items(), key=lambda kv: -kv[1])
        assert advised == [{"p": str(p), "result": o.result} for o, p in plain], name
