"""Battles in the store: saved after every command, resumed where they stopped, loaded
without decoding every step's state, knowing the ruleset data they were recorded with; and
the migrations that added them (0002) and that record (0003) back the file up first."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import replace
from pathlib import Path

import pytest
from alembic import command

from app.core.battle import Act, BattleSession, MoveUnit, NextPhase, StartBattle, new_battle
from app.core.battle.session import DataStamp
from app.core.edits import AddUnit
from app.core.roster import Roster, new_roster, unit_from_entry
from app.rules.fingerprint import fingerprint
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.store import SCHEMA_HEAD, Store, load_roster, open_store, save_roster
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
from tests.store.conftest import same_database, sql


def rosters(registry: Registry, count: int = 2) -> tuple[Roster, Roster]:
    rs = registry.get("d3-ancients")
    out = []
    for army in ("roman", "carthaginian"):
        r = new_roster(rs, army, name=army)
        entry = next(iter(rs.army(army).entries))
        out.append(AddUnit(unit_from_entry(rs, army, entry, count=count)).apply(r))
    return out[0], out[1]


def toy_session(registry: Registry, count: int = 2) -> BattleSession:
    rs = registry.get("d3-ancients")
    mech = ToyMechanics(rs)
    return BattleSession(
        rs, mech, new_battle(rs, mech, rosters(registry, count)), seed=7, name="Toy"
    )


@pytest.fixture
def toy_mechanics(monkeypatch: pytest.MonkeyPatch) -> None:
    import app.store.battles as battles

    monkeypatch.setattr(battles, "mechanics_for", lambda rs: ToyMechanics(rs))


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


def test_a_seed_of_64_bits_is_stored(store: Store, registry: Registry, toy_mechanics: None) -> None:
    """``castra battle new --seed`` takes any number up to 2**63 - 1: both engines keep it."""
    session = toy_session(registry)
    session.seed = 2**63 - 1
    bid = create_battle(store, session=session, rosters=rosters(registry))
    assert load_battle(store, battle_id=bid, registry=registry).seed == 2**63 - 1


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


def test_a_battle_stored_with_d3_keys_in_every_side_record_still_plays(
    store: Store, registry: Registry
) -> None:
    """Before the rulesets kept their own side records, every battle's sides carried D3's
    ``commander_quality`` and ``supply_problems``. Such a stored Quincunx battle loads,
    replays every step to its recorded state and redoes with the recorded rolls."""
    rs = registry.get("quincunx")
    mech = mechanics_for(rs)
    made = []
    for army in ("roman", "carthaginian"):
        r = new_roster(rs, army, name=army)
        for entry in list(rs.army(army).entries)[:2]:
            r = AddUnit(unit_from_entry(rs, army, entry)).apply(r)
        made.append(r)
    pair = (made[0], made[1])
    state = new_battle(rs, mech, pair)
    old = {"commander_quality": "average", "supply_problems": False}
    state = replace(
        state,
        sides=(
            replace(state.sides[0], record={**state.sides[0].record, **old}),
            replace(state.sides[1], record={**state.sides[1].record, **old}),
        ),
    )
    # the melee needs the two units in contact: A1 front to front with B1
    b1 = next(u for u in state.units if u.id == "B1")
    state = replace(
        state,
        units=tuple(
            replace(u, x=b1.x, y=b1.y - (b1.depth + u.depth) / 2, facing=0.0) if u.id == "A1" else u
            for u in state.units
        ),
    )
    assert b1.facing == 180.0
    session = BattleSession(rs, mech, state, seed=11, name="Old Quincunx")
    bid = create_battle(store, session=session, rosters=pair)
    for cmd in (StartBattle(), NextPhase(), NextPhase(), Act("melee", "A1", "B1"), NextPhase()):
        session.do(cmd)
        save_step(store, battle_id=bid, session=session)

    again = load_battle(store, battle_id=bid, registry=registry)
    assert again.state == session.state and again.steps == session.steps
    assert again.state.sides[0].record["commander_quality"] == "average"
    for k in range(len(again.steps) + 1):
        assert again.replay(k) == (again.steps[k - 1].state if k else again.initial)
    while again.can_undo():
        again.undo()
    while again.can_redo():
        again.redo()  # re-executes with the recorded rolls; a divergence would raise
    assert again.state == session.state


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
    assert store.backup is not None
    assert same_database(store.backup, original, db_path.with_name("original"))
    assert "bak-0001-" in store.backup.name
    assert store.revision == SCHEMA_HEAD
    rid = save_roster(store, roster=full_roster)
    assert load_roster(store, roster_id=rid) == full_roster
    store.close()


# --------------------------------------------------------------------------- recorded data


def test_a_battle_records_the_ruleset_data_it_was_created_with(
    store: Store, registry: Registry, toy_mechanics: None
) -> None:
    from app.store.models import BattleRow

    session = toy_session(registry)
    session.do(StartBattle())
    bid = create_battle(store, session=session, rosters=rosters(registry))
    rs = registry.get("d3-ancients")
    again = load_battle(store, battle_id=bid, registry=registry)
    assert again.recorded == DataStamp(rs.meta.data_version, fingerprint(rs))
    assert not again.data_changed and again.data_warning() is None
    with store.session() as db:
        row = db.get(BattleRow, bid)
        assert row is not None
        assert (row.data_version, row.data_fingerprint) == (rs.meta.data_version, fingerprint(rs))
        row.data_fingerprint = "f" * 64  # as if the data had been edited since
        db.add(row)
    changed = load_battle(store, battle_id=bid, registry=registry)
    assert changed.data_changed
    assert "recorded with d3-ancients data" in str(changed.data_warning())
    # a copy of a loaded battle keeps the data it was recorded with
    copy = create_battle(store, session=changed, rosters=rosters(registry))
    assert load_battle(store, battle_id=copy, registry=registry).recorded == changed.recorded


def test_upgrade_from_0002_keeps_battles_and_backs_up_first(
    db_path: Path, registry: Registry, toy_mechanics: None
) -> None:
    """0003 adds the recorded data as nullable columns: a battle from before says nothing."""
    store = open_store(db_path)
    session = toy_session(registry)
    session.do(StartBattle())
    session.do(MoveUnit(unit="A1", x=20, y=12))
    bid = create_battle(store, session=session, rosters=rosters(registry))
    store.close()
    engine = migration_engine(db_path)
    with engine.begin() as conn:
        command.downgrade(_alembic_config(conn), "0002")
    engine.dispose()
    con = sqlite3.connect(db_path)
    columns = {r[1] for r in con.execute("PRAGMA table_info(battle)")}
    assert "data_fingerprint" not in columns and "cursor" in columns
    con.close()

    store = open_store(db_path)
    assert store.backup is not None and "bak-0002-" in store.backup.name
    assert store.revision == SCHEMA_HEAD
    again = load_battle(store, battle_id=bid, registry=registry)
    assert again.recorded is None and not again.data_changed
    assert again.steps == session.steps and again.state == session.state
    store.close()
    con = sqlite3.connect(db_path)
    [(sql,)] = con.execute("SELECT sql FROM sqlite_master WHERE name = 'battle'").fetchall()
    assert "AUTOINCREMENT" in sql  # kept through the batch migrations
    con.close()


# --------------------------------------------------------------------------- loading cost


def _count_decodes(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every state built from its stored data (:func:`state_from_dict` in the timeline)
    from now on, in order."""
    import app.core.battle.timeline as timeline

    decoded: list[object] = []
    real = timeline.state_from_dict

    def counting(d: object) -> object:
        decoded.append(d)
        return real(d)  # type: ignore[arg-type]

    monkeypatch.setattr(timeline, "state_from_dict", counting)
    return decoded


