"""A campaign battle fought and its result recorded through the use cases the window and
``castra campaign`` share; a window's campaign that another writer changed is refused."""

from __future__ import annotations

import pytest

from app.core.battle import EndBattle
from app.core.campaign.model import CampaignError
from app.core.campaign.steps import RecordResult
from app.rules.registry import Registry
from app.usecases.access import StaleWrite, Store
from app.usecases.battle import updating_battle
from app.usecases.campaign import (
    change_campaign,
    create_campaign,
    fight,
    load_campaign,
    record_fought,
)
from tests.core.campaign.helpers import hannibal_in_italy


def _campaign(store: Store, registry: Registry) -> int:
    return create_campaign(store, session=hannibal_in_italy(registry.get("quincunx")))


def test_fight_then_record_the_fought_battle(store: Store, registry: Registry) -> None:
    cid = _campaign(store, registry)
    session = load_campaign(store, campaign_id=cid, registry=registry)
    fought = fight(store, session=session, battle="b1", seed=3)
    assert fought.battle.seed == 3 and fought.battle.state.started
    change_campaign(store, campaign_id=cid, session=session, change=lambda s: s.do(fought.link))
    stored = load_campaign(store, campaign_id=cid, registry=registry)
    assert stored.campaign.battle("b1").fought == fought.battle_id

    with pytest.raises(CampaignError):  # not ended yet: nothing recorded
        record_fought(
            store, campaign_id=cid, battle="b1", fought=fought.battle_id, registry=registry
        )
    assert load_campaign(store, campaign_id=cid, registry=registry).version == stored.version

    with updating_battle(store, battle_id=fought.battle_id, registry=registry) as battle:
        battle.do(EndBattle(winner=0, reason="the Romans hold the river"))
    done = record_fought(
        store, campaign_id=cid, battle="b1", fought=fought.battle_id, registry=registry
    )
    assert isinstance(done.value, RecordResult)
    assert done.before.battle("b1").result is None
    result = load_campaign(store, campaign_id=cid, registry=registry).campaign.battle("b1").result
    assert result is not None and result.source == "fought"
    assert result.battle_id == fought.battle_id and result.winner == 0


def test_a_stale_window_campaign_is_refused(store: Store, registry: Registry) -> None:
    cid = _campaign(store, registry)
    window = load_campaign(store, campaign_id=cid, registry=registry)
    fought = fight(store, session=window, battle="b1", seed=3)
    change_campaign(store, campaign_id=cid, registry=registry, change=lambda s: s.do(fought.link))
    with pytest.raises(StaleWrite):
        change_campaign(store, campaign_id=cid, session=window, change=lambda s: s.do(fought.link))
    assert window.cursor == len(window.done) == 3  # the template's three battles, as loaded
    stored = load_campaign(store, campaign_id=cid, registry=registry)
    assert stored.cursor == 4
