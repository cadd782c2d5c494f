"""``scripts/bench.py`` builds its figures' data through the app's own API: a change to that
API must not leave the bench stopping on an ImportError (its campaign rows did once, after the
Hannibal in Italy template became ruleset data). The bench itself is run by ``make bench``;
this only makes the data its campaign rows measure, small."""

from __future__ import annotations

import importlib.util
import os
import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_bench_makes_its_stored_campaign(tmp_path: Path) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    spec = importlib.util.spec_from_file_location("castra_bench", ROOT / "scripts" / "bench.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # its dataclasses look their module up
    try:
        spec.loader.exec_module(bench)
        cid = bench._campaign(tmp_path / "c.sqlite3", 4)
    finally:
        del sys.modules[spec.name]
    con = sqlite3.connect(tmp_path / "c.sqlite3")
    try:
        steps = con.execute(
            "SELECT count(*) FROM campaign_step WHERE campaign_id = ?", (cid,)
        ).fetchone()[0]
    finally:
        con.close()
    assert steps == 4 * 3  # each battle added (the template's three first), recorded, applied
