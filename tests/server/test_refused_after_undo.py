"""A player's change the server refuses because the umpire undid steps meanwhile is one line
(issue 15): :class:`AccessRefused` or the stale-copy refusal, never a database traceback,
and nothing is written."""

from __future__ import annotations

import pytest

from app.core.campaign.steps import Promote
from app.rules.registry import Registry
from app.store import AccessRefused, StaleWrite
from app.store.campaigns import (
    assign_side,
    campaign_for_update,
    create_campaign,
    load_campaign,
    save_campaign,
    step_makers,
)
from tests.core.campaign.helpers import leg_vi_campaign
from tests.server.conftest import Club


def test_a_players_step_after_the_umpire_undid_is_one_line(club: Club, registry: Registry) -> None:
    uma, ann = club.open("uma"), club.open("ann")
    cid = create_campaign(uma, session=leg_vi_campaign(registry))
    assign_side(uma, campaign_id=cid, side="rome", member="ann")
    copy = load_campaign(ann, campaign_id=cid, registry=registry)  # ann's window's copy
    with campaign_for_update(uma, campaign_id=cid, registry=registry) as s:
        s.undo()  # the umpire takes a step back: his step stays, to redo
    before = (
        load_campaign(uma, campaign_id=cid, registry=registry).cursor,
        step_makers(uma, campaign_id=cid),
    )

    copy.do(Promote("rome", "varro", "paullus"))  # from the stale copy
    with pytest.raises(StaleWrite) as stale:
        save_campaign(ann, campaign_id=cid, session=copy)
    with (  # read afresh: her step would drop the umpire's undone one
        pytest.raises(AccessRefused, match="may not drop steps another member made") as fresh,
        campaign_for_update(ann, campaign_id=cid, registry=registry) as s,
    ):
        s.do(Promote("rome", "varro", "paullus"))
    for refusal in (stale.value, fresh.value):
        text = str(refusal)
        assert "\n" not in text and "Traceback" not in text and "SQL" not in text, text
        assert "was not saved" in text or "nothing was saved" in text, text
    after = load_campaign(uma, campaign_id=cid, registry=registry)
    assert (after.cursor, step_makers(uma, campaign_id=cid)) == before
