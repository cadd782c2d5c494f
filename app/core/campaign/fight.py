"""Fighting a campaign battle in the app, through the battle core: the battle is made from
the campaign armies as they are now (killed and captured leaders left out; wounded ones
with their wounds, which the ruleset's mechanics read), and its final state comes back as
the battle's result.

The entry points a battle window calls: :func:`start_battle` to make the battle, and
:func:`hand_back` when it ends, which gives the :class:`RecordResult` step to do on the
campaign (the store saves both: :mod:`app.store.campaigns`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from app.core.battle import BattleSession, StartBattle, new_battle
from app.core.battle.result import BattleResult, result_from_state
from app.core.campaign.model import Campaign, CampaignError
from app.core.campaign.steps import RecordResult, battle_roster
from app.core.roster import Roster
from app.rules.mechanics import Mechanics, Scalar
from app.rules.ruleset import Ruleset


def battle_rosters(campaign: Campaign, battle_key: str) -> tuple[Roster, Roster]:
    """The two rosters the battle is fought with (whole armies or detachments)."""
    battle = campaign.battle(battle_key)
    if battle.applied:
        raise CampaignError(f"{battle.name} has been fought and applied")
    return (
        battle_roster(campaign, battle.participants[0]),
        battle_roster(campaign, battle.participants[1]),
    )


def start_battle(
    rs: Ruleset,
    mech: Mechanics,
    campaign: Campaign,
    battle_key: str,
    *,
    seed: int,
    scenarios: Path | None = None,
    records: tuple[Mapping[str, Scalar], Mapping[str, Scalar]] = ({}, {}),
) -> tuple[BattleSession, tuple[Roster, Roster]]:
    """A new battle session for the campaign battle, started (its first command done),
    and the rosters it was made from (stored with the battle). A battle fought on a
    historical field (``CampaignBattle.scenario``) opens on that field in its battle order,
    with the campaign's armies as they stand (``app.core.scenario``; ``scenarios``: the
    user's own folder of battles besides the built-in ones); a field that cannot be found,
    or is not set for the ruleset, leaves the battle on a bare table. ``records``: what
    each side's record holds from the start besides the ruleset's own (a club's tables)."""
    battle = campaign.battle(battle_key)
    rosters = battle_rosters(campaign, battle_key)
    name = f"{campaign.name}: {battle.name}"
    if battle.scenario is not None:
        from app.core.scenario.start import builtin_scenario, scenario_session

        sc = builtin_scenario(battle.scenario, rs, scenarios)
        if sc is not None and rs.id in sc.rulesets:
            return scenario_session(
                sc, rs, mech, seed=seed, rosters=rosters, name=name, records=records
            )
    state = new_battle(rs, mech, rosters, records=records)
    session = BattleSession(rs, mech, state, seed=seed, name=name)
    session.do(StartBattle())
    return session, rosters


def result_of(
    session: BattleSession, rosters: tuple[Roster, Roster], battle_id: int | None
) -> BattleResult:
    """The result of a fought battle, from its current (final) state and its log."""
    lines = [line for entry in session.log() for line in entry.lines]
    return result_from_state(
        session.state,
        rosters,
        lost_markers=session.mechanics.lost_markers,
        log=lines,
        battle_id=battle_id,
    )


def hand_back(
    battle_key: str,
    session: BattleSession,
    rosters: tuple[Roster, Roster],
    battle_id: int | None,
) -> RecordResult:
    """The step that records a fought battle's result on campaign battle ``battle_key``."""
    if session.state.result is None:
        raise CampaignError("the battle has not ended: end it (or declare its result) first")
    return RecordResult(battle_key, result_of(session, rosters, battle_id), rosters)
