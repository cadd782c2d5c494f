"""The chronicle of a campaign, as plain values for the window, the command line and the
PDF: the timeline of battles with results, losses, leaders' fates and notes in words; the
strength of each side (men at the roster's scale, and by troop type) after each battle; and
the leader status sheet (every leader, status, wounds, battles fought, and for the template
his historical fate)."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.battle.result import BattleResult
from app.core.campaign.diff import leader_state, size_word
from app.core.campaign.model import Campaign, CampaignBattle, CampaignSide
from app.core.campaign.session import CampaignSession
from app.core.campaign.steps import ApplyResult
from app.core.campaign.template import historical_fate
from app.core.roster import Roster
from app.core.totals import Strength as Strength_
from app.core.totals import roster_totals, strength_of
from app.rules.ruleset import Ruleset


@dataclass(frozen=True)
class Entry:
    battle: CampaignBattle
    state: str
    winner: str | None
    words: tuple[str, ...]
    notes: tuple[str, ...]
    #: a battle fought on a historical field: each side's losses in history, beside the
    #: campaign's own (``words``)
    history: tuple[str, ...] = ()


def _side_name(campaign: Campaign, battle: CampaignBattle, k: int) -> str:
    return campaign.side(battle.participants[k].side).name


def result_words(rs: Ruleset, campaign: Campaign, battle: CampaignBattle) -> tuple[str, ...]:
    """The battle's result in sentences: who won and why, what each side lost, what
    became of its leaders."""
    r: BattleResult | None = battle.result
    if r is None:
        return ()
    names = (_side_name(campaign, battle, 0), _side_name(campaign, battle, 1))
    out = [
        f"{names[r.winner]} won ({r.reason})." if r.winner is not None else f"A draw ({r.reason})."
    ]
    word = size_word(rs)
    for k, side in enumerate(r.sides):
        lost = side.losses
        gone = side.gone
        text = f"{names[k]} lost {lost} {word}"
        if gone:
            text += f"; {len(gone)} unit{'s' if len(gone) != 1 else ''} gone ({', '.join(gone)})"
        out.append(text + ".")
        for o in side.leaders:
            if o.fate == "wounded":
                out.append(f"{o.name} was wounded ({o.wounds or 1}).")
            elif o.fate in ("killed", "captured"):
                out.append(f"{o.name} was {o.fate}.")
    return tuple(out)


def timeline(rs: Ruleset, campaign: Campaign) -> list[Entry]:
    return [entry(rs, campaign, b) for b in campaign.battles]


def entry(rs: Ruleset, campaign: Campaign, b: CampaignBattle) -> Entry:
    """The chronicle's entry for battle ``b``."""
    r = b.result
    winner = None
    if r is not None and r.winner is not None:
        winner = _side_name(campaign, b, r.winner)
    history: tuple[str, ...] = ()
    if b.scenario is not None:
        from app.core.scenario.campaigns import default_finder, history_lines

        history = history_lines(campaign, b, default_finder())
    return Entry(b, b.state, winner, result_words(rs, campaign, b), r.notes if r else (), history)


# --------------------------------------------------------------------------- strength


def men(rs: Ruleset, roster: Roster) -> int:
    """Men at the roster's scale; figures or bases where the ruleset gives no men."""
    t = roster_totals(rs, roster)
    return t.men if t.men is not None else (t.figures or t.bases or 0)


#: a unit's strength, troop name and whether the data knows its entry, by what decides
#: them: ((army, scale), entry, size, lines)
_Known = dict[tuple[object, ...], tuple[Strength_, str, bool]]


def by_troop(rs: Ruleset, roster: Roster) -> dict[str, int]:
    return _army_strength(rs, roster, {})[1]


def _army_strength(rs: Ruleset, roster: Roster, known: _Known) -> tuple[int, dict[str, int]]:
    """:func:`men` and :func:`by_troop` of ``roster`` in one pass, each unit's strength
    looked up in ``known`` (a campaign's armies hold the same units battle after battle).
    As :func:`~app.core.totals.roster_totals`, a unit whose entry the data no longer has
    counts in no total."""
    army = rs.armies.get(roster.army)
    out: dict[str, int] = {}
    # the sums of totals.ZERO + each counted unit's strength times its count, kept as three numbers
    # (None once a unit has none) rather than a Strength a unit: the chart sums every army at
    # every applied battle, some 5,000 units at 50 battles
    figures: int | None = 0
    bases: int | None = 0
    men: int | None = 0
    whose = (roster.army, roster.scale)
    for u in roster.units:
        key = (whose, u.entry, u.size, tuple(sorted(u.lines.items())) if u.lines else ())
        got = known.get(key)
        if got is None:
            entry = army.entries.get(u.entry) if army is not None else None
            s = strength_of(rs, entry, u.size, roster.scale, dict(u.lines) if u.lines else None)
            troop = rs.troops.get(entry.troop) if entry is not None else None
            name = troop.name if troop is not None else u.entry
            got = known[key] = (s, name, entry is not None)
        s, name, counted = got
        count = u.count
        if counted:
            figures = None if figures is None or s.figures is None else figures + s.figures * count
            bases = None if bases is None or s.bases is None else bases + s.bases * count
            men = None if men is None or s.men is None else men + s.men * count
        n = s.men if s.men is not None else (s.figures or s.bases or 0)
        out[name] = out.get(name, 0) + n * count
    whole = men if men is not None else (figures or bases or 0)
    return whole, out


