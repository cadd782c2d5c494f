"""Rosters, battles and campaigns stored before engines declared their leader fields load with
every value kept, replay onto their recorded digests and play on.

``tests/data/fields-0010.sqlite3.gz`` was made by Castra at commit 6d4e66c (store schema
0010, the three leader fields still columns of ``roster_leader`` and keys of every battle
and campaign state) through the command line: ready Quincunx, Leg VI, D3 and GSB rosters
with leader values set by hand (a Quincunx bonus of +3 and of +0, one left to the rules; a
Leg VI exceptional commander; D3 commanders of poor and of average quality set), one battle
per ruleset between them, each autoplayed a turn with two steps undone, and a D3 campaign
of the two D3 rosters with a battle recorded and its application undone."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from alembic import command

from app.core.battle.serialize import state_to_dict
from app.core.battle.timeline import digest, state_digest
from app.core.campaign.serialize import leader_to_dict
from app.rules.registry import Registry
from app.store import open_store
from app.store.battles import battle_for_update, load_battle
from app.store.campaigns import load_campaign
from app.store.engine import SCHEMA_HEAD, StoreDamaged, _alembic_config, migration_engine
from app.store.read import load_roster
from tests.stored_fixtures import unzipped

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "fields-0010.sqlite3.gz"

#: the leader values set in the fixture's rosters (roster id -> leader name -> fields)
SET = {
    1: {
        "P. Cornelius Scipio": {"bonus": 2},
        "Ti. Sempronius Longus": {"bonus": 0},
        "C. Flaminius": {"bonus": 3},
        "M. Claudius Marcellus": {},
    },
    2: {"Hannibal": {"exceptional": True}, "Mago": {"exceptional": True}, "Hanno": {}},
    3: {"P. Cornelius Scipio": {"quality": "poor"}},
    4: {"Hannibal": {"quality": "average"}},
    5: {"Ti. Sempronius Longus": {"bonus": 1}},
}


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    return unzipped(FIXTURE, tmp_path / "castra.sqlite3")


def _columns(path: Path) -> list[tuple[int, str, object, object, object]]:
    con = sqlite3.connect(path)
    try:
        return con.execute(
            "SELECT roster_id, name, bonus, exceptional, quality FROM roster_leader ORDER BY id"
        ).fetchall()
    finally:
        con.close()


def test_the_fixture_is_what_it_says(tmp_path: Path) -> None:
    path = unzipped(FIXTURE, tmp_path / "raw.sqlite3")
    con = sqlite3.connect(path)
    try:
        (rev,) = con.execute("SELECT version_num FROM alembic_version").fetchone()
    finally:
        con.close()
    assert rev == "0010"
    rows = {(r[0], r[1]): r[2:] for r in _columns(path)}
    assert rows[(1, "C. Flaminius")] == (3, 0, None)
    assert rows[(1, "M. Claudius Marcellus")] == (None, 0, None)
    assert rows[(2, "Mago")] == (None, 1, None)
    assert rows[(3, "P. Cornelius Scipio")] == (None, 0, "poor")


def test_old_rosters_keep_every_leader_value(old_store: Path) -> None:
    with open_store(old_store) as st:
        for roster_id, leaders in SET.items():
            roster = load_roster(st, roster_id=roster_id)
            by_name = {ld.name: ld for ld in roster.leaders}
            for name, fields in leaders.items():
                assert dict(by_name[name].fields) == fields, (roster_id, name)
                # a campaign or roster file writes them as the three keys it always had
                written = leader_to_dict(by_name[name])
                assert {k: written[k] for k in ("bonus", "exceptional", "quality")} == {
                    "bonus": None,
                    "exceptional": False,
                    "quality": None,
                    **fields,
                }


def test_old_battles_replay_onto_their_digests_and_play_on(
    old_store: Path, registry: Registry
) -> None:
    from app.core.battle import NextPhase

    with open_store(old_store) as st:
        for battle_id in range(1, 5):
            session = load_battle(st, battle_id=battle_id, registry=registry)
            for step in session.steps:
                assert state_digest(step.state) == step.digest
            assert digest(state_to_dict(session.initial)) == state_digest(session.initial)
            assert session.replay(len(session.steps)) == session.steps[-1].state
            with battle_for_update(st, battle_id=battle_id, registry=registry) as live:
                redone = 0
                while live.can_redo():
                    live.redo()
                    assert live.last_divergence is None
                    redone += 1
                assert redone == 2
                live.undo()
                live.redo()
                assert live.last_divergence is None
                live.do(NextPhase())
            again = load_battle(st, battle_id=battle_id, registry=registry)
            assert again.replay(len(again.steps)) == again.state
    # the fields the rules read reached the battle (Quincunx's own +3, Leg VI's exceptional)
    with open_store(old_store) as st:
        quincunx = load_battle(st, battle_id=1, registry=registry).state
        flaminius = next(ld for ld in quincunx.leaders if ld.name == "C. Flaminius")
        assert dict(flaminius.fields) == {"bonus": 3}
        leg = load_battle(st, battle_id=2, registry=registry).state
        mago = next(ld for ld in leg.leaders if ld.name == "Mago")
        assert dict(mago.fields) == {"exceptional": True}


def test_an_old_campaign_loads_and_redoes(old_store: Path, registry: Registry) -> None:
    with open_store(old_store) as st:
        session = load_campaign(st, campaign_id=1, registry=registry)
        rome = session.campaign.sides[0].army
        assert dict(rome.leader(rome.leaders[0].id).fields) == {"quality": "poor"}
        assert session.can_redo()
        session.redo()
        after = session.campaign.sides[0].army.leaders[0]
        assert (after.status.value, after.wounds, dict(after.fields)) == (
            "wounded",
            1,
            {"quality": "poor"},
        )


def test_migration_0011_moves_every_leader_value_into_one_column(
    old_store: Path, registry: Registry
) -> None:
    """Schema 0011: the three columns become one JSON object per leader, every value kept
    (a +0 bonus and an average set by hand too; unset left out), after a backup of the
    0010 file; going down puts the three columns back as they were."""
    before = _columns(old_store)
    with open_store(old_store) as st:
        assert st.revision == SCHEMA_HEAD
        assert st.backup is not None and st.backup.exists()
        backup = st.backup
    # the backup is the 0010 file, untouched
    assert _columns(backup) == before
    con = sqlite3.connect(old_store)
    try:
        names = [r[1] for r in con.execute("PRAGMA table_info(roster_leader)")]
        stored = con.execute("SELECT roster_id, name, fields FROM roster_leader ORDER BY id")
        objects = {(r[0], r[1]): r[2] for r in stored}
    finally:
        con.close()
    assert "fields" in names and not {"bonus", "exceptional", "quality"} & set(names)
    for roster_id, name, bonus, exceptional, quality in before:
        expected: dict[str, object] = {}
        if bonus is not None:
            expected["bonus"] = bonus
        if exceptional:
            expected["exceptional"] = True
        if quality is not None:
            expected["quality"] = quality
        assert json.loads(objects[(roster_id, name)]) == expected, (roster_id, name)
    assert objects[(1, "Ti. Sempronius Longus")] == '{"bonus":0}'
    assert objects[(4, "Hannibal")] == '{"quality":"average"}'
    assert objects[(1, "M. Claudius Marcellus")] == "{}"
    # and down again: the three columns as 0010 held them
    engine = migration_engine(old_store)
    try:
        with engine.begin() as conn:
            command.downgrade(_alembic_config(conn), "0010")
    finally:
        engine.dispose()
    assert _columns(old_store) == before


def test_a_stored_leader_field_out_of_bounds_is_damage(old_store: Path) -> None:
    with open_store(old_store):
        pass
    con = sqlite3.connect(old_store)
    try:
        for roster_id, text in ((1, '{"bonus": [1]}'), (2, "[1]"), (3, '{"bonus": 1e400}')):
            con.execute(
                "UPDATE roster_leader SET fields = ? WHERE roster_id = ?", (text, roster_id)
            )
        con.execute(
            "UPDATE roster_leader SET fields = ? WHERE roster_id = 4",
            ('{"quality": "' + "x" * 40 + '", "exceptional": 12345678901}',),
        )
        con.commit()
    finally:
        con.close()
    with open_store(old_store) as st:
        for roster_id in (1, 2, 3):
            with pytest.raises(StoreDamaged, match="fields is not valid"):
                load_roster(st, roster_id=roster_id)
        with pytest.raises(StoreDamaged, match="fields: exceptional 12,345,678,901 is out"):
            load_roster(st, roster_id=4)
