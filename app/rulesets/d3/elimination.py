"""D3 Ancient Rules mechanics: eliminating units (more than 8 hits), berserk elephants, and
the end of the battle (army resolve, 15 turns).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.dice import dist_of, parse_dice
from app.rules.mechanics import (
    Combatant,
    Dice,
    Effects,
    LeaderEvent,
    Odds,
    Outcome,
    Resolution,
    Scalar,
    Side,
    Situation,
    TurnView,
    UnitChange,
    Victory,
    add_odds,
    normalise,
)
from app.rulesets.d3.base import D3Base, D3Refusal, hits_text, roll_total
from app.rulesets.d3.rules import berserk_rows, eliminations, past_resolve, unit_counts, verdict


class EliminationRules(D3Base):
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

    def _berserk_odds(self, sit: Situation) -> Odds:
        """Exact odds of a berserk roll: the row by D3, then the struck unit's D3 hits."""
        elephant, pool = self._elephant(sit)
        rows = berserk_rows(self.t, elephant, pool)
        out: Odds = {}
        for roll, p in dist_of(self.t.berserk.dice).items():
            text, struck, hits = rows[roll]
            if struck is None or hits is None:
                add_odds(out, Outcome(self._removed(), result=text), p)
                continue
            for n, q in dist_of(hits).items():
                add_odds(out, Outcome(self._removed(), result=f"{text}: {hits_text(n)}"), p * q)
        return normalise(out)

    def _berserk(
        self, elephant: Combatant, pool: Sequence[Combatant], dice: Dice
    ) -> tuple[str, str, Combatant | None, int]:
        """D3, Berserk Elephants: roll the table; (log line, result as in the odds, unit
        struck, hits). Berserk hits are elephant hits: never halved (errata
        berserk-within)."""
        rows = berserk_rows(self.t, elephant, pool)
        roll, _ = roll_total(dice, parse_dice(self.t.berserk.dice), f"{elephant.name} berserk")
        text, struck, hits = rows[roll]
        if struck is None or hits is None:
            return f"{elephant.name} berserk roll {roll}: {text}.", text, None, 0
        n, _ = roll_total(dice, parse_dice(hits), f"{elephant.name} berserk hits on {struck.name}")
        hit = hits_text(n)
        line = f"{elephant.name} berserk roll {roll}: they run amok into {struck.name}, {hit}."
        return line, f"{text}: {hit}", struck, n

    def _berserk_action(self, sit: Situation, dice: Dice) -> Resolution:
        """The berserk roll on its own (the elimination step rolls it by itself)."""
        elephant, pool = self._elephant(sit)
        line, result, struck, n = self._berserk(elephant, pool, dice)
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
            line, _, struck, n = self._berserk(u, pool, dice)
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
