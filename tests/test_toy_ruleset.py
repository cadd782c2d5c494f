"""A sixth ruleset in one folder (docs/reference/adding-a-ruleset.md): a toy engine package and
its data, written to a temporary folder (``tests/toy_ruleset.py``), with one registry entry
(its engines folder on ``app.rulesets.__path__``) and nothing else, runs end to end through
``castra ...``: listed, rosters built and validated, exact odds, a battle (the contact rule
it never wrote refusing a melee across the table, a melee with exact odds, a step, undo),
its quick-reference sheet and unit cards printed (generic parts), and a campaign (created,
the battle fought and its result recorded and applied). The repository is unchanged after."""

from __future__ import annotations

import json
import subprocess
from fractions import Fraction
from math import comb
from pathlib import Path

from app.rules.registry import BUILTIN_DIR
from tests.cli.test_battle_cli import Battle, Cli, contact_point, odds_total
from tests.cli.test_battle_cli import cli as cli  # the fixture
from tests.cli.test_battle_cli import store_file as store_file  # CASTRA_DB under tmp_path
from tests.export.pdf import all_text, reader
from tests.toy_ruleset import HIT_ON, RULESET, Toy
from tests.toy_ruleset import toy as toy  # the fixture

REPO = Path(__file__).resolve().parents[1]


def _tree() -> dict[str, tuple[int, int]]:
    """Every file under app/ and the built-in rulesets folder: size and time written."""
    out = {}
    for top in (REPO / "app", BUILTIN_DIR):
        for path in top.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                st = path.stat()
                out[str(path.relative_to(REPO))] = (st.st_size, st.st_mtime_ns)
    return out


def _git_status() -> str | None:
    if not (REPO / ".git").exists():
        return None
    done = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def _binomial_hits(dice: int, cap: int) -> dict[int, Fraction]:
    """Hits of ``dice`` d6 scoring on HIT_ON+, more than ``cap`` counted as ``cap``."""
    p = Fraction(7 - HIT_ON, 6)
    out: dict[int, Fraction] = {}
    for k in range(dice + 1):
        out[min(k, cap)] = out.get(min(k, cap), Fraction(0)) + comb(dice, k) * p**k * (1 - p) ** (
            dice - k
        )
    return out


