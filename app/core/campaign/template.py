"""The historical template: Hannibal in Italy, 218-216 BC (the Trebia, Lake Trasimene,
Cannae), with each leader's historical fate to show beside the campaign's own.

Only Quincunx's source names leaders and gives both armies whole (its model legion under
Scipio and Hannibal's army, each in battlegroups with commanders, Commanders: "Hannibal and
Scipio ... provide a +2"); the template takes its standard armies and gives the other
battlegroup commanders the names of the men who led those wings in these battles (the names
its ready armies carry too). The other rulesets' ready armies are other armies (GSB's sample
armies with one general each, Castra's Cannae, Zama and consular armies for Leg VI, D3 and
MWAN #90), so for them the template is refused, with the reason.
"""

from __future__ import annotations

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

HANNIBAL = "hannibal-italy"
#: the ruleset the template is built for (its id and short name): only Quincunx's source
#: gives both armies whole with named commanders (above). The window and the command line
#: take it from here, as the default ruleset of a campaign from a template.
RULESET = "quincunx"
RULESET_NAME = "Quincunx"


@dataclass(frozen=True)
class HistoricalLeader:
    side: str
    id: str
    name: str
    fate: str


#: The leaders of the template (roster ids of Quincunx's standard armies) and what became of
#: them in 218-216 BC.
LEADERS: tuple[HistoricalLeader, ...] = (
    HistoricalLeader(
        "rome", "scipio", "P. Cornelius Scipio", "wounded at the Ticinus (218 BC); survived"
    ),
    HistoricalLeader(
        "rome", "right_legion_commander", "Ti. Sempronius Longus", "beaten at the Trebia; survived"
    ),
    HistoricalLeader(
        "rome", "left_legion_commander", "C. Flaminius", "killed at Lake Trasimene (217 BC)"
    ),
    HistoricalLeader(
        "rome", "right_cavalry_commander", "L. Aemilius Paullus", "killed at Cannae (216 BC)"
    ),
    HistoricalLeader(
        "rome", "left_cavalry_commander", "C. Terentius Varro", "escaped from Cannae; survived"
    ),
    HistoricalLeader("carthage", "hannibal", "Hannibal", "victor of all three; survived"),
    HistoricalLeader("carthage", "right_cavalry_commander", "Maharbal", "survived"),
    HistoricalLeader("carthage", "left_cavalry_commander", "Hasdrubal", "survived"),
    HistoricalLeader("carthage", "right_infantry_commander", "Mago", "survived"),
    HistoricalLeader("carthage", "left_infantry_commander", "Hanno", "survived"),
)

#: the template's battles: name, date, place and the historical field each is fought on
#: (``app.core.scenario``: its terrain and battle order, and the losses the chronicle shows
#: beside the campaign's)
BATTLES: tuple[tuple[str, str, str, str], ...] = (
    ("The Trebia", "December 218 BC", "River Trebia, near Placentia", "trebia"),
    ("Lake Trasimene", "June 217 BC", "north shore of Lake Trasimene", "trasimene"),
    ("Cannae", "2 August 216 BC", "Cannae, on the Aufidus", "cannae"),
)


def historical_fate(campaign: Campaign, side: str, leader: str) -> str | None:
    """What happened to this leader in history, for a campaign made from a historical
    template (this one, or one built on the historical battles:
    :mod:`app.core.scenario.campaigns`)."""
    if campaign.template is None:
        return None
    if campaign.template != HANNIBAL:
        from app.core.scenario.campaigns import default_finder, template_fate

        return template_fate(campaign, side, leader, default_finder())
    for h in LEADERS:
        if h.side == side and h.id == leader:
            return h.fate
    return None


def _supported(rs: Ruleset) -> bool:
    """Whether the ruleset's standard armies hold the template's named leaders."""
    for side_id, army_id in (("rome", "roman"), ("carthage", "carthaginian")):
        army = rs.armies.get(army_id)
        if army is None or army.standard is None:
            return False
        ids = {ld.id for ld in army.standard.leaders}
        if not {h.id for h in LEADERS if h.side == side_id} <= ids:
            return False
    return True


def hannibal_in_italy(
    rs: Ruleset, *, name: str = "Hannibal in Italy", recovery: Recovery = "ruleset"
) -> CampaignSession:
    """The template as a campaign of three battles, each side's whole army."""
    if not _supported(rs):
        raise CampaignError(
            f"the Hannibal in Italy template is built on Quincunx's model armies, their "
            f"battlegroups and named leaders; {rs.meta.short_name}'s ready armies are others "
            "(make a campaign from your own rosters instead)"
        )
    names = {(h.side, h.id): h.name for h in LEADERS}
    sides = []
    for side_id, army_id, label in (
        ("rome", "roman", "Rome"),
        ("carthage", "carthaginian", "Carthage"),
    ):
        roster = new_roster(rs, army_id, name=f"{label}, 218 BC", standard=True)
        leaders = tuple(
            replace(ld, name=names.get((side_id, ld.id), ld.name)) for ld in roster.leaders
        )
        sides.append(CampaignSide(side_id, label, replace(roster, leaders=leaders)))
    campaign = Campaign(
        name=name, ruleset=rs.id, sides=tuple(sides), recovery=recovery, template=HANNIBAL
    )
    session = CampaignSession(rs, campaign)
    for battle, date, place, field in BATTLES:
        session.do(
            AddBattle(
                battle,
                (Participant("rome"), Participant("carthage")),
                date=date,
                place=place,
                scenario=field,
            )
        )
    return session
