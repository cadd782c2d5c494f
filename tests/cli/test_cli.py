"""The command line: outputs and exit codes (0 ok, 1 invalid, 2 usage)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.cli import main


@pytest.fixture(autouse=True)
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "castra.sqlite3"
    monkeypatch.setenv("CASTRA_DB", str(db))
    monkeypatch.setenv("CASTRA_HOME", str(tmp_path / "home"))
    return db


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    code, out, err = run(capsys, *args)
    assert code == 0, err
    return json.loads(out)


def test_rulesets(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "rulesets", "--json")
    ids = [r["id"] for r in data["rulesets"]]
    assert ids == sorted(ids) and "quincunx" in ids and len(ids) == 5
    q = next(r for r in data["rulesets"] if r["id"] == "quincunx")
    assert q["author"] == "Duke Seifried" and q["scales"] == ["1:10", "1:100"]
    code, out, _ = run(capsys, "rulesets")
    assert code == 0 and "Leg VI Carthago" in out


def test_rulesets_list_their_errata(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 8: `castra rulesets` (and --json) lists each ruleset's errata, as
    docs/reference/command-line.md says: the decisions of issue 8 among them, with what the
    source says."""
    data = run_json(capsys, "rulesets", "--json")
    by_id = {r["id"]: {e["id"]: e for e in r["errata"]} for r in data["rulesets"]}
    for ruleset, erratum in (
        ("quincunx", "elephant-bonus-on-assault"),
        ("mwan90", "flank-rear-triple"),
        ("grown-slightly-bald", "hit-numbers"),
        ("leg-vi-carthago", "hi-follow-up-not-pursuit"),
        ("leg-vi-carthago", "command-kind-unset"),
    ):
        e = by_id[ruleset][erratum]
        assert (
            e["source_says"]
            and e["decision"]
            and e["kind"]
            in {
                "errata",
                "interpretation",
                "gap",
            }
        )
    assert all(by_id[r] for r in by_id)
    code, out, _ = run(capsys, "rulesets")
    assert code == 0
    assert "grown-slightly-bald: " in out and " errata and interpretations" in out
    hit = next(line for line in out.splitlines() if line.strip().startswith("hit-numbers "))
    assert "Hit" in hit or "hit" in hit


def test_armies(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "armies", "quincunx", "--json")
    roman = next(a for a in data["armies"] if a["id"] == "roman")
    hastati = next(e for e in roman["entries"] if e["id"] == "hastati")
    assert hastati["sizes"] == [12] and hastati["max"] == 10
    assert set(hastati) >= {"id", "name", "troop", "troop_type", "sizes", "min", "max"}
    code, _, err = run(capsys, "armies", "warhammer")
    assert code == 1 and "unknown ruleset 'warhammer'" in err