def test_loading_decodes_a_step_state_only_when_it_is_read(
    store: Store, registry: Registry, toy_mechanics: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No step state is decoded at load; the cursor's is rebuilt (from the initial state and
    the stored changes) when read, and kept in a small cache."""
    session = toy_session(registry)
    for cmd in (StartBattle(), MoveUnit(unit="A1", x=20, y=12), NextPhase()):
        session.do(cmd)
    session.undo()
    bid = create_battle(store, session=session, rosters=rosters(registry))
    decoded = _count_decodes(monkeypatch)
    again = load_battle(store, battle_id=bid, registry=registry)
    assert decoded == []
    assert again.log_text() == session.log_text()  # the log needs no state
    assert again.state == session.state and len(decoded) == 1  # the cursor's only
    assert again.state == session.state and len(decoded) == 1  # cached
    again.redo()  # checked against the recorded digest: nothing decoded
    assert len(decoded) == 1
    assert again.state == session.steps[2].state and len(decoded) == 2
    assert again.steps == session.steps


def test_the_first_state_is_read_only_when_it_is_asked_for(
    store: Store, registry: Registry, toy_mechanics: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A battle opens at its cursor: its first state (before any step) is neither parsed nor
    built at load, only when a replay from the start or an undo to it reads it; a damaged
    one is then refused in one line."""
    import json as json_module

    from app.store.engine import StoreDamaged

    session = toy_session(registry)
    for cmd in (StartBattle(), MoveUnit(unit="A1", x=20, y=12)):
        session.do(cmd)
    bid = create_battle(store, session=session, rosters=rosters(registry))
    decoded = _count_decodes(monkeypatch)
    again = load_battle(store, battle_id=bid, registry=registry)
    assert again.state == session.state and len(decoded) == 1  # the cursor's, not the first
    assert again.initial == session.initial and len(decoded) == 2
    assert again.initial is again.initial  # built once
    again.undo()
    again.undo()
    assert again.state == session.initial
    sql(
        store,
        "UPDATE battle SET initial_state = :s WHERE id = :i",
        s=json_module.dumps({"units": "damaged"}),
        i=bid,
    )
    damaged = load_battle(store, battle_id=bid, registry=registry)  # loads: nothing read
    with pytest.raises(StoreDamaged, match=f"battle {bid} cannot be read"):
        _ = damaged.initial
    with pytest.raises(StoreDamaged, match=f"battle {bid} cannot be read"):
        _ = damaged.state  # built on from the first state: no snapshot before step 20


