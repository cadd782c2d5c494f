"""Battles in the store: saved after every command, resumed where they stopped, and the
0001 -> 0002 migration that added them backs the file up first."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command

from app.core.battle import Act, BattleSession, MoveUnit, NextPhase, StartBattle, new_battle
from app.core.edits import AddUnit
from app.core.roster import Roster, new_roster, unit_from_entry
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.store import Store, load_roster, open_store, save_roster
from app.store.battles import (
    battle_rosters,
    create_battle,
    delete_battle,
    list_battles,
    load_battle,
    save_cursor,
    save_step,
)
from app.store.engine import _alembic_config, migration_engine
from tests.core.battle.toy import ToyMechanics


def rosters(registry: Registry) -> tuple[Roster, Roster]:
    rs = registry.get("d3-ancients")
    out = []
    for army in ("roman", "carthaginian"):
        r = new_roster(rs, army, name=army)
        entry = next(iter(rs.army(army).entries))
        out.append(AddUnit(unit_from_entry(rs, army, entry, count=2)).apply(r))
    return out[0], out[1]


def toy_session(registry: Registry) -> BattleSession:
    rs = registry.get("d3-ancients")
    mech = ToyMechanics(rs)
    return BattleSession(rs, mech, new_battle(rs, mech, rosters(registry)), seed=7, name="Toy")


def test_saved_after_each_command_and_resumed(
    store: Store, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    import app.store.battles as battles

    session = toy_session(registry)
    bid = create_battle(store, session=session, rosters=rosters(registry))
    for cmd in (
        StartBattle(),
        MoveUnit(unit="A1", x=20, y=12),
        Act(action="melee", actor="A1", target="B1"),
        NextPhase(),
    ):
        session.do(cmd)
        save_step(store, battle_id=bid, session=session)
    session.undo()
    save_cursor(store, battle_id=bid, session=session)

    monkeypatch.setattr(battles, "mechanics_for", lambda rs: ToyMechanics(rs))
    again = load_battle(store, battle_id=bid, registry=registry)
    assert again.state == session.state
    assert again.cursor == 3 and len(again.steps) == 4  # the redo branch is kept
    assert again.steps == session.steps
    assert again.log_text() == session.log_text()
    again.redo()
    assert again.state == session.steps[3].state
    assert again.replay() == again.state

    [summary] = list_battles(store)
    assert summary.name == "Toy" and summary.steps == 3 and summary.sides == ("Rome", "Carthage")
    a, b = battle_rosters(store, battle_id=bid, registry=registry)
    assert (a.army, b.army) == ("roman", "carthaginian")


def test_a_new_command_after_undo_replaces_the_stored_redo_branch(
    store: Store, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    import app.store.battles as battles

    session = toy_session(registry)
    bid = create_battle(store, session=session, rosters=rosters(registry))
    for cmd in (StartBattle(), MoveUnit(unit="A1", x=20, y=12), MoveUnit(unit="A2", x=30, y=12)):
        session.do(cmd)
        save_step(store, battle_id=bid, session=session)
    session.undo()
    session.undo()
    save_cursor(store, battle_id=bid, session=session)
    session.do(MoveUnit(unit="B1", x=40, y=30))
    save_step(store, battle_id=bid, session=session)
    monkeypatch.setattr(battles, "mechanics_for", lambda rs: ToyMechanics(rs))
    again = load_battle(store, battle_id=bid, registry=registry)
    assert len(again.steps) == 2 and again.state.unit("B1").x == 40
    assert again.state.unit("A1").x != 20


def test_a_kill_loses_at_most_the_action_in_flight(
    db_path: Path, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    import app.store.battles as battles

    store = open_store(db_path)
    session = toy_session(registry)
    bid = create_battle(store, session=session, rosters=rosters(registry))
    session.do(StartBattle())
    save_step(store, battle_id=bid, session=session)
    session.do(MoveUnit(unit="A1", x=20, y=12))  # executed but the process dies before saving
    store.close()
    monkeypatch.setattr(battles, "mechanics_for", lambda rs: ToyMechanics(rs))
    again = load_battle(open_store(db_path), battle_id=bid, registry=registry)
    assert again.cursor == 1 and again.state == session.steps[0].state


def test_real_mechanics_are_loaded_for_a_stored_battle(store: Store, registry: Registry) -> None:
    rs = registry.get("d3-ancients")
    mech = mechanics_for(rs)
    session = BattleSession(rs, mech, new_battle(rs, mech, rosters(registry)), seed=3)
    bid = create_battle(store, session=session, rosters=rosters(registry))
    assert type(load_battle(store, battle_id=bid, registry=registry).mechanics) is type(mech)


def test_delete_battle(store: Store, registry: Registry) -> None:
    bid = create_battle(store, session=toy_session(registry), rosters=rosters(registry))
    delete_battle(store, battle_id=bid)
    assert list_battles(store) == []
    with pytest.raises(KeyError, match="no battle"):
        load_battle(store, battle_id=bid, registry=registry)


def test_upgrade_from_0001_backs_up_and_keeps_rosters(db_path: Path, full_roster: Roster) -> None:
    engine = migration_engine(db_path)
    with engine.begin() as conn:
        command.upgrade(_alembic_config(conn), "0001")
    engine.dispose()
    # A roster saved by the 0001 schema (the roster tables are unchanged by 0002).
    import sqlite3

    con = sqlite3.connect(db_path)
    assert {r[0] for r in con.execute("select name from sqlite_master")} >= {"roster"}
    assert "battle" not in {r[0] for r in con.execute("select name from sqlite_master")}
    con.close()
    original = db_path.read_bytes()

    store = open_store(db_path)
    assert store.backup is not None and store.backup.read_bytes() == original
    assert "bak-0001-" in store.backup.name
    assert store.revision == "0002"
    rid = save_roster(store, roster=full_roster)
    assert load_roster(store, roster_id=rid) == full_roster
    store.close()
