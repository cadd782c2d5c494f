"""D3 Ancient Rules mechanics: the battle's set-up (decks, the first side), each player's
turn (the chance card drawn, the end of the turn), and what the cards and combat allow a unit
to do (move, advance, charge).
"""

from __future__ import annotations

from collections.abc import Mapping

from app.rules.dice import parse_dice
from app.rules.mechanics import (
    Combatant,
    Dice,
    Effects,
    NotImplementedRule,
    Resolution,
    Scalar,
    Side,
    TurnView,
    UnitChange,
)
from app.rulesets.d3.base import (
    CHANCE_CARD,
    ELIMINATION,
    MOVEMENT,
    PASSED_THROUGH,
    TURN_EXTRA,
    TURN_MARKERS,
    D3Refusal,
    roll_total,
)
from app.rulesets.d3.elimination import D3Elimination
from app.rulesets.d3.rules import (
    CLEAR_CARD,
    card_effect,
    commander_lost,
    deck_cards,
    engaged,
    fresh_record,
    side_update,
)
from app.rulesets.d3.schema import QUALITIES, Quality, Troop, deck_for


class D3Turn(D3Elimination):
    """D3, Sequence of play and Chance cards: set-up, turns, and who may move or charge."""

    # ----------------------------------------------------------------------- set-up

    def _army_side(self, view: TurnView, side: Side) -> str:
        for army_id in (str(view.sides[side].get("army", "")), view.armies[side]):
            if army_id in self.ruleset.armies:
                return self.ruleset.armies[army_id].side or self._name(view, side)
        return self._name(view, side)

    @staticmethod
    def _quality(rec: Mapping[str, Scalar]) -> Quality:
        q = str(rec.get("commander_quality") or "average")
        for known in QUALITIES:
            if q == known:
                return known
        raise D3Refusal(f"commander quality {q!r} is not one of {', '.join(QUALITIES)}")

    def start_battle(self, view: TurnView, dice: Dice) -> Resolution:
        """D3, Chance Cards: each side's deck of 15 with its army, commander and supply
        swaps (errata deck-per-side); then who takes the first turn (errata first-turn)."""
        cc = self.t.chance_cards
        if cc.draw_per_turn != 1:
            raise NotImplementedRule("D3 chance cards: more than one card drawn a turn")
        lines: list[str] = []
        records: list[dict[str, Scalar]] = []
        for side in (0, 1):
            rec = view.sides[side]
            army_side, quality = self._army_side(view, side), self._quality(rec)
            supply = bool(rec.get("supply_problems", False))
            deck = deck_for(
                self.t, side=army_side, commander_quality=quality, supply_problems=supply
            )
            units = [u for u in view.side_units(side) if not u.status.eliminated]
            commander = next((u.unit_id for u in units if u.leader is not None), "")
            cards = [cid for cid, n in deck.items() for _ in range(n)]
            records.append(fresh_record(cards, commander, len(units)))
            swaps = [
                sub.summary
                for sub in cc.substitutions
                if (sub.condition == "army_side" and sub.value == army_side)
                or (sub.condition == "commander_quality" and sub.value == quality)
                or (sub.condition == "supply_problems" and supply)
            ]
            mix = ", ".join(f"{n} {cc.cards[cid].name}" for cid, n in deck.items())
            lines.append(
                f"{self._name(view, side)}: {len(cards)} chance cards ({mix}). "
                + (" ".join(swaps) or "No swaps.")
            )
        first = self._first_side(view, dice, lines)
        return Resolution(
            sides=(records[0], records[1]), initiative=first, explanation=tuple(lines)
        )

    def _first_side(self, view: TurnView, dice: Dice, lines: list[str]) -> Side:
        """Errata first-turn: the set-up's choice, else each side rolls; ties roll again."""
        if view.initiative is not None:
            lines.append(f"{self._name(view, view.initiative)} take the first turn.")
            return view.initiative
        spec = parse_dice(self.t.sequence.first_turn_dice)
        names = (self._name(view, 0), self._name(view, 1))
        while True:
            a, _ = roll_total(dice, spec, f"{names[0]} roll for the first turn")
            b, _ = roll_total(dice, spec, f"{names[1]} roll for the first turn")
            if a != b:
                first: Side = 0 if a > b else 1
                lines.append(
                    f"First turn: {names[0]} rolled {a}, {names[1]} {b}; {names[first]} go first."
                )
                return first
            lines.append(f"First turn: both rolled {a}; roll again.")

    # ----------------------------------------------------------------------- turn

    def side_in_play(self, view: TurnView) -> Side | None:
        """D3, Sequence of play: the side whose player turn it is (None before the first
        turn is decided)."""
        return view.initiative

    def active_side(self, view: TurnView) -> Side:
        if view.initiative is None:
            raise D3Refusal("no side has the turn yet: start the battle first")
        return view.initiative

    def begin_phase(self, view: TurnView, dice: Dice) -> Resolution:
        """D3, Sequence of play: step 1 draws the chance card, step 5 removes units."""
        step = self._step(view.phase)
        if step == CHANCE_CARD:
            return self._draw(view, dice)
        if step == ELIMINATION:
            return self._eliminate(view, dice)
        return Resolution()

    def end_phase(self, view: TurnView, dice: Dice) -> Resolution:
        """D3: after step 5 the card is discarded (no carry-over) and the turn passes."""
        return self._end_turn(view) if self._step(view.phase) == ELIMINATION else Resolution()

    def _draw(self, view: TurnView, dice: Dice) -> Resolution:
        """D3, Chance Cards: draw one card from the side's own deck (a die over the cards
        left); it acts this turn only."""
        side = self.active_side(view)
        rec, name = view.sides[side], self._name(view, side)
        cards = deck_cards(rec)
        if not cards:
            return Resolution(explanation=(f"{name} have no chance cards left.",))
        index = 0
        if len(cards) > 1:
            index = dice.roll(f"d{len(cards)}", f"{name} chance card draw")[0] - 1
        cid = cards.pop(index)
        card = self.t.chance_cards.cards[cid]
        turn = int(rec.get("turn", 0)) + 1
        lost = commander_lost(rec, view.units)
        disabled = lost and cid in self.t.commanders.cards_disabled_on_loss
        line = f"{name}, turn {turn}: draw {card.name} ({len(cards)} left). {card.effect}"
        if disabled:
            line += " It has no effect: the commander's unit has been eliminated."
        elif card.effect_key == "undefined":
            line += " The rules give this card no effect, so nothing is applied."
        update: dict[str, Scalar] = {
            **CLEAR_CARD,
            "deck": ",".join(cards),
            "card": cid,
            "card_name": card.name,
            "card_active": not disabled,
            "cards_drawn": ",".join(c for c in (str(rec.get("cards_drawn", "")), cid) if c),
            "turn": turn,
        }
        return Resolution(sides=side_update(side, update), explanation=(line,))

    def _end_turn(self, view: TurnView) -> Resolution:
        """D3, Chance Cards: a card cannot be carried over; the other side's turn follows,
        and the game ends after both sides' 15th turn (errata player-turns). The side's
        turn markers, and every unit's record of its moves this turn, are cleared."""
        side = self.active_side(view)
        other: Side = 1 if side == 0 else 0
        changes = tuple(
            UnitChange(u.unit_id, Effects(markers_remove=u.status.markers & TURN_MARKERS))
            for u in view.side_units(side)
            if u.status.markers & TURN_MARKERS
        ) + tuple(
            UnitChange(u.unit_id, Effects(extra_remove=TURN_EXTRA & set(u.status.extra)))
            for u in view.units
            if TURN_EXTRA & set(u.status.extra)
        )
        turns = self.t.sequence.turns
        if all(int(view.sides[s].get("turn", 0)) >= turns for s in (0, 1)):
            over: dict[str, Scalar] = {"game_over": True}
            mine = {**CLEAR_CARD, **over}
            return Resolution(
                others=changes,
                sides=(mine, over) if side == 0 else (over, mine),
                explanation=(f"Both sides have played their {turns} turns: the battle ends.",),
            )
        return Resolution(
            others=changes,
            sides=side_update(side, CLEAR_CARD),
            initiative=other,
            explanation=(f"{self._name(view, other)}'s turn.",),
        )

    # ----------------------------------------------------------------------- cards, moves

    def commander_lost(self, side: Side, view: TurnView) -> bool:
        """D3, Commanders: the unit carrying the side's commander has been eliminated."""
        return commander_lost(view.sides[side], view.units)

    def card_effect(self, side: Side, view: TurnView) -> str:
        """The effect key of ``side``'s card this turn ("none" if none or disabled)."""
        return card_effect(self.t, view.sides[side], self.commander_lost(side, view))

    def confused(self, unit: Combatant, view: TurnView) -> bool:
        """Confusion card: the side's units may not move this turn (they may pivot) unless
        the commander is with them."""
        held = "no_move_unless_commanded"
        card = self.t.chance_cards.cards.get(str(view.sides[unit.side].get("card", "")))
        if unit.leader is not None or card is None or card.effect_key != held:
            return False  # (the card's effect read before looking for the commander's unit)
        return self.card_effect(unit.side, view) == held

    def _initiative_unit_ok(self, unit: Combatant, view: TurnView) -> bool:
        """Initiative card: ``unit`` may take the extra action now, in the chance-card step
        (errata initiative-card-timing): the card works, and it is the unit named for it, or
        none has been named yet."""
        if self._step(view.phase) != CHANCE_CARD or view.initiative != unit.side:
            return False
        if self.card_effect(unit.side, view) != "extra_activation":
            return False
        rec = view.sides[unit.side]
        if bool(rec.get("initiative_done", False)):
            return False
        chosen = str(rec.get("initiative_unit", ""))
        return chosen == unit.unit_id or (not chosen and not bool(rec.get("card_used", False)))

    def can_move(self, unit: Combatant, view: TurnView) -> bool:
        """D3, Movement: the unit may move now -- its side's movement step (or the unit
        named for the Initiative card), not a catapult, not held by Confusion, and out of
        combat unless it is cavalry ("only cavalry can exit combat")."""
        return self.why_not_move(unit, view) is None

    def why_not_move(
        self, unit: Combatant, view: TurnView, *, pivot_only: bool = False
    ) -> str | None:
        """Why ``unit`` may not move now (None if it may): out of the battle, not its
        side's turn, not the movement step (the unit named for the Initiative card moves in
        the chance-card step), a unit passed through by a friend this turn, in combat and
        not cavalry; and, unless the move is a pivot on the spot (``pivot_only``), a
        catapult or a unit held by Confusion."""
        troop = self.troop(unit.troop)
        why = self._why_not(unit, troop, view, pivot_only)
        return None if why is None else f"{unit.name} may not move: {why}"

    def _why_not(
        self, unit: Combatant, troop: Troop, view: TurnView, pivot_only: bool
    ) -> str | None:
        if unit.status.eliminated:
            return "they are out of the battle"
        if view.initiative != unit.side:
            return "it is not their side's turn"
        step = self._step(view.phase)
        if step == CHANCE_CARD:
            named = str(view.sides[unit.side].get("initiative_unit", "")) == unit.unit_id
            if not (named and self._initiative_unit_ok(unit, view)):
                return (
                    "units move in the movement step (or the unit named for the "
                    "Initiative card, as it is drawn)"
                )
        elif step != MOVEMENT:
            return "units move only in their side's movement step"
        if unit.status.has(PASSED_THROUGH) and self.t.movement.passed_through_counts_as_moved:
            return "they were passed through by a friend this turn and count as having moved"
        if not pivot_only:
            if troop.pivot_only:
                return f"{troop.name.lower()} only pivot on the spot"
            if self.confused(unit, view):
                return "the Confusion card holds them (they may pivot; the commander's unit moves)"
        if not troop.may_leave_combat and engaged(unit, view.units):
            return "they are in combat, and only cavalry may leave a combat"
        return None

    def may_advance(self, unit: Combatant, view: TurnView) -> bool:
        """D3, Army Resolve: a broken army may no longer advance upon or towards the
        enemy."""
        return not self.resolve_broken(view, unit.side)

    def may_charge(self, unit: Combatant, target: Combatant, view: TurnView) -> str | None:
        """D3, Charges: why ``unit`` may not charge ``target`` now, or None if it may."""
        troop, other = self.troop(unit.troop), self.troop(target.troop)
        if not troop.may_charge:
            return f"{unit.name} cannot charge."
        problem = self.why_not_move(unit, view)
        if problem is not None:
            return f"{problem}."
        if not self.may_advance(unit, view):
            return f"{unit.name}: the army has lost its resolve and may not advance."
        if other.category == "elephant" and not troop.may_charge_elephants:
            return f"{unit.name} may not charge elephants."
        if troop.charges_only_engaged and not engaged(target, view.units):
            return f"{unit.name} may charge only an enemy already in combat."
        return None

    def move_allowance(
        self, unit: Combatant, view: TurnView | None = None, *, on_road: bool = False
    ) -> float | None:
        """D3, Movement: HI 6", LI, warbands and elephants 9", cavalry 12", catapults
        pivot only; +3" for a move wholly along a road; 0 under Confusion without the
        commander."""
        troop = self.troop(unit.troop)
        if troop.pivot_only or (view is not None and self.confused(unit, view)):
            return 0.0
        return troop.move + (troop.road_bonus if on_road else 0.0)
