"""``castra scenario list | show | new`` and the campaigns built on the historical battles:
the battles listed in order, a battle shown with its sources and its armies in a ruleset,
a battle started on its field (or its rosters saved, then fought on the field with
``battle new --scenario``), ``battle show`` beside history at the end; the Spain template
fought on Baecula's field with its chronicle beside history; refusals in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.builtin import ruleset_ids
from tests.cli.test_cli import run, run_json, store_file  # noqa: F401 (autouse fixture)


def ok(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = run(capsys, *args)
    assert code == 0, err
    return out


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = run(capsys, *args)
    assert code == 1 and out == "", (code, out, err)
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def test_list_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    listed = run_json(capsys, "scenario", "list", "--json")
    ids = [b["id"] for b in listed]
    assert ids[:3] == ["trebia", "trasimene", "cannae"] and "zama" in ids
    assert all(len(b["rulesets"]) == 5 for b in listed)
    text = ok(capsys, "scenario", "list")
    assert "The Trebia" in text and "Hannibal" in text
    shown = ok(capsys, "scenario", "show", "Cannae", "--ruleset", "leg-vi-carthago")
    for words in ("Polybius 3.113.5", "Aufidus", "Leg VI:", "twice the men", "Castra's reading"):
        assert words in shown, words
    d = run_json(capsys, "scenario", "show", "trebia", "--json")
    assert set(d["rulesets"]) == set(ruleset_ids())
    quincunx = d["rulesets"]["quincunx"]
    assert quincunx["scale"] == "1:100"
    rome = quincunx["sides"][0]
    assert rome["source_men"] == 40000 and abs(rome["men"] - 40000) <= 750
    # a scale chosen: the same figures, a tenth of the men
    tenth = run_json(capsys, "scenario", "show", "trebia", "--ruleset", "quincunx",
                     "--scale", "1:10", "--json")  # fmt: skip
    assert tenth["rulesets"]["quincunx"]["sides"][0]["men"] == rome["men"] // 10


def test_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    assert "no historical battle" in refused(capsys, "scenario", "show", "Alesia")
    assert "unknown ruleset" in refused(capsys, "scenario", "new", "trebia", "--ruleset", "dba")
    assert "counts bases" in refused(
        capsys, "scenario", "new", "trebia", "--ruleset", "d3-ancients", "--scale", "1:10"
    )
    assert "not one of" in refused(
        capsys, "scenario", "new", "trebia", "--ruleset", "quincunx", "--scale", "1:1000"
    )
    assert "no historical battle" in refused(
        capsys, "battle", "new", "quincunx:roman", "quincunx:carthaginian", "--scenario", "Alesia"
    )


def test_new_battle_fought_and_compared(capsys: pytest.CaptureFixture[str]) -> None:
    out = ok(capsys, "scenario", "new", "zama", "--ruleset", "d3-ancients", "--seed", "4")
    assert out.startswith("battle 1: Zama (202 BC), D3 Ancients (seed 4)")
    state = run_json(capsys, "battle", "show", "1", "--json")
    assert state["scenario"] == "zama"
    ok(capsys, "battle", "end", "1", "--winner", "a")
    shown = ok(capsys, "battle", "show", "1")
    assert "Beside history:" in shown and "as in history" in shown
    assert "Polybius 15.14.9" in shown


def test_rosters_to_edit_then_fought_on_the_field(capsys: pytest.CaptureFixture[str]) -> None:
    out = ok(capsys, "scenario", "new", "metaurus", "--ruleset", "mwan90", "--rosters")
    assert "created roster 1: The Metaurus: Rome" in out
    assert "created roster 2: The Metaurus: Carthage" in out
    ok(capsys, "roster", "remove", "2", "Gallic young men")
    # the battle's own side order whichever roster comes first
    out = ok(capsys, "battle", "new", "2", "1", "--scenario", "metaurus", "--seed", "1")
    assert "on the field of The Metaurus" in out
    state = run_json(capsys, "battle", "show", "1", "--json")
    assert state["scenario"] == "metaurus"
    assert [s["name"] for s in state["sides"]] == ["Carthage", "Rome"]
    assert refused(capsys, "battle", "new", "1", "2", "--scenario", "zama", "--layout", "x")


def test_spain_campaign_on_the_field_with_its_chronicle(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert "campaign 1" in ok(
        capsys, "campaign", "new", "Spain", "--template", "spain", "--ruleset", "quincunx"
    )
    shown = run_json(capsys, "campaign", "show", "Spain", "--json")
    assert [s["name"] for s in shown["sides"]] == [
        "Rome", "Hasdrubal Barca's army", "Hasdrubal and Mago's army",
    ]  # fmt: skip
    out = ok(capsys, "campaign", "fight", "Spain", "--seed", "2")
    state = run_json(capsys, "battle", "show", "1", "--json")
    assert state["scenario"] == "baecula" and "battle 1" in out
    ok(capsys, "battle", "end", "1", "--winner", "a")
    ok(capsys, "campaign", "record", "Spain", "b1", "--fought", "1")
    ok(capsys, "campaign", "apply", "Spain", "b1")
    chron = run_json(capsys, "campaign", "chronicle", "Spain", "--json")
    baecula = chron["battles"][0]
    assert any("In history Carthage lost 20,000" in h for h in baecula["history"])
    fates = {r["name"]: r["history"] for r in chron["leaders"]}
    assert fates["Hasdrubal"].startswith("survived at Baecula")
    # the next battle opens on Ilipa's field with Rome's army as it stands after Baecula
    ok(capsys, "campaign", "fight", "Spain", "--seed", "2")
    state = run_json(capsys, "battle", "show", "2", "--json")
    assert state["scenario"] == "ilipa"
    out = ok(
        capsys, "campaign", "new", "Africa", "--template", "africa",
        "--ruleset", "grown-slightly-bald",
    )  # fmt: skip
    assert "campaign 2: Africa (Grown Slightly Bald)" in out


def test_a_campaign_battle_on_a_field(capsys: pytest.CaptureFixture[str]) -> None:
    """A campaign of the user's own rosters names Cannae's field for its battle."""
    ok(capsys, "roster", "new", "--ruleset", "d3-ancients", "--army", "roman", "--name", "R",
       "--standard")  # fmt: skip
    ok(capsys, "roster", "new", "--ruleset", "d3-ancients", "--army", "carthaginian",
       "--name", "C", "--standard")  # fmt: skip
    ok(capsys, "campaign", "new", "Mine", "--side", "Rome=R", "--side", "Carthage=C")
    assert "no historical battle" in refused(
        capsys, "campaign", "add-battle", "Mine", "Clash", "Rome", "Carthage", "--scenario", "x"
    )
    ok(capsys, "campaign", "add-battle", "Mine", "Clash", "Rome", "Carthage",
       "--scenario", "cannae")  # fmt: skip
    ok(capsys, "campaign", "fight", "Mine", "--seed", "1")
    state = run_json(capsys, "battle", "show", "1", "--json")
    assert state["scenario"] == "cannae" and "zones" not in state
    assert any(t["name"] == "Aufidus" for t in state["terrain"])
