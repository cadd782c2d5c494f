"""Open a window as the documentation's pictures show it, at 1280x720 in the screen's top left
corner, in a temporary data folder of its own (never the user's):

QT_QPA_PLATFORM=xcb .venv/bin/python scripts/screenshots.py editor|campaign|history

``editor``: the main window on a first start (the Quincunx Roman model legion, docs/editor.png);
``campaign``: the Hannibal in Italy template with its three battles recorded by hand and
applied (docs/campaign.png); ``history``: Battle > New battle from history at Cannae in
Quincunx (docs/history.png). The battle window's picture (docs/battle.png) comes from
``scripts/battle_sample.py grown-slightly-bald --act A1:B1:melee --meet``. To take one with
the shared screenshot tool and cut the window out of its 1440x900 screen:

../shared/tools/shot /tmp/shot.png 10 -- .venv/bin/python scripts/screenshots.py editor
convert /tmp/shot.png -crop 1280x720+0+0 +repage docs/editor.png
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.cli import main as castra

SIZE = (1280, 720)

#: the campaign's three battles as a club might record them after playing them on a table
CAMPAIGN = (
    [
        "b1",
        "--winner=Carthage",
        "--lost=Velites (left)#1=destroyed",
        "--unit=Hastati (right)#1=9",
        "--leader=Ti. Sempronius Longus=wounded:1",
        "--note=The Romans crossed the freezing river before breakfast.",
    ],
    [
        "b2",
        "--winner=Carthage",
        "--lost=Allied Cavalry#1=routed off",
        "--unit=Principes (left)#1=8",
        "--leader=C. Flaminius=killed",
        "--note=Ambushed in the morning mist.",
    ],
    [
        "b3",
        "--winner=Carthage",
        "--lost=Hastati (right)#1=routed off",
        "--unit=Hastati (left)#1=8",
        "--unit=Celtic Swordsmen (right)#1=8",
        "--leader=L. Aemilius Paullus=killed",
        "--leader=Mago=wounded:1",
        "--note=Enveloped on both wings.",
    ],
)


def make_campaign() -> None:
    """The Hannibal in Italy campaign, its battles recorded and applied (store id 1)."""
    steps = [["campaign", "new", "Hannibal in Italy", "--template", "hannibal-italy"]]
    for record in CAMPAIGN:
        steps.append(["campaign", "record", "1", *record])
        steps.append(["campaign", "apply", "1", record[0]])
    for args in steps:
        if castra(args) != 0:
            raise SystemExit(f"screenshots: castra {' '.join(args)} failed")


def main() -> int:
    which = sys.argv[1] if len(sys.argv) > 1 else ""
    if which not in {"editor", "campaign", "history"}:
        print(__doc__, file=sys.stderr)
        return 2
    os.environ["CASTRA_HOME"] = tempfile.mkdtemp(prefix="castra-screenshots-")
    os.environ.pop("CASTRA_DB", None)
    if which == "campaign":
        make_campaign()

    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QWidget

    from app.gui import app as gui_app
    from app.gui.main_window import MainWindow

    def place(widget: QWidget) -> None:
        widget.resize(*SIZE)
        widget.move(0, 0)
        widget.raise_()

    def after_start(window: MainWindow) -> None:
        place(window)
        if which == "campaign":
            from app.gui.campaign.menu import open_view

            view = open_view(window, 1)
            if view is not None:
                place(view)
        elif which == "history":
            dialog = window.battles.new_battle_from_history()
            if dialog is not None:
                items = dialog.battles.findItems("Cannae", Qt.MatchFlag.MatchStartsWith)
                if items:
                    dialog.battles.setCurrentItem(items[0])
                quincunx = dialog.ruleset.findData("quincunx")
                if quincunx >= 0:
                    dialog.ruleset.setCurrentIndex(quincunx)
                place(dialog)

    return gui_app.run(after_start=after_start)


if __name__ == "__main__":
    raise SystemExit(main())
