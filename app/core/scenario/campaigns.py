"""Campaign templates built on the historical battles: Scipio in Spain (Baecula, Ilipa),
Scipio in Africa (the Great Plains, Zama) and the Metaurus alone, in every ruleset the
battles are set for.

Each side's campaign army is the army its first battle's file gives it in that ruleset (so
the first battle opens exactly as the sources describe it, and the next is fought by the
armies as they stand after it). Carthage fielded a different army in each battle of these
campaigns, so each of those armies is a side of its own ("Hasdrubal Barca's army",
"Hasdrubal and Mago's army"); Rome's army goes from one battle to the next. Each leader's
historical fate is the one the file of the last battle he fought in gives him. The
chronicle shows each battle's casualties beside the historical ones
(:func:`history_lines`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from app.core.campaign.model import (
    Campaign,
    CampaignBattle,
    CampaignError,
    CampaignSide,
    Participant,
    Recovery,
)
from app.core.campaign.session import CampaignSession
from app.core.campaign.steps import AddBattle
from app.core.scenario.build import scenario_roster, side_of
from app.core.scenario.library import Scenario
from app.rules.ruleset import Ruleset

#: how a template finds a battle by id: the built-in files, then the user's
Finder = Callable[[str], Scenario | None]


@dataclass(frozen=True)
class TemplateSide:
    """A campaign side: its id and name, and the battle (and that battle's side) whose
    army it starts with."""

    id: str
    name: str
    scenario: str
    side: str


@dataclass(frozen=True)
class TemplateBattle:
    """A battle of the template: the historical battle it is fought on, and which campaign
    side fights as each of its sides (in the battle's order)."""

    scenario: str
    sides: tuple[str, str]


@dataclass(frozen=True)
class HistoricalTemplate:
    id: str
    name: str
    summary: str
    sides: tuple[TemplateSide, ...]
    battles: tuple[TemplateBattle, ...]


TEMPLATES: tuple[HistoricalTemplate, ...] = (
    HistoricalTemplate(
        "spain",
        "Scipio in Spain",
        "208-206 BC: Baecula against Hasdrubal Barca, then Ilipa against Hasdrubal son of "
        "Gisco and Mago.",
        (
            TemplateSide("rome", "Rome", "baecula", "rome"),
            TemplateSide("barca", "Hasdrubal Barca's army", "baecula", "carthage"),
            TemplateSide("gisco", "Hasdrubal and Mago's army", "ilipa", "carthage"),
        ),
        (TemplateBattle("baecula", ("rome", "barca")), TemplateBattle("ilipa", ("rome", "gisco"))),
    ),
    HistoricalTemplate(
        "africa",
        "Scipio in Africa",
        "203-202 BC: the Great Plains against Hasdrubal son of Gisco and Syphax, then Zama "
        "against Hannibal.",
        (
            TemplateSide("rome", "Rome", "great-plains", "rome"),
            TemplateSide("gisco", "Hasdrubal and Syphax's army", "great-plains", "carthage"),
            TemplateSide("hannibal", "Hannibal's army", "zama", "carthage"),
        ),
        (
            TemplateBattle("great-plains", ("rome", "gisco")),
            TemplateBattle("zama", ("rome", "hannibal")),
        ),
    ),
    HistoricalTemplate(
        "metaurus",
        "The Metaurus",
        "207 BC: the consuls Nero and Livius against Hasdrubal Barca's army of relief, one battle.",
        (
            TemplateSide("rome", "Rome", "metaurus", "rome"),
            TemplateSide("carthage", "Hasdrubal's army", "metaurus", "carthage"),
        ),
        (TemplateBattle("metaurus", ("rome", "carthage")),),
    ),
)


def find_template(name: str) -> HistoricalTemplate | None:
    want = name.strip().casefold()
    return next(
        (t for t in TEMPLATES if want in (t.id, t.name.casefold())),
        None,
    )


def _scenario(find: Finder, scenario_id: str, rs: Ruleset) -> Scenario:
    sc = find(scenario_id)
    if sc is None:
        raise CampaignError(f"the historical battle {scenario_id!r} is not in the library")
    if rs.id not in sc.rulesets:
        raise CampaignError(f"{sc.name} is not set for {rs.meta.short_name}")
    return sc


def template_campaign(
    template: HistoricalTemplate,
    rs: Ruleset,
    find: Finder,
    *,
    name: str | None = None,
    recovery: Recovery = "ruleset",
) -> CampaignSession:
    """The template as a campaign in ``rs``: its sides with their first battle's armies,
    and its battles on their historical fields (CampaignError when a battle is missing or
    not set for the ruleset)."""
    sides = []
    for ts in template.sides:
        sc = _scenario(find, ts.scenario, rs)
        sides.append(CampaignSide(ts.id, ts.name, scenario_roster(sc, rs, ts.side)))
    campaign = Campaign(
        name=name or template.name,
        ruleset=rs.id,
        sides=tuple(sides),
        recovery=recovery,
        template=template.id,
        notes=template.summary,
    )
    session = CampaignSession(rs, campaign)
    for tb in template.battles:
        sc = _scenario(find, tb.scenario, rs)
        b = sc.data.battle
        session.do(
            AddBattle(
                sc.name,
                (Participant(tb.sides[0]), Participant(tb.sides[1])),
                date=b.date,
                place=b.place,
                scenario=sc.id,
            )
        )
    return session


def template_fate(campaign: Campaign, side: str, leader: str, find: Finder) -> str | None:
    """What happened to ``leader`` of campaign side ``side`` in history, from the file of
    the last battle of the template he fought in; None outside these templates."""
    template = find_template(campaign.template or "")
    if template is None:
        return None
    fate: str | None = None
    for tb in template.battles:
        if side not in tb.sides:
            continue
        sc = find(tb.scenario)
        if sc is None:
            continue
        their = sc.side_ids[tb.sides.index(side)]
        for hl in sc.side(their).leaders:
            if hl.id == leader:
                words = {"fit": "survived", "wounded": "wounded", "killed": "killed"}
                head = f"{words.get(hl.fate, hl.fate)} at {sc.name}"
                fate = f"{head}: {hl.fate_note}" if hl.fate_note else head
    return fate


def history_lines(campaign: Campaign, battle: CampaignBattle, find: Finder) -> tuple[str, ...]:
    """The losses the sources give for the battle, beside the campaign's: one line a side,
    in the order the campaign names them; nothing for a battle on no historical field."""
    if battle.scenario is None:
        return ()
    sc = find(battle.scenario)
    if sc is None:
        return ()
    out = []
    for k, part in enumerate(battle.participants):
        went_in = battle.went_in_heads  # (a stored battle's armies are not made for this)
        roster = went_in[k] if went_in is not None else campaign.side(part.side).army
        try:
            side = sc.side(side_of(sc, roster))
        except ValueError:
            continue
        losses = side.losses
        if losses.men is not None:
            total = sum(f.men for f in side.forces)
            share = f" ({losses.men / total:.0%})" if total else ""
            out.append(
                f"In history {side.name} lost {losses.men:,} of {total:,} men{share}: "
                f"{losses.text} ({losses.cite})"
            )
        else:
            out.append(f"In history, {side.name}: {losses.text} ({losses.cite})")
    return tuple(out)


def library_finder(
    rs: Ruleset | None = None, user: Path | None = None, cache_dir: Path | None = None
) -> Finder:
    """A finder over the built-in battles (and ``user``'s), each read once when first
    asked for (checked against ``rs`` when given; through the cache in ``cache_dir`` when
    given: :func:`~app.core.scenario.library.read_scenario`)."""
    from app import bundled
    from app.core.scenario.library import find_scenario

    cache: dict[str, Scenario | None] = {}

    def find(scenario_id: str) -> Scenario | None:
        if scenario_id not in cache:
            rulesets = (rs,) if rs is not None else ()
            cache[scenario_id] = find_scenario(
                scenario_id, bundled.SCENARIOS_DIR, user, rulesets, cache_dir
            )
        return cache[scenario_id]

    return find


@cache
def default_finder() -> Finder:
    """The built-in battles, for what a campaign shows of history (its leaders' fates, its
    battles' losses) where no user folder is given: one finder for the process, reading
    through the user data folder's cache of validated scenario files (a campaign on the
    template's fields reads three: about 70 ms of CPU a process without it)."""
    from app.datadir import scenario_cache_dir

    return library_finder(cache_dir=scenario_cache_dir())
