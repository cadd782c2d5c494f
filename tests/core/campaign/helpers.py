"""A Leg VI campaign of two small armies, battles fought through the battle core, and the
Hannibal in Italy template as a campaign."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from app.core.battle import Adjust, AdjustLeader, EndBattle
from app.core.campaign.fight import hand_back, start_battle
from app.core.campaign.model import Campaign, CampaignSide, Participant
from app.core.campaign.session import CampaignSession
from app.core.campaign.steps import AddBattle, ApplyResult
from app.core.campaign.template import find_shipped, from_template
from app.core.roster import Leader, Roster, new_roster, unit_from_entry
from app.rules.mechanics import mechanics_for
from app.rules.registry import Registry
from app.rules.ruleset import Ruleset

HANNIBAL = "hannibal-italy"


def hannibal_in_italy(rs: Ruleset, rulesets: Iterable[Ruleset] = ()) -> CampaignSession:
    """The Hannibal in Italy template as a campaign in ``rs``: the copy ``rs`` ships, else
    the one a ruleset of ``rulesets`` ships (refused when ``rs``'s armies are not its)."""
    template = rs.templates.get(HANNIBAL)
    if template is None:
        found = find_shipped(rulesets, HANNIBAL)
        assert found is not None
        template = found.template
    return from_template(rs, HANNIBAL, template)


def leg_vi_campaign(registry: Registry, recovery: str = "ruleset") -> CampaignSession:
    rs = registry.get("leg-vi-carthago")
    rome = new_roster(rs, "roman", name="Rome 216")
    rome = replace(
        rome,
        units=(
            unit_from_entry(rs, "roman", "roman_legion", id="legion", leader="paullus"),
            unit_from_entry(rs, "roman", "velites", id="velites", count=2),
            unit_from_entry(rs, "roman", "roman_equites", id="equites", leader="varro"),
        ),
        leaders=(
            Leader("paullus", "Paullus", rank="general"),
            Leader("varro", "Varro"),
            Leader("servilius", "Servilius"),
        ),
    )
    carthage = new_roster(rs, "carthaginian", name="Carthage 216")
    carthage = replace(
        carthage,
        units=(
            unit_from_entry(rs, "carthaginian", "libyan_spearmen", id="libyans", leader="hannibal"),
            unit_from_entry(rs, "carthaginian", "gauls", id="gauls", count=2),
        ),
        leaders=(Leader("hannibal", "Hannibal", rank="general"), Leader("mago", "Mago")),
    )
    campaign = Campaign(
        name="Italy",
        ruleset=rs.id,
        sides=(CampaignSide("rome", "Rome", rome), CampaignSide("carthage", "Carthage", carthage)),
        recovery=recovery,  # type: ignore[arg-type]
    )
    session = CampaignSession(rs, campaign)
    for name, date in (("Trebia", "218 BC"), ("Trasimene", "217 BC"), ("Cannae", "216 BC")):
        session.do(
            AddBattle(name, (Participant("rome"), Participant("carthage")), date=date, place=name)
        )
    return session


#: what happens in each battle: unit adjustments (battle unit id, strength), leader fates
#: (battle leader id, status, wounds or None) and the winner
Plan = tuple[Sequence[tuple[str, int]], Sequence[tuple[str, str, int | None]], int | None]


def fight(
    registry: Registry, session: CampaignSession, battle: str, plan: Plan, seed: int = 7
) -> None:
    """Fight ``battle`` through the core (the plan's events as the players' corrections,
    then the declared end), hand its result back and apply it."""
    rs = session.ruleset
    mech = mechanics_for(rs)
    bs, rosters = start_battle(rs, mech, session.campaign, battle, seed=seed)
    units, leaders, winner = plan
    for unit, strength in units:
        bs.do(Adjust(unit=unit, field="strength", value=str(strength)))
    for leader, status, wounds in leaders:
        bs.do(AdjustLeader(leader=leader, status=status, wounds=wounds))  # type: ignore[arg-type]
    bs.do(EndBattle(winner=winner, reason="the players agree"))  # type: ignore[arg-type]
    session.do(hand_back(battle, bs, rosters, battle_id=None))
    session.do(ApplyResult(battle))


def army(session: CampaignSession, side: str) -> Roster:
    return session.campaign.side(side).army
