"""A new campaign from the user's own rosters: each side a name and the roster that becomes
its campaign army. The one place both the command line (``castra campaign new --side``) and
the window's New campaign dialog start one, so both refuse the same things in the same
words."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.campaign.model import (
    MAX_SIDES,
    Campaign,
    CampaignError,
    CampaignSide,
    Recovery,
)
from app.core.campaign.session import CampaignSession
from app.core.campaign.steps import check_text
from app.core.roster import Roster, roster_name_problem
from app.rules.ruleset import Ruleset


def campaign_from_rosters(
    ruleset: Ruleset,
    name: str,
    sides: Sequence[tuple[str, Roster]],
    *,
    recovery: Recovery = "ruleset",
) -> CampaignSession:
    """The campaign ``name`` of ``sides`` (each a side's name and its roster, all of
    ``ruleset``), with no battle yet. Raises :class:`CampaignError` naming the first problem:
    a bad name, fewer than two or more than :data:`MAX_SIDES` sides, two sides of one name
    (in any case: the campaign's commands name sides), a roster of another ruleset."""
    problem = roster_name_problem(name)
    if problem:
        raise CampaignError(problem.replace("roster", "campaign"))
    if not 2 <= len(sides) <= MAX_SIDES:
        raise CampaignError(f"a campaign has 2 to {MAX_SIDES} sides, not {len(sides)}")
    made: list[CampaignSide] = []
    for i, (side_name, roster) in enumerate(sides):
        side_name = side_name.strip()
        if not side_name:
            raise CampaignError("a side needs a name")
        check_text("a side's name", side_name)
        same = next((s for s in made if s.name.casefold() == side_name.casefold()), None)
        if same is not None:
            raise CampaignError(
                f"there is already a side named {same.name!r} "
                "(sides are named by the campaign's commands: each name once)"
            )
        if roster.ruleset != ruleset.id:
            raise CampaignError(
                f"{side_name}'s roster {roster.name!r} is for {roster.ruleset}, not {ruleset.id}"
            )
        made.append(CampaignSide(f"s{i + 1}", side_name, roster))
    return CampaignSession(ruleset, Campaign(name, ruleset.id, tuple(made), recovery=recovery))
