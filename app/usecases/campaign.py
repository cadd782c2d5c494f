"""Campaign operations: make, list and load campaigns; do a step (and undo, redo) in one
transaction; fight a campaign battle; record a fought battle's result.

Like a battle step (:mod:`app.usecases.battle`), a campaign step is taken one way: inside
one write transaction the campaign is checked (a window's, against the stored version) or
loaded, the step is done and what changed is saved.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from app.core.campaign.fight import hand_back, start_battle
from app.store.battles import battle_rosters, create_battle, load_battle
from app.store.campaigns import CampaignSummary as CampaignSummary
from app.store.campaigns import assign_side as assign_side
from app.store.campaigns import campaign_for_update
from app.store.campaigns import campaign_sides as campaign_sides
from app.store.campaigns import create_campaign as create_campaign
from app.store.campaigns import find_campaign as find_campaign
from app.store.campaigns import list_campaigns as list_campaigns
from app.store.campaigns import load_campaign as load_campaign
from app.store.campaigns import step_makers as step_makers
from app.store.campaigns import unassign_side as unassign_side
from app.store.read import campaign_version as campaign_version

if TYPE_CHECKING:
    from app.core.battle import BattleSession
    from app.core.campaign.model import Campaign
    from app.core.campaign.session import CampaignSession
    from app.core.campaign.steps import Step
    from app.rules.registry import Registry
    from app.store.engine import Store

T = TypeVar("T")


@dataclass(frozen=True)
class CampaignChanged(Generic[T]):
    """What one campaign operation changed: the campaign ``before`` and the session after
    (``session.campaign``), and what the change returned (the step done, undone...)."""

    session: CampaignSession
    before: Campaign
    value: T


@contextmanager
def updating_campaign(
    store: Store,
    *,
    campaign_id: int,
    registry: Registry | None = None,
    session: CampaignSession | None = None,
) -> Iterator[CampaignSession]:
    """The campaign inside one write transaction; what the block does to it is saved when
    the block ends. ``session``: the campaign as the caller loaded it (a window's), refused
    when the store holds a newer version; without it the campaign is loaded (``registry``)
    inside the transaction."""
    with campaign_for_update(
        store, campaign_id=campaign_id, registry=registry, session=session
    ) as campaign:
        yield campaign


def change_campaign(
    store: Store,
    *,
    campaign_id: int,
    change: Callable[[CampaignSession], T],
    registry: Registry | None = None,
    session: CampaignSession | None = None,
) -> CampaignChanged[T]:
    """Run ``change`` on the campaign (``session.do(step)``, ``undo()``, ``redo()``) and
    save it, in one transaction (:func:`updating_campaign`)."""
    with updating_campaign(store, campaign_id=campaign_id, registry=registry, session=session) as s:
        before = s.campaign
        value = change(s)
    return CampaignChanged(s, before, value)


@dataclass(frozen=True)
class Fought:
    """A campaign battle made into a stored battle: its id and session; the campaign links
    to it by the step :attr:`link` (done by the caller, as any step)."""

    battle_id: int
    battle: BattleSession
    link: Step


def fight(
    store: Store, *, session: CampaignSession, battle: str, seed: int | None = None
) -> Fought:
    """Make campaign battle ``battle`` into a stored battle from the campaign armies
    (through the core, with the club's own tables and the user's scenarios), started and
    saved; ``seed``: the dice's, else a fresh one. CampaignError or ValueError when the core
    refuses it, StoreError when the store does."""
    from app.core.campaign.steps import LinkBattle
    from app.house import with_house
    from app.paths import user_scenarios_dir
    from app.rules.mechanics import mechanics_for

    rs = session.ruleset
    bs, rosters = start_battle(
        rs,
        mechanics_for(rs),
        session.campaign,
        battle,
        seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
        scenarios=user_scenarios_dir(),
        records=with_house(rs.id, rs.meta.engine, ({}, {})),  # a club's own tables
    )
    bid = create_battle(store, session=bs, rosters=rosters)
    return Fought(bid, bs, LinkBattle(battle, bid))


def record_fought(
    store: Store,
    *,
    campaign_id: int,
    battle: str,
    fought: int,
    registry: Registry,
    session: CampaignSession | None = None,
) -> CampaignChanged[Step]:
    """Record the result of stored battle ``fought`` (ended) on campaign battle ``battle``
    (its id or name), in one transaction: the result, the losses and the fates come from
    the battle as it was played. KeyError when there is no such stored battle."""
    played = load_battle(store, battle_id=fought, registry=registry)
    rosters = battle_rosters(store, battle_id=fought, registry=registry)

    def record(s: CampaignSession) -> Step:
        step = hand_back(s.campaign.battle(battle).id, played, rosters, fought)
        s.do(step)
        return step

    return change_campaign(
        store, campaign_id=campaign_id, change=record, registry=registry, session=session
    )


def battle_ended(store: Store, *, battle_id: int, registry: Registry) -> bool:
    """Whether stored battle ``battle_id`` has a result (False when it cannot be read)."""
    from app.store.engine import StoreError

    try:
        bs = load_battle(store, battle_id=battle_id, registry=registry)
    except (KeyError, StoreError):
        return False
    return bs.state.result is not None
