"""Store failures are one-line messages, never tracebacks (issue 13.5), simulated for real:
a write lock held by another connection, a read-only file and folder (as an unprivileged
user), a full disk (a file-size limit), damaged rows; and the integrity check on opening
runs only when it is cheap, after an unclean shutdown, or on request."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import app.store.engine as engine
from app.cli import main
from app.core.roster import Roster, Unit
from app.store import StoreDamaged, StoreError, list_rosters, load_roster, open_store, save_roster

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("bounded")


@pytest.fixture(autouse=True)
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "castra.sqlite3"
    monkeypatch.setenv("CASTRA_DB", str(db))
    monkeypatch.setenv("CASTRA_HOME", str(tmp_path / "home"))
    return db


def _roster(name: str = "R", units: int = 1) -> Roster:
    return Roster(
        name,
        "quincunx",
        "roman",
        "Rome",
        "1:100",
        units=tuple(Unit(f"u-{i}", "hastati", "Hastati", 12) for i in range(units)),
    )


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    _out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, err


# --------------------------------------------------------------------------- a held lock


def test_a_held_write_lock_waits_then_says_busy(
    store_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with open_store(store_file) as st:
        save_roster(st, roster=_roster())
    monkeypatch.setattr(engine, "BUSY_TIMEOUT_MS", 300)
    holder = sqlite3.connect(store_file, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with open_store(store_file) as st, pytest.raises(StoreError, match="busy") as err:
            save_roster(st, roster=_roster("Other"))
        assert "nothing was saved" in str(err.value) and "\n" not in str(err.value)
        code, message = _cli(capsys, "roster", "add", "R", "hastati")
        assert code == 1 and "busy" in message and message.count("\n") == 1
        with open_store(store_file) as st:  # readers never wait for the writer
            assert [s.name for s in list_rosters(st)] == ["R"]
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert _cli(capsys, "roster", "add", "R", "hastati")[0] == 0  # the lock is gone


# --------------------------------------------------------------------------- read-only


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A small tmpfs of our own (1 MB), where the platform lets us mount one; else the
    reason why not."""
    mount = tmp_path / "mnt"
    mount.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "castra-test", str(mount)],
        capture_output=True,
        text=True,
        check=False,
    )
    if made.returncode != 0:
        pytest.xfail(f"cannot mount a tmpfs here ({made.stderr.strip()}); see the RLIMIT test")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _read_only(mount: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)


