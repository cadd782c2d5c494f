"""Every number the command line takes faces NaN, infinity, thousands of digits and values
out of all proportion, and text faces control characters: each is refused in one line with
exit status 1 (text that is no number at all stays a usage error, 2), and nothing printed to
the terminal carries a raw control character."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from app.cli import main
from app.core.battle import BattleSession, CommandError, MoveUnit
from app.core.battle.commands import Act
from app.core.battle.session import nonfinite_problem
from tests.reliability.hostile import BIG, VALID_ROSTER

pytestmark = pytest.mark.usefixtures("bounded")

HOSTILE_NUMBERS = ("nan", "NaN", "inf", "-inf", "1e999", "-1e999", BIG, "-" + BIG, "1" + "0" * 60)


@pytest.fixture(autouse=True)
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "castra.sqlite3"
    monkeypatch.setenv("CASTRA_DB", str(db))
    monkeypatch.setenv("CASTRA_HOME", str(tmp_path / "home"))
    return db


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 1, (args[:3], code, out[:200], err[:200])
    assert err.startswith("castra: ") and err.count("\n") == 1, err[:300]
    assert len(err) < 300 and "Traceback" not in err
    return err


@pytest.fixture
def battle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    a = tmp_path / "a.json"
    b = tmp_path / "b.json"
    a.write_text(json.dumps(VALID_ROSTER), encoding="utf-8")
    roman = {
        **VALID_ROSTER,
        "name": "Rome",
        "army": "roman",
        "units": [{"id": "u-1", "entry": "hastati", "count": 2}],
    }
    b.write_text(json.dumps(roman), encoding="utf-8")
    assert main(["battle", "new", str(a), str(b), "--seed", "3", "--json"]) == 0
    return str(json.loads(capsys.readouterr().out)["id"])


@pytest.mark.parametrize("value", HOSTILE_NUMBERS)
def test_battle_numbers(value: str, battle: str, capsys: pytest.CaptureFixture[str]) -> None:
    if not value.startswith("-"):  # argparse reads "-inf" as an option: the usage error
        refused(capsys, "battle", "move", battle, "A1", value, "3")
        refused(capsys, "battle", "move", battle, "A1", "3", value)
        refused(capsys, "battle", "show", value)
    refused(capsys, "battle", "move", battle, "A1", "3", "3", f"--facing={value}")
    refused(capsys, "battle", "replay", battle, f"--step={value}")
    refused(capsys, "battle", "melee", battle, "A1", "B1", "--set", f"modifier={value}")
    assert main(["battle", "log", battle, "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 1  # nothing was added to the battle


@pytest.mark.parametrize("value", HOSTILE_NUMBERS)
def test_roster_and_odds_numbers(
    value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refused(capsys, "battle", "new", "x.json", "y.json", f"--seed={value}")
    refused(capsys, "roster", "add", "1", "hastati", f"--count={value}")
    refused(capsys, "roster", "add", "1", "hastati", f"--size={value}")
    for option in ("--size-a", "--strength-d", "--rings-a", "--dps-d", "--hits-a", "--leader-d"):
        refused(
            capsys,
            "odds",
            "quincunx",
            "--attacker",
            "hastati",
            "--defender",
            "hastati",
            f"{option}={value}",
        )


def test_not_a_number_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["battle", "show", "seven"])
    assert exc.value.code == 2


@pytest.mark.parametrize("char", ["\x1b", "\x07", "\x00", "\x7f", "\x9b"])
def test_control_characters_are_refused_and_never_printed(
    char: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = refused(
        capsys, "roster", "new", "--ruleset", "quincunx", "--army", "roman", "--name", f"A{char}B"
    )
    assert "control character" in err and char not in err
    refused(
        capsys,
        "roster",
        "new",
        "--ruleset",
        "quincunx",
        "--army",
        "roman",
        "--name",
        "A",
        "--side",
        f"S{char}",
    )
    assert main(["roster", "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    err = refused(capsys, "roster", "show", f"no such{char}roster")
    assert char not in err


def test_terminal_output_is_escaped(store_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A name stored before control characters were refused (or by another program) is
    printed escaped: it cannot clear the screen or ring the bell."""
    from app.core.roster import Roster
    from app.store import open_store, save_roster

    with open_store(store_file) as st:
        save_roster(
            st, roster=Roster("Evil\x1b[2J\x07", "quincunx", "roman", "Rome\x1b]0;x", "1:100")
        )
    assert main(["roster", "list"]) == 0
    out = capsys.readouterr().out
    assert "Evil\\x1b[2J\\x07" in out and "\x1b" not in out and "\x07" not in out
    assert main(["roster", "list", "--json"]) == 0  # JSON escapes them itself
    assert json.loads(capsys.readouterr().out)[0]["name"] == "Evil\x1b[2J\x07"


def test_non_finite_values_never_enter_a_battle(registry: object) -> None:
    """Issue 13.8: a NaN facing made replay and redo fail for good ("diverged")."""
    from app.core.battle.commands import StartBattle
    from app.core.battle.setup import new_battle
    from app.core.roster import new_roster
    from app.rules.mechanics import mechanics_for

    rs = registry.get("quincunx")  # type: ignore[attr-defined]
    mech = mechanics_for(rs)
    rosters = (
        new_roster(rs, "roman", name="R", standard=True),
        new_roster(rs, "carthaginian", name="C", standard=True),
    )
    session = BattleSession(rs, mech, new_battle(rs, mech, rosters), seed=1)
    session.do(StartBattle())
    unit = session.state.units[0].id
    for bad in (math.nan, math.inf, -math.inf):
        for cmd in (
            MoveUnit(unit=unit, x=1, y=1, facing=bad),
            MoveUnit(unit=unit, x=bad, y=1),
            Act(action="melee", actor=unit, target=session.state.units[-1].id, options={"x": bad}),
        ):
            with pytest.raises(CommandError):
                session.do(cmd)
    assert session.cursor == 1 and nonfinite_problem(session.state) is None
    assert session.replay(1) == session.state
