"""``castra campaign``: the template fought through ``castra battle`` and by hand, the diff
before applying, undo, the chronicle (words, JSON, PDF), export and import, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from tests.cli.test_cli import run, run_json, store_file  # noqa: F401 (autouse fixture)
from tests.export.pdf import all_text, fonts


def ok(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = run(capsys, *args)
    assert code == 0, err
    return out


def test_template_campaign_fought_and_recorded(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert "campaign 1" in ok(capsys, "campaign", "new", "Italy", "--template", "hannibal-italy")
    out = ok(capsys, "campaign", "fight", "Italy", "--seed", "3")
    assert "battle 1:" in out and "--fought 1" in out
    ok(capsys, "battle", "adjust", "1", "A3", "strength", "5")
    ok(capsys, "battle", "adjust", "1", "A30", "strength", "0")
    ok(capsys, "battle", "end", "1", "--winner", "b")
    ok(capsys, "campaign", "record", "Italy", "b1", "--fought", "1")
    preview = ok(capsys, "campaign", "apply", "Italy", "The Trebia", "--preview")
    assert "Triarii: 5 x 12 figures -> 4 x 12 figures + 8 figures" in preview
    assert "Velites (left): 12 figures -> lost (destroyed)" in preview
    assert "nothing changed" in preview
    ok(capsys, "campaign", "apply", "Italy", "b1")
    ok(
        capsys, "campaign", "record", "Italy", "2", "--winner", "Carthage",
        "--unit", "Hastati (left)#1=4", "--leader", "C. Flaminius=killed",
        "--leader", "P. Cornelius Scipio=wounded", "--note", "Mist on the lake.",
    )  # fmt: skip
    applied = ok(capsys, "campaign", "apply", "Italy", "2")
    assert "C. Flaminius: fit -> killed" in applied
    assert "P. Cornelius Scipio: fit -> wounded (1 wound)" in applied
    shown = run_json(capsys, "campaign", "show", "Italy", "--json")
    rome = next(s for s in shown["sides"] if s["id"] == "rome")
    flaminius = next(ld for ld in rome["army"]["leaders"] if ld["name"] == "C. Flaminius")
    assert flaminius["status"] == "killed"
    assert [x["reason"] for x in rome["lost"]] == ["destroyed"]
    # undo the application: the armies as they were after the Trebia
    ok(capsys, "campaign", "undo", "Italy")
    back = run_json(capsys, "campaign", "show", "Italy", "--json")
    after_trebia = run_json(capsys, "campaign", "show", "Italy", "--json", "--step", "6")
    assert back["sides"] == after_trebia["sides"]
    ok(capsys, "campaign", "redo", "Italy")

    chron = run_json(capsys, "campaign", "chronicle", "Italy", "--json")
    assert chron["battles"][1]["words"][0] == "Carthage won (recorded by hand)."
    assert "Mist on the lake." in chron["battles"][1]["notes"]
    assert chron["strength"]["labels"] == ["Start", "The Trebia", "Lake Trasimene"]
    assert chron["strength"]["sides"]["Rome"][0] > chron["strength"]["sides"]["Rome"][2]
    history = {r["name"]: r["history"] for r in chron["leaders"]}
    assert history["C. Flaminius"] == "killed at Lake Trasimene (217 BC)"

    pdf = tmp_path / "chronicle.pdf"
    ok(capsys, "campaign", "chronicle", "Italy", "--pdf", str(pdf))
    text = all_text(pdf)
    assert "Hannibal" in text and "C. Flaminius was killed." in text
    assert "Quincunx" in text and "Duke Seifried" in text  # the source and its author
    assert all(fonts(pdf).values())

    # export and import give the same campaign
    out_file = tmp_path / "italy.json"
    ok(capsys, "campaign", "export", "Italy", str(out_file))
    assert json.loads(out_file.read_text())["format"] == "castra-campaign"
    assert "campaign 2" in ok(capsys, "campaign", "import", str(out_file))
    again = run_json(capsys, "campaign", "show", "2", "--json")
    assert again["sides"] == run_json(capsys, "campaign", "show", "1", "--json")["sides"]
    listed = run_json(capsys, "campaign", "list", "--json")
    assert sorted(c["id"] for c in listed) == [1, 2]


def test_campaign_from_rosters_steps_and_refusals(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for name, army in (("Rome", "rome"), ("Carthage", "carthage")):
        ok(capsys, "roster", "new", "--ruleset", "grown-slightly-bald", "--army", army,
           "--name", name, "--standard")  # fmt: skip
    ok(capsys, "campaign", "new", "Punic", "--side", "Rome=Rome", "--side", "Carthage=Carthage",
       "--recovery", "all")  # fmt: skip
    ok(capsys, "campaign", "add-battle", "Punic", "Skirmish", "Rome", "Carthage",
       "--date", "217 BC")  # fmt: skip
    code, _, err = run(capsys, "campaign", "apply", "Punic", "Skirmish")
    assert code == 1 and "has no result yet" in err
    code, _, err = run(capsys, "campaign", "record", "Punic", "Skirmish", "--winner", "Gaul")
    assert code == 1 and "no side 'Gaul'" in err
    code, _, err = run(capsys, "campaign", "undo", "Nope")
    assert code == 1 and "no campaign 'Nope'" in err
    code, _, err = run(
        capsys, "campaign", "new", "Bad\x1b[31m", "--side", "A=Rome", "--side", "B=Carthage"
    )
    assert code == 1 and "control character" in err
    # sides are named by the commands, so two of one name (in any case) are refused
    code, _, err = run(
        capsys, "campaign", "new", "Twins", "--side", "Rome=Rome", "--side", "rome=Carthage"
    )
    assert code == 1 and "already a side named 'Rome'" in err
    assert len(err.strip().splitlines()) == 1
    ok(capsys, "campaign", "reinforce", "Punic", "Rome", "heavy_infantry", "--count", "2")
    shown = run_json(capsys, "campaign", "show", "Punic", "--json")
    assert shown["recovery"] == "all"
    assert [s["label"] for s in shown["steps"]][-1] == "Reinforce s1 (2)"
    # the command-line refusals change nothing
    assert len(run_json(capsys, "campaign", "show", "Punic", "--json")["steps"]) == 2


@pytest.mark.parametrize(
    "text",
    [
        "{",
        '{"format": "castra-campaign", "version": 1, "start": {"name": NaN}}',
        '{"format": "castra-campaign", "version": 2}',
        '{"format": "castra-roster", "version": 1}',
        '{"format": "castra-campaign", "version": 1, "start": ' + "[" * 100 + "]" * 100 + "}",
        '{"format": "castra-campaign", "version": 1, "start": {}, "steps": [], "x": 1}',
    ],
)
def test_bad_campaign_files_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    code, _, err = run(capsys, "campaign", "import", str(path))
    assert code == 1 and err.count("\n") == 1 and "cannot import campaign" in err
    assert main(["campaign", "list"]) == 0
    assert "Traceback" not in err


def test_a_detachment_before_another_battle_and_one_line_refusals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ok(capsys, "campaign", "new", "Italy", "--template", "hannibal-italy")
    out = ok(capsys, "campaign", "add-battle", "Italy", "Ticinus", "Rome", "Carthage",
             "--detachment", "Rome=Equites,Allied Cavalry", "--leaders", "Rome=scipio",
             "--before", "The Trebia")  # fmt: skip
    assert out.strip() == "Add battle Ticinus: done"
    shown = run_json(capsys, "campaign", "show", "Italy", "--json")
    assert [b["name"] for b in shown["battles"]][:2] == ["Ticinus", "The Trebia"]
    out = ok(capsys, "campaign", "fight", "Italy", "Ticinus", "--seed", "2")
    leaders = run_json(capsys, "battle", "show", "1", "--json")["leaders"]
    rome = [ld["name"] for ld in leaders if ld["side"] == 0]
    assert rome == ["P. Cornelius Scipio"]
    refusals = [
        (("fight", "Italy", "Zama"), "no battle 'Zama'"),
        (("record", "Italy", "Ticinus", "--winner", "Rome", "--unit", "Allied Cavalry#0=3"),
         "a whole number from 1"),
        (("record", "Italy", "Ticinus", "--winner", "Rome", "--unit", "Allied Cavalry#4=3"),
         "has 3 unit(s)"),
        (("record", "Italy", "Ticinus", "--winner", "Rome", "--lost", "Equites="),
         "give UNIT[#N]=REASON"),
        (("add-battle", "Italy", "X", "Rome", "Carthage", "--detachment", "Rome=Nobody"),
         "Rome has no unit 'Nobody'"),
    ]  # fmt: skip
    for args, words in refusals:
        code, _, err = run(capsys, "campaign", *args)
        assert code == 1 and words in err and err.count("\n") == 1, err
    assert len(run_json(capsys, "campaign", "show", "Italy", "--json")["steps"]) == 5
    out = ok(capsys, "campaign", "record", "Italy", "Ticinus", "--winner", "Carthage",
             "--leader", "P. Cornelius Scipio=wounded")  # fmt: skip
    out = ok(capsys, "campaign", "apply", "Italy", "Ticinus")
    assert "  P. Cornelius Scipio: fit -> wounded (1 wound)" in out.splitlines()
    out = ok(capsys, "campaign", "undo", "Italy")
    assert "  P. Cornelius Scipio: wounded (1 wound) -> fit" in out.splitlines()


def test_damaged_armies_of_a_battle_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A recorded battle's armies, damaged in the store, are found when a command reads
    them (they are built when first read), in one line, and nothing is changed."""
    import os
    import sqlite3

    ok(capsys, "campaign", "new", "Italy", "--template", "hannibal-italy")
    ok(capsys, "campaign", "record", "Italy", "1", "--winner", "Carthage")
    con = sqlite3.connect(os.environ["CASTRA_DB"])
    ((text,),) = con.execute("SELECT delta FROM campaign_step WHERE kind = 'record'")
    change = json.loads(text)
    change["battles"]["items"]["0"]["keys"]["went_in"] = {"whole": [{"name": 3}, {}]}
    with con:
        con.execute(
            "UPDATE campaign_step SET delta = ? WHERE kind = 'record'", [json.dumps(change)]
        )
    before = con.execute("SELECT count(*), max(version) FROM campaign").fetchone()
    for command in (["show", "Italy"], ["chronicle", "Italy"], ["apply", "Italy", "1"]):
        code, out, err = run(capsys, "campaign", *command)
        assert code == 1 and out == "", command
        assert err.count("\n") == 1 and "cannot be read" in err and "went_in[0]" in err
    assert con.execute("SELECT count(*), max(version) FROM campaign").fetchone() == before
    con.close()