def test_a_read_only_store_says_read_only(
    tmpfs: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A store on a read-only file system (a remounted tmpfs: root ignores file modes)."""
    db = tmpfs / "castra.sqlite3"
    with open_store(db) as st:
        save_roster(st, roster=_roster())
    before = db.read_bytes()
    _read_only(tmpfs)
    monkeypatch.setenv("CASTRA_DB", str(db))
    code, err = _cli(
        capsys, "roster", "new", "--ruleset", "quincunx", "--army", "roman", "--name", "X"
    )
    assert code == 1 and "read-only" in err and "restore a backup" not in err.lower()
    assert err.count("\n") == 1
    assert db.read_bytes() == before


def test_a_read_only_file_says_read_only(
    store_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Read-only by its mode: as root (who may write anyway) the permission answer is
    simulated; as another user the file mode decides."""
    with open_store(store_file) as st:
        save_roster(st, roster=_roster())
    store_file.chmod(0o444)
    if os.geteuid() == 0:
        real = os.access
        monkeypatch.setattr(
            engine.os, "access", lambda p, m: False if Path(p) == store_file else real(p, m)
        )
    before = store_file.read_bytes()
    try:
        code, err = _cli(capsys, "roster", "list")  # reads work (issue 22)
        assert code == 0, err
        code, err = _cli(capsys, "roster", "rename", "1", "X")
        assert code == 1 and "is read-only" in err and "nothing was saved" in err
        assert err.count("\n") == 1
    finally:
        store_file.chmod(0o644)
    assert store_file.read_bytes() == before


def test_a_store_on_a_read_only_mount_opens_for_reading(
    tmpfs: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 22: even ``store check`` (which only reads) was refused; now every read works
    and every write is refused in one line, the file unchanged."""
    db = tmpfs / "castra.sqlite3"
    with open_store(db) as st:
        save_roster(st, roster=_roster("Kept", units=3))
    before = db.read_bytes()
    _read_only(tmpfs)
    monkeypatch.setenv("CASTRA_DB", str(db))
    for args in (("store", "check"), ("roster", "list"), ("roster", "show", "1")):
        code, err = _cli(capsys, *args)
        assert code == 0, (args, err)
    capsys.readouterr()
    assert main(["roster", "list", "--json"]) == 0
    assert [r["name"] for r in json.loads(capsys.readouterr().out)] == ["Kept"]
    for args in (
        ("roster", "rename", "1", "Other"),
        ("roster", "new", "--ruleset", "quincunx", "--army", "roman", "--name", "X"),
        ("roster", "delete", "1"),
    ):
        code, err = _cli(capsys, *args)
        assert code == 1 and err.count("\n") == 1, (args, err)
        assert "is read-only" in err and "nothing was saved" in err, err
    with open_store(db) as st:
        assert st.read_only and [s.name for s in list_rosters(st)] == ["Kept"]
        assert len(load_roster(st, roster_id=1).units) == 3
    assert db.read_bytes() == before


def test_a_full_tmpfs_is_a_message(tmpfs: Path, tmp_path: Path) -> None:
    db = tmpfs / "castra.sqlite3"
    with open_store(db) as st:
        save_roster(st, roster=_roster("Kept", units=3))
        with pytest.raises(StoreError, match="full") as err:
            for i in range(100):
                save_roster(st, roster=_roster(f"Big {i}", units=4000))
        assert "nothing was saved" in str(err.value)
    assert engine.integrity_check(db) == ["ok"]
    with open_store(db) as st:
        names = [s.name for s in list_rosters(st)]
        assert names[0] == "Big 0" and "Kept" in names  # the writes before it are kept


@pytest.mark.parametrize("free_kb", [0, 8, 24])
def test_a_nearly_full_disk_is_said_full_not_damaged(
    tmpfs: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    free_kb: int,
) -> None:
    """With a few KB free SQLite cannot make the files beside the store a read needs: every
    command, reads included, says the disk is full, never that the store is damaged (the
    restore it would advise loses recent work); with space again, everything is there."""
    db = tmpfs / "castra.sqlite3"
    with open_store(db) as st:
        save_roster(st, roster=_roster("Kept", units=3))
    before = db.read_bytes()
    filler = tmpfs / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)
    if free_kb:
        with filler.open("r+b") as fh:
            fh.truncate(max(filler.stat().st_size - free_kb * 1024, 0))
    monkeypatch.setenv("CASTRA_DB", str(db))
    for args in (("roster", "list"), ("store", "check"), ("roster", "show", "1")):
        code, err = _cli(capsys, *args)
        assert code == 1 and err.count("\n") == 1, err
        assert "is full" in err and "backup" not in err and "damaged" not in err, err
    filler.unlink()
    assert db.read_bytes() == before
    code, err = _cli(capsys, "store", "check")
    assert code == 0, err


# --------------------------------------------------------------------------- a full disk

FULL_DISK = """
import resource, signal, sys
from pathlib import Path
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
size = Path(sys.argv[1]).stat().st_size
resource.setrlimit(resource.RLIMIT_FSIZE, (size + 8192, size + 8192))
from app.cli import main
raise SystemExit(main(["roster", "import", sys.argv[2]]))
"""


def test_a_full_disk_is_a_message_and_loses_nothing(store_file: Path, tmp_path: Path) -> None:
    """The file-size limit stands in for a full disk (a tiny tmpfs needs privileges)."""
    with open_store(store_file) as st:
        save_roster(st, roster=_roster("Kept", units=3))
    from app.core.rosterfile import dumps

    big = tmp_path / "big.json"
    big.write_text(dumps(_roster("Big", units=4000)), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(store_file), str(big)],
        cwd=ROOT,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1, run.stderr[-500:]
    assert "nothing was saved" in run.stderr and run.stderr.count("\n") == 1
    assert "full" in run.stderr or "file size limit" in run.stderr
    assert engine.integrity_check(store_file) == ["ok"]
    with open_store(store_file) as st:
        assert [s.name for s in list_rosters(st)] == ["Kept"]
        assert len(load_roster(st, roster_id=1).units) == 3


# --------------------------------------------------------------------------- damaged rows


@pytest.mark.parametrize(
    ("sql", "words"),
    [
        ("UPDATE roster_unit SET lines = '{not json'", "lines is not valid"),
        ("UPDATE roster_unit SET lines = '[1, 2]'", "lines is not valid"),
        ("UPDATE roster_leader SET status = 'resurrected'", "status holds 'resurrected'"),
        ("UPDATE roster_leader SET rank = 'emperor'", "rank holds 'emperor'"),
        ("UPDATE roster_unit SET size = 'twelve'", "where a whole number belongs"),
        ("UPDATE roster SET updated_at = 'yesterday'", "not a time"),
        ("UPDATE roster_command SET kind = 'navy'", "kind holds 'navy'"),
    ],
)
def test_damaged_rows_are_named_not_a_traceback(
    sql: str, words: str, store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.core.roster import Command, Leader

    roster = Roster(
        "R",
        "quincunx",
        "roman",
        "Rome",
        "1:100",
        units=(Unit("u-1", "hastati", "Hastati", 12, lines={"a": 2}),),
        leaders=(Leader("l", "Scipio"),),
        commands=(Command("c", "Left"),),
    )
    with open_store(store_file) as st:
        save_roster(st, roster=roster)
    with sqlite3.connect(store_file) as con:
        con.execute(sql)
    con.close()
    assert engine.integrity_check(store_file) == ["ok"]  # SQLite sees nothing wrong
    with open_store(store_file) as st, pytest.raises(StoreDamaged, match=words) as err:
        if "updated_at" in sql:
            list_rosters(st)
        else:
            load_roster(st, roster_id=1)
    assert "damaged" in str(err.value) and "\n" not in str(err.value)
    args = ["roster", "list"] if "updated_at" in sql else ["roster", "show", "1"]
    code, message = _cli(capsys, *args)
    assert code == 1 and "damaged" in message and message.count("\n") == 1


# --------------------------------------------------------------------------- integrity check


def test_integrity_check_on_open_only_when_cheap_unclean_or_asked(
    store_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_store(store_file) as st:
        save_roster(st, roster=_roster())
    checks: list[Path] = []
    real = engine._quick_check
    monkeypatch.setattr(engine, "_quick_check", lambda p: checks.append(p) or real(p))
    open_store(store_file).close()
    assert len(checks) == 1  # a small store: checked, it costs milliseconds
    monkeypatch.setattr(engine, "QUICK_CHECK_MAX_BYTES", 0)  # now it counts as big
    open_store(store_file).close()
    assert len(checks) == 1  # a big store, closed cleanly: not checked
    open_store(store_file, check=True).close()
    assert len(checks) == 2  # on request
    # a writer killed mid-way leaves its -wal behind: the next opening checks
    code = (
        "import sqlite3, os, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
        "c.execute('PRAGMA wal_autocheckpoint=0'); "
        "c.execute(\"INSERT INTO app_meta VALUES ('k', 'v')\"); os.kill(os.getpid(), 9)"
    )
    subprocess.run([sys.executable, "-c", code, str(store_file)], timeout=30, check=False)
    assert engine._unclean(store_file)
    open_store(store_file).close()
    assert len(checks) == 3
    # the -wal of a process that still has the store open is not an unclean shutdown
    keeper = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None);"
            " c.execute('PRAGMA wal_autocheckpoint=0');"
            " c.execute(\"INSERT INTO app_meta VALUES ('k2', 'v')\"); print('ready', flush=True);"
            " time.sleep(30)",
            str(store_file),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert keeper.stdout is not None and keeper.stdout.readline().strip() == "ready"
        assert not engine._unclean(store_file)
        open_store(store_file).close()
        assert len(checks) == 3
    finally:
        keeper.send_signal(signal.SIGTERM)
        keeper.wait()


def test_store_check_command(store_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(store_file) as st:
        save_roster(st, roster=_roster())
    code = main(["store", "check"])
    out, _ = capsys.readouterr()
    assert code == 0 and "ok" in out
    assert json.dumps(engine.integrity_check(store_file)) == '["ok"]'
