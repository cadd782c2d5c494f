"""The chronicle of a campaign, as plain values for the window, the command line and the
PDF: the timeline of battles with results, losses, leaders' fates and notes in words; the
strength of each side (men at the roster's scale, and by troop type) after each battle; and
the leader status sheet (every leader, status, wounds, battles fought, and for the template
his historical fate)."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.battle.result import BattleResult
from app.core.campaign.diff import leader_state, size_word
from app.core.campaign.model import Campaign, CampaignBattle
from app.core.campaign.session import CampaignSession
from app.core.campaign.steps import ApplyResult
from app.core.campaign.template import historical_fate
from app.core.roster import Roster
from app.core.totals import roster_totals, strength_of
from app.rules.ruleset import Ruleset


@dataclass(frozen=True)
class Entry:
    battle: CampaignBattle
    state: str
    winner: str | None
    words: tuple[str, ...]
    notes: tuple[str, ...]


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
        lost = sum(u.losses for u in side.units)
        gone = [u.name for u in side.units if u.lost]
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
    out = []
    for b in campaign.battles:
        r = b.result
        winner = None
        if r is not None and r.winner is not None:
            winner = _side_name(campaign, b, r.winner)
        out.append(Entry(b, b.state, winner, result_words(rs, campaign, b), r.notes if r else ()))
    return out


# --------------------------------------------------------------------------- strength


def men(rs: Ruleset, roster: Roster) -> int:
    """Men at the roster's scale; figures or bases where the ruleset gives no men."""
    t = roster_totals(rs, roster)
    return t.men if t.men is not None else (t.figures or t.bases or 0)


def by_troop(rs: Ruleset, roster: Roster) -> dict[str, int]:
    army = rs.armies.get(roster.army)
    out: dict[str, int] = {}
    for u in roster.units:
        entry = army.entries.get(u.entry) if army is not None else None
        s = strength_of(rs, entry, u.size, roster.scale, dict(u.lines) if u.lines else None)
        n = s.men if s.men is not None else (s.figures or s.bases or 0)
        troop = rs.troops.get(entry.troop) if entry is not None else None
        name = troop.name if troop is not None else u.entry
        out[name] = out.get(name, 0) + n * u.count
    return out


@dataclass(frozen=True)
class Strength:
    """``labels``: "Start", then each applied battle; ``sides``: each side's name and its
    strength at each label; ``troops``: per side, per troop type."""

    labels: tuple[str, ...]
    sides: tuple[tuple[str, tuple[int, ...]], ...]
    troops: tuple[tuple[str, dict[str, tuple[int, ...]]], ...]
    unit: str


def strength(rs: Ruleset, session: CampaignSession) -> Strength:
    points: list[tuple[str, Campaign]] = [("Start", session.start)]
    for d in session.done[: session.cursor]:
        if d.kind == "apply" and isinstance(d.step, ApplyResult):
            points.append((d.campaign.battle(d.step.battle).name, d.campaign))
    sides = []
    troops = []
    for side in session.campaign.sides:
        values = []
        per: dict[str, list[int]] = {}
        for i, (_, c) in enumerate(points):
            try:
                army = c.side(side.id).army
            except ValueError:
                values.append(0)
                continue
            values.append(men(rs, army))
            for name, n in by_troop(rs, army).items():
                per.setdefault(name, [0] * len(points))[i] = n
        sides.append((side.name, tuple(values)))
        troops.append((side.name, {k: tuple(v) for k, v in per.items()}))
    unit = (
        "men"
        if rs.counts_figures or any(t.basing.men_per_base for t in rs.troops.values())
        else size_word(rs)
    )
    return Strength(tuple(p[0] for p in points), tuple(sides), tuple(troops), unit)


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


def leader_sheet(campaign: Campaign) -> list[LeaderRow]:
    rows = []
    for side in campaign.sides:
        for ld in side.army.leaders:
            fought = 0
            for b in campaign.battles:
                if b.went_in is None:
                    continue
                for k, part in enumerate(b.participants):
                    if part.side == side.id and ld.id in {x.id for x in b.went_in[k].leaders}:
                        fought += 1
            rows.append(
                LeaderRow(
                    side.name,
                    ld.name,
                    ld.rank,
                    leader_state(ld),
                    ld.wounds,
                    fought,
                    historical_fate(campaign, side.id, ld.id),
                )
            )
    return rows
