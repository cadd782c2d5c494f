"""MWAN #90 Punic rules mechanics: what every part shares (the tables and troop types, a
unit's formation and hit class, when it routs, and what hits do to it).
"""

from __future__ import annotations

import math

from app.rules.geometry import unit_distance
from app.rules.mechanics import Combatant, Effects, Mechanics, Side, TurnView
from app.rules.values import NO_EFFECT
from app.rulesets.mwan90.rules import (
    AS_UNIT,
    BOTH,
    CONTACT,
    FORMATIONS,
    FORMED,
    MOVES_SECOND,
    ROUTED,
    SHIELD_WALL,
    SKIRMISH,
    WEDGE,
    with_,
)
from app.rulesets.mwan90.schema import Tables, Troop, rout_threshold, tables

#: the routed marker, as a losses' effects add it
_ROUTED = frozenset({ROUTED})


class MWAN90Base(Mechanics):
    """The MWAN #90 tables and troop types; formations, hit classes, rout thresholds and the
    losses hits cause."""

    # -- data -----------------------------------------------------------------------------

    @property
    def t(self) -> Tables:
        return tables(self.ruleset)

    def mw_troop(self, troop: str) -> Troop:
        tr = self.ruleset.troop(troop)
        if not isinstance(tr, Troop):
            raise TypeError(f"{troop!r} is not an MWAN #90 troop type")
        return tr

    def _phase_id(self, view: TurnView) -> str:
        """The id of the phase the battle is in ("" outside the turn's phases)."""
        phases = self.ruleset.turn.phases
        return phases[view.phase].id if 0 <= view.phase < len(phases) else ""

    def first_mover(self, view: TurnView) -> Side | None:
        """MWAN #90, Turn sequence 2: "Movement: 1st side, 2nd side (Initiative winner
        chooses 1st or 2nd move)": the winner moves first unless it chose this turn to move
        second (the move order action); None before any initiative is tossed."""
        winner = view.initiative
        if winner is None:
            return None
        return BOTH[1 - winner] if view.sides[winner].get(MOVES_SECOND) == view.turn else winner

    def formation(self, unit: Combatant, option: str = AS_UNIT) -> str:
        """The unit's formation: the option when set, else its Status, else by its type."""
        troop = self.mw_troop(unit.troop)
        form = option if option != AS_UNIT else unit.status.formation
        if form is None:
            form = SKIRMISH if troop.formed == "never" else FORMED
        if form not in FORMATIONS:
            raise ValueError(f"formation must be one of {', '.join(FORMATIONS)}")
        if form == SKIRMISH and troop.formed == "always":
            raise ValueError(f"{troop.name} are always formed")
        if form != SKIRMISH and troop.formed == "never":
            raise ValueError(f"{troop.name} are never formed")
        if form in (SHIELD_WALL, WEDGE) and not troop.barbarian:
            raise ValueError(f"only barbarians form a {form.replace('_', ' ')}")
        return form

    def formed(self, unit: Combatant, option: str = AS_UNIT) -> bool:
        """MWAN #90, Movement 2: skirmish infantry are never formed; medium infantry and light
        cavalry acting as skirmishers are unformed too."""
        return self.formation(unit, option) != SKIRMISH

    def hit_class(self, unit: Combatant, form: str, moved: bool) -> str:
        """MWAN #90, Melee 5 and 7: the target's class; an immobile shield wall is heavy."""
        if form == SHIELD_WALL and not moved:
            return self.t.formations.shield_wall.while_immobile_counts_as
        return self.mw_troop(unit.troop).hit_class

    def rout_at(self, unit: Combatant, form: str) -> int | None:
        """MWAN #90, Morale 1-2: formed units rout at 3 figures (elephants at 1); unformed
        units do not."""
        if form == SKIRMISH:
            return None
        return rout_threshold(self.t, self.mw_troop(unit.troop))

    def pinned(self, unit: Combatant, view: TurnView) -> bool:
        """MWAN #90, Movement 1: "Units in contact with enemy are pinned in melee and may
        not move"; but Melee 1: formed troops that contact skirmishers move on through
        them, so a formed unit touching only enemy skirmishers is not pinned."""
        if not self.t.movement.pinned_in_melee:
            return False
        if not self.formed(unit):
            return bool(self._in_contact(unit, view))
        return bool(self._in_contact(unit, view, only_formed=True))

    def _in_contact(
        self, unit: Combatant, view: TurnView, *, only_formed: bool = False
    ) -> bool | None:
        """Whether the unit touches an enemy (``only_formed``: a formed one); None when
        footprints are unknown. An enemy whose centre is farther off than the two bases'
        half-diagonals together is passed over unmeasured (moves are checked on tables of
        hundreds of units)."""
        enemies = [u for u in view.units if u.side != unit.side and not u.status.eliminated]
        if unit.width <= 0 or any(u.width <= 0 for u in enemies):
            return None
        reach = math.hypot(unit.width, unit.depth) / 2 + CONTACT
        for u in enemies:
            near = reach + math.hypot(u.width, u.depth) / 2
            if abs(u.x - unit.x) > near or abs(u.y - unit.y) > near:
                continue
            if only_formed and not self.formed(u):
                continue
            if unit_distance(unit, u) <= CONTACT:
                return True
        return False

    def figure_ranks(self, troop: str) -> int:
        """MWAN #90, Melee: a unit stands in the ranks whose figures fight (``ranks``)."""
        ranks = self.mw_troop(troop).ranks
        return ranks if ranks > 0 else super().figure_ranks(troop)

    # -- casualties -----------------------------------------------------------------------

    def losses(self, unit: Combatant, form: str, hits: int) -> Effects:
        """MWAN #90, Melee 5 and Morale 2: each hit removes a figure (an elephant); a formed
        unit reduced to 3 figures (an elephant unit to 1) routs and is removed."""
        # made as copies of no effect (:func:`with_`): the odds of big units ask this once
        # for each number of hits, and a frozen Effects' __init__ costs three times as much
        s = unit.status.strength
        lost = min(s, hits * self.t.melee.figures_lost_per_hit)
        if lost == 0:
            return NO_EFFECT
        if lost == s:
            return with_(NO_EFFECT, casualties=s, eliminated=True)
        limit = self.rout_at(unit, form)
        if limit is not None and s - lost <= limit:
            removed = self.t.morale.routed_removed
            return with_(
                NO_EFFECT,
                casualties=s if removed else lost,
                eliminated=removed,
                markers_add=_ROUTED,
            )
        return with_(NO_EFFECT, casualties=lost)

    def hit_cap(self, unit: Combatant, form: str) -> int:
        """Hits past which nothing changes: the unit has routed or is gone."""
        s = unit.status.strength
        limit = self.rout_at(unit, form)
        removed = self.t.morale.routed_removed
        need = s if limit is None or not removed else min(s, max(1, s - limit))
        return math.ceil(need / self.t.melee.figures_lost_per_hit)
