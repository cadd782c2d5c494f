"""A historical battle fought on the table, beside what happened: the winner by the
ruleset's own rule (or declared) against the winner in history, each side's losses as a
share of the men its units stand for against the losses the sources give, and each side's
historical objective, met on the table or not, against whether it was met then.

A unit's men are what its ruleset and scale make of it (Quincunx and MWAN #90 by figures,
Leg VI by bases, times the battle's factor); where the ruleset counts no men (GSB, D3), the
men of the force its line stands for, shared among the force's units (the battle file's
own rosters); a unit of a roster the file did not make counts the side's men evenly. A unit
lost (eliminated, routed off, or gone by a lost marker of its ruleset) loses all of them;
one worn down, its share of its strength.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from app.core.battle.state import BattleState, BattleUnit
from app.core.roster import Roster
from app.core.scenario.build import shares
from app.core.scenario.deploy import placing
from app.core.scenario.library import Scenario
from app.core.scenario.schema import Losses, Objective
from app.core.totals import strength_of
from app.rules.ruleset import Ruleset


@dataclass(frozen=True)
class SideReport:
    side_id: str
    name: str
    #: men its units stand for, and the share of them lost on the table (0 to 1)
    men: float
    share_lost: float
    history: Losses
    #: the men the sources give the side
    source_men: int
    objective: Objective | None
    #: whether the objective is met on the table as it stands (None: no objective)
    met: bool | None

    @property
    def men_lost(self) -> float:
        return self.men * self.share_lost

    @property
    def history_share(self) -> float | None:
        if self.history.men is None or not self.source_men:
            return None
        return min(self.history.men / self.source_men, 1.0)


@dataclass(frozen=True)
class Comparison:
    scenario: Scenario
    #: the winner on the table (a battle side id), None for a draw; ``ended``: whether the
    #: battle has a result yet
    winner: str | None
    ended: bool
    reason: str
    sides: tuple[SideReport, SideReport]

    @property
    def historical_winner(self) -> str | None:
        w = self.scenario.data.battle.winner
        return None if w == "draw" else w

    def lines(self) -> list[str]:
        """The comparison in sentences, for the command line, the window and the report."""
        sc = self.scenario
        names = {s.side_id: s.name for s in self.sides}
        hw = self.historical_winner
        then = f"{names[hw]} won" if hw is not None else "it was a draw"
        if not self.ended:
            out = [f"{sc.name} is not over yet; in history {then}."]
        else:
            now = f"{names[self.winner]} won" if self.winner is not None else "a draw"
            same = "as in history" if self.winner == hw else f"in history {then}"
            out = [f"{sc.name}: {now} on the table ({self.reason}); {same}."]
        for s in self.sides:
            lost = f"{s.name} lost {s.share_lost:.0%} of its men on the table"
            if s.men:
                lost += f" (about {round(s.men_lost, -2):,.0f} of {round(s.men, -2):,.0f})"
            hist = s.history_share
            if hist is not None and s.history.men is not None:
                then_lost = (
                    f"in history {s.history.men:,} of {s.source_men:,} ({hist:.0%}), "
                    f"{s.history.cite}"
                )
            else:
                then_lost = f"in history: {s.history.text[0].lower()}{s.history.text[1:]}"
                then_lost = then_lost.rstrip(".") + f" ({s.history.cite})"
            out.append(f"{lost}; {then_lost}.")
        for s in self.sides:
            if s.objective is None:
                continue
            now = "met" if s.met else "not met"
            then = "was met" if s.objective.met else "was not met"
            out.append(
                f"{s.name}'s objective, {s.objective.text[0].lower()}{s.objective.text[1:]}"
                f" On the table: {now}; in history it {then}."
            )
        return out


def _lost_share(unit: BattleUnit, lost_markers: Mapping[str, str]) -> float:
    st = unit.status
    if st.eliminated or st.strength <= 0 or any(m in st.markers for m in lost_markers):
        return 1.0
    if st.start_strength <= 0:
        return 0.0
    return max(0.0, min(1.0, 1 - st.strength / st.start_strength))


def unit_men(
    sc: Scenario, rs: Ruleset, roster: Roster, side_id: str, state: BattleState, side: int
) -> dict[str, float]:
    """Battle unit id -> the men it stands for (see the module's docstring)."""
    factor = sc.data.rulesets[rs.id].factor if rs.id in sc.data.rulesets else 1
    share = shares(sc, rs.id, side_id) if rs.id in sc.data.rulesets else {}
    listed = rs.armies.get(roster.army)
    lines = {u.id: u for u in roster.units}
    mine = [u for u in state.units if u.side == side]
    even = sum(f.men for f in sc.side(side_id).forces) / max(len(mine), 1)
    out: dict[str, float] = {}
    for u in mine:
        line = lines.get(u.roster_unit or "")
        men: float | None = None
        if line is not None:
            entry = listed.entries.get(line.entry) if listed is not None else None
            strength = strength_of(
                rs, entry, line.size, roster.scale, dict(line.lines) if line.lines else None
            )
            if strength.men is not None:
                men = float(strength.men * factor)
            elif line.id in share:
                men = share[line.id].men
        out[u.id] = even if men is None else men
    return out


def _in_area(u: BattleUnit, area: tuple[float, float, float, float], st: BattleState) -> bool:
    x0, y0, x1, y1 = area
    return x0 * st.width <= u.x <= x1 * st.width and y0 * st.height <= u.y <= y1 * st.height


def _met(
    objective: Objective,
    side: int,
    flipped: bool,
    st: BattleState,
    enemy_share: float,
    lost_markers: Mapping[str, str],
) -> bool:
    if objective.kind == "destroy":
        assert objective.share is not None
        return enemy_share >= objective.share - 1e-9
    assert objective.area is not None
    x0, y0, x1, y1 = objective.area
    area = (1 - x1, 1 - y1, 1 - x0, 1 - y0) if flipped else objective.area
    standing = [u for u in st.units if _lost_share(u, lost_markers) < 1.0]
    if objective.kind == "reach":
        inside = [u for u in standing if u.side == side and _in_area(u, area, st)]
        return len(inside) >= objective.units
    return not any(u.side != side and _in_area(u, area, st) for u in standing)


def compare(
    sc: Scenario,
    rs: Ruleset,
    state: BattleState,
    rosters: tuple[Roster, Roster],
    lost_markers: Mapping[str, str],
) -> Comparison:
    """The battle as it stands (or ended) beside the history of ``sc``."""
    how = placing(sc, rosters)
    flipped = how.order != sc.side_ids
    men = [unit_men(sc, rs, rosters[k], how.order[k], state, k) for k in (0, 1)]
    shares_lost: list[float] = []
    for k in (0, 1):
        total = sum(men[k].values())
        lost = sum(men[k][u.id] * _lost_share(u, lost_markers) for u in state.units if u.side == k)
        shares_lost.append(lost / total if total else 0.0)
    reports = []
    for k in (0, 1):
        side_id = how.order[k]
        side = sc.side(side_id)
        objective = side.objective
        met = (
            None
            if objective is None
            else _met(objective, k, flipped, state, shares_lost[1 - k], lost_markers)
        )
        reports.append(
            SideReport(
                side_id,
                side.name,
                sum(men[k].values()),
                shares_lost[k],
                side.losses,
                sum(f.men for f in side.forces),
                objective,
                met,
            )
        )
    result = state.result
    winner = None if result is None or result.winner is None else how.order[result.winner]
    return Comparison(
        sc,
        winner,
        result is not None,
        result.reason if result is not None else "",
        (reports[0], reports[1]),
    )


def history_of(
    rs: Ruleset,
    state: BattleState,
    rosters: tuple[Roster, Roster] | None,
    lost_markers: Mapping[str, str],
    user: Path | None = None,
) -> list[str]:
    """The comparison's lines for a battle set up from a historical battle (the built-in
    file of its id, else ``user``'s); nothing for any other battle, or one whose file is
    gone."""
    if state.scenario is None or rosters is None:
        return []
    from app.core.scenario.start import builtin_scenario

    sc = builtin_scenario(state.scenario, rs, user)
    if sc is None or rs.id not in sc.rulesets:
        return []
    try:
        return compare(sc, rs, state, rosters, lost_markers).lines()
    except ValueError:  # rosters that cannot be told apart as the battle's sides
        return []