def _hits(outcomes: list[dict[str, object]]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for o in outcomes:
        d = o["defender"]
        assert isinstance(d, dict)
        n = int(d.get("casualties", 0))
        out[n] = out.get(n, Fraction(0)) + Fraction(str(o["fraction"]))
    return out


def test_a_sixth_ruleset_runs_end_to_end(toy: Toy, cli: Cli, tmp_path: Path) -> None:
    tree, status = _tree(), _git_status()

    # the registry finds it: listed, no failure
    listed = cli.ok("rulesets")
    assert RULESET in listed and "Toy Skirmish" in listed
    assert "warning" not in cli.run("rulesets")[2]

    # rosters: built, validated (a missing general is an error; with one, valid)
    for army, name in (("red", "Red"), ("blue", "Blue")):
        cli.ok("roster", "new", "--ruleset", RULESET, "--army", army, "--name", name)
        cli.ok("roster", "add", name, "spearmen", "--size", "4")
    cli.ok("roster", "add", "Red", "slingers")
    cli.ok("roster", "export", "Red", "-o", tmp_path / "red.json")
    code, out, _ = cli.run("validate", tmp_path / "red.json")
    assert code == 1 and "the army has 0 general(s); Toy Skirmish requires 1" in out
    for name in ("Red", "Blue"):
        cli.ok("roster", "leader", "add", name, f"{name}beard", "--rank", "general")
    # its own leader field, from its declaration: an option, kept in the roster and its file
    cli.ok("roster", "leader", "set", "Red", "Redbeard", "--veteran", "yes")
    assert "leaders have no bonus" in cli.fails(
        "roster", "leader", "set", "Red", "Redbeard", "--bonus", "1"
    )
    cli.ok("roster", "export", "Red", "-o", tmp_path / "red.json")
    assert cli.run("validate", tmp_path / "red.json")[0] == 0
    roster = json.loads((tmp_path / "red.json").read_text())
    assert roster["ruleset"] == RULESET and len(roster["units"]) == 2
    assert roster["leaders"][0]["fields"] == {"veteran": True}

    # exact odds outside a battle: 4 bases roll 4d6, each HIT_ON+ a hit, at most 4 count
    args = ("--attacker", "spearmen", "--defender", "blue:spearmen", "--size-a", 4, "--size-d", 4)
    data = cli.json("odds", RULESET, *args)
    assert _hits(data["outcomes"]) == _binomial_hits(4, 4)

    # a battle: the melee across the table is refused by the default contact rule
    battle = Battle.new(cli, "Red", "Blue", seed=3)
    assert battle.state()["phase_name"] == "Movement"
    # the leader's own field went into the battle
    redbeard = next(ld for ld in battle.state()["leaders"] if ld["name"] == "Redbeard")
    assert redbeard["fields"] == {"veteran": True}
    why = cli.fails("battle", "odds", battle.id, "melee", "A1", "B1")
    assert "Toy Skirmish, Melee: Red spearmen (A1) is not in contact with Blue spearmen (B1)" in why
    steps = battle.steps()
    battle.refused("melee", "A1", "B1")
    assert battle.steps() == steps
    # moved into contact, the melee has exact odds, is a step, and undo restores the state
    state = battle.state()
    x, y = contact_point(battle.unit("A1", state), battle.unit("B1", state))
    battle("move", "A1", repr(x), repr(y), "--force")
    odds = cli.json("battle", "odds", battle.id, "melee", "A1", "B1")
    assert odds_total(odds["outcomes"]) == 1
    assert _hits(odds["outcomes"]) == _binomial_hits(4, 4)
    before, steps = battle.state(), battle.steps()
    out = battle("melee", "A1", "B1")
    assert "roll " in out and battle.steps() == steps + 1
    lost = 4 - battle.unit("B1")["status"]["strength"]
    assert f"{lost} hit" in out
    assert battle("undo").startswith("undid: ")
    assert battle.state() == before and battle.steps() == steps

    # printing: the generic sheet and cards, made from the toy's data
    cli.ok("print", "refsheet", RULESET, "-o", tmp_path / "sheet.pdf")
    cli.ok("print", "cards", "Red", "-o", tmp_path / "cards.pdf")
    sheet, cards = tmp_path / "sheet.pdf", tmp_path / "cards.pdf"
    assert len(reader(sheet).pages) == 1 and f"Hit on {HIT_ON}" in all_text(sheet)
    assert "Red spearmen" in all_text(cards) and "Redbeard" in all_text(cards)
    assert "Veteran" in all_text(cards)

    # a campaign: created from the rosters, its battle fought, the result recorded, applied
    cli.ok("campaign", "new", "Toy war", "--side", "Red=Red", "--side", "Blue=Blue")
    cli.ok("campaign", "add-battle", "Toy war", "First clash", "Red", "Blue")
    fought = cli.ok("campaign", "fight", "Toy war", "--seed", "4")
    bid = int(fought.split("\nbattle ", 1)[1].split(":", 1)[0])
    cli.ok("battle", "adjust", bid, "B1", "strength", "1")
    cli.ok("battle", "end", bid, "--winner", "a")
    cli.ok("campaign", "record", "Toy war", "First clash", "--fought", bid)
    applied = cli.ok("campaign", "apply", "Toy war", "First clash")
    assert "Blue spearmen" in applied
    shown = cli.json("campaign", "show", "Toy war")
    assert [b["name"] for b in shown["battles"]] == ["First clash"]
    result = shown["battles"][0]["result"]
    assert result["winner"] == 0 and result["sides"][0]["roster"] == "Red"
    blue = result["sides"][1]["units"][0]
    assert (blue["name"], blue["start"], blue["end"]) == ("Blue spearmen", 4, 1)

    # nothing outside the temporary folder was written
    assert _tree() == tree
    assert _git_status() == status
    assert not list(toy.engines.parent.glob("home/rulesets/*/__pycache__"))