def test_a_stored_step_is_read_as_json_reads_it(
    store: Store, registry: Registry, toy_mechanics: None
) -> None:
    """A step's command, rolls and lines are read as JSON texts are: blanks around a value
    are read; anything after it, a text that is not JSON or not what a step holds is a damaged
    store, refused in one line naming the battle."""
    import json as json_module

    from app.core.battle.serialize import rolls_to_list
    from app.store.engine import StoreDamaged

    session = toy_session(registry)
    for cmd in (StartBattle(), MoveUnit(unit="A1", x=20, y=12)):
        session.do(cmd)
    bid = create_battle(store, session=session, rosters=rosters(registry))
    step = session.steps[1]
    lines = json_module.dumps(list(step.lines))
    sql(store, "UPDATE battle_step SET lines = :t WHERE n = 1", t=f" {lines}\n")
    assert load_battle(store, battle_id=bid, registry=registry).steps == session.steps
    for column, text in (
        ("lines", f"{lines} []"),
        ("command", '{"kind": "next_phase"} x'),
        ("rolls", "[1"),
        ("rolls", ""),
        ("lines", "5"),
    ):
        sql(store, f"UPDATE battle_step SET {column} = :t WHERE n = 1", t=text)
        with pytest.raises(StoreDamaged, match=f"battle {bid} cannot be read") as refused:
            load_battle(store, battle_id=bid, registry=registry)
        assert "\n" not in str(refused.value)
        sql(
            store,
            "UPDATE battle_step SET command = :c, rolls = :r, lines = :t WHERE n = 1",
            c=json_module.dumps(step.command.to_dict()),
            r=json_module.dumps(rolls_to_list(step.rolls)),
            t=lines,
        )
    assert load_battle(store, battle_id=bid, registry=registry).steps == session.steps


