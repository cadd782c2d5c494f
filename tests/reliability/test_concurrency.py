"""Two writers at once lose nothing (issue 13.6: 19 of 20 roster additions and 25 of 28
battle steps had been kept): two processes write the same roster (and the same battle) as
fast as they can, and every write that reported success is in the store; a window whose copy
is stale refuses its write and reloads instead of overwriting."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.core.roster import Roster, Unit
from app.store import (
    StaleWrite,
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
tag, n, args = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
acked = []
for i in range(n):
    name = f"{tag}-{i}"
    call = [a.replace("{name}", name) for a in args]
    if main(call) == 0:
        acked.append(name)
print(json.dumps(acked))
"""


def _writers(db: Path, home: Path, args: list[str], n: int) -> list[list[str]]:
    env = {**os.environ, "CASTRA_DB": str(db), "CASTRA_HOME": str(home)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, tag, str(n), json.dumps(args)],
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
