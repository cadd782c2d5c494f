"""``castra odds`` answers exactly as it did before the rulesets became packages.

``tests/data/odds_fixture.json`` was recorded from the code as it stood before the move
(``scripts/record_odds_fixture.py``): over a thousand matchups across the five rulesets, each
with its exact fractions or its refusal. Every one must give the same answer now. The only
exceptions are the matchups that a recorded rule decision changed on purpose; each is listed
in ``CHANGED`` with the errata note that records the decision.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.cli import main

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "odds_fixture.json"

#: errata id -> which recorded matchups its decision changes (a test on the argv)
CHANGED: dict[str, Callable[[list[str]], bool]] = {
    # Quincunx: the elephants' +2/+1 new-target bonus only when they assault, so a melee
    # in which elephants defend changes
    "elephant-bonus-on-assault": lambda argv: (
        argv[0] == "quincunx"
        and argv[argv.index("--action") + 1] == "melee"
        and argv[argv.index("--defender") + 1] == "elephants"
    ),
    # MWAN #90: a flank or rear melee on a heavy unit triples the attacker's dice, not its own
    "flank-rear-triple": lambda argv: (
        argv[:3] == ["mwan90", "--action", "melee"]
        and ("attack=flank" in argv or "attack=rear" in argv)
        and argv[argv.index("--defender") + 1]
        in ("heavy_infantry", "heavy_infantry_javelin", "greek_heavy_infantry", "elephants")
    ),
    # GSB: heavy infantry are hit only on 6 in melee (5-6 for every type became an option)
    "hit-numbers": lambda argv: (
        argv[0] == "grown-slightly-bald"
        and argv[argv.index("--action") + 1] == "melee"
        and argv[argv.index("--defender") + 1] == "heavy_infantry"
    ),
}


def ask(argv: list[str]) -> dict[str, Any]:
    """``castra odds ARGV --json`` in this process: the sorted outcomes, or the refusal."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["odds", *argv, "--json"])
    if code != 0:
        return {"argv": argv, "refused": err.getvalue().strip()}
    data = json.loads(out.getvalue())
    outcomes = (
        {
            "result": o["result"],
            "attacker": o["attacker"],
            "defender": o["defender"],
            "fraction": o["fraction"],
        }
        for o in data["outcomes"]
    )
    return {"argv": argv, "outcomes": sorted(outcomes, key=lambda o: json.dumps(o, sort_keys=True))}


RECORDED: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))


def test_fixture_is_broad() -> None:
    answered = [r for r in RECORDED if "outcomes" in r]
    assert len(answered) >= 100
    assert {r["argv"][0] for r in answered} == {
        "quincunx",
        "leg-vi-carthago",
        "grown-slightly-bald",
        "mwan90",
        "d3-ancients",
    }


@pytest.mark.parametrize("ruleset", sorted({r["argv"][0] for r in RECORDED}))
def test_odds_as_recorded(ruleset: str) -> None:
    changed = 0
    for row in (r for r in RECORDED if r["argv"][0] == ruleset):
        decisions = [e for e, hit in CHANGED.items() if hit(row["argv"])]
        now = ask(row["argv"])
        if decisions:
            changed += 1
            assert now != row, f"{row['argv']} was listed as changed by {decisions} but is not"
            continue
        if "refused" in row:
            assert "refused" in now, f"{row['argv']} was refused before, now answers"
        else:
            assert now == row, f"{row['argv']} answers differently"