def test_roster_lifecycle(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    created = run_json(
        capsys,
        "roster",
        "new",
        "--ruleset",
        "leg-vi-carthago",
        "--army",
        "roman",
        "--name",
        "Legio II",
        "--json",
    )
    rid = str(created["id"])
    code, out, _ = run(capsys, "roster", "add", "Legio II", "roman_legion", "--grade", "B")
    assert code == 0 and "Roman legion" in out
    code, out, _ = run(capsys, "roster", "add", rid, "velites", "--size", "4", "--count", "2")
    assert code == 0
    shown = run_json(capsys, "roster", "show", rid, "--json")
    assert shown["totals"] == {
        "units": 3,
        "figures": None,
        "bases": 18,
        "men": 3900 + 2 * 4 * 175,
        "excluded": 0,
    }
    assert [u["entry"] for u in shown["units"]] == ["roman_legion", "velites"]
    listed = run_json(capsys, "roster", "list", "--json")
    assert [r["name"] for r in listed] == ["Legio II"]

    out_file = tmp_path / "legio.json"
    code, _, _ = run(capsys, "roster", "export", rid, "-o", str(out_file))
    assert code == 0 and json.loads(out_file.read_text())["format"] == "castra-roster"
    imported = run_json(capsys, "roster", "import", str(out_file), "--name", "Legio III", "--json")
    assert imported["id"] != created["id"]
    code, out, _ = run(capsys, "roster", "export", "Legio III")
    assert json.loads(out)["name"] == "Legio III"


def test_roster_errors(capsys: pytest.CaptureFixture[str]) -> None:
    run_json(
        capsys, "roster", "new", "--ruleset", "quincunx", "--army", "roman", "--name", "R", "--json"
    )
    code, _, err = run(capsys, "roster", "add", "R", "hoplites")
    assert code == 1 and "no entry 'hoplites'" in err
    code, _, err = run(capsys, "roster", "show", "Nobody")
    assert code == 1 and "Nobody" in err
    code, _, err = run(
        capsys, "roster", "new", "--ruleset", "quincunx", "--army", "gauls", "--name", "G"
    )
    assert code == 1 and "no army list 'gauls'" in err


def test_standard_army_from_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    run_json(
        capsys,
        "roster",
        "new",
        "--ruleset",
        "quincunx",
        "--army",
        "roman",
        "--name",
        "Model",
        "--standard",
        "--scale",
        "1:100",
        "--json",
    )
    shown = run_json(capsys, "roster", "show", "Model", "--json")
    assert shown["totals"]["men"] == 50_400 and shown["valid"]


def write(tmp_path: Path, obj: Any) -> str:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    return str(path)


def test_validate_exit_codes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = {
        "format": "castra-roster",
        "version": 1,
        "name": "ok",
        "ruleset": "quincunx",
        "army": "roman",
        "scale": "1:10",
        "units": [{"entry": "hastati", "count": 2}],
    }
    data = run_json(capsys, "validate", write(tmp_path, good), "--json")
    assert data["valid"] is True
    assert data["totals"] == {"units": 2, "figures": 24, "bases": 4, "men": 240, "excluded": 0}
    assert data["units"][0] == {
        **data["units"][0],
        "name": "Hastati",
        "entry": "hastati",
        "count": 2,
        "figures": 24,
        "bases": 4,
        "men": 240,
    }
    assert {"valid", "ruleset", "army", "scale", "totals", "units", "messages"} <= set(data)

    invalid = dict(good, units=[{"entry": "equites", "count": 3}])
    code, out, _ = run(capsys, "validate", write(tmp_path, invalid), "--json")
    data = json.loads(out)
    assert code == 1 and data["valid"] is False
    msg = next(m for m in data["messages"] if m["severity"] == "error")
    assert set(msg) >= {"severity", "subject", "rule", "text"} and "Equites" in msg["text"]

    code, _, err = run(capsys, "validate", write(tmp_path, {"format": "x"}))
    assert code == 1 and "format" in err
    code, _, err = run(capsys, "validate", str(tmp_path / "missing.json"))
    assert code == 1 and "cannot read" in err


def test_unknown_entry_is_left_out_of_the_totals_and_said(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """An entry kept from an older data version no longer blanks the bases and men."""
    doc = {
        "format": "castra-roster",
        "version": 1,
        "name": "old",
        "ruleset": "quincunx",
        "army": "roman",
        "scale": "1:10",
        "units": [
            {"entry": "hastati", "count": 2},
            {"entry": "gone", "size": 12, "count": 3},
        ],
    }
    path = write(tmp_path, doc)
    code, out, _ = run(capsys, "validate", path, "--json")
    data = json.loads(out)
    assert code == 1  # the unknown entry is an error of the roster, not of the totals
    assert data["totals"] == {"units": 5, "figures": 24, "bases": 4, "men": 240, "excluded": 3}
    assert data["units"][1]["figures"] == 36 and data["units"][1]["men"] == 360
    code, out, _ = run(capsys, "validate", path)
    assert "Total: 5 units, 24 figures, 4 bases, 240 men at 1:10" in out
    assert "(excludes 3 units not in the current list)" in out
    imported = run_json(capsys, "roster", "import", path, "--json")
    code, out, _ = run(capsys, "roster", "show", str(imported["id"]))
    assert code == 0 and "(excludes 3 units not in the current list)" in out
    shown = run_json(capsys, "roster", "show", str(imported["id"]), "--json")
    assert shown["totals"]["excluded"] == 3 and shown["totals"]["bases"] == 4


def test_out_of_bounds_values_exit_1_and_change_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The command line keeps to the bounds a roster file can hold (one line, exit 1)."""
    code, _, _ = run(
        capsys, "roster", "new", "--ruleset", "quincunx", "--army", "carthaginian", "--name", "T"
    )
    assert code == 0
    for args, words in (
        (("--size", "-5"), "size -5 is out of range (1 to 100,000)"),
        (("--size", "0"), "size 0"),
        (("--size", "999999999999999999999"), "size 999,999,999,999,999,999,999"),
        (("--count", "0"), "count 0 is out of range (1 to 1,000)"),
        (("--count", "1001"), "count 1,001"),
        (("--name", ""), "the unit name cannot be empty"),
        (("--name", "x" * 201), "201 characters long"),
    ):
        code, out, err = run(capsys, "roster", "add", "1", "celtic_swordsmen", *args)
        assert code == 1 and out == "", (args, out)
        assert err == f"castra: {words}\n" or (err.startswith("castra: ") and words in err), err
        assert "Traceback" not in err
    assert run_json(capsys, "roster", "show", "1", "--json")["units"] == []
    for name in ("", "   ", "x" * 201):
        code, _, err = run(
            capsys, "roster", "new", "--ruleset", "quincunx", "--army", "roman", "--name", name
        )
        assert code == 1 and err.startswith("castra: the roster name"), err
    # at the bounds (a size the list does not allow: stored when asked, and flagged):
    # added, exported, and imported again
    code, _, err = run(
        capsys,
        *("roster", "add", "1", "celtic_swordsmen", "--size", "100000", "--count", "1000"),
        "--allow-invalid",
    )
    assert code == 0, err
    out_file = tmp_path / "t.json"
    assert run(capsys, "roster", "export", "1", "-o", str(out_file))[0] == 0
    assert run(capsys, "roster", "import", str(out_file))[0] == 0
    code, _, err = run(capsys, "roster", "import", str(out_file), "--name", "")
    assert code == 1 and err == "castra: the roster name cannot be empty\n"
    assert len(run_json(capsys, "roster", "list", "--json")) == 2


def one_line(err: str) -> str:
    assert err.startswith("castra: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_file_errors_exit_1_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, _ = run(
        capsys, "roster", "new", "--ruleset", "quincunx", "--army", "roman", "--name", "R"
    )
    assert code == 0
    code, _, err = run(capsys, "roster", "export", "1", "-o", str(tmp_path / "nodir" / "x.json"))
    assert code == 1 and "No such file or directory" in one_line(err)
    folder = tmp_path / "out"
    folder.mkdir()
    code, _, err = run(capsys, "roster", "export", "1", "-o", str(folder))
    assert code == 1 and "Is a directory" in one_line(err)
    assert not (tmp_path / "out.tmp").exists()  # no stray temporary file
    code, _, err = run(capsys, "roster", "import", str(folder))
    assert code == 1 and "not a regular file (it is a folder)" in err
    good = tmp_path / "r.json"
    assert run(capsys, "roster", "export", "1", "-o", str(good))[0] == 0

    import app.rules.inputs

    real_open = os.open

    def denied(path: object, flags: int, *args: object) -> int:
        if str(path) == str(good):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(app.rules.inputs.os, "open", denied)
    code, _, err = run(capsys, "roster", "import", str(good))
    assert code == 1 and "cannot read the roster file: Permission denied" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("exc", "code", "message"),
    [
        (
            OSError(28, "No space left on device", "/data/castra.sqlite3"),
            1,
            "castra: /data/castra.sqlite3: No space left on device\n",
        ),
        (OSError("disk unplugged"), 1, "castra: disk unplugged\n"),
        (
            OverflowError("Python int too large to convert to SQLite INTEGER"),
            1,
            "castra: Python int too large to convert to SQLite INTEGER\n",
        ),
        (ZeroDivisionError("division by zero"), 1, "castra: division by zero\n"),
        (BrokenPipeError(32, "Broken pipe"), 0, ""),
    ],
)
def test_last_resort_handler(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    exc: BaseException,
    code: int,
    message: str,
) -> None:
    """An OSError or ArithmeticError no command foresaw is one line and exit 1, not a
    traceback; a closed pipe (``castra ... | head``) stays a quiet exit 0."""
    from app.cli import rosters

    def boom(_args: object) -> int:
        raise exc

    monkeypatch.setattr(rosters, "cmd_list", boom)
    assert run(capsys, "roster", "list") == (code, "", message)


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["validate"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["no-such-command"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["roster", "new", "--ruleset", "quincunx"])
    assert info.value.code == 2


def test_installed_console_script(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("castra")
    assert exe.exists()
    done = subprocess.run(
        [str(exe), "rulesets", "--json"], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0 and json.loads(done.stdout)["rulesets"]
    done = subprocess.run(
        [str(exe), "validate"], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 2


@pytest.mark.parametrize(
    ("scale", "words"),
    [
        ("1:50", "scale '1:50' is not one of 1:10, 1:100"),
        ("1:0", "is not a figure scale"),
        ("1:" + "9" * 400, "is not a figure scale"),
        ("1:10\x07", "is not a figure scale"),
    ],
)
def test_a_scale_the_ruleset_does_not_offer_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], scale: str, words: str
) -> None:
    """``--scale`` takes any text (the scales are the ruleset's data, not a list in the code)
    and refuses what the ruleset does not offer in one line, exit 1, nothing made."""
    code = main(["roster", "new", "--ruleset", "quincunx", "--army", "roman", "--name", "S",
                 "--scale", scale])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 1 and words in err and len(err.strip().splitlines()) == 1
    assert main(["roster", "show", "S"]) == 1
