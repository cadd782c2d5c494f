"""Open the battle window on a sample battle of a ruleset, for a look or a screenshot:

QT_QPA_PLATFORM=xcb .venv/bin/python scripts/battle_sample.py gsb-id [--size 1280x720]
    [--play N] [--act A1:B1:melee] [--meet] [--roll] [--ready]

``--meet`` puts the unit front to front with its target first (a melee needs contact).
``--ready``: a new battle between the ruleset's Roman and Carthaginian ready armies
(:mod:`app.core.ready`), as New battle starts it, instead of the sample battle.
``--castra b`` (with ``--ready``): Castra plays side B (a, b or both), steady, seed 1;
``--castra-steps N`` lets Castra play both sides for N commands first, then on to a move of
Castra's side; ``--play-turn`` (with ``--pace``) lets Castra play its turn in the window;
``--advise UNIT`` selects the unit and shows the Advisor dock (``--whole-side``: its side).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from app.core.battle import BattleSession, MoveUnit, NextPhase, StartBattle, new_battle
from app.core.battle.autoplay import Table, autoplay
from app.core.battle.players import Player
from app.core.battle.sample import sample_session
from app.core.ready import ready_armies, ready_roster
from app.gui.battle.controller import BattleController
from app.gui.battle.window import BattleWindow
from app.paths import load_registry
from app.rules.mechanics import mechanics_for


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("ruleset")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--play", type=int, default=0, help="phases to go on first")
    parser.add_argument("--act", help="UNIT:TARGET:ACTION chosen in the Actions dock")
    parser.add_argument("--roll", action="store_true")
    parser.add_argument("--meet", action="store_true", help="the unit meets its target first")
    parser.add_argument("--ready", action="store_true", help="the ready armies' battle")
    parser.add_argument("--castra", choices=("a", "b", "both"), help="the side Castra plays")
    parser.add_argument("--castra-steps", type=int, default=0)
    parser.add_argument("--advise", help="the unit the Advisor dock shows")
    parser.add_argument("--whole-side", action="store_true")
    parser.add_argument("--play-turn", action="store_true", help="Castra plays its turn, shown")
    parser.add_argument("--pace", default="fast", choices=("fast", "normal", "slow"))
    args = parser.parse_args()
    app = QApplication(sys.argv)
    rs = load_registry(only={args.ruleset}).get(args.ruleset)
    mech = mechanics_for(rs)
    if args.ready:
        rosters = [ready_roster(rs, r.army) for r in ready_armies(rs)]
        sides = {"a": (0,), "b": (1,), "both": (0, 1)}.get(args.castra or "", ())
        records = tuple(Player(s, seed=1).record() if s in sides else {} for s in (0, 1))
        state = new_battle(rs, mech, (rosters[0], rosters[1]), records=(records[0], records[1]))
        session = BattleSession(rs, mech, state, seed=1, name=f"{rs.meta.short_name} ready")
        session.do(StartBattle())
    else:
        session = sample_session(rs, mech)
    for _ in range(args.play):
        session.do(NextPhase())
    if args.castra_steps:  # both sides played by Castra to get somewhere, then on to a
        # point where the side Castra plays in the window has something to do
        both = Table.of({0: Player(0, seed=2), 1: Player(1, seed=1)})
        autoplay(session, both, max_steps=args.castra_steps)
        mine = Table.from_battle(session.state)
        for _ in range(500):  # on to a move of a unit of Castra's side in the window
            ahead = mine.next(session)
            if ahead is not None and isinstance(ahead.command, MoveUnit):
                break
            autoplay(session, both, max_steps=1)
    if args.act and args.meet:
        unit, target, _ = args.act.split(":")
        a, b = session.state.unit(unit), session.state.unit(target)
        y = b.y - (a.depth + b.depth) / 2 if a.side == 0 else b.y + (a.depth + b.depth) / 2
        session.do(MoveUnit(unit=unit, x=b.x, y=y, facing=a.facing))
    folder = tempfile.mkdtemp()
    settings = QSettings(str(Path(folder) / "s.ini"), QSettings.Format.IniFormat)
    window = BattleWindow(BattleController(session), settings)
    width, height = (int(v) for v in args.size.split("x"))
    window.resize(width, height)
    window.show()
    if args.advise:
        window.advice_dock.show()
        window.advice_dock.raise_()
        window.map.select_unit(args.advise)
        window.unit_selected(args.advise)
        if args.whole_side:
            window.advice_panel.side_button.setChecked(True)
    if args.play_turn:
        window.castra.set_pace(args.pace)
        window.castra.play_turn()
    if args.act:
        unit, target, action = args.act.split(":")
        window.acting.choose_action(action)
        window.acting.set_pair(unit, target)
        window.map.select_unit(unit)
        window.unit_panel.show_unit(unit)
        if args.roll:
            window.roll()
            window.acting.set_pair(unit, target)
    return int(app.exec())


if __name__ == "__main__":
    sys.exit(main())
