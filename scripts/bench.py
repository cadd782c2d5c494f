"""Castra's speed figures against the bars in PRODUCT.md and issue 14. Every figure is the
median of at least five runs and is shown beside a baseline measured in the same run (a bare
PySide6 window with three docks, a bare ``python -c pass``, bare reportlab, ...), so a slow or
busy machine shows as a slow baseline rather than a failed bar.

    make bench          # or: QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/bench.py

Prints one line per figure (measured, baseline, ratio, bar) and exits 1 if a figure misses
its bar. Every figure is CPU time (of the process measured, or of the whole child process),
not the clock: these machines are shared, and a busy machine makes a process wait, not work
more. ``--quick`` skips the 1,000-step battle (which takes about a minute to build);
``--map``, ``--window``, ``--campaign``, ``--club``, ``--edit``, ``--odds``, ``--start`` and
``--opponent`` run only those figures (several flags, several sections).

Each section is its own function returning rows, so sections can be added or changed apart.
"""

from __future__ import annotations

import gc
import io
import json
import math
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The processes timed here keep their compiled bytecode (``__pycache__``), as Castra's and
# PySide's do on a user's machine: with PYTHONDONTWRITEBYTECODE set (some shells and CI set
# it), every start would compile Castra's modules again (about 0.1 s) while the baseline's
# PySide modules come compiled from their wheel. The first (warm-up) run of each figure
# writes them.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
RUNS = 5


@dataclass(frozen=True)
class Row:
    """One figure: ``value`` in ``unit``; ``bar`` on the value (``ratio=False``) or on
    value / baseline (``ratio=True``)."""

    name: str
    value: float
    baseline: float | None
    bar: float
    unit: str
    ratio: bool = False
    note: str = ""

    @property
    def measured_ratio(self) -> float | None:
        return self.value / self.baseline if self.baseline else None

    @property
    def ok(self) -> bool:
        checked = self.measured_ratio if self.ratio else self.value
        return checked is not None and checked <= self.bar


def median_ms(n: int, fn: Callable[[], object]) -> float:
    """Milliseconds of CPU time of ``fn`` (this process), the median of ``n`` runs."""
    times = []
    for _ in range(n):
        start = time.process_time()
        fn()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def median_of(n: int, fn: Callable[[], float]) -> float:
    return statistics.median(fn() for _ in range(n))


def whole_process(args: Sequence[str], env: dict[str, str] | None = None) -> float:
    """Seconds of CPU time (user and system) of one whole process, start to exit: a busy
    machine makes a process wait, not work more."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        list(args),
        env={**os.environ, **(env or {})},
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def paired(runs: int, a: Callable[[], float], b: Callable[[], float]) -> tuple[float, float]:
    """Medians of ``a`` and ``b`` run in turn (A B A B ...), so drift hits both alike."""
    xs, ys = [], []
    for _ in range(runs):
        xs.append(a())
        ys.append(b())
    return statistics.median(xs), statistics.median(ys)


# --------------------------------------------------------------------------- start-up

BARE_WINDOW = """
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QTreeView, QTextEdit
app = QApplication([])
w = QMainWindow(); w.resize(1280, 800)
w.setCentralWidget(QTextEdit())
for title, area in (("Library", Qt.DockWidgetArea.LeftDockWidgetArea),
                    ("Army list", Qt.DockWidgetArea.LeftDockWidgetArea),
                    ("Validation", Qt.DockWidgetArea.BottomDockWidgetArea)):
    dock = QDockWidget(title, w); dock.setWidget(QTreeView()); w.addDockWidget(area, dock)
w.show()
def done():
    app.processEvents()  # as Castra does before it reports the window usable
    app.quit()
