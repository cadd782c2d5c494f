"""Two writers at once lose nothing (issue 13.6: 19 of 20 roster additions and 25 of 28
battle steps had been kept): two processes write the same roster (and the same battle) as
fast as they can, and every write that reported success is in the store; a window whose copy
is stale refuses its write and reloads instead of overwriting."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from app.core.roster import Roster, Unit
from app.store import (
    StaleWrite,
    list_rosters,
    load_roster,
    load_roster_versioned,
    open_store,
    save_roster,
    write_roster,
)

ROOT = Path(__file__).resolve().parents[2]
#: writes per process in ``make test``; CASTRA_CONCURRENT_WRITES sets more
WRITES = int(os.environ.get("CASTRA_CONCURRENT_WRITES", "50"))

WRITER = """
import json, sys
from app.cli import main
tag, n, args, subs = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4])
acked = []
for i in range(n):
    name = f"{tag}-{i}"
    call = []
    for a in args:
        a = a.replace("{name}", name)
        for key, value in subs[i].items():
            a = a.replace(key, value)
        call.append(a)
    if main(call) == 0:
        acked.append(name)
print(json.dumps(acked))
"""


def _writers(
    db: Path,
    home: Path,
    args: list[str],
    n: int,
    subs: Callable[[str, int], dict[str, str]] = lambda tag, i: {},
) -> list[list[str]]:
    """Two processes, ``a`` and ``b``, each calling ``castra ARGS`` ``n`` times (``{name}``
    and the keys of ``subs(tag, i)`` replaced); what each saw acknowledged (exit 0)."""
    env = {**os.environ, "CASTRA_DB": str(db), "CASTRA_HOME": str(home)}
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                WRITER,
                tag,
                str(n),
                json.dumps(args),
                json.dumps([subs(tag, i) for i in range(n)]),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for tag in ("a", "b")
    ]
    acked = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-2000:]
        assert "Traceback" not in err, err[-2000:]
        acked.append(json.loads(out.strip().splitlines()[-1]))
    return acked


def _roster() -> Roster:
    return Roster("Shared", "quincunx", "roman", "Rome", "1:100")


@pytest.mark.slow
def test_two_processes_adding_to_one_roster_keep_every_acknowledged_unit(tmp_path: Path) -> None:
    db = tmp_path / "castra.sqlite3"
    with open_store(db) as st:
        rid = save_roster(st, roster=_roster())
    acked = _writers(
        db, tmp_path / "home", ["roster", "add", str(rid), "hastati", "--name", "{name}"], WRITES
    )
    with open_store(db) as st:
        stored = [u.name for u in load_roster(st, roster_id=rid).units]
    everything = acked[0] + acked[1]
    assert len(everything) == 2 * WRITES  # each was acknowledged (a busy store says so)
    assert sorted(stored) == sorted(everything)  # and each acknowledged one is stored


def test_a_write_from_a_stale_copy_is_refused(tmp_path: Path) -> None:
    with open_store(tmp_path / "c.sqlite3") as st:
        rid = save_roster(st, roster=_roster())
        mine, version = load_roster_versioned(st, roster_id=rid)
        theirs = Roster(**{**mine.__dict__, "units": (Unit("u-t", "hastati", "Theirs", 12),)})
        write_roster(st, roster=theirs, roster_id=rid, expected_version=version)
        stale = Roster(**{**mine.__dict__, "units": (Unit("u-m", "hastati", "Mine", 12),)})
        with pytest.raises(StaleWrite, match="changed elsewhere"):
            write_roster(st, roster=stale, roster_id=rid, expected_version=version, base=mine)
        assert [u.name for u in load_roster(st, roster_id=rid).units] == ["Theirs"]


def _battle(tmp_path: Path, db: Path) -> int:
    from tests.reliability.hostile import VALID_ROSTER

    roman = {
        **VALID_ROSTER,
        "name": "Rome",
        "army": "roman",
        "units": [{"id": "u-1", "entry": "hastati", "count": 2}],
    }
    paths = []
    for name, data in (("a", VALID_ROSTER), ("b", roman)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        paths.append(str(path))
    env = {**os.environ, "CASTRA_DB": str(db), "CASTRA_HOME": str(tmp_path / "home")}
    out = subprocess.run(
        [sys.executable, "-m", "app", "battle", "new", *paths, "--seed", "5", "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return int(json.loads(out.stdout)["id"])


@pytest.mark.slow
def test_two_processes_playing_one_battle_keep_every_acknowledged_step(tmp_path: Path) -> None:
    from app.core.battle import MoveUnit
    from app.rules.registry import BUILTIN_DIR
    from app.rulesets import load_registry
    from app.store.battles import load_battle

    db = tmp_path / "castra.sqlite3"
    bid = _battle(tmp_path, db)
    # each process moves its own unit; the name ("a-7") encodes the writer and the move
    acked = _writers(
        db,
        tmp_path / "home",
        ["battle", "move", str(bid), "{unit}", "{x}", "10", "--force"],
        WRITES,
        lambda tag, i: {"{unit}": "A1" if tag == "a" else "B1", "{x}": str(1 + i / 100)},
    )
    reg = load_registry(BUILTIN_DIR, [], only={"quincunx"})
    with open_store(db) as st:
        session = load_battle(st, battle_id=bid, registry=reg)
    moves = {
        (s.command.unit, round(s.command.legs[0].x or 0.0, 2))  # the path "to X,10"
        for s in session.steps
        if isinstance(s.command, MoveUnit)
    }
    expected = {
        ("A1" if n.startswith("a") else "B1", round(1 + int(n[2:]) / 100, 2))
        for n in acked[0] + acked[1]
    }
    assert len(acked[0]) + len(acked[1]) == 2 * WRITES
    assert moves == expected and session.cursor == 1 + 2 * WRITES
    assert session.replay(session.cursor) == session.state


@pytest.mark.slow
def test_two_processes_writing_one_campaign_keep_every_acknowledged_step(tmp_path: Path) -> None:
    """Two ``castra campaign reinforce`` loops on one campaign: each step takes the write
    lock and reads the campaign inside it, so none is lost and the step list stays whole."""
    from app.rules.registry import BUILTIN_DIR
    from app.rulesets import load_registry
    from app.store.campaigns import load_campaign

    db = tmp_path / "castra.sqlite3"
    env = {**os.environ, "CASTRA_DB": str(db), "CASTRA_HOME": str(tmp_path / "home")}
    subprocess.run(
        [sys.executable, "-m", "app", "campaign", "new", "Italy", "--template", "hannibal-italy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        check=True,
        timeout=120,
    )
    n = max(10, WRITES // 2)
    acked = _writers(
        db,
        tmp_path / "home",
        ["campaign", "reinforce", "1", "Rome", "hastati", "--name", "{name}"],
        n,
    )
    reg = load_registry(BUILTIN_DIR, [], only={"quincunx"})
    with open_store(db) as st:
        session = load_campaign(st, campaign_id=1, registry=reg)
    names = [u.name for u in session.campaign.side("rome").army.units]
    everything = acked[0] + acked[1]
    assert len(everything) == 2 * n
    assert sorted(x for x in names if x[:2] in ("a-", "b-")) == sorted(everything)
    assert session.cursor == len(session.done) == 3 + 2 * n  # the template's 3 battles, then these


FIRST_USE = """
import sys, time
from app.cli import main
start = float(sys.argv[1])
while time.time() < start:  # every process starts its command at the same moment
    time.sleep(0.001)
raise SystemExit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("command", [("roster", "list"), ("roster", "new")])
def test_commands_started_together_on_a_store_not_made_yet(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """One creates the store, the others wait for it (issue 22: three of four said "database
    is locked" with the SQL of the migration)."""
    import time

    db = tmp_path / "castra.sqlite3"
    env = {**os.environ, "CASTRA_DB": str(db), "CASTRA_HOME": str(tmp_path / "home")}
    start = time.time() + 3.0  # after the four interpreters have started
    args = list(command)
    procs = []
    for i in range(4):
        extra = ["--ruleset", "quincunx", "--army", "roman", "--name", f"R{i}"]
        full = args + (extra if command[-1] == "new" else [])
        procs.append(
            subprocess.Popen(
                [sys.executable, "-c", FIRST_USE, str(start), *full],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    for p in procs:
        _out, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
        assert err == "", err
    with open_store(db) as st:
        assert len(list_rosters(st)) == (4 if command[-1] == "new" else 0)
