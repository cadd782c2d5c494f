"""Printing in a fresh process: nothing may rely on fonts another test registered first."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CASTRA = Path(sys.executable).with_name("castra")


@pytest.mark.parametrize(
    "args",
    [
        ["cards", "{roster}"],
        ["roster", "{roster}"],
        ["refsheet", "quincunx"],
        ["chance-cards", "--side", "carthaginian"],
    ],
)
def test_each_document_prints_in_a_new_process(tmp_path: Path, args: list[str]) -> None:
    roster = tmp_path / "r.json"
    roster.write_text(
        json.dumps(
            {
                "format": "castra-roster",
                "version": 1,
                "name": "R",
                "ruleset": "quincunx",
                "army": "roman",
                "scale": "1:10",
                "units": [{"entry": "hastati", "count": 2}],
            }
        ),
        encoding="utf-8",
    )
    out = tmp_path / "out.pdf"
    argv = [str(CASTRA), "print", *[a.format(roster=roster) for a in args], "-o", str(out)]
    done = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={
            "CASTRA_DB": str(tmp_path / "s.sqlite3"),
            "CASTRA_HOME": str(tmp_path),
            "PATH": "/usr/bin:/bin",
        },
    )
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(b"%PDF")
