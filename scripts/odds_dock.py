"""CPU time of what the Actions dock does with exact odds (issue 26), median of 10 runs:
the whole ``update_odds`` of the dock (of it, the mechanics' ``odds``) and the summary's
``outcome_rows`` and ``expected_losses``, on MWAN #90's biggest melee (greek heavy infantry
of 72 figures each, from the rear: 4,900 outcomes) and on the sample battle's own A1 and
B1. ``--shot PATH`` saves the 1280x720 window showing the big melee's odds.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/odds_dock.py [--shot PATH]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from app.core.battle import BattleSession, MoveUnit
from app.core.battle.odds_summary import expected_losses, outcome_rows
from app.core.battle.sample import sample_session
from app.gui.battle.controller import BattleController
from app.gui.battle.window import BattleWindow
from app.paths import load_registry
from app.rules.mechanics import mechanics_for

RUNS = 10


def cpu_ms(f: Callable[..., Any], *args: Any) -> float:
    times = []
    for _ in range(RUNS):
        start = time.process_time()
        f(*args)
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--shot", default="")
    args = parser.parse_args(argv)
    qapp = QApplication.instance() or QApplication([])
    rs = next(r for r in load_registry(only={"mwan90"}) if r.id == "mwan90")
    mech = mechanics_for(rs)
    folder = tempfile.mkdtemp(prefix="castra-odds-dock-")
    for big in (True, False):
        session = sample_session(rs, mech)
        if big:
            state = session.state
            status = mech.initial_status("greek_heavy_infantry", 72, None)
            state = state.replace_units(
                {
                    uid: replace(state.unit(uid), troop="greek_heavy_infantry", status=status)
                    for uid in ("A1", "B1")
                }
            )
            session = BattleSession(rs, mech, state, seed=1, name="big melee")
        a, b = session.state.unit("A1"), session.state.unit("B1")
        session.do(MoveUnit(unit="A1", x=b.x, y=b.y - (a.depth + b.depth) / 2, facing=0.0))
        settings = QSettings(str(Path(folder) / "castra.ini"), QSettings.Format.IniFormat)
        window = BattleWindow(BattleController(session), settings)
        window.resize(1280, 720)
        window.show()
        qapp.processEvents()
        acting = window.acting
        acting.set_pair("A1", "B1")
        acting.choose_action("melee")
        if big:
            acting.set_option("attack", "rear")
        qapp.processEvents()
        odds, command = acting.odds, acting.odds_command
        assert odds is not None and command is not None, acting.summary.text()
        situation = command.situation(session.state, mech)
        dock = cpu_ms(acting.update_odds)
        of_odds = cpu_ms(mech.odds, "melee", situation)
        rows = cpu_ms(outcome_rows, odds)
        losses = cpu_ms(expected_losses, odds)
        print(
            f"{'big melee' if big else 'sample A1 v B1'}: {len(odds)} outcomes; update_odds "
            f"{dock:.1f} ms (mech.odds {of_odds:.1f}, outcome_rows {rows:.1f}, "
            f"expected_losses {losses:.1f}) CPU, median of {RUNS}"
        )
        if big and args.shot:
            qapp.processEvents()
            window.grab().save(args.shot)
        window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