QTimer.singleShot(0, done)
app.exec()
"""


def bare_window() -> float:
    """CPU seconds of a whole process showing a bare PySide6 window with three docks."""
    return whole_process([sys.executable, "-c", BARE_WINDOW])


def castra_window(home: Path) -> float:
    """CPU seconds of a whole Castra process that starts, shows the window with the last
    roster open (the app's CASTRA_QUIT_AFTER_SHOW) and quits."""
    env = {
        "CASTRA_DB": str(home / "bench.sqlite3"),
        "CASTRA_HOME": str(home),
        "CASTRA_QUIT_AFTER_SHOW": "1",
    }
    return whole_process([sys.executable, "-m", "app"], env)


def _many_rosters(db: Path, total: int) -> None:
    """Copies of the first roster (and its units) until the store holds ``total``."""
    con = sqlite3.connect(db)
    with con:
        have = con.execute("SELECT count(*) FROM roster").fetchone()[0]
        cols = [r[1] for r in con.execute("PRAGMA table_info(roster)") if r[1] != "id"]
        ucols = [r[1] for r in con.execute("PRAGMA table_info(roster_unit)")]
        ucols = [c for c in ucols if c not in ("id", "roster_id")]
        for i in range(total - have):
            cur = con.execute(
                f"INSERT INTO roster ({', '.join(cols)}) SELECT "
                + ", ".join("name || ' " + str(i) + "'" if c == "name" else c for c in cols)
                + " FROM roster WHERE id = 1"
            )
            new = cur.lastrowid
            con.execute(
                f"INSERT INTO roster_unit (roster_id, {', '.join(ucols)}) SELECT ?, "
                f"{', '.join(ucols)} FROM roster_unit WHERE roster_id = 1",
                (new,),
            )
    con.close()


def startup_rows() -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        castra_window(home)  # first start: the store, the samples, the ruleset cache
        window, bare = paired(RUNS, lambda: castra_window(home), bare_window)
        _many_rosters(home / "bench.sqlite3", 3000)
        many, bare_many = paired(RUNS, lambda: castra_window(home), bare_window)
    return [
        Row(
            "start, last roster reopened, whole process (CPU s)",
            window,
            bare,
            2.0,
            "s",
            ratio=True,
            note="baseline: a bare PySide6 window with three docks, whole process",
        ),
        Row(
            "same, 3,000 rosters in the store (CPU s)",
            many,
            bare_many,
            3.0,
            "s",
            ratio=True,
            note="baseline: the bare 3-dock window",
        ),
    ]


# --------------------------------------------------------------------------- command line


def cli_rows() -> list[Row]:
    castra = [sys.executable, "-m", "app"]
    bare = [sys.executable, "-c", "pass"]
    with tempfile.TemporaryDirectory() as tmp:
        env = {"CASTRA_DB": f"{tmp}/c.sqlite3", "CASTRA_HOME": tmp}
        whole_process(
            [
                *castra,
                "roster",
                "new",
                "--ruleset",
                "quincunx",
                "--army",
                "roman",
                "--name",
                "R",
                "--standard",
            ],
            env,
        )
        odds = [*castra, "odds", "quincunx", "--attacker", "hastati", "--defender", "elephants"]
        whole_process(odds, env)  # fills the ruleset cache
        lst, b1 = paired(
            RUNS,
            lambda: whole_process([*castra, "roster", "list"], env),
            lambda: whole_process(bare),
        )
        od, b2 = paired(RUNS, lambda: whole_process(odds, env), lambda: whole_process(bare))
    return [
        Row("castra roster list, whole process (CPU s)", lst, b1, 10.0, "s", ratio=True),
        Row("castra odds, whole process (CPU s)", od, b2, 10.0, "s", ratio=True),
    ]


def club_rows() -> list[Row]:
    """``castra roster list`` on a club server (a throw-away PostgreSQL cluster on loopback,
    ``tests/pgcluster.py``) against the same read on a SQLite file holding the same 20
    rosters, each whole-process CPU time. No row without PostgreSQL's binaries."""
    from app.core.roster import Roster
    from app.rules.scale import Scale
    from app.store import open_store, save_roster
    from app.store.server import init_server
    from tests.pgcluster import find_bin, running_cluster

    if find_bin() is None:
        print("(no PostgreSQL binaries: the club-server row is not measured)")
        return []
    castra = [sys.executable, "-m", "app", "roster", "list"]
    with running_cluster() as cluster, tempfile.TemporaryDirectory() as tmp:
        assert cluster is not None
        url = cluster.create_database("bench")
        init_server(url)
        for where in (url, str(Path(tmp) / "c.sqlite3")):
            with open_store(where) as store:
                for i in range(20):
                    roster = Roster(f"Legion {i}", "quincunx", "roman", "Rome", Scale("1:100"))
                    save_roster(store, roster=roster)
        server = {"CASTRA_DB": url, "CASTRA_HOME": tmp}
        local = {"CASTRA_DB": str(Path(tmp) / "c.sqlite3"), "CASTRA_HOME": tmp}
        whole_process(castra, local)  # the ruleset cache
        on_server, on_file = paired(
            RUNS, lambda: whole_process(castra, server), lambda: whole_process(castra, local)
        )
    return [
        Row(
            "castra roster list on a club server (CPU s)",
            on_server,
            on_file,
            2.0,
            "s",
            ratio=True,
            note="whole process; baseline: the same read on a SQLite file",
        )
    ]


# --------------------------------------------------------------------------- battles


def _big_battle(db: Path, steps: int) -> int:
    """A battle of 1,000 units (500 a side) played for ``steps`` steps, stored."""
    from app.core.battle import BattleSession, MoveUnit, NextPhase, StartBattle
    from app.core.battle.setup import new_battle
    from app.core.roster import new_roster, unit_from_entry
    from app.paths import load_registry
    from app.rules.mechanics import mechanics_for
    from app.store import open_store
    from app.store.battles import create_battle

    rs = load_registry(only={"quincunx"}).get("quincunx")
    mech = mechanics_for(rs)

    def side(army: str, entry: str) -> Any:
        r = new_roster(rs, army, name=army)
        unit = unit_from_entry(rs, army, entry)
        return replace(r, units=tuple(replace(unit, id=f"u{i}", count=10) for i in range(50)))

    rosters = (side("roman", "hastati"), side("carthaginian", "elephants"))
    s = BattleSession(rs, mech, new_battle(rs, mech, rosters), seed=1, name="Big")
    s.do(StartBattle())
    while len(s.steps) < steps:
        i = len(s.steps)
        if i % 50 == 0:
            s.do(NextPhase())
            continue
        u = s.state.units[(i * 7) % len(s.state.units)]
        x = min(max(u.x + 0.5, 0.0), s.state.width)
        y = min(max(u.y, 0.0), s.state.height)
        s.do(MoveUnit(unit=u.id, x=x, y=y, facing=(u.facing + 5) % 360))
    with open_store(db) as st:
        return create_battle(st, session=s, rosters=rosters)


MEMORY = """
import sys
from pathlib import Path
from app.paths import load_registry
from app.store import open_store
from app.store.battles import load_battle
reg = load_registry(only={"quincunx"})
with open_store(Path(sys.argv[1])) as st:
    session = load_battle(st, battle_id=1, registry=reg)
session.replay(len(session.steps))
session.state
print(next(int(ln.split()[1]) for ln in open("/proc/self/status") if ln.startswith("VmHWM")) / 1024)
"""
#: peak resident memory of this process (VmHWM; ru_maxrss would count the forking parent's)
BARE_MEMORY = (
    "print(next(int(ln.split()[1]) for ln in open('/proc/self/status') "
    "if ln.startswith('VmHWM')) / 1024)"
)


def battle_rows() -> list[Row]:
    from app.core.battle.serialize import state_to_dict
    from app.paths import load_registry
    from app.store import open_store
    from app.store.battles import load_battle

    castra = [sys.executable, "-m", "app"]
    with tempfile.TemporaryDirectory() as tmp:
        big, small = Path(tmp) / "big.sqlite3", Path(tmp) / "small.sqlite3"
        _big_battle(big, 1000)
        _big_battle(small, 10)

        def move(db: Path) -> float:
            work = Path(tmp) / "work.sqlite3"
            for suffix in ("", "-wal", "-shm"):
                Path(str(work) + suffix).unlink(missing_ok=True)
            work.write_bytes(db.read_bytes())
            env = {"CASTRA_DB": str(work), "CASTRA_HOME": tmp}
            return whole_process([*castra, "battle", "move", "1", "A1", "10", "10"], env)

        move(small)  # the ruleset cache
        at_1000, at_10 = paired(RUNS, lambda: move(big), lambda: move(small))
        env = {"CASTRA_DB": str(big), "CASTRA_HOME": tmp}
        replay, bare = paired(
            RUNS,
            lambda: whole_process([*castra, "battle", "replay", "1", "--step", "1000"], env),
            lambda: whole_process([sys.executable, "-c", "pass"]),
        )

        def rss(*args: str) -> float:
            out = subprocess.run(
                [sys.executable, "-c", MEMORY if args else BARE_MEMORY, *args],
                capture_output=True,
                text=True,
                check=True,
                cwd=ROOT,
                env={**os.environ, "CASTRA_HOME": tmp},
            )
            return float(out.stdout.strip().splitlines()[-1])

        memory, bare_memory = paired(RUNS, lambda: rss(str(big)), lambda: rss())
        con = sqlite3.connect(big)
        stored = con.execute(
            "SELECT sum(length(command) + length(rolls) + length(lines) + length(digest) "
            "+ length(delta) + coalesce(length(snapshot), 0)) / count(*) FROM battle_step"
        ).fetchone()[0]
        con.close()
        with open_store(big) as st:
            session = load_battle(st, battle_id=1, registry=load_registry(only={"quincunx"}))
        whole_state = len(json.dumps(state_to_dict(session.state)))
    return [
        Row(
            "battle move at step 1,000, 1,000 units (CPU s)",
            at_1000,
            at_10,
            2.0,
            "s",
            ratio=True,
            note="baseline: the same move at step 10",
        ),
        Row(
            "replay to step 1,000, whole process (CPU s)",
            replay,
            bare,
            2.0,
            "s",
            note="baseline: python -c pass",
        ),
        Row(
            "memory of that battle replayed (MB)",
            memory,
            bare_memory,
            250.0,
            "MB",
            note="baseline: a bare python process",
        ),
        Row(
            "stored size per step (KB)",
            stored / 1000,
            whole_state / 1000,
            20.0,
            "KB",
            note="baseline: one whole state, as every step stored before",
        ),
    ]


# --------------------------------------------------------------------------- editing


def edit_rows() -> list[Row]:
    """One edit of a 1,000-unit roster in the window, autosave included."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from app.core.edits import UpdateUnit
    from app.core.roster import new_roster, unit_from_entry
    from app.gui.main_window import MainWindow
    from app.paths import load_registry
    from app.store import open_store, save_roster

    app = QApplication.instance() or QApplication([])
    reg = load_registry(only={"quincunx"})
    rs = reg.get("quincunx")
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "e.sqlite3")
        roster = new_roster(rs, "roman", name="Thousand")
        unit = unit_from_entry(rs, "roman", "hastati")
        roster = replace(roster, units=tuple(replace(unit, id=f"u{i}") for i in range(1000)))
        rid = save_roster(store, roster=roster)
        window = MainWindow(reg, store, QSettings(f"{tmp}/s.ini", QSettings.Format.IniFormat))
        window.resize(1280, 720)
        window.show()
        assert window.builder.open_roster(rid)
        session = window.builder.session
        assert session is not None
        sizes = iter(range(10**6))

        def edit() -> None:
            session.apply(UpdateUnit(f"u{next(sizes) % 1000}", {"notes": f"n{next(sizes)}"}))
            app.processEvents()

        edit()  # the first write imports the ORM
        took = median_ms(max(RUNS, 9), edit)
        con = sqlite3.connect(Path(tmp) / "e.sqlite3", isolation_level=None)

        def floor() -> None:
            con.execute("BEGIN IMMEDIATE")
            con.execute("UPDATE roster_unit SET notes = 'x' WHERE uid = 'u1'")
            con.execute("COMMIT")

        bare = median_ms(max(RUNS, 9), floor)
        con.close()
        window.builder.close_roster(forget=True)
        window.close()
        store.close()
    first, later = first_edit_ms()
    return [
        Row(
            "one edit of a 1,000-unit roster, autosave (CPU ms)",
            took,
            bare,
            20.0,
            "ms",
            note="baseline: one bare sqlite row update",
        ),
        Row(
            "first edit after a start, 1,000 units (CPU ms)",
            first,
            later,
            1.5,
            "ms",
            ratio=True,
            note="the window's thread, a real start; baseline: a later edit",
        ),
    ]


FIRST_EDIT = """
import sys, threading, time
from app.cli import _load_before_qt
_load_before_qt()
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from app.gui import app as gapp
from app.gui.main_window import MainWindow
from app.core.edits import UpdateUnit

qt = QApplication(sys.argv)

def edits():
    window = next(w for w in qt.topLevelWidgets() if isinstance(w, MainWindow))
    worker = any(t.name == "castra-rulesets" for t in threading.enumerate())
    store = window.builder.store
    if (worker or store is None or store._engine is None) and gapp.process_age() < 10:
        QTimer.singleShot(50, edits)  # as a user's first edit comes: after the start
        return
    session = window.builder.session
    ids = [u.id for u in session.roster.units]
    took = []
    for i in range(10):
        start = time.thread_time()
        session.apply(UpdateUnit(ids[i * 37 % len(ids)], {"notes": f"n{i} {time.time()}"}))
        qt.processEvents()
        took.append((time.thread_time() - start) * 1000)
    print("EDITS", gapp.process_age(), *took)
    qt.quit()

QTimer.singleShot(100, edits)
gapp.run()
"""


def first_edit_ms() -> tuple[float, float]:
    """The first edit of a reopened 1,000-unit roster after a real start (once the start's
    worker is done, as a user's first edit comes) and the median of nine later ones: CPU
    milliseconds of the window's thread, the medians over ``RUNS`` starts."""
    from app.paths import load_registry
    from app.store import open_store, save_roster

    reg = load_registry(only={"quincunx"})
    firsts, laters = [], []
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        with open_store(home / "f.sqlite3") as store:
            rid = save_roster(store, roster=big_roster(reg))  # type: ignore[arg-type]
        (home / "settings.ini").write_text(f"[rosters]\nlast={rid}\n", encoding="utf-8")
        env = {**os.environ, "CASTRA_DB": str(home / "f.sqlite3"), "CASTRA_HOME": str(home)}
        for _ in range(RUNS + 1):
            out = subprocess.run(
                [sys.executable, "-c", FIRST_EDIT],
                env=env,
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            )
            line = next(ln for ln in out.stdout.splitlines() if ln.startswith("EDITS"))
            took = [float(x) for x in line.split()[2:]]
            firsts.append(took[0])
            laters.append(statistics.median(took[1:]))
    # the first start fills the ruleset cache
    return statistics.median(firsts[1:]), statistics.median(laters[1:])


# --------------------------------------------------------------------------- rules and print


def validation_rows() -> list[Row]:
    from app.core.edits import AddUnit
    from app.core.roster import new_roster, unit_from_entry
    from app.core.validation import validate
    from app.paths import load_registry

    rs = load_registry(only={"quincunx"}).get("quincunx")
    roster = new_roster(rs, "roman", name="Cannae", scale="1:100", standard=True)
    for entry in ("allied_hastati", "allied_principes", "allied_lights"):
        roster = AddUnit(unit_from_entry(rs, "roman", entry, count=6)).apply(roster)
    roster = replace(
        roster, units=tuple(replace(u, id=f"{u.id}-{i}") for i in range(2) for u in roster.units)
    )
    value = median_ms(50, lambda: validate(rs, roster))
    bare = median_ms(50, lambda: [u.count * u.size for u in roster.units])
    return [
        Row(
            "validate a Cannae-size roster (ms)",
            value,
            bare,
            20.0,
            "ms",
            note="baseline: a bare pass over its units",
        )
    ]


def table_rows() -> list[Row]:
    """``check_move`` of a 10-leg path (wheels, pivots, turns, a sidestep) on a table with 200
    units and 30 terrain pieces, the mover in the front line heading into the terrain (issue
    9: under 2 ms). Baseline: tracing the same path alone (the geometry every check needs)."""
    import random

    from app.paths import load_registry
    from app.rules.kept import forget_kept
    from app.rules.mechanics import Combatant, Status, TurnView, mechanics_for
    from app.rules.paths import Path
    from app.rules.table import Table, TerrainPiece

    rs = load_registry(only={"d3-ancients"}).get("d3-ancients")
    mech = mechanics_for(rs)
    rng = random.Random(9)
    units = []
    for i in range(200):
        side: Any = i % 2
        col, row = (i // 2) % 20, (i // 2) // 20
        x = 4 + col * 7.0 + (row % 2) * 1.5
        y = 2 + row * 4.0 if side == 0 else 94 - row * 4.0
        units.append(
            Combatant(
                f"{'AB'[side]}{i // 2 + 1}",
                f"Unit {i}",
                "heavy_infantry",
                side,
                Status(1, 1),
                x=x,
                y=y,
                facing=0.0 if side == 0 else 180.0,
                width=4.0,
                depth=2.0,
            )
        )
    terrain = []
    for k in range(30):
        cx, cy = rng.uniform(10, 134), rng.uniform(24, 72)
        if k % 5 == 4:
            line = ((cx - 8, cy), (cx, cy + 2), (cx + 8, cy))
            terrain.append(TerrainPiece(f"T{k + 1}", "road", line, width=1.0))
        else:
            ring = tuple(
                (cx + 3 * math.cos(a * math.pi / 4), cy + 2 * math.sin(a * math.pi / 4))
                for a in range(8)
            )
            kind: Any = ("woods", "hill", "marsh", "broken")[k % 4]
            terrain.append(TerrainPiece(f"T{k + 1}", kind, ring))
    terrain[0] = TerrainPiece("T1", "woods", ((60, 21), (68, 21), (68, 27), (60, 27)))
    view = TurnView(
        1,
        0,
        0,
        tuple(units),
        ({}, {}),
        ("roman", "carthaginian"),
        ("Rome", "Carthage"),
        table=Table(144, 96, tuple(terrain)),
    )
    path = Path.parse(
        "forward 1; wheel 15 right; forward 1; pivot 20; right 0.5; wheel 10 left; "
        "forward 1; turn 180; turn 180; forward 1"
    )
    mover = units[178]  # side 0, front line, in front of the wood T1
    assert len(path.legs) == 10 and mover.side == 0
    # each run traces the path afresh (:mod:`app.rules.kept` keeps traced legs: the same
    # path checked again would only be looked up); the view keeps what it keeps for every
    # move checked on it, as while a unit is dragged
    value = median_ms(200, lambda: (forget_kept(), mech.check_move(view, mover.unit_id, path)))
    bare = median_ms(200, lambda: (forget_kept(), path.trace(mover.footprint)))
    return [
        Row(
            "check a 10-leg move, 200 units, 30 pieces (ms)",
            value,
            bare,
            2.0,
            "ms",
            note="baseline: tracing the path alone",
        )
    ]


# ---------------------------------------------------------------------------- the army builder
# Opening a 1,000-unit roster in the editor (< 300 ms) and printing 512 unit cards (< 1 s),
# each beside a bare baseline measured here: a QTreeWidget filled with the same number of
# rows, and bare reportlab drawing as many card outlines.


def big_roster(reg: object, lines: int = 1000) -> object:
    """A Quincunx Carthaginian roster of ``lines`` unit lines in its seven battlegroups."""
    from app.core.roster import new_roster, unit_from_entry

    rs = reg.get("quincunx")  # type: ignore[attr-defined]
    roster = new_roster(rs, "carthaginian", name="Bench 1,000", standard=True)
    entries = list(rs.army("carthaginian").entries)
    commands = [c.id for c in roster.commands]
    units = tuple(
        unit_from_entry(
            rs,
            "carthaginian",
            entries[i % len(entries)],
            command=commands[i % len(commands)],
            name=f"{entries[i % len(entries)].replace('_', ' ').title()} {i + 1}",
        )
        for i in range(lines)
    )
    return replace(roster, units=units)


def editor_open_ms(reg: object, tmp: Path) -> tuple[float, float]:
    """Median ms to open a stored 1,000-unit roster in the window's editor (load from the
    store, session, tree, leaders, validation panel, columns fitted, events processed), and
    the same for a bare QTreeWidget of 1,000 rows of 11 columns."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication, QTreeWidget, QTreeWidgetItem

    from app.gui.main_window import MainWindow
    from app.store import open_store, save_roster

    app = QApplication.instance() or QApplication([])
    store = open_store(tmp / "editor.sqlite3")
    rid = save_roster(store, roster=big_roster(reg))  # type: ignore[arg-type]
    settings = QSettings(str(tmp / "editor.ini"), QSettings.Format.IniFormat)
    window = MainWindow(reg, store, settings)  # type: ignore[arg-type]
    window.resize(1280, 720)
    window.show()
    app.processEvents()

    def open_once() -> None:
        window.builder.open_roster(rid)
        app.processEvents()

    times = []
    for _ in range(5):
        start = time.perf_counter()
        open_once()
        times.append((time.perf_counter() - start) * 1000)
        window.builder.close_roster(forget=True)
        app.processEvents()
    window.close()
    store.close()

    def bare() -> None:
        tree = QTreeWidget()
        tree.setColumnCount(11)
        for g in range(7):
            group = QTreeWidgetItem(tree, [f"Group {g}"])
            group.addChildren(
                [QTreeWidgetItem([f"Unit {g}-{i}", "type", "1", "12"]) for i in range(143)]
            )
        tree.resize(1000, 600)
        tree.show()
        tree.expandAll()
        app.processEvents()
        tree.close()

    return statistics.median(times), median_ms(5, bare)


def cards_512_ms(reg: object) -> tuple[float, float]:
    """Median ms to write 512 unit cards of the Quincunx Carthaginian army (the standard army
    repeated, 57 pages), and bare reportlab drawing 512 card outlines with one line each."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    from app.core.roster import new_roster
    from app.export.unit_cards import card_count, write_unit_cards

    rs = reg.get("quincunx")  # type: ignore[attr-defined]
    base = new_roster(rs, "carthaginian", name="Cards", standard=True)
    units, total = [], 0
    while total < 512:
        for u in base.units:
            take = min(u.count, 512 - total)
            if take <= 0:
                break
            units.append(replace(u, id=f"{u.id}-{len(units)}", count=take))
            total += take
    roster = replace(base, units=tuple(units))
    assert card_count(roster, leaders=False) == 512

    def bare() -> None:
        c = Canvas(io.BytesIO(), pagesize=A4)
        for i in range(512):
            x, y = 10 * mm + (i % 3) * 63 * mm, 10 * mm + (i // 3 % 3) * 88 * mm
            c.rect(x, y, 63 * mm, 88 * mm)
            c.drawString(x + 3 * mm, y + 80 * mm, f"Card {i}")
            if i % 9 == 8:
                c.showPage()
        c.save()

    cards = median_ms(5, lambda: write_unit_cards(rs, roster, io.BytesIO(), leaders=False))
    return cards, median_ms(5, bare)


def builder_rows() -> list[Row]:
    from app.paths import load_registry

    reg = load_registry(only={"quincunx"})
    with tempfile.TemporaryDirectory() as tmp:
        opened, bare = editor_open_ms(reg, Path(tmp))
    cards, bare_cards = cards_512_ms(reg)
    return [
        Row(
            "open a 1,000-unit roster in the editor (ms)",
            opened,
            bare,
            300.0,
            "ms",
            note="baseline: a bare QTreeWidget of 1,000 rows",
        ),
        Row(
            "512 unit cards (ms)",
            cards,
            bare_cards,
            1000.0,
            "ms",
            note="baseline: bare reportlab card outlines",
        ),
    ]


Troop = tuple[str, int]

#: exact odds are searched at these multiples of the largest unit the army lists allow
ODDS_FACTORS = (1, 2, 4)
#: how many of the slowest matchups of the search's one pass are measured again
ODDS_TOP = 5


def _odds_ms(
    mech: Any, action: str, pair: tuple[Troop, Troop], options: dict[str, Any], runs: int = 1
) -> float:
    """Milliseconds of CPU time of one exact-odds computation, the median of ``runs`` (0
    where the matchup has no odds). CPU time, not the clock: the computation is one thread,
    and a shared machine's other work must not pick the worst case."""
    from app.rules.mechanics import Combatant, NotImplementedRule, Situation

    (ta, sa), (td, sd) = pair
    try:
        a = Combatant("A1", "a", ta, 0, mech.initial_status(ta, sa, None))
        d = Combatant("B1", "d", td, 1, mech.initial_status(td, sd, None))
        sit = Situation(actor=a, target=d, side=0, options=options)
        times = []
        for _ in range(runs):
            start = time.process_time()
            mech.odds(action, sit)
            times.append((time.process_time() - start) * 1000)
        return statistics.median(times)
    except (NotImplementedRule, ValueError, KeyError, LookupError):
        return 0.0


def odds_variants(action: Any) -> list[dict[str, Any]]:
    """The action's default options, then each option away from its default on its own:
    each bool on, each int at its extremes, each choice."""
    defaults = action.defaults()
    variants = [defaults]
    for o in action.options:
        if o.kind == "bool":
            values: list[Any] = [True]
        elif o.kind == "int":
            values = [v for v in (o.minimum, o.maximum) if v is not None]
        else:
            values = list(o.choices)
        variants += [{**defaults, o.key: v} for v in values if defaults.get(o.key) != v]
    return variants


def odds_search(
    mech: Any, action: Any, sizes: dict[str, int], factors: Sequence[int] = ODDS_FACTORS
) -> tuple[float, tuple[Troop, Troop], dict[str, Any], int]:
    """The slowest exact odds of ``action``: every pair of troop types, each at every factor
    times its size in ``sizes``, with the default options, and at the largest factor with
    every option variant too (the cost grows with the units, so the worst is there). The
    ``ODDS_TOP`` slowest of that one pass are measured again (median of ``RUNS`` each) and
    the slowest of those is the worst: many matchups cost nearly the same, and one run of
    each would pick among them by the machine's noise. The one pass runs without Python's
    cyclic garbage collector, whose full collections (a few ms in a process holding five
    rulesets) would otherwise land on matchups at random; the runs measured again run with
    it, as the app does. Returns (ms, matchup, options changed from the defaults, matchups
    tried)."""
    defaults = action.defaults()
    tried: list[tuple[tuple[Troop, Troop], dict[str, Any], float]] = []
    collecting = gc.isenabled()
    gc.disable()
    try:
        for f in sorted(factors):
            pairs = [((x, sizes[x] * f), (y, sizes[y] * f)) for x in sizes for y in sizes]
            options = odds_variants(action) if f == max(factors) else [defaults]
            tried += [(p, v, _odds_ms(mech, action.key, p, v)) for v in options for p in pairs]
    finally:
        if collecting:
            gc.enable()
    top = sorted(tried, key=lambda t: t[2], reverse=True)[:ODDS_TOP]
    again = [(_odds_ms(mech, action.key, p, v, RUNS), p, v) for p, v, _ in top]
    value, pair, worst = max(again, key=lambda t: t[0])
    changed = {k: v for k, v in worst.items() if defaults.get(k) != v}
    return value, pair, changed, len(tried)


def odds_rows() -> list[Row]:
    """The slowest exact odds per ruleset and action (issue 14: under 10 ms), searched over
    every pair of troop types the army lists field, each at 1, 2 and 4 times the largest unit
    of its type the lists allow, and at 4 times with every option variant (each option
    away from its default on its own: :func:`odds_search`). The note names the worst
    matchup. (``scripts/odds_worst.py`` puts every type at 4 times the ruleset's
    largest unit instead, units no list fields.)"""
    from app.paths import load_registry
    from app.rules.mechanics import mechanics_for

    reg = load_registry()
    rows: list[Row] = []
    for rs in sorted(reg, key=lambda r: r.id):
        if not rs.builtin:
            continue
        mech = mechanics_for(rs)
        sizes: dict[str, int] = {}
        for army in rs.armies.values():
            for e in army.entries.values():
                sizes[e.troop] = max(sizes.get(e.troop, 0), max(e.sizes))
        for action in (a for a in mech.actions() if a.odds and a.targets == "pair"):
            value, pair, changed, tried = odds_search(mech, action, sizes)
            (ta, sa), (td, sd) = pair
            # baseline: the same matchup and options at the lists' own unit sizes
            options = {**action.defaults(), **changed}
            listed = ((ta, sizes[ta]), (td, sizes[td]))
            base = _odds_ms(mech, action.key, listed, options, RUNS)
            rows.append(
                Row(
                    f"odds {rs.id} {action.key}, worst case (CPU ms)",
                    value,
                    base or None,
                    10.0,
                    "ms",
                    note=f"{ta} {sa} v {td} {sd} {changed or ''} ({tried} matchups); "
                    "baseline: at the lists' sizes",
                )
            )
    return rows


# --------------------------------------------------------------------------- the opponent


def _castra_turn(session: Any, table: Any, side: int) -> float:
    """CPU seconds Castra spends on ``side``'s part of the turn ``session`` stands in: its
    decisions and the execution of its commands (the other side's are not counted)."""
    player = table.players[side]
    spent = [0.0]
    decide = player.next

    def timed(*args: Any) -> Any:
        t0 = time.process_time()
        try:
            return decide(*args)
        finally:
            spent[0] += time.process_time() - t0

    player.next = timed
    turn = session.state.turn
    while session.state.turn == turn and session.state.result is None:
        choice = table.next(session)
        if choice is None:
            break
        t0 = time.process_time()
        session.do(choice.command)
        if choice.side == side:
            spent[0] += time.process_time() - t0
    player.next = decide
    return spent[0]


def opponent_rows() -> list[Row]:
    """An opponent's turn for a 40-unit side (PRODUCT.md: under 2 s of CPU): Castra playing
    Quincunx's ready Roman army (41 units) against Castra playing the Carthaginian (32), the
    turn the armies meet (turn 3, both rounds: moves, missiles, melees), from the same state
    each run. Baseline: the same side's turn played by the random baseline, which takes the
    same legal choices without weighing them."""
    from app.core.battle import BattleSession, StartBattle, new_battle
    from app.core.battle.autoplay import Table, autoplay
    from app.core.battle.players import Player
    from app.core.ready import ready_armies, ready_roster
    from app.paths import load_registry
    from app.rules.kept import forget_kept
    from app.rules.mechanics import mechanics_for

    rs = load_registry(only={"quincunx"}).get("quincunx")
    mech = mechanics_for(rs)
    a, b = (ready_roster(rs, r.army) for r in ready_armies(rs))
    start = BattleSession(rs, mech, new_battle(rs, mech, (a, b)), seed=1)
    start.do(StartBattle())
    both = {0: Player(0, seed=1), 1: Player(1, seed=2)}
    autoplay(start, Table.of(both), turns=2)
    units = sum(1 for u in start.state.units if u.side == 0 and not u.status.eliminated)

    def copy() -> Any:
        forget_kept()  # each run works out its paths afresh, as the turn played once does
        s = BattleSession(rs, mech, start.initial, seed=start.seed, steps=list(start.steps))
        return s

    def castra() -> float:
        return _castra_turn(copy(), Table.of(both), 0)

    def random_side() -> float:
        return _castra_turn(copy(), Table.of({1: both[1]}, baseline={0: both[0]}), 0)

    value, base = (statistics.median(fn() for _ in range(RUNS)) for fn in (castra, random_side))
    return [
        Row(
            f"Castra's turn, a {units}-unit side (CPU s)",
            value,
            base,
            2.0,
            "s",
            note=f"Quincunx ready armies, turn {start.state.turn}; baseline: the random player",
        )
    ]


# --------------------------------------------------------------------------- battle map


def _map_state(units: int = 500) -> tuple[Any, Any]:
    """A Quincunx battle with ``units`` units in rows on a 140 x 90 inch table with the
    sample's terrain, and its mechanics."""
    from app.core.battle.sample import sample_session
    from app.paths import load_registry
    from app.rules.mechanics import mechanics_for

    rs = load_registry(only={"quincunx"}).get("quincunx")
    mech = mechanics_for(rs)
    state = sample_session(rs, mech).state
    proto = state.units
    placed = []
    for i in range(units):
        u = proto[i % len(proto)]
        side = 0 if i < units // 2 else 1
        row, col = divmod(i % (units // 2), 25)
        y = 4 + row * 4.0 if side == 0 else 86 - row * 4.0
        placed.append(
            replace(
                u,
                id=f"{'AB'[side]}{i + 1}",
                side=side,
                x=3 + col * 5.5,
                y=y,
                facing=0.0 if side == 0 else 180.0,
            )
        )
    big = replace(state, units=tuple(placed), leaders=(), width=140.0, height=90.0)
    return big, mech


def map_rows() -> list[Row]:
    """The battle map with 500 units: a full redraw of the viewport, showing a state where
    every unit changed, and one drag frame (the mechanics' check_move and the ghost) --
    beside a bare QGraphicsView of 500 plain rectangles in the same run."""
    from PySide6.QtCore import QRectF
    from PySide6.QtWidgets import QApplication, QGraphicsScene, QGraphicsView

    from app.gui.battle.map import BattleMap
    from app.rules.kept import forget_kept

    app = QApplication.instance() or QApplication([])
    state, mech = _map_state()
    view = BattleMap()
    view.resize(1280, 720)
    view.show()
    view.show_state(state, mech)
    view.fit_table()
    app.processEvents()

    bare_scene = QGraphicsScene()
    rects = [bare_scene.addRect(QRectF(0, 0, 47, 16)) for _ in range(500)]
    for i, r in enumerate(rects):
        r.setPos((i % 25) * 55, (i // 25) * 40)
    bare = QGraphicsView(bare_scene)
    bare.resize(1280, 720)
    bare.show()
    bare.fitInView(bare_scene.itemsBoundingRect())
    app.processEvents()

    def redraw() -> None:
        view.viewport().repaint()

    def bare_redraw() -> None:
        bare.viewport().repaint()

    for _ in range(3):
        redraw()
        bare_redraw()
    full = median_ms(RUNS * 4, redraw)
    bare_full = median_ms(RUNS * 4, bare_redraw)

    shifted = replace(state, units=tuple(replace(u, x=u.x + 0.5) for u in state.units))
    states = [shifted, state]

    def resync() -> None:
        view.show_state(states[0], mech)
        states.reverse()
        view.viewport().repaint()

    def bare_resync() -> None:
        for r in rects:
            r.setPos(r.pos().x() + 0.5, r.pos().y())
        bare.viewport().repaint()

    shown = median_ms(RUNS, resync)
    bare_shown = median_ms(RUNS, bare_resync)

    view.show_state(state, mech)
    unit = state.units[len(state.units) // 4]
    view.select_unit(unit.id)
    view._press_table = (unit.x, unit.y)
    targets = [(unit.x + 0.3 * k, unit.y + 0.2 * k) for k in range(1, 21)]

    def drag_frame() -> None:
        forget_kept()  # a pointer dragged lands somewhere new each frame: nothing traced kept
        view.drag_unit_to(targets[0])
        targets.append(targets.pop(0))
        view.viewport().repaint()

    def bare_drag() -> None:
        rects[0].setPos(rects[0].pos().x() + 1, rects[0].pos().y())
        bare.viewport().repaint()

    for _ in range(3):
        drag_frame()
    drag = median_ms(RUNS * 4, drag_frame)
    bare_drag_ms = median_ms(RUNS * 4, bare_drag)
    view.cancel()
    view.close()
    bare.close()
    return [
        Row(
            "map: full redraw, 500 units (ms)",
            full,
            bare_full,
            16.0,
            "ms",
            note="baseline: bare QGraphicsView, 500 rectangles",
        ),
        Row(
            "map: show a state where 500 units moved (ms)",
            shown,
            bare_shown,
            50.0,
            "ms",
            note="items updated in place, then a redraw; baseline: 500 setPos + redraw",
        ),
        Row(
            "map: drag frame, 500 units (ms)",
            drag,
            bare_drag_ms,
            16.0,
            "ms",
            note="check_move + ghost + redraw; baseline: one setPos + redraw",
        ),
    ]


# --------------------------------------------------------------------------- battle window


def shut(window: Any) -> None:
    """Close a window the bench opened and delete it, as the app's event loop deletes a
    closed window: ``processEvents`` alone never runs a deferred delete, and every window
    opened (with its battle or campaign) stayed in memory for the next openings' collector
    to go over."""
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    window.close()
    window.deleteLater()
    QApplication.processEvents()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def window_rows() -> list[Row]:
    """The battle window on a stored battle of 1,000 steps and 1,000 units: opening it (load
    it, build the window with its docks and map, show it and let it draw), then one command
    (Next phase, saved) and one undo, each with the window brought up to date. CPU time of
    this process, the median of the runs."""
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtWidgets import QApplication, QDockWidget, QGraphicsView, QMainWindow

    from app.core.battle import NextPhase
    from app.gui.battle.controller import BattleController
    from app.gui.battle.window import BattleWindow
    from app.paths import load_registry
    from app.store import open_store
    from app.store.battles import battle_rosters, load_battle

    app = QApplication.instance() or QApplication([])
    reg = load_registry(only={"quincunx"})
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "big.sqlite3"
        bid = _big_battle(db, 1000)
        settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        store = open_store(db)

        def load_and_show() -> BattleWindow:
            session = load_battle(store, battle_id=bid, registry=reg)
            rosters = battle_rosters(store, battle_id=bid, registry=reg)
            controller = BattleController(session, store=store, battle_id=bid, rosters=rosters)
            window = BattleWindow(controller, settings)
            window.resize(1280, 720)
            window.show()
            app.processEvents()
            return window

        def open_window() -> float:
            start = time.process_time()
            window = load_and_show()
            took = (time.process_time() - start) * 1000
            shut(window)
            return took

        def bare() -> float:
            start = time.process_time()
            window = QMainWindow()
            window.setCentralWidget(QGraphicsView())
            for i in range(6):
                dock = QDockWidget(f"dock {i}", window)
                dock.setObjectName(f"d{i}")
                window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
            window.show()
            app.processEvents()
            took = (time.process_time() - start) * 1000
            shut(window)
            return took

        shut(load_and_show())  # the first opening imports what the window needs
        # as in the app, whose start freezes what it made (app.gui.app): the collector's
        # full passes no longer walk the modules, rulesets and Qt's wrappers
        gc.freeze()
        opened, baseline = paired(RUNS, open_window, bare)
        window = load_and_show()
        controller = window.controller

        def command() -> None:
            controller.execute(NextPhase())
            app.processEvents()

        def undo() -> None:
            controller.undo()
            app.processEvents()

        command()  # warm
        took_command = median_ms(max(RUNS, 9), command)
        took_undo = median_ms(max(RUNS, 9), undo)
        shut(window)
        con = sqlite3.connect(db, isolation_level=None)

        def floor() -> None:
            con.execute("BEGIN IMMEDIATE")
            con.execute("UPDATE battle SET cursor = cursor WHERE id = ?", (bid,))
            con.execute("COMMIT")

        bare_write = median_ms(max(RUNS, 9), floor)
        con.close()
        store.close()
    return [
        Row(
            "battle window: open a stored battle of 1,000 steps, 1,000 units (CPU ms)",
            opened,
            baseline,
            150.0,
            "ms",
            note="load, docks, log of 1,000 steps, map drawn; baseline: bare window, 6 docks",
        ),
        Row(
            "battle window, 1,000 units: one command, saved and shown (CPU ms)",
            took_command,
            bare_write,
            30.0,
            "ms",
            note="Next phase; baseline: one bare sqlite row update",
        ),
        Row(
            "battle window, 1,000 units: one undo, saved and shown (CPU ms)",
            took_undo,
            bare_write,
            30.0,
            "ms",
            note="baseline: one bare sqlite row update",
        ),
    ]


# --------------------------------------------------------------------------- campaigns

#: the campaign sizes measured: a season of a few battles, of twenty, of fifty
CAMPAIGN_SIZES = (5, 20, 50)


def _campaign(db: Path, battles: int) -> int:
    """A Quincunx campaign of ``battles`` battles (the Hannibal in Italy template's three, then
    more between the two whole armies), each recorded by hand with losses and a wounded
    commander, and applied: three steps a battle. Stored; its id."""
    from app.core.battle.result import hand_result
    from app.core.campaign.fight import battle_rosters
    from app.core.campaign.model import Participant
    from app.core.campaign.steps import AddBattle, ApplyResult, RecordResult
    from app.core.campaign.template import from_template
    from app.paths import load_registry
    from app.store import open_store
    from app.store.campaigns import create_campaign

    rs = load_registry(only={"quincunx"}).get("quincunx")
    tid = "hannibal-italy"
    session = from_template(rs, tid, rs.templates[tid], name=f"Season of {battles}", recovery="all")
    for k in range(3, battles):
        both = (Participant("rome"), Participant("carthage"))
        session.do(AddBattle(f"Battle {k + 1}", both, date=f"{216 - k // 4} BC", place="Italy"))
    for k, b in enumerate(session.campaign.battles):
        rosters = battle_rosters(session.campaign, b.id)
        ends: dict[Any, int] = {}
        for side, roster in enumerate(rosters):
            for j, u in enumerate(roster.units[(k % 3) :: 3]):
                ends[(side, u.id, 0)] = max(u.size - 1 - (j + k) % 3, 0)
        result = hand_result(
            rosters,
            winner=0 if k % 2 == 0 else 1,
            ends=ends,
            notes=[f"Battle {k + 1}: the line held."],
        )
        session.do(RecordResult(b.id, result))
        session.do(ApplyResult(b.id))
    with open_store(db) as st:
        return create_campaign(st, session=session)


def _campaign_figures(tmp: Path, n: int, reg: Any, app: Any) -> dict[str, float]:
    """The campaign figures of one campaign of ``n`` battles (see :func:`campaign_rows`)."""
    from app.gui.campaign.window import CampaignView
    from app.store import open_store
    from app.store.campaigns import forget_decoded

    castra = [sys.executable, "-m", "app"]
    got: dict[str, float] = {}
    db = tmp / f"c{n}.sqlite3"
    cid = _campaign(db, n)
    env = {"CASTRA_DB": str(db), "CASTRA_HOME": str(tmp)}
    show = [*castra, "campaign", "show", str(cid)]
    whole_process(show, env)  # the ruleset cache
    got["show"] = median_of(RUNS, lambda: whole_process(show, env))
    pdf = [*castra, "campaign", "chronicle", str(cid), "--pdf", str(tmp / "c.pdf")]
    got["pdf"] = median_of(RUNS, lambda: whole_process(pdf, env))

    def add() -> float:
        work = tmp / "work.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            Path(str(work) + suffix).unlink(missing_ok=True)
        work.write_bytes(db.read_bytes())
        wenv = {"CASTRA_DB": str(work), "CASTRA_HOME": str(tmp)}
        return whole_process(
            [*castra, "campaign", "add-battle", str(cid), "Another", "rome", "carthage"], wenv
        )

    got["add"] = median_of(RUNS, add)
    store = open_store(db)

    def open_view() -> float:
        # a first open in the process: nothing of the campaign kept decoded from a read
        # before (the warm-up's, the last run's); picked again (below) may reuse it
        forget_decoded()
        start = time.process_time()
        view = CampaignView(reg, store)  # opens the campaign (the only one)
        view.resize(1280, 720)
        view.show()
        app.processEvents()
        took = (time.process_time() - start) * 1000
        shut(view)
        return took

    open_view()
    got["open"] = median_of(RUNS, open_view)
    view = CampaignView(reg, store)
    view.resize(1280, 720)
    view.show()
    app.processEvents()

    def open_again() -> None:
        view.open_campaign(cid)
        app.processEvents()

    got["reopen"] = median_ms(RUNS, open_again)
    shut(view)
    store.close()
    con = sqlite3.connect(db)
    cols = [r[1] for r in con.execute("PRAGMA table_info(campaign_step)")]
    size = " + ".join(
        f"coalesce(length({c}), 0)"
        for c in cols
        if c not in ("id", "campaign_id", "n", "side", "made_by")
    )
    per_step, steps = con.execute(
        f"SELECT sum({size}) * 1.0 / count(*), count(*) FROM campaign_step"
    ).fetchone()
    con.close()
    got["size"] = per_step / 1000
    got["steps"] = steps
    return got


def campaign_rows() -> list[Row]:
    """A campaign of 5, 20 and 50 battles: ``castra campaign show`` and the chronicle PDF
    (whole process, CPU time), ``add-battle`` (whole process, on a copy of the store),
    opening it in the Campaigns window (CPU time of the open, in this process) and the store
    per step."""
    from PySide6.QtWidgets import QApplication

    from app.paths import load_registry

    app = QApplication.instance() or QApplication([])
    reg = load_registry(only={"quincunx"})
    got: dict[str, dict[int, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in CAMPAIGN_SIZES:
            for key, value in _campaign_figures(Path(tmp), n, reg, app).items():
                got.setdefault(key, {})[n] = value
    small, big = CAMPAIGN_SIZES[0], CAMPAIGN_SIZES[-1]
    for key, values in got.items():
        print(f"  campaign {key}: " + ", ".join(f"{n}: {v:.3f}" for n, v in values.items()))
    return [
        Row(
            f"campaign show, {big} battles (CPU s)",
            got["show"][big],
            got["show"][small],
            1.5,
            "s",
            ratio=True,
            note=f"whole process; baseline: {small} battles",
        ),
        Row(
            f"Campaigns window opened on it, {big} battles (CPU ms)",
            got["open"][big],
            got["open"][small],
            1.5,
            "ms",
            ratio=True,
            note=f"window, load, trees, plot, drawn; baseline: {small} battles",
        ),
        Row(
            f"campaign opened again in that window, {big} battles (CPU ms)",
            got["reopen"][big],
            got["reopen"][small],
            1.5,
            "ms",
            ratio=True,
            note=f"picked again: load, trees, plot; baseline: {small} battles",
        ),
        Row(
            f"campaign add-battle, {big} battles (CPU s)",
            got["add"][big],
            got["add"][small],
            1.5,
            "s",
            ratio=True,
            note=f"whole process; baseline: {small} battles",
        ),
        Row(
            f"campaign store per step, {big} battles (KB)",
            got["size"][big],
            got["size"][small],
            20.0,
            "KB",
            note=f"baseline: {small} battles",
        ),
        Row(
            f"chronicle PDF, {big} battles (CPU s)",
            got["pdf"][big],
            got["pdf"][small],
            1.0,
            "s",
            note=f"whole process; baseline: {small} battles",
        ),
    ]


# --------------------------------------------------------------------------- main


def main(argv: Sequence[str] = ()) -> int:
    quick = "--quick" in argv
    sections: list[Callable[[], list[Row]]] = [
        startup_rows,
        cli_rows,
        club_rows,
        edit_rows,
        validation_rows,
        table_rows,
        builder_rows,
        map_rows,
        window_rows,
        campaign_rows,
        odds_rows,
        opponent_rows,
    ]
    # one section a flag; several flags run theirs, in the order above
    flags = {
        "--map": map_rows,
        "--window": window_rows,
        "--campaign": campaign_rows,
        "--club": club_rows,
        "--edit": edit_rows,
        "--odds": odds_rows,
        "--start": startup_rows,
        "--opponent": opponent_rows,
    }
    chosen = {flags[a] for a in argv if a in flags}
    if chosen:
        sections = [s for s in sections if s in chosen]
    if not quick and not chosen:
        sections.insert(2, battle_rows)
    rows: list[Row] = []
    for section in sections:
        found = section()
        rows += found
        for row in found:
            _print(row)
    missed = [r for r in rows if not r.ok]
    print(f"\n{len(rows) - len(missed)} of {len(rows)} figures within their bars")
    return 1 if missed else 0


def _print(row: Row) -> None:
    ratio = row.measured_ratio
    base = f"{row.baseline:10.3f}" if row.baseline is not None else f"{'-':>10}"
    ratio_text = f"{ratio:7.2f}x" if ratio is not None else f"{'-':>8}"
    bar = f"<= {row.bar:g}x" if row.ratio else f"<= {row.bar:g} {row.unit}"
    print(
        f"{row.name:48} {row.value:10.3f} {base} {ratio_text}  {bar:14} "
        f"{'ok' if row.ok else 'MISSED'}  {row.note}",
        flush=True,
    )


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
