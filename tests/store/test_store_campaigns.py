"""Campaigns in the store: saved as they happen, undo kept, a stale copy refused, damaged
content a one-line message."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic import command

from app.core.battle.result import hand_result
from app.core.campaign.chronicle import strength
from app.core.campaign.fight import battle_rosters
from app.core.campaign.steps import ApplyResult, RecordResult
from app.rules.registry import Registry
from app.store import open_store
from app.store.campaigns import (
    campaign_for_update,
    create_campaign,
    find_campaign,
    list_campaigns,
    load_campaign,
    save_campaign,
)
from app.store.engine import StaleWrite, Store, StoreDamaged
from tests.core.campaign.helpers import leg_vi_campaign
from tests.store.conftest import sql


def _record_and_apply(session, battle: str) -> None:  # type: ignore[no-untyped-def]
    rosters = battle_rosters(session.campaign, battle)
    result = hand_result(rosters, winner=1, fates={"servilius": ("killed", 0)})
    session.do(RecordResult(battle, result))
    session.do(ApplyResult(battle))


def test_saved_as_it_happens_and_reloaded_equal(store: Store, registry: Registry) -> None:
    session = leg_vi_campaign(registry)
    cid = create_campaign(store, session=session)
    with campaign_for_update(store, campaign_id=cid, registry=registry) as s:
        _record_and_apply(s, "Trebia")
    loaded = load_campaign(store, campaign_id=cid, registry=registry)
    assert loaded.cursor == 5
    assert loaded.campaign.side("rome").army.leader("servilius").status.value == "killed"
    with campaign_for_update(store, campaign_id=cid, registry=registry) as s:
        s.undo()
    again = load_campaign(store, campaign_id=cid, registry=registry)
    assert again.cursor == 4 and len(again.done) == 5
    assert again.campaign == loaded.at(4)
    # a new step after an undo drops the stored redo branch
    with campaign_for_update(store, campaign_id=cid, registry=registry) as s:
        s.undo()
        _record_and_apply(s, "Trebia")
    final = load_campaign(store, campaign_id=cid, registry=registry)
    assert len(final.done) == 5 and final.campaign == loaded.campaign
    assert [c.name for c in list_campaigns(store)] == ["Italy"]
    assert find_campaign(store, key="italy") == cid == find_campaign(store, key=str(cid))
    with pytest.raises(LookupError):
        find_campaign(store, key="Gaul")


def test_a_write_from_a_stale_copy_is_refused(store: Store, registry: Registry) -> None:
    cid = create_campaign(store, session=leg_vi_campaign(registry))
    window = load_campaign(store, campaign_id=cid, registry=registry)
    with campaign_for_update(store, campaign_id=cid, registry=registry) as s:
        s.undo()  # the command line, meanwhile
    window.undo()
    with pytest.raises(StaleWrite, match="changed elsewhere"):
        save_campaign(store, campaign_id=cid, session=window)
    assert load_campaign(store, campaign_id=cid, registry=registry).cursor == 2


@pytest.mark.parametrize(
    ("column", "value", "why"),
    [
        ("delta", '{"sides": {"items": {}, "length": 7}}', "leaves 2 items, not 7"),
        ("delta", '{"battles": {"items": {"5": {"whole": 1}}, "length": 6}}', "item 5 of 2"),
        ("delta", '{"battles": {"items": {"2": {"whole": 1}}, "length": 3}}', "battles"),
        ("delta", "{not json", "Expecting property name"),
        ("n", "9", "step 3 is missing"),
    ],
)
def test_damaged_content_is_one_line(
    store: Store, registry: Registry, column: str, value: str, why: str
) -> None:
    """A step damaged so that no campaign can be built from it is found when the campaign
    is read, in one line."""
    cid = create_campaign(store, session=leg_vi_campaign(registry))
    sql(store, f"UPDATE campaign_step SET {column} = :s WHERE n = 2", s=value)
    with pytest.raises(StoreDamaged, match=f"campaign {cid} cannot be read .*{why}"):
        load_campaign(store, campaign_id=cid, registry=registry)


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("delta", '{"name": {"whole": 3}}'),
        ("delta", '{"name": {"whole": "Gaul"}}'),
        ("digest", "0" * 64),
    ],
)
def test_no_step_is_written_on_a_damaged_campaign(
    store: Store, registry: Registry, column: str, value: str
) -> None:
    """A campaign read back is not validated again (it was when it was written), but its
    digest is checked before a step is written on top of it: a change to a stored step
    that still builds a campaign is refused there, and nothing is written."""
    from app.core.campaign.model import Participant
    from app.core.campaign.steps import AddBattle

    cid = create_campaign(store, session=leg_vi_campaign(registry))
    sql(store, f"UPDATE campaign_step SET {column} = :s WHERE n = 2", s=value)
    with (
        pytest.raises(StoreDamaged, match=f"campaign {cid} cannot be changed .*after step 3"),
        campaign_for_update(store, campaign_id=cid, registry=registry) as s,
    ):
        s.do(AddBattle("Zama", (Participant("rome"), Participant("carthage"))))
    assert sql(store, "SELECT count(*) FROM campaign_step") == [(3,)]


def test_a_damaged_start_is_one_line(store: Store, registry: Registry) -> None:
    cid = create_campaign(store, session=leg_vi_campaign(registry))
    sql(store, "UPDATE campaign SET start = :s", s='{"name": 3}')
    with pytest.raises(StoreDamaged, match=f"campaign {cid} cannot be read"):
        load_campaign(store, campaign_id=cid, registry=registry)


def test_the_collector_is_back_after_a_read(store: Store, registry: Registry) -> None:
    """A campaign is read with the cyclic collector paused: it is on again after the read,
    whether the read worked or the campaign was refused."""
    import gc

    cid = create_campaign(store, session=leg_vi_campaign(registry))
    assert gc.isenabled()
    load_campaign(store, campaign_id=cid, registry=registry)
    assert gc.isenabled()
    sql(store, "UPDATE campaign SET start = :s", s='{"name": 3}')
    with pytest.raises(StoreDamaged):
        load_campaign(store, campaign_id=cid, registry=registry)
    assert gc.isenabled()


def _long_campaign(registry: Registry, battles: int = 8):  # type: ignore[no-untyped-def]
    """The Leg VI campaign with ``battles`` battles recorded (losses each time) and applied:
    more steps than a snapshot is apart."""
    from app.core.campaign.model import Participant
    from app.core.campaign.steps import AddBattle

    session = leg_vi_campaign(registry)
    for k in range(3, battles):
        session.do(AddBattle(f"Battle {k + 1}", (Participant("rome"), Participant("carthage"))))
    for k, b in enumerate(session.campaign.battles):
        rosters = battle_rosters(session.campaign, b.id)
        velites = [u for u in rosters[0].units if u.id == "velites"]
        ends = {(0, "velites", 0): max(velites[0].size - 1, 1)} if k % 2 and velites else {}
        session.do(RecordResult(b.id, hand_result(rosters, winner=k % 2, ends=ends)))
        session.do(ApplyResult(b.id))
    return session


def test_a_campaign_is_stored_as_changes_and_every_state_read_back(
    store: Store, registry: Registry
) -> None:
    """Each step stores its change and a digest, a whole campaign only every SNAPSHOT_EVERY
    steps or more; every past campaign is rebuilt exactly, undo and redo as before."""
    from app.store.campaigns import SNAPSHOT_EVERY

    session = _long_campaign(registry, battles=15)
    steps = len(session.done)
    assert steps > 2 * SNAPSHOT_EVERY
    session.undo()
    cid = create_campaign(store, session=session)
    rows = sql(
        store,
        "SELECT n, snapshot IS NOT NULL, length(delta), kind FROM campaign_step "
        "WHERE campaign_id = :c ORDER BY n",
        c=cid,
    )
    wholes = [n for n, whole, _, _ in rows if whole]
    gaps = [b - a for a, b in itertools.pairwise([-1, *wholes])]
    assert wholes and min(gaps) >= SNAPSHOT_EVERY
    assert max(size for _, _, size, kind in rows if kind == "add-battle") < 600
    again = load_campaign(store, campaign_id=cid, registry=registry)
    assert again.cursor == steps - 1 and len(again.done) == steps
    for n in range(steps + 1):
        assert again.at(n) == session.at(n)
    assert again.done == session.done
    rs = again.ruleset
    assert strength(rs, again) == strength(rs, session)  # read from the sides alone
    with campaign_for_update(store, campaign_id=cid, registry=registry) as s:
        s.redo()
        s.undo()
        s.undo()
    with campaign_for_update(store, campaign_id=cid, registry=registry) as s:
        assert s.campaign == session.at(steps - 2)
        s.redo()
        s.redo()
    final = load_campaign(store, campaign_id=cid, registry=registry)
    assert final.cursor == steps and final.campaign == session.at(steps)


def test_upgrade_to_0010_keeps_every_step_undo_and_redo(db_path: Path, registry: Registry) -> None:
    """A campaign stored with a whole campaign a step (0008) keeps every step, its undo and
    its redo through the migration, and the file is backed up first."""
    import json

    from app.core.campaign.serialize import campaign_to_dict
    from app.store.engine import _alembic_config, migration_engine

    store = open_store(db_path)
    session = _long_campaign(registry, battles=5)
    session.undo()
    session.undo()
    cid = create_campaign(store, session=session)
    store.close()
    engine = migration_engine(db_path)
    with engine.begin() as conn:
        command.downgrade(_alembic_config(conn), "0008")
    engine.dispose()
    con = sqlite3.connect(db_path)
    states = con.execute("SELECT state FROM campaign_step ORDER BY n").fetchall()
    con.close()
    # as 0008 stored them: each step's whole campaign
    assert [json.loads(s) for (s,) in states] == [
        campaign_to_dict(session.at(n)) for n in range(1, len(session.done) + 1)
    ]
    store = open_store(db_path)
    assert store.backup is not None and "bak-0008-" in store.backup.name
    again = load_campaign(store, campaign_id=cid, registry=registry)
    assert again.cursor == session.cursor and again.done == session.done
    with campaign_for_update(store, campaign_id=cid, registry=registry) as s:
        s.redo()
        s.redo()
    assert load_campaign(store, campaign_id=cid, registry=registry).campaign == session.at(
        len(session.done)
    )
    store.close()


def test_a_step_that_changes_more_than_its_kind_may_is_not_saved(
    store: Store, registry: Registry
) -> None:
    """The store reads a past state's sides from the sides' changes alone, skipping steps
    whose kind leaves them as they are: a step that broke that would make the chart wrong,
    so it is refused in one line and nothing is written."""
    from app.core.campaign.steps import Promote
    from app.store.engine import StoreError

    class Mislabelled(Promote):
        changes = frozenset({"battles"})

    cid = create_campaign(store, session=leg_vi_campaign(registry))
    with (
        pytest.raises(StoreError, match="changed sides, which a step of its kind never does"),
        campaign_for_update(store, campaign_id=cid, registry=registry) as s,
    ):
        s.do(Mislabelled("rome", "varro", "paullus"))
    assert sql(store, "SELECT count(*) FROM campaign_step") == [(3,)]


def test_a_battles_armies_are_built_when_first_read(store: Store, registry: Registry) -> None:
    """A battle read back holds its armies as they went in, the same as the campaign that
    recorded them, built only when they are read (the Campaigns window never reads them)."""
    from app.core.later import Later

    cid = create_campaign(store, session=leg_vi_campaign(registry))
    with campaign_for_update(store, campaign_id=cid, registry=registry) as s:
        _record_and_apply(s, "Trebia")
        made = s.campaign
    trebia = load_campaign(store, campaign_id=cid, registry=registry).campaign.battle("Trebia")
    assert type(trebia.__dict__["_later_went_in"]) is Later
    assert trebia.went_in is not None and trebia.went_in == made.battle("Trebia").went_in
    assert trebia == made.battle("Trebia")


def test_a_campaign_read_and_dropped_is_freed_at_once(store: Store, registry: Registry) -> None:
    """A campaign read back and dropped is freed by reference counting, nothing of it left
    in a cycle for the collector (a battle's armies, built when first read, held the
    builder that held the battle: each read of a 50-battle campaign, its battles and their
    results, some 6,500 objects, waited for a pass of the collector). A battle kept after
    the rest is gone still builds its armies when they are read, the same."""
    import gc
    import weakref

    from app.store.campaigns import forget_decoded

    cid = create_campaign(store, session=leg_vi_campaign(registry))
    with campaign_for_update(store, campaign_id=cid, registry=registry) as s:
        _record_and_apply(s, "Trebia")
        made = s.campaign.battle("Trebia")
    collecting = gc.isenabled()
    gc.disable()
    try:
        forget_decoded()
        loaded = load_campaign(store, campaign_id=cid, registry=registry)
        battle = weakref.ref(loaded.campaign.battle("Trebia"))
        del loaded
        forget_decoded()
        assert battle() is None

        loaded = load_campaign(store, campaign_id=cid, registry=registry)
        trebia = loaded.campaign.battle("Trebia")
        del loaded
        forget_decoded()
        assert trebia.went_in is not None and trebia.went_in == made.went_in
    finally:
        if collecting:
            gc.enable()


def _record_losses(store: Store, registry: Registry) -> tuple[int, Any]:
    """A campaign whose Trebia was recorded with losses on both sides and a unit lost on
    each; its id and the Trebia as recorded."""
    session = leg_vi_campaign(registry)
    rosters = battle_rosters(session.campaign, "Trebia")
    ends = {(k, r.units[0].id, 0): r.units[0].size - 1 for k, r in enumerate(rosters)}
    lost = {(k, r.units[1].id, 0): "routed off" for k, r in enumerate(rosters)}
    result = hand_result(rosters, winner=1, ends=ends, lost=lost)
    session.do(RecordResult("Trebia", result))
    return create_campaign(store, session=session), session.campaign.battle("Trebia")


def test_a_results_units_are_made_when_first_read(store: Store, registry: Registry) -> None:
    """A result read back holds each side's units as recorded, made only when they are read
    (a 50-battle campaign has some 3,600); what the window shows of them (each side's
    losses in all, the units lost) is known without making them, the same as from them."""
    from app.core.battle.result import UnitsLater
    from app.core.campaign.chronicle import result_words

    cid, made = _record_losses(store, registry)
    loaded = load_campaign(store, campaign_id=cid, registry=registry)
    trebia = loaded.campaign.battle("Trebia")
    assert trebia.result is not None and made.result is not None
    words = result_words(loaded.ruleset, loaded.campaign, trebia)
    for side, recorded in zip(trebia.result.sides, made.result.sides, strict=True):
        assert type(side.__dict__["_later_units"]) is UnitsLater  # read, not made
        assert side.losses == recorded.losses == sum(u.losses for u in recorded.units) > 0
        assert side.gone == recorded.gone == (recorded.units[1].name,)
    assert words == result_words(loaded.ruleset, loaded.campaign, made)  # from the units
    assert all(type(s.__dict__["_later_units"]) is UnitsLater for s in trebia.result.sides)
    assert trebia.result == made.result and trebia == made  # made now, the same
    assert trebia.result.sides[0].units == made.result.sides[0].units


def test_a_damaged_unit_of_a_result_is_one_line_when_read(store: Store, registry: Registry) -> None:
    """A result's unit damaged in the store (a part Castra never writes) is found when the
    units are read, in the store's one line: the campaign reads and its chronicle words
    show; a unit missing its strength is refused when the campaign is read."""
    import json

    from app.core.campaign.chronicle import result_words

    cid, _ = _record_losses(store, registry)
    ((text,),) = sql(store, "SELECT delta FROM campaign_step WHERE kind = 'record'")
    change = json.loads(text)
    whole = change["battles"]["items"]["0"]["keys"]["result"]["whole"]
    whole["sides"][0]["units"][2]["colour"] = "red"
    sql(store, "UPDATE campaign_step SET delta = :s WHERE kind = 'record'", s=json.dumps(change))
    loaded = load_campaign(store, campaign_id=cid, registry=registry)
    trebia = loaded.campaign.battle("Trebia")
    assert trebia.result is not None
    assert any("lost" in w for w in result_words(loaded.ruleset, loaded.campaign, trebia))
    for _ in range(2):
        with pytest.raises(
            StoreDamaged, match=rf"campaign {cid} cannot be read \(.*battles\[0\]\.result: "
        ):
            _ = trebia.result.sides[0].units

    del whole["sides"][0]["units"][2]["colour"], whole["sides"][0]["units"][2]["end"]
    sql(store, "UPDATE campaign_step SET delta = :s WHERE kind = 'record'", s=json.dumps(change))
    with pytest.raises(StoreDamaged, match=rf"campaign {cid} cannot be read \(.*result: "):
        load_campaign(store, campaign_id=cid, registry=registry)


def _damage_went_in(store: Store) -> None:
    import json

    ((text,),) = sql(store, "SELECT delta FROM campaign_step WHERE kind = 'record'")
    change = json.loads(text)
    change["battles"]["items"]["0"]["keys"]["went_in"] = {"whole": [{"name": 3}, {}]}
    sql(store, "UPDATE campaign_step SET delta = :s WHERE kind = 'record'", s=json.dumps(change))


def test_damaged_armies_of_a_battle_are_one_line_when_read(
    store: Store, registry: Registry
) -> None:
    """Armies damaged in the store are found when they are read, in the store's one line:
    the rest of the campaign reads and shows."""
    cid = create_campaign(store, session=leg_vi_campaign(registry))
    with campaign_for_update(store, campaign_id=cid, registry=registry) as s:
        _record_and_apply(s, "Trebia")
    _damage_went_in(store)
    loaded = load_campaign(store, campaign_id=cid, registry=registry)
    trebia = loaded.campaign.battle("Trebia")
    assert trebia.result is not None and trebia.applied
    for _ in range(2):
        with pytest.raises(
            StoreDamaged, match=rf"campaign {cid} cannot be read \(.*battles\[0\]\.went_in\[0\]"
        ):
            _ = trebia.went_in


def test_a_campaign_read_again_is_not_decoded_again(
    store: Store, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A campaign read again while the store holds the same whole state (picked again in
    the window, reloaded after another member's step) reuses that state as decoded and the
    battles built from it; a state whose stored bytes changed is decoded (and refused when
    damaged), and only the last READ_KEPT whole states are kept."""
    from collections import OrderedDict

    import app.store.campaigns as stored
    from app.core.campaign.model import Participant
    from app.core.campaign.steps import AddBattle
    from app.core.campaign.stored import unpack_campaign
    from app.core.timeline import pack_snapshot

    decoded: list[bytes] = []

    def counted(blob: bytes) -> object:
        decoded.append(blob)
        return unpack_campaign(blob)

    monkeypatch.setattr(stored, "_decoded", OrderedDict())
    monkeypatch.setattr(stored, "unpack_campaign", counted)
    session = _long_campaign(registry, battles=10)
    cid = create_campaign(store, session=session)
    assert sql(store, "SELECT count(*) FROM campaign_step WHERE snapshot IS NOT NULL") == [(1,)]
    first = load_campaign(store, campaign_id=cid, registry=registry)
    again = load_campaign(store, campaign_id=cid, registry=registry)
    assert len(decoded) == 1
    assert first.campaign == again.campaign == session.campaign
    assert again.campaign.battles[0] is first.campaign.battles[0]  # built once
    assert again.at(0) == session.at(0) and again.done == session.done
    with campaign_for_update(store, campaign_id=cid, registry=registry) as s:
        s.do(AddBattle("Zama", (Participant("rome"), Participant("carthage"))))
        made = s.campaign
    after = load_campaign(store, campaign_id=cid, registry=registry)
    assert len(decoded) == 1  # the new step is a change on the same whole state
    assert after.campaign == made and after.campaign.battles[-1].name == "Zama"

    sql(store, "UPDATE campaign_step SET snapshot = :s WHERE snapshot IS NOT NULL", s=b"x")
    with pytest.raises(StoreDamaged, match=f"campaign {cid} cannot be read"):
        load_campaign(store, campaign_id=cid, registry=registry)
    damaged = pack_snapshot({"name": 3})
    sql(store, "UPDATE campaign_step SET snapshot = :s WHERE snapshot IS NOT NULL", s=damaged)
    with pytest.raises(StoreDamaged, match=f"campaign {cid} cannot be read"):
        load_campaign(store, campaign_id=cid, registry=registry)
    assert decoded[-1] == damaged

    monkeypatch.setattr(stored, "READ_KEPT", 1)
    other = create_campaign(store, session=session)
    load_campaign(store, campaign_id=other, registry=registry)
    assert list(stored._decoded) == [(other, decoded[-1])] and decoded[-1] == decoded[0]
    load_campaign(store, campaign_id=other, registry=registry)
    assert len(decoded) == 4  # the one kept, not decoded again
    stored.forget_decoded()
    assert not stored._decoded
    load_campaign(store, campaign_id=other, registry=registry)
    assert len(decoded) == 5  # forgotten: decoded again, as a first read in a process is
