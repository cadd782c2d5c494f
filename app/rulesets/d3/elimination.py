"""D3 Ancient Rules mechanics: eliminating units (more than 8 hits), berserk elephants, and
the end of the battle (army resolve, 15 turns).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.actions import Rolling, Throws, Total
from app.rules.mechanics import (
    Combatant,
    Dice,
    Effects,
    LeaderEvent,
    Outcome,
    Resolution,
    Scalar,
    Side,
    Situation,
    TurnView,
    UnitChange,
    Victory,
)
from app.rulesets.d3.base import D3Base, D3Refusal, hits_text
from app.rulesets.d3.rules import (
    BerserkRows,
    berserk_rows,
    eliminations,
    past_resolve,
    unit_counts,
    verdict,
)


@dataclass(frozen=True)
class BerserkPlan:
    """A berserk roll ready to throw: the elephants and, for each roll of the table, the
    words, the unit struck and its hit dice."""

    elephant: Combatant
    rows: BerserkRows


class D3Elimination(D3Base):
    """D3, Eliminating units, Berserk elephants and Army resolve."""

    # -- elimination and berserk ---------------------------------------------------------

    def _removed(self) -> Effects:
        return Effects(casualties=1, eliminated=True) if self.t.berserk.removed_after else Effects()

    def _elephant(self, sit: Situation) -> tuple[Combatant, list[Combatant]]:
        unit = sit.attacker
        if self.troop(unit.troop).category != "elephant":
            raise D3Refusal(f"{unit.name} are not elephants")
        pool = sit.others or (sit.view.units if sit.view is not None else ())
        return unit, [u for u in pool if u.unit_id != unit.unit_id and not u.status.eliminated]

    def _berserk_plan(self, sit: Situation) -> BerserkPlan:
        """The berserk action's check (elephants only) and its table rows: who is struck on
        each roll, read from the units on the table."""
        elephant, pool = self._elephant(sit)
        return BerserkPlan(elephant, berserk_rows(self.t, elephant, pool))

    def _run_amok(
        self, elephant: Combatant, rows: BerserkRows, th: Throws
    ) -> tuple[str, str, Combatant | None, int]:
        """D3, Berserk Elephants: roll the table, then the struck unit's hits; (log line,
        result as in the odds, unit struck, hits). Berserk hits are elephant hits: never
        halved (errata berserk-within)."""
        roll, _ = th.throw(Total(self.t.berserk.dice, f"{elephant.name} berserk"))
        text, struck, hits = rows[roll]
        if struck is None or hits is None:
            return f"{elephant.name} berserk roll {roll}: {text}.", text, None, 0
        n, _ = th.throw(Total(hits, f"{elephant.name} berserk hits on {struck.name}"))
        hit = hits_text(n)
        line = f"{elephant.name} berserk roll {roll}: they run amok into {struck.name}, {hit}."
        return line, f"{text}: {hit}", struck, n

    def _berserk(self, sit: Situation, plan: BerserkPlan, th: Throws) -> Resolution:
        """The berserk roll as an action, with its odds (the elimination step rolls the
        same table by itself)."""
        line, result, struck, n = self._run_amok(plan.elephant, plan.rows, th)
        others = (UnitChange(struck.unit_id, Effects(hits=n)),) if struck is not None else ()
        return Resolution(
            outcome=Outcome(attacker=self._removed(), result=result),
            others=others,
            explanation=(line,),
        )

    def _eliminate(self, view: TurnView, dice: Dice) -> Resolution:
        """D3, Eliminating Units: every unit past 8 hits goes, elephants rolling for
        berserk (errata elimination-order); losing the commander's unit disables Rally and
        Initiative; more than 70% of units lost breaks the army's resolve."""
        lines: list[str] = []

        def removed(u: Combatant, hits: int) -> None:
            lines.append(f"{u.name} ({self._name(view, u.side)}) are eliminated with {hits} hits.")

        def berserk(u: Combatant, pool: list[Combatant]) -> tuple[Combatant | None, int]:
            line, _, struck, n = self._run_amok(u, berserk_rows(self.t, u, pool), Rolling(dice))
            lines.append(line)
            return struck, n

        elephants = {tid for tid, tr in self.ruleset.troops.items() if tr.category == "elephant"}
        gone, added = eliminations(self.t, view.units, elephants, berserk, removed)
        ids = {u.unit_id for u in gone}
        others = [UnitChange(uid, Effects(hits=n)) for uid, n in added.items() if uid not in ids]
        others += [
            UnitChange(
                u.unit_id, Effects(hits=added.get(u.unit_id, 0), casualties=1, eliminated=True)
            )
            for u in gone
        ]
        records: list[dict[str, Scalar]] = [{}, {}]
        events = []
        for u in gone:
            if u.leader is not None:
                records[u.side]["commander_lost"] = True
                events.append(
                    LeaderEvent(
                        u.leader.id,
                        "killed",
                        u.leader.wounds,
                        f"{u.leader.name} is lost with his unit.",
                    )
                )
                lines.append(
                    f"{u.leader.name} is lost with {u.name}: Rally, Initiative and All-out "
                    "Attack cards have no effect for the rest of the game."
                )
        for side in (0, 1):
            rec = view.sides[side]
            gone_here = sum(1 for u in gone if u.side == side)
            lost, start = unit_counts(rec, view.side_units(side), gone_here)
            was = bool(rec.get("resolve_broken", False))
            now = past_resolve(self.t, lost, start)
            records[side].update(units_lost=lost, resolve_broken=was or now)
            if now and not was:
                lines.append(
                    f"{self._name(view, side)} have lost {lost} of {start} units: their "
                    "army's resolve is broken and they may no longer advance."
                )
        return Resolution(
            others=tuple(others),
            sides=(records[0], records[1]),
            leader_events=tuple(events),
            explanation=tuple(lines),
        )

    # ----------------------------------------------------------------------- the end

    def units_lost(self, view: TurnView, side: Side) -> tuple[int, int]:
        """(units lost, units the army started with)."""
        return unit_counts(view.sides[side], view.side_units(side))

    def resolve_broken(self, view: TurnView, side: Side) -> bool:
        """D3, Army Resolve: more than 70% of the army's units lost."""
        if bool(view.sides[side].get("resolve_broken", False)):
            return True
        return past_resolve(self.t, *self.units_lost(view, side))

    def victory(self, view: TurnView) -> Victory | None:
        """Errata victory: a broken army loses at once, an army with no units left loses,
        and after both sides' 15th turn the smaller share of units lost wins."""
        return verdict(
            self.t,
            (self._name(view, 0), self._name(view, 1)),
            (self.units_lost(view, 0), self.units_lost(view, 1)),
            (self.resolve_broken(view, 0), self.resolve_broken(view, 1)),
            all(bool(view.sides[s].get("game_over", False)) for s in (0, 1)),
        )