def named_points(count: int, most: int = 10) -> list[int]:
    """Which of a chart's ``count`` points an axis names: all while there are at most
    ``most``; else every k-th and the last (fifty battles' names ran into one another),
    a name next to the last one's left out."""
    step = max(1, -(-count // most))
    named = [i for i in range(count) if i % step == 0 or i == count - 1]
    if step > 1 and len(named) > 1 and named[-1] - named[-2] < step / 2:
        del named[-2]
    return named


@dataclass(frozen=True)
class Strength:
    """``labels``: "Start", then each applied battle; ``sides``: each side's name and its
    strength at each label; ``troops``: per side, per troop type."""

    labels: tuple[str, ...]
    sides: tuple[tuple[str, tuple[int, ...]], ...]
    troops: tuple[tuple[str, dict[str, tuple[int, ...]]], ...]
    unit: str
    #: each side's colour (``#rrggbb``): its army list's, as the battle map draws the army,
    #: or None where the list names none or an earlier side has it already
    colours: tuple[str | None, ...] = ()


def strength(rs: Ruleset, session: CampaignSession) -> Strength:
    current = session.campaign
    names = {b.id: b.name for b in current.battles}
    points: list[tuple[str, tuple[CampaignSide, ...]]] = [("Start", session.start.sides)]
    for n, d in enumerate(session.done[: session.cursor], 1):
        if d.kind == "apply" and isinstance(d.step, ApplyResult):
            points.append((names.get(d.step.battle, d.step.battle), session.sides_at(n)))
    sides = []
    troops = []
    known: _Known = {}
    # an army the points share (a side that fought no battle in between, or recovered all
    # its losses) is one roster object, summed once: by its identity, the roster kept
    summed: dict[int, tuple[Roster, tuple[int, dict[str, int]]]] = {}
    for side in current.sides:
        values = []
        per: dict[str, list[int]] = {}
        for i, (_, at) in enumerate(points):
            army = next((s.army for s in at if s.id == side.id), None)
            if army is None:
                values.append(0)
                continue
            got = summed.get(id(army))
            if got is None or got[0] is not army:
                got = summed[id(army)] = (army, _army_strength(rs, army, known))
            whole, troop_men = got[1]
            values.append(whole)
            for name, n in troop_men.items():
                line = per.get(name)
                if line is None:
                    line = per[name] = [0] * len(points)
                line[i] = n
        sides.append((side.name, tuple(values)))
        troops.append((side.name, {k: tuple(v) for k, v in per.items()}))
    unit = (
        "men"
        if rs.counts_figures or any(t.basing.men_per_base for t in rs.troops.values())
        else size_word(rs)
    )
    return Strength(
        tuple(p[0] for p in points), tuple(sides), tuple(troops), unit, army_colours(rs, current)
    )


def army_colours(rs: Ruleset, campaign: Campaign) -> tuple[str | None, ...]:
    """Each side's colour from its army list (Rome red, Carthage purple, as on the battle
    map); None where the list is gone or names none, or an earlier side already has it."""
    out: list[str | None] = []
    for side in campaign.sides:
        army = rs.armies.get(side.army.army)
        colour = army.colour if army is not None else None
        out.append(colour if colour is not None and colour not in out else None)
    return tuple(out)


# --------------------------------------------------------------------------- leaders


@dataclass(frozen=True)
class LeaderRow:
    side: str
    name: str
    rank: str
    status: str
    wounds: int
    battles: int
    history: str | None


def leader_sheet(rs: Ruleset, campaign: Campaign) -> list[LeaderRow]:
    rows = []
    for side in campaign.sides:
        for ld in side.army.leaders:
            fought = 0
            for b in campaign.battles:
                heads = b.went_in_heads  # (a stored battle's armies are not made for this)
                if heads is None:
                    continue
                for k, part in enumerate(b.participants):
                    if part.side == side.id and ld.id in heads[k].leaders:
                        fought += 1
            rows.append(
                LeaderRow(
                    side.name,
                    ld.name,
                    ld.rank,
                    leader_state(ld),
                    ld.wounds,
                    fought,
                    historical_fate(rs, campaign, side.id, ld.id),
                )
            )
    return rows
