"""Open the battle map on a sample battle of a ruleset, for a look or a screenshot:

QT_QPA_PLATFORM=xcb .venv/bin/python scripts/map_sample.py quincunx [--size 1280x720]
    [--select A1] [--overlays reach,los] [--grid] [--drag A1:3,4] [--png out.png]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

from app.core.battle.sample import sample_session
from app.gui.battle.map import BattleMap
from app.paths import load_registry
from app.rules.mechanics import mechanics_for


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("ruleset")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--select")
    parser.add_argument("--overlays", default="")
    parser.add_argument("--grid", action="store_true")
    parser.add_argument("--drag", help="UNIT:DX,DY (table units): show a ghost")
    parser.add_argument("--png")
    parser.add_argument("--zoom", type=float, default=1.0)
    parser.add_argument("--play", action="store_true", help="end deployment first (next phase)")
    args = parser.parse_args()
    app = QApplication(sys.argv)
    rs = load_registry(only={args.ruleset}).get(args.ruleset)
    mech = mechanics_for(rs)
    session = sample_session(rs, mech)
    if args.play:
        from app.core.battle import NextPhase

        session.do(NextPhase())
    window = QMainWindow()
    window.setWindowTitle(f"Castra map: {rs.meta.short_name}")
    view = BattleMap()
    window.setCentralWidget(view)
    w, h = (int(v) for v in args.size.split("x"))
    window.resize(w, h)

    def run(command: object) -> None:
        session.do(command)  # type: ignore[arg-type]
        view.show_state(session.state, mech)

    view.commandRequested.connect(run)
    view.message.connect(window.statusBar().showMessage)
    view.show_state(session.state, mech)
    view.set_grid(args.grid)
    window.show()
    view.fit_table()
    if args.zoom != 1.0:
        view.zoom(args.zoom)
    if args.select:
        view.select_unit(args.select)
        for name in filter(None, args.overlays.split(",")):
            view.toggle_overlay(name, True)
        view.centerOn(view.map_scene.units[args.select])
    if args.drag:
        uid, delta = args.drag.split(":")
        dx, dy = (float(v) for v in delta.split(","))
        view.select_unit(uid)
        u = session.state.unit(uid)
        view._press_table = (u.x, u.y)
        view.drag_unit_to((u.x + dx, u.y + dy))
        if view.move_tool is not None:
            view.centerOn(view.ghost)
    if args.png:
        QTimer.singleShot(300, lambda: (view.export_png(args.png), app.quit()))
    return app.exec()


if __name__ == "__main__":
    raise SystemExit(main())