def test_a_stored_step_is_small_and_any_state_is_rebuilt_exactly(
    store: Store, registry: Registry, toy_mechanics: None
) -> None:
    """Only every SNAPSHOT_EVERY-th step stores the whole state; every other state is
    rebuilt from the nearest snapshot and the changes after it, equal to the one played."""
    from app.core.battle.timeline import CACHE_SIZE, SNAPSHOT_EVERY

    session = toy_session(registry, count=20)
    session.do(StartBattle())
    units = session.state.units
    for i in range(2 * SNAPSHOT_EVERY + 5):
        u = session.state.unit(units[i % len(units)].id)
        session.do(MoveUnit(unit=u.id, x=u.x, y=min(u.y + 0.5, session.state.height)))
    bid = create_battle(store, session=session, rosters=rosters(registry, count=20))
    rows = sql(
        store,
        "SELECT n, snapshot IS NOT NULL, length(delta) FROM battle_step WHERE battle_id = :b "
        "ORDER BY n",
        b=bid,
    )
    assert [n for n, whole, _ in rows if whole] == [SNAPSHOT_EVERY - 1, 2 * SNAPSHOT_EVERY - 1]
    assert max(size for n, _, size in rows if n) < 1000  # a move changes one unit
    again = load_battle(store, battle_id=bid, registry=registry)
    for n in range(len(session.steps) + 1):
        expected = session.steps[n - 1].state if n else session.initial
        assert again.replay(n, trust_recorded=True) == expected
        assert again.replay(n) == expected
    assert again.timeline is not None and 0 < again.timeline.cached <= CACHE_SIZE


def test_a_long_battle_loads_quickly(store: Store, registry: Registry, toy_mechanics: None) -> None:
    """300 steps of 76 units (about 34 KB of state JSON each): decoding every state made each
    CLI command take about 0.5 s here; the lazy load takes about 0.04 s."""
    session = toy_session(registry, count=38)
    session.do(StartBattle())
    units = session.state.units
    assert len(units) == 76
    for i in range(299):
        u = session.state.unit(units[i % 76].id)
        session.do(MoveUnit(unit=u.id, x=u.x, y=min(u.y + 0.1, session.state.height)))
    bid = create_battle(store, session=session, rosters=rosters(registry, count=38))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        again = load_battle(store, battle_id=bid, registry=registry)
        assert again.state == session.state
        best = min(best, time.perf_counter() - start)
    assert len(again.steps) == 300
    assert best < 0.25, f"loading 300 steps took {best:.3f} s"


def test_upgrade_to_0005_converts_stored_states_exactly(
    db_path: Path, registry: Registry, toy_mechanics: None
) -> None:
    """Battles stored with a whole state per step (0004) keep every state through 0005."""
    from app.core.battle.timeline import SNAPSHOT_EVERY

    store = open_store(db_path)
    session = toy_session(registry, count=5)
    session.do(StartBattle())
    for i in range(SNAPSHOT_EVERY + 3):
        u = session.state.units[i % 10]
        session.do(MoveUnit(unit=u.id, x=u.x, y=min(u.y + 0.25, session.state.height)))
    session.undo()
    bid = create_battle(store, session=session, rosters=rosters(registry, count=5))
    store.close()
    engine = migration_engine(db_path)
    with engine.begin() as conn:
        command.downgrade(_alembic_config(conn), "0004")
    engine.dispose()
    con = sqlite3.connect(db_path)
    assert "state" in {r[1] for r in con.execute("PRAGMA table_info(battle_step)")}
    con.close()
    store = open_store(db_path)
    assert store.backup is not None and "bak-0004-" in store.backup.name
    again = load_battle(store, battle_id=bid, registry=registry)
    assert again.cursor == session.cursor and again.steps == session.steps
    assert again.replay(len(session.steps)) == session.steps[-1].state
    store.close()


def test_a_damaged_step_change_is_refused_when_it_is_read(
    store: Store, registry: Registry, toy_mechanics: None
) -> None:
    """A step's change is read from its JSON text only when a state needs it: the battle
    opens, the states before the damaged step read, and the states after it refuse in one
    line naming the battle."""
    from app.store.engine import StoreDamaged

    session = toy_session(registry)
    for cmd in (StartBattle(), MoveUnit(unit="A1", x=20, y=12), MoveUnit(unit="A1", x=22, y=12)):
        session.do(cmd)
    bid = create_battle(store, session=session, rosters=rosters(registry))
    sql(store, "UPDATE battle_step SET delta = :t WHERE n = 2", t="{not json")
    damaged = load_battle(store, battle_id=bid, registry=registry)  # nothing read yet
    assert damaged.steps[1].state == session.steps[1].state
    with pytest.raises(StoreDamaged, match=f"battle {bid} cannot be read") as refused:
        _ = damaged.steps[2].state
    assert "\n" not in str(refused.value) and "not valid JSON" in str(refused.value)
