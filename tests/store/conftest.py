"""Store fixtures: a store in a temporary file, a roster using every field, and a tiny
registry built in code (so these tests do not depend on the real ruleset data)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.roster import Command, Leader, LeaderStatus, Roster, Unit
from app.rules.registry import Registry
from app.rules.ruleset import Ruleset
from app.rules.schema import (
    ArmyEntry,
    ArmyList,
    Basing,
    CampaignRules,
    Category,
    Leaders,
    Meta,
    Organisation,
    Phase,
    StandardArmy,
    StandardCommand,
    StandardLeader,
    StandardUnit,
    Strict,
    TroopBase,
    TurnSequence,
)
from app.rulesets import find_engine
from app.store import Store, open_store


def same_database(path: Path, original: bytes, scratch: Path) -> bool:
    """Whether the database file ``path`` holds what the bytes ``original`` held: the same SQL
    dump, page size and schema (a copy by SQLite's backup differs from the bytes it copied
    only in the header's change counter)."""
    import sqlite3
    from contextlib import closing

    scratch.write_bytes(original)

    def dump(p: Path) -> tuple[list[str], int]:
        with closing(sqlite3.connect(f"{p.resolve().as_uri()}?mode=ro", uri=True)) as con:
            return list(con.iterdump()), int(con.execute("PRAGMA page_size").fetchone()[0])

    return dump(path) == dump(scratch)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "castra.sqlite3"


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, db_path: Path) -> Iterator[Store]:
    """The store every store test runs on twice: a local SQLite file, and a club server
    (PostgreSQL, as its admin: the access policies are tested in tests/server)."""
    if request.param == "postgresql":
        s = open_store(request.getfixturevalue("pg_url"))
    else:
        s = open_store(db_path)
    yield s
    s.close()


def sql(store: Store, statement: str, **params: object) -> list[tuple[Any, ...]]:
    """A raw statement on either engine (``:name`` parameters), committed; its rows."""
    from sqlalchemy import text

    with store.engine.begin() as conn:
        result = conn.execute(text(statement), params)
        return [tuple(r) for r in result] if result.returns_rows else []


@pytest.fixture
def full_roster() -> Roster:
    """A roster with every field of every part set, some to unusual values."""
    return Roster(
        name="Cannae, Roman right",
        ruleset="leg-vi-carthago",
        army="roman",
        side="Rome",
        scale="1:100",
        data_version="1.2.3",
        notes="Varro commands.\nSecond line: «notes» with ünïcode.",
        units=(
            Unit(
                id="u-legio1",
                entry="legion",
                name="Legio I",
                size=10,
                count=1,
                grade="veteran",
                command="c-1",
                leader="l-varro",
                notes="understrength triarii",
                lines={"hastati": 4, "principes": 4, "triarii": 4},
            ),
            Unit(id="u-velites", entry="velites", name="Velites", size=2, count=4),
            Unit(
                id="u-eq",
                entry="equites",
                name="Equites",
                size=3,
                count=2,
                grade="raw",
                command="c-2",
                leader=None,
                notes="",
                lines=None,
            ),
        ),
        leaders=(
            Leader(
                id="l-varro",
                name="C. Terentius Varro",
                rank="general",
                status=LeaderStatus.WOUNDED,
                wounds=2,
                notes="consul",
                fields={"bonus": -1, "exceptional": True, "quality": "poor"},
            ),
            Leader(id="l-paullus", name="L. Aemilius Paullus"),
        ),
        commands=(
            Command(id="c-1", name="Infantry centre", leader="l-varro", kind="infantry"),
            Command(id="c-2", name="Right wing", leader="l-paullus", kind="cavalry"),
            Command(id="c-3", name="Reserve"),
        ),
    )


def _ruleset(rs_id: str, short: str, *, figures: bool, armies: dict[str, ArmyList]) -> Ruleset:
    meta = Meta(
        id=rs_id,
        engine="quincunx" if figures else "d3",
        name=f"{short} rules",
        short_name=short,
        source_file=f"{rs_id}.txt",
        data_version="1.0.0",
        figure_scale="15mm",
        unit_of_measure="inch",
        counts="figures" if figures else "bases",
        scales=("1:10", "1:100") if figures else (),
        default_scale="1:10" if figures else None,
    )
    troop = TroopBase(
        name="Foot",
        category=Category.HEAVY_INFANTRY,
        basing=Basing(per="figure", frontage_mm=15, depth_mm=15),
    )
    return Ruleset(
        meta=meta,
        turn=TurnSequence(
            summary="Move, fight.", phases=(Phase(id="m", name="Move", summary="x"),)
        ),
        leaders=Leaders(summary="Leaders lead."),
        organisation=Organisation(),
        campaign=CampaignRules(),
        troops={"foot": troop},
        tables=Strict(),
        engine=find_engine(meta.engine),
        armies=armies,
        errata=(),
        folder=Path("/nonexistent") / rs_id,
    )


def _army(name: str, side: str, standard: StandardArmy | None) -> ArmyList:
    return ArmyList(
        name=name,
        side=side,
        entries={
            "legion": ArmyEntry(name="Legion", troop="foot", sizes=(36, 48), default_size=48),
            "skirm": ArmyEntry(name="Skirmishers", troop="foot", sizes=(12,), default_size=12),
        },
        standard=standard,
    )


@pytest.fixture
def tiny_registry() -> Registry:
    """Two rulesets; three army lists, two of which have a standard army."""
    legion = StandardArmy(
        name="Roman model legion",
        source="p. 3",
        units=(
            StandardUnit(entry="legion", count=2, command="left", leader="cos"),
            StandardUnit(entry="skirm", name="Velites", count=4),
        ),
        leaders=(StandardLeader(id="cos", name="Consul", rank="general", bonus=1),),
        commands=(StandardCommand(id="left", name="Left", leader="cos", kind="infantry"),),
    )
    punic = StandardArmy(
        name="Punic host",
        source="p. 9",
        units=(StandardUnit(entry="legion", size=36),),
    )
    alpha = _ruleset(
        "alpha",
        "Quincunx",
        figures=True,
        armies={
            "roman": _army("Roman", "Rome", legion),
            "gauls": _army("Gauls", "Carthage", None),
        },
    )
    beta = _ruleset(
        "beta", "Beta", figures=False, armies={"punic": _army("Punic", "Carthage", punic)}
    )
    return Registry(find_engine, rulesets={"beta": beta, "alpha": alpha})
