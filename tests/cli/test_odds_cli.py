"""``castra odds`` refuses a unit state the rules do not allow (exit 1 with the reason) instead
of printing nonsense or crashing; the same check guards ``castra battle adjust``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from tests.cli.test_battle_cli import contact_point

GSB_ODDS = (
    "odds",
    "grown-slightly-bald",
    "--attacker",
    "heavy_infantry",
    "--defender",
    "carthage:elephants",
)


@pytest.fixture(autouse=True)
def _store(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CASTRA_DB", str(tmp_path / "castra.sqlite3"))
    monkeypatch.setenv("CASTRA_HOME", str(tmp_path / "home"))


def castra(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_gsb_hits_within_a_base_give_odds(capsys: pytest.CaptureFixture[str]) -> None:
    """Three hits on the elephant's one base (4 hit points): one more kills it."""
    code, out, err = castra(capsys, *GSB_ODDS, "--hits-d", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["total"] == "1"
    assert all(row["defender"].get("hits", 0) >= -3 for row in data["outcomes"])


@pytest.mark.parametrize("hits", [4, 5, 9])
def test_gsb_hits_past_a_base_are_refused(capsys: pytest.CaptureFixture[str], hits: int) -> None:
    """``--hits-d 4`` printed "hits -4" and ``--hits-d 5`` crashed ("odds sum to 0"): an
    elephant base has 4 hit points, so it holds at most 3 hits."""
    code, out, err = castra(capsys, *GSB_ODDS, "--hits-d", hits)
    assert code == 1 and out == ""
    assert err.startswith("castra: the defender (Elephants): ")
    assert "4 hit points" in err and "at most 3" in err
    assert "Traceback" not in err


def test_generic_limits_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = castra(capsys, *GSB_ODDS, "--strength-a", "5")
    assert code == 1 and "--strength-a must be 1-4" in err
    code, _, err = castra(capsys, *GSB_ODDS, "--hits-a", "-1")
    assert code == 1 and "--hits-a -1 is out of range" in err


def test_quincunx_rings_past_the_track_still_give_odds(capsys: pytest.CaptureFixture[str]) -> None:
    """Quincunx errata: rings past the last column read the last column, so nine rings are
    not an error."""
    code, out, err = castra(
        capsys,
        "odds",
        "quincunx",
        "--attacker",
        "hastati",
        "--defender",
        "celtic_swordsmen",
        "--rings-a",
        "9",
        "--json",
    )
    assert code == 0, err
    assert json.loads(out)["total"] == "1"


def test_battle_adjust_refuses_hits_past_a_base(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``battle adjust 1 B1 hits 9`` on light infantry (2 hit points a base) is refused and
    the battle is unchanged; a melee on the unit then works."""
    rosters = []
    for side, army, entry in (("a", "rome", "heavy_infantry"), ("b", "carthage", "light_infantry")):
        path = tmp_path / f"{side}.json"
        path.write_text(
            json.dumps(
                {
                    "format": "castra-roster",
                    "version": 1,
                    "name": army,
                    "ruleset": "grown-slightly-bald",
                    "army": army,
                    "scale": None,
                    "side": army.title(),
                    "units": [{"id": "u1", "entry": entry}],
                    "leaders": [],
                    "commands": [],
                }
            ),
            encoding="utf-8",
        )
        rosters.append(path)
    code, out, err = castra(capsys, "battle", "new", *rosters, "--seed", "3", "--json")
    assert code == 0, err
    bid = json.loads(out)["id"]
    code, out, err = castra(capsys, "battle", "adjust", bid, "B1", "hits", "9")
    assert code == 1 and err.startswith("castra: ")
    assert "2 hit points" in err
    code, out, err = castra(capsys, "battle", "show", bid, "--json")
    b1 = next(u for u in json.loads(out)["units"] if u["id"] == "B1")
    assert b1["status"]["hits"] == 0
    code, out, err = castra(capsys, "battle", "adjust", bid, "B1", "hits", "1")
    assert code == 0, err
    # a melee needs contact (GSB, Melee): A1 moves to touch B1's front
    code, out, err = castra(capsys, "battle", "show", bid, "--json")
    units = {u["id"]: u for u in json.loads(out)["units"]}
    x, y = contact_point(units["A1"], units["B1"])
    code, out, err = castra(capsys, "battle", "move", bid, "A1", repr(x), repr(y), "--force")
    assert code == 0, err
    # only the unit activated fights, in its side's activations (GSB, Turn order)
    for _ in range(4):
        code, out, err = castra(capsys, "battle", "act", bid, "activate", "A1")
        if code == 0:
            break
        castra(capsys, "battle", "next", bid)
    assert code == 0, err
    code, out, err = castra(capsys, "battle", "melee", bid, "A1", "B1")
    assert code == 0, err
    assert "is not a dice expression" not in out + err


def test_leg_vi_a_pursuer_fights_unformed_in_standalone_odds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Leg VI, Formations: "Others become unformed if shaken, routing, pursuing, evading or
    retiring", and Resolving combat: "A hit is scored on each die result of 6 if: unformed
    ...". ``castra odds ... --set pursued=attacker`` counts the pursuing Gauls as unformed,
    as a battle does from their marker (issue 25: it counted them formed)."""
    base = (
        "odds",
        "leg-vi-carthago",
        "--attacker",
        "carthaginian:gauls",
        "--defender",
        "roman:velites",
        "--set",
        "charge=none",
        "--set",
        "pursued=attacker",
        "--json",
    )
    results = []
    for extra in ((), ("--marker-a", "pursuing")):
        code, out, err = castra(capsys, *base, *extra)
        assert code == 0, err
        results.append(json.loads(out)["outcomes"])
    assert results[0] == results[1]
    code, out, err = castra(capsys, *base[:-3], "--json")  # not pursuing: formed, 5-6
    assert json.loads(out)["outcomes"] != results[0]
