"""Campaigns from a ruleset's templates: a historical campaign a ruleset ships as data
(``[templates.<id>]`` of its ``armies.toml``: :class:`~app.rules.schema.CampaignTemplate`),
made from its standard armies, with each leader's historical fate to show beside the
campaign's own.

A template names the standard armies' leaders it renames; a ruleset whose ready armies lack
them is refused it, with the reason the template's data gives (``built_on``). Which ruleset
ships which template is read from the registry (:func:`shipped`), never named here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from app.core.campaign.model import (
    Campaign,
    CampaignError,
    CampaignSide,
    Participant,
    Recovery,
)
from app.core.campaign.session import CampaignSession
from app.core.campaign.steps import AddBattle
from app.core.roster import new_roster
from app.rules.ruleset import Ruleset
from app.rules.schema import CampaignTemplate


@dataclass(frozen=True)
class Shipped:
    """A template as a ruleset ships it."""

    id: str
    template: CampaignTemplate
    ruleset: Ruleset


def shipped(rulesets: Iterable[Ruleset]) -> list[Shipped]:
    """Every template the rulesets ship: built-in rulesets first, each in ruleset-id order,
    its templates in the order its file gives them."""
    ordered = sorted(rulesets, key=lambda rs: (not rs.builtin, rs.id, str(rs.folder)))
    return [Shipped(tid, t, rs) for rs in ordered for tid, t in rs.templates.items()]


def find_shipped(rulesets: Iterable[Ruleset], template_id: str) -> Shipped | None:
    """The first ruleset (as :func:`shipped` orders them) that ships ``template_id``."""
    return next((s for s in shipped(rulesets) if s.id == template_id), None)


def supported(rs: Ruleset, template: CampaignTemplate) -> bool:
    """Whether the ruleset's standard armies hold the template's sides' named leaders."""
    for side in template.sides:
        army = rs.armies.get(side.army)
        if army is None or army.standard is None:
            return False
        ids = {ld.id for ld in army.standard.leaders}
        if not {ld.id for ld in side.leaders} <= ids:
            return False
    return True


def from_template(
    rs: Ruleset,
    template_id: str,
    template: CampaignTemplate,
    *,
    name: str | None = None,
    recovery: Recovery = "ruleset",
) -> CampaignSession:
    """The template as a campaign in ruleset ``rs``: each side the whole standard army of its
    army list, its leaders renamed, and the template's battles (date, place, field). Raises
    :class:`CampaignError` when the ruleset's ready armies are not the template's."""
    if not supported(rs, template):
        raise CampaignError(
            f"the {template.name} template is built on {template.built_on}; "
            f"{rs.meta.short_name}'s ready armies are others "
            "(make a campaign from your own rosters instead)"
        )
    sides = []
    for side in template.sides:
        names = {ld.id: ld.name for ld in side.leaders}
        roster = new_roster(rs, side.army, name=side.roster, standard=True)
        leaders = tuple(replace(ld, name=names.get(ld.id, ld.name)) for ld in roster.leaders)
        sides.append(CampaignSide(side.id, side.name, replace(roster, leaders=leaders)))
    campaign = Campaign(
        name=template.name if name is None else name,
        ruleset=rs.id,
        sides=tuple(sides),
        recovery=recovery,
        template=template_id,
    )
    session = CampaignSession(rs, campaign)
    for battle in template.battles:
        session.do(
            AddBattle(
                battle.name,
                (Participant(battle.sides[0]), Participant(battle.sides[1])),
                date=battle.date,
                place=battle.place,
                scenario=battle.scenario,
            )
        )
    return session


def historical_fate(rs: Ruleset, campaign: Campaign, side: str, leader: str) -> str | None:
    """What happened to this leader in history, for a campaign made from a historical
    template: one its ruleset ``rs`` ships, or one built on the historical battles
    (:mod:`app.core.scenario.campaigns`)."""
    if campaign.template is None:
        return None
    template = rs.templates.get(campaign.template)
    if template is None:
        from app.core.scenario.campaigns import default_finder, template_fate

        return template_fate(campaign, side, leader, default_finder())
    for s in template.sides:
        if s.id == side:
            for ld in s.leaders:
                if ld.id == leader:
                    return ld.fate
    return None
