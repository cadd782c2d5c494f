"""Campaigns in the store: saved as they happen, undo kept, a stale copy refused, damaged
content a one-line message."""

from __future__ import annotations

import pytest

from app.core.battle.result import hand_result
from app.core.campaign.fight import battle_rosters
from app.core.campaign.steps import ApplyResult, RecordResult
from app.rules.registry import Registry
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


def test_damaged_content_is_one_line(store: Store, registry: Registry) -> None:
    cid = create_campaign(store, session=leg_vi_campaign(registry))
    sql(store, "UPDATE campaign_step SET state = :s WHERE n = 1", s='{"name": 3}')
    with pytest.raises(StoreDamaged, match=f"campaign {cid} cannot be read"):
        load_campaign(store, campaign_id=cid, registry=registry)
