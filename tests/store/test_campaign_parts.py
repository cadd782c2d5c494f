"""A campaign's whole states stored as a head and parts (schema 0012): a store written
before reads, is migrated (backed up first) into the new form with every state, digest, undo
and redo kept, and a damaged part is the store's one-line error when it is read.

``tests/data/campaign-0011.sqlite3.gz`` was made by Castra at commit ba57de9 (store schema
0011, whole states compressed whole) with ``scripts/bench.py``'s campaign of 8 Quincunx
battles (the Hannibal in Italy template's three and five more, each recorded by hand with
losses and applied: 24 steps, a whole state stored after step 20), its last two steps then
undone (the cursor at 22)."""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any

import pytest
from alembic import command

from app.core.campaign.serialize import campaign_to_dict
from app.core.campaign.stored import PARTED, Builder, unpack_campaign
from app.core.timeline import apply_delta, digest, load_json, unpack_snapshot
from app.rules.registry import Registry
from app.store import open_store
from app.store.campaigns import campaign_for_update, forget_decoded, load_campaign
from app.store.engine import SCHEMA_HEAD, StoreDamaged, _alembic_config, migration_engine
from tests.stored_fixtures import sql, unzipped

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "campaign-0011.sqlite3.gz"


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    return unzipped(FIXTURE, tmp_path / "castra.sqlite3")


def _rows(path: Path) -> list[tuple[Any, ...]]:
    return sql(
        path,
        "SELECT n, digest, delta, snapshot FROM campaign_step WHERE campaign_id = 1 ORDER BY n",
    )


def _start(path: Path) -> Any:
    return load_json(sql(path, "SELECT start FROM campaign WHERE id = 1")[0][0])


def _old_states(path: Path) -> list[Any]:
    """Every state of the campaign as a store of schema 0011 holds it, rebuilt from its rows
    as that schema reads them (a whole state compressed whole)."""
    state = _start(path)
    states = []
    for _, _, change, snapshot in _rows(path):
        if snapshot is not None:
            assert not bytes(snapshot).startswith(PARTED)
            state = unpack_snapshot(bytes(snapshot))
        else:
            state = apply_delta(state, load_json(change))
        states.append(state)
    return states


def test_the_fixture_is_what_it_says(old_store: Path) -> None:
    assert sql(old_store, "SELECT version_num FROM alembic_version") == [("0011",)]
    assert sql(old_store, "SELECT cursor FROM campaign WHERE id = 1") == [(22,)]
    rows = _rows(old_store)
    assert len(rows) == 24 and [n for n, *_, s in rows if s is not None] == [19]
    states = _old_states(old_store)
    assert [digest(s) for s in states] == [dg for _, dg, _, _ in rows]
    last = states[19]["battles"]
    assert sum(b["went_in"] is not None for b in last) >= 6
    assert sum(b["result"] is not None for b in last) >= 6


def test_migration_0012_stores_every_whole_state_as_a_head_and_parts(
    old_store: Path, registry: Registry
) -> None:
    """After a backup of the 0011 file, every whole state stored is rewritten as a head and
    parts, no larger; every step's state reads back with the digest it had, and undo, redo
    and a new step work across the migration; going down puts back the very bytes 0011
    stored."""
    before = _rows(old_store)
    states = _old_states(old_store)
    digests = [digest(s) for s in states]
    with open_store(old_store) as st:
        assert st.revision == SCHEMA_HEAD == "0012"
        assert st.backup is not None and _rows(st.backup) == before
        after = _rows(old_store)
        assert [(n, dg, change) for n, dg, change, _ in after] == [r[:3] for r in before]
        (old,) = [bytes(s) for *_, s in before if s is not None]
        (new,) = [bytes(s) for *_, s in after if s is not None]
        assert new.startswith(PARTED) and len(new) <= len(old)
        assert digest(unpack_campaign(new)) == digests[19]

        forget_decoded()
        session = load_campaign(st, campaign_id=1, registry=registry)
        assert session.cursor == 22
        for n in range(1, 25):
            assert session.timeline is not None
            assert digest(session.timeline.state_dict(n)) == digests[n - 1], n
            assert digest(campaign_to_dict(session.at(n))) == digests[n - 1], n
        assert session.campaign == Builder().campaign(states[21])

        forget_decoded()
        with campaign_for_update(st, campaign_id=1, registry=registry) as live:
            live.redo()
            live.redo()
            assert digest(campaign_to_dict(live.campaign)) == digests[23]
            while live.cursor > 18:  # back past the whole state stored
                live.undo()
            assert digest(campaign_to_dict(live.campaign)) == digests[17]
            live.redo()
            live.redo()
            live.redo()
        forget_decoded()
        again = load_campaign(st, campaign_id=1, registry=registry)
        assert again.cursor == 21
        assert digest(campaign_to_dict(again.campaign)) == digests[20]

        # a new step on the migrated state: the states before it are held to their digests
        # (the parts read for it) and it is stored with its own
        from app.core.campaign.model import Participant
        from app.core.campaign.steps import AddBattle

        forget_decoded()
        with campaign_for_update(st, campaign_id=1, registry=registry) as live:
            live.do(AddBattle("Zama", (Participant("rome"), Participant("carthage"))))
            made = campaign_to_dict(live.campaign)
        rows = _rows(old_store)
        assert len(rows) == 22 and rows[-1][1] == digest(made)
        forget_decoded()
        read = load_campaign(st, campaign_id=1, registry=registry)
        assert digest(campaign_to_dict(read.campaign)) == digest(made)
        assert read.campaign.battles[-1].name == "Zama"

    # and down again: the whole state stored as 0011 stored it, byte for byte
    engine = migration_engine(old_store)
    try:
        with engine.begin() as conn:
            command.downgrade(_alembic_config(conn), "0011")
    finally:
        engine.dispose()
    (down,) = [bytes(s) for *_, s in _rows(old_store) if s is not None]
    assert down == old


