"""Write the user guide's page of keys (docs/guide/keys.md) from the windows' own actions,
so it never drifts from them (a test runs --check):

.venv/bin/python scripts/guide_keys.py          # rewrite docs/guide/keys.md
.venv/bin/python scripts/guide_keys.py --check  # exit 1 if the page is stale
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtGui import QGuiApplication, QKeySequence  # noqa: E402

from app.gui.actions import SPECS, ActionKey, ActionSpec  # noqa: E402
from app.gui.battle.actions import SPECS as BATTLE_SPECS  # noqa: E402
from app.gui.battle.window import MAP_KEYS  # noqa: E402
from app.gui.help_windows import ROSTER_KEYS  # noqa: E402

PAGE = ROOT / "docs" / "guide" / "keys.md"
HEAD = """# Keys

Every window's keyboard shortcuts. Each window also lists its own under Help > Keyboard
shortcuts. (This page is written from the windows' actions by `scripts/guide_keys.py`.)
"""


def _keys(spec: ActionSpec) -> str:
    """An action's keys; a standard key (New, Undo, ...) by its first binding only (the
    others vary with the desktop)."""
    texts: list[str] = []
    for key in spec.shortcuts:
        bindings = QKeySequence.keyBindings(key)[:1] if not isinstance(key, str) else [key]
        for seq in bindings:
            text = QKeySequence(seq).toString(QKeySequence.SequenceFormat.PortableText)
            if text and text not in texts:
                texts.append(text)
    return ", ".join(texts)


def _table(title: str, rows: Iterable[tuple[str, str]]) -> str:
    lines = [f"## {title}", "", "| what | keys |", "|---|---|"]
    lines += [f"| {what} | {keys} |" for what, keys in rows if keys]
    return "\n".join(lines) + "\n"


def _rows(specs: Iterable[ActionSpec]) -> list[tuple[str, str]]:
    return [(s.text.replace("&", "").rstrip("…"), _keys(s)) for s in specs]


def page() -> str:
    main = [s for k, s in SPECS.items() if not k.name.startswith("CV_")]
    campaign = [s for k, s in SPECS.items() if k.name.startswith("CV_") or k is ActionKey.GUIDE]
    parts = [
        HEAD,
        _table("The main window (rosters)", [*_rows(main), *ROSTER_KEYS]),
        _table("The battle window", [*_rows(BATTLE_SPECS.values()), *MAP_KEYS]),
        _table("The Campaigns window", _rows(campaign)),
    ]
    return "\n".join(parts)


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    text = page()
    del app
    if "--check" in sys.argv:
        if PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE} is stale: run scripts/guide_keys.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
