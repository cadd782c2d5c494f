"""Printing in a fresh process: nothing may rely on fonts another test registered first."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.rules.registry import Registry
from tests.export.pdf import all_text

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


_CHRONICLE = """
import json, sys
from reportlab.pdfbase import pdfmetrics
from app.export.chronicle import chronicle_pdf
from app.paths import load_registry
from tests.core.campaign.helpers import hannibal_in_italy
rs = load_registry(only={"quincunx"}).get("quincunx")
session = hannibal_in_italy(rs)
open(sys.argv[1], "wb").write(chronicle_pdf(rs, session))
print(json.dumps(sorted(n for n in pdfmetrics.getRegisteredFontNames() if "DejaVu" in n)))
"""


def test_the_chronicle_registers_only_the_fonts_it_prints_with(tmp_path: Path) -> None:
    """Each bundled font costs about 10 ms of CPU to read: the chronicle (no bold or italic
    mark-up) reads the styles' three, and embeds each of them."""
    from app.export.common import STYLE_FONTS
    from tests.export.pdf import fonts

    out = tmp_path / "c.pdf"
    done = subprocess.run(
        [sys.executable, "-c", _CHRONICLE, str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
        env={"CASTRA_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == sorted(STYLE_FONTS)
    embedded = fonts(out)
    assert sorted(name.split("+", 1)[1] for name in embedded) == sorted(STYLE_FONTS)
    assert all(embedded.values())


def test_the_chronicle_of_a_stored_campaign_imports_no_pydantic(
    tmp_path: Path, registry: Registry
) -> None:
    """Every validation the chronicle's read needs is done without pydantic (some 95 ms of
    CPU to import with the models that use it): the campaign's states and apply steps are
    read as Castra wrote them, the rulesets and (from the second run) the historical
    battles from their caches."""
    from app.core.scenario.campaigns import library_finder
    from app.store import open_store
    from app.usecases.campaign import create_campaign
    from tests.core.campaign.helpers import fight, hannibal_in_italy

    session = hannibal_in_italy(registry.get("quincunx"))
    assert library_finder()("trebia") is not None
    fight(registry, session, "The Trebia", ([], [], 1))
    db = tmp_path / "c.sqlite3"
    with open_store(db) as st:
        cid = create_campaign(st, session=session)
    out = tmp_path / "c.pdf"
    argv = [sys.executable, "-X", "importtime", "-m", "app", "campaign", "chronicle", str(cid)]
    env = {"CASTRA_DB": str(db), "CASTRA_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    for _ in range(2):  # the first fills the caches
        done = subprocess.run(
            [*argv, "--pdf", str(out)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            cwd=Path(__file__).resolve().parents[2],
            env=env,
        )
        assert done.returncode == 0, done.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    assert "app.export.chronicle" in imported and "app.core.scenario.library" in imported
    assert not {m for m in imported if m.split(".")[0] in ("pydantic", "pydantic_core")}
    assert "The Trebia" in all_text(out)