def test_a_damaged_part_is_said_when_it_is_read(old_store: Path, registry: Registry) -> None:
    """A part of a whole state that is not what Castra wrote does not stop the campaign being
    read (nothing reads it); reading it is the store's one line naming the campaign. A
    whole state stored that the migration cannot read is left as it was."""
    ((blob,),) = sql(old_store, "SELECT snapshot FROM campaign_step WHERE n = 19")
    sql(old_store, "UPDATE campaign_step SET snapshot = ? WHERE n = 19", (b"x" + blob,))
    (bad,) = [bytes(s) for *_, s in _rows(old_store) if s is not None]
    with open_store(old_store) as st:
        assert [bytes(s) for *_, s in _rows(old_store) if s is not None] == [bad]
        with pytest.raises(StoreDamaged, match="campaign 1 cannot be read"):
            load_campaign(st, campaign_id=1, registry=registry)

    fresh = unzipped(FIXTURE, old_store.with_name("fresh.sqlite3"))
    with open_store(fresh) as st:
        (blob,) = [bytes(s) for *_, s in _rows(fresh) if s is not None]
        body = zlib.decompress(blob[len(PARTED) :])
        newline = body.index(b"\n")
        base = newline + 1 + int(body[:newline])
        parts = body[base:]
        for old, new, read in (
            (b'"size":', b'"sise":', lambda c: c.battles[0].went_in),
            (
                b'"end":',
                b'"emd":',
                lambda c: next(b for b in c.battles if b.result).result.sides[0].units,
            ),
            (b"[", b"{", lambda c: c.battles[0].went_in),
        ):
            damaged = PARTED + zlib.compress(body[:base] + parts.replace(old, new, 1))
            sql(fresh, "UPDATE campaign_step SET snapshot = ? WHERE n = 19", (damaged,))
            forget_decoded()
            session = load_campaign(st, campaign_id=1, registry=registry)
            assert session.campaign.battles[0].result is not None
            assert session.campaign.battles[0].result.sides[0].losses > 0
            with pytest.raises(
                StoreDamaged, match=r"^the store holds damaged data: campaign 1 cannot be read \("
            ) as got:
                read(session.at(20))
            assert "\n" not in str(got.value)


def test_a_whole_state_stored_whole_still_reads(old_store: Path, registry: Registry) -> None:
    """A whole state in the form stored before 0012 (compressed whole) reads as it did, in a
    store at 0012 too (a file copied in, a state the migration left), with the same digests."""
    (old,) = [bytes(s) for *_, s in _rows(old_store) if s is not None]
    digests = [digest(s) for s in _old_states(old_store)]
    with open_store(old_store) as st:
        sql(old_store, "UPDATE campaign_step SET snapshot = ? WHERE n = 19", (old,))
        forget_decoded()
        session = load_campaign(st, campaign_id=1, registry=registry)
        assert [digest(campaign_to_dict(session.at(n))) for n in range(1, 25)] == digests
