"""D3 Ancient Rules: the battle mechanics (chance cards, shooting, combat, elimination,
berserk elephants, army resolve, 15 turns).

Every number comes from the ruleset's tables (``app.rulesets.d3.schema``); the combat steps,
the table-top geometry, the side records and the verdict are pure helpers in
``app.rulesets.d3.rules``.

Turns (errata player-turns): one core turn is one player's turn, and
``TurnView.initiative`` is the side whose turn it is. :meth:`D3Mechanics.start_battle` picks
the first side; the end of the elimination step hands the turn to the other side. A side's
own count of turns is its record's ``turn`` (1-15).

Each side's record (``TurnView.sides``) holds, besides what the core puts there (``army``,
``side_name``, ``commander_quality``, ``supply_problems``):

- ``deck``: the cards not yet drawn, card ids joined by commas; ``cards_drawn``: so far;
- ``card``, ``card_name``, ``card_active``: this turn's card ("" between turns) and whether
  it works (Rally and Initiative do nothing once the commander's unit is gone);
- ``card_used``: Rally or Initiative played this turn; ``initiative_unit`` and
  ``initiative_done``: the unit taking the Initiative card's extra action, and whether it
  has shot or fought with it;
- ``turn``; ``commander_unit``, ``commander_lost``; ``units_start``, ``units_lost``,
  ``resolve_broken``; ``game_over`` once both sides have played their 15 turns.

Unit markers: ``moved`` (moved or turned this turn) and ``charged`` (moved into contact),
both set by the core; ``engaged`` (in combat; touching footprints count too); ``shot`` and
``fought`` (set here); ``faced`` (turned to face a flank or rear attack: no attack in its
next turn). The acting side's turn markers are cleared at the end of its turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.rules.dice import DiceSpec, Dist, dist_of, faces_dist, max_of, parse_dice, shift
from app.rules.geometry import EPS
from app.rules.mechanics import (
    ActionSpec,
    Combatant,
    Dice,
    Effects,
    LeaderEvent,
    Mechanics,
    NotImplementedRule,
    Odds,
    Outcome,
    Resolution,
    Scalar,
    Side,
    Situation,
    Status,
    TurnView,
    UnitChange,
    Victory,
    add_odds,
    normalise,
)
from app.rules.ruleset import Ruleset
from app.rulesets.d3.rules import (
    CLEAR_CARD,
    CombatSteps,
    Rounding,
    action_specs,
    attack_side,
    berserk_rows,
    card_effect,
    combat_steps,
    commander_lost,
    deck_cards,
    distance,
    eliminations,
    engaged,
    engaged_in_front,
    fresh_record,
    halve,
    has_footprint,
    in_front_arc,
    past_resolve,
    shot_halving,
    side_update,
    touching,
    unit_counts,
    verdict,
)
from app.rulesets.d3.schema import (
    QUALITIES,
    Quality,
    Tables,
    TerrainType,
    Troop,
    deck_for,
    tables,
)

# The ids of the sequence steps (tables.sequence.steps) this module acts on.
CHANCE_CARD, MOVEMENT, SHOOTING, MELEE, ELIMINATION = (
    "chance_card",
    "movement",
    "shooting",
    "melee",
    "elimination",
)
TURN_MARKERS = frozenset({"moved", "charged", "shot", "fought", "faced"})
OPEN = "open"


class D3Refusal(ValueError):
    """An action the rules do not allow now; the message says why."""


def _hits(n: int) -> str:
    return "no hits" if n == 0 else "1 hit" if n == 1 else f"{n} hits"


@dataclass(frozen=True)
class _Plan:
    """One shot or attack, ready to roll: the dice (``keep`` > 1: best of that many dice),
    the combat steps or the shooting halving, the marker it leaves, and the words."""

    verb: str
    spec: DiceSpec
    keep: int
    steps: CombatSteps | None
    halving: Rounding | None
    mark: str
    notes: list[str]
    extra: bool

    def hits(self, raw: int) -> int:
        if self.steps is not None:
            return self.steps.apply(raw)
        return halve(raw, self.halving) if self.halving is not None else raw


def _roll(dice: Dice, spec: DiceSpec, purpose: str) -> tuple[int, tuple[int, ...]]:
    faces = dice.roll(spec.text, purpose)
    return sum(faces) + spec.modifier, faces


class D3Mechanics(Mechanics):
    """D3 Ancient Rules (One-Hour Wargames variant for the Second Punic War)."""

    engine = "d3"
    strength_unit = "units"
    #: D3, Sequence of play: each player takes a turn; a game turn is both players' turns.
    rounds_per_turn = 2
    round_name = "player turn"

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.t: Tables = tables(ruleset)
        self._actions = action_specs(self.t)

    # ----------------------------------------------------------------------- basics

    def troop(self, troop_id: str) -> Troop:
        tr = self.ruleset.troop(troop_id)
        if not isinstance(tr, Troop):
            raise TypeError(f"{troop_id!r} is not a D3 troop")
        return tr

    def _step(self, phase: int) -> str:
        steps = self.t.sequence.steps
        return steps[phase] if 0 <= phase < len(steps) else ""

    @staticmethod
    def _name(view: TurnView, side: Side) -> str:
        return str(view.sides[side].get("side_name") or view.side_names[side])

    def initial_status(self, troop: str, size: int, grade: str | None) -> Status:
        """D3, Unit Types: a unit of three bases is one piece; its damage is its hits."""
        self.troop(troop)
        return Status(strength=1, start_strength=1, grade=grade)

    def actions(self) -> Sequence[ActionSpec]:
        return self._actions

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
            a, _ = _roll(dice, spec, f"{names[0]} roll for the first turn")
            b, _ = _roll(dice, spec, f"{names[1]} roll for the first turn")
            if a != b:
                first: Side = 0 if a > b else 1
                lines.append(
                    f"First turn: {names[0]} rolled {a}, {names[1]} {b}; {names[first]} go first."
                )
                return first
            lines.append(f"First turn: both rolled {a}; roll again.")

    # ----------------------------------------------------------------------- turn

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
        and the game ends after both sides' 15th turn (errata player-turns)."""
        side = self.active_side(view)
        other: Side = 1 if side == 0 else 0
        changes = tuple(
            UnitChange(u.unit_id, Effects(markers_remove=u.status.markers & TURN_MARKERS))
            for u in view.side_units(side)
            if u.status.markers & TURN_MARKERS
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
        return (
            self.card_effect(unit.side, view) == "no_move_unless_commanded" and unit.leader is None
        )

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
        troop = self.troop(unit.troop)
        if unit.status.eliminated or troop.pivot_only or view.initiative != unit.side:
            return False
        step = self._step(view.phase)
        if step == CHANCE_CARD:
            named = str(view.sides[unit.side].get("initiative_unit", "")) == unit.unit_id
            if not (named and self._initiative_unit_ok(unit, view)):
                return False
        elif step != MOVEMENT:
            return False
        if self.confused(unit, view):
            return False
        return troop.may_leave_combat or not engaged(unit, view.units)

    def may_advance(self, unit: Combatant, view: TurnView) -> bool:
        """D3, Army Resolve: a broken army may no longer advance upon or towards the
        enemy."""
        return not self.resolve_broken(view, unit.side)

    def may_charge(self, unit: Combatant, target: Combatant, view: TurnView) -> str | None:
        """D3, Charges: why ``unit`` may not charge ``target`` now, or None if it may."""
        troop, other = self.troop(unit.troop), self.troop(target.troop)
        if not troop.may_charge:
            return f"{unit.name} cannot charge."
        if not self.can_move(unit, view):
            return f"{unit.name} may not move now."
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

    # ----------------------------------------------------------------------- actions

    def derive_options(self, action: str, sit: Situation) -> dict[str, Scalar]:
        """The table decides which side of the defender is attacked (D3, Combat: flank or
        rear +1 light, +2 heavy)."""
        out = super().derive_options(action, sit)
        a, d = sit.actor, sit.target
        if action == "melee" and a is not None and d is not None and has_footprint(d):
            side = attack_side(d, a)
            if side in self.t.charges.sides:
                out["attack_from"] = side
        return out

    def resolve(self, action: str, sit: Situation, dice: Dice) -> Resolution:
        if action == "melee":
            return self._attack(sit, dice, self._melee_plan(sit))
        if action == "shoot":
            return self._attack(sit, dice, self._shoot_plan(sit))
        if action == "rally":
            return self._rally(sit)
        if action == "initiative":
            return self._initiative(sit)
        if action == "face":
            return self._face(sit)
        if action == "berserk":
            return self._berserk_action(sit, dice)
        self.action(action)
        raise NotImplementedRule(f"D3: {action}")

    def odds(self, action: str, sit: Situation) -> Odds:
        if action == "melee":
            return self._attack_odds(sit, self._melee_plan(sit))
        if action == "shoot":
            return self._attack_odds(sit, self._shoot_plan(sit))
        if action == "berserk":
            return self._berserk_odds(sit)
        self.action(action)
        raise NotImplementedRule(f"D3: odds of {action}")

    def _turn_checks(self, sit: Situation, verb: str, step: str) -> bool:
        """Checks shared by shooting and combat; True when this is the Initiative card's
        extra action."""
        a, d = sit.attacker, sit.defender
        if a.status.eliminated or d.status.eliminated:
            raise D3Refusal("an eliminated unit can neither act nor be attacked")
        if a.side == d.side:
            raise D3Refusal(f"{a.name} cannot {verb} a unit of its own side")
        view = sit.view
        if view is None:
            return False
        if view.initiative != a.side:
            raise D3Refusal(f"{a.name} may {verb} only in their own side's turn")
        extra = self._initiative_unit_ok(a, view)
        if not extra and self._step(view.phase) != step:
            names = {ph.id: ph.name for ph in self.ruleset.turn.phases}
            raise D3Refusal(
                f"{a.name} may {verb.removesuffix(' at')} only in the {names.get(step, step)} step "
                "(or with the Initiative card, as it is drawn)"
            )
        return extra

    # -- shooting and combat -------------------------------------------------------------

    def _melee_plan(self, sit: Situation) -> _Plan:
        """D3, Combat: who may attack, the dice (commander: best of two D3, errata
        commander-dice-with-modifier) and the steps in the data's order (errata
        combat-modifier-order)."""
        a, d = sit.attacker, sit.defender
        ta, td = self.troop(a.troop), self.troop(d.troop)
        if ta.combat_hits is None:
            raise D3Refusal(f"{a.name} ({ta.name}) cannot attack in combat")
        extra = self._turn_checks(sit, "attack", MELEE)
        if a.status.has("fought") and not extra:
            raise D3Refusal(f"{a.name} have already fought this turn")
        if a.status.has("faced") and self.t.combat.facing_unit_may_not_attack:
            raise D3Refusal(f"{a.name} turned to face an attack and may not attack this turn")
        if not touching(a, d):
            raise D3Refusal(f"{a.name} are not in contact with {d.name}")
        # a unit that moved into contact with its target charged (errata moved-units-and-charges)
        charged = a.status.has("charged") or (has_footprint(a) and has_footprint(d))
        moved = a.status.has("moved") or a.status.has("charged")
        if moved and not charged and self.t.movement.moved_may_not_fight_unless_charged:
            raise D3Refusal(f"{a.name} moved without charging and may not fight")
        if extra and moved:
            raise D3Refusal("the Initiative card lets a unit fight only if already engaged")
        terrain = self._terrain(sit.choice("defender_terrain", OPEN))
        steps, notes = combat_steps(
            self.t, ta, td, sit.choice("attack_from", self.t.charges.sides[0]), terrain
        )
        spec = parse_dice(ta.combat_hits)
        keep = self.t.commanders.combat_dice if a.leader is not None or sit.flag("commander") else 1
        if keep > 1 and (spec.count != 1 or spec.faces[0] != 1):
            raise NotImplementedRule(f"D3 commander dice with {ta.combat_hits}")
        mark = "" if extra else "fought"
        return _Plan("attack", spec, keep, steps, None, mark, notes, extra)

    def _shoot_plan(self, sit: Situation) -> _Plan:
        """D3, Shooting: who may shoot at whom (not after moving, not at units in combat,
        in range and in the front arc, not under Ammunition Shortage), the dice and the
        halving."""
        a, d = sit.attacker, sit.defender
        ta, td = self.troop(a.troop), self.troop(d.troop)
        if not ta.shoots or ta.shoot_hits is None:
            raise D3Refusal(f"{a.name} ({ta.name}) cannot shoot")
        extra = self._turn_checks(sit, "shoot at", SHOOTING)
        view = sit.view
        if view is not None and self.card_effect(a.side, view) == "no_shooting":
            raise D3Refusal(
                f"{a.name} cannot shoot: {self._name(view, a.side)} drew Ammunition Shortage"
            )
        if a.status.has("moved") and self.t.movement.moved_may_not_shoot:
            raise D3Refusal(f"{a.name} moved or turned this turn and may not shoot")
        if a.status.has("shot") and not extra:
            raise D3Refusal(f"{a.name} have already shot this turn")
        units = view.units if view is not None else ()
        if not self.t.shooting.may_target_engaged and engaged(d, units):
            raise D3Refusal(f"{d.name} are engaged in combat and may not be shot at")
        reach = max(w.long_range for w in ta.weapons)
        gap = distance(a, d)
        if gap > reach + EPS:
            raise D3Refusal(f'{d.name} are {gap:.1f}" away, beyond the {reach:g}" range')
        arc = self.t.shooting.front_arc_degrees
        if self.t.shooting.front_arc_only and has_footprint(a) and not in_front_arc(a, d, arc):
            raise D3Refusal(f"{d.name} are not in the front arc of {a.name}")
        halved, notes = shot_halving(
            self.t, ta, td, self._terrain(sit.choice("target_terrain", OPEN))
        )
        rounding = self.t.shooting.halving_rounds if halved else None
        mark = "" if extra else "shot"
        return _Plan("shoot at", parse_dice(ta.shoot_hits), 1, None, rounding, mark, notes, extra)

    def _terrain(self, terrain_id: str) -> TerrainType:
        terrain = self.t.terrain.types.get(terrain_id)
        if terrain is None:
            raise D3Refusal(f"unknown terrain {terrain_id!r}")
        return terrain

    def _outcome(self, sit: Situation, plan: _Plan, raw: int) -> Outcome:
        n = plan.hits(raw)
        total = sit.defender.status.hits + n
        result = _hits(n)
        if total > self.t.elimination.eliminated_above_hits:
            result += f" ({total} in all: eliminated at the end of the turn)"
        mark = Effects(markers_add=frozenset({plan.mark})) if plan.mark else Effects()
        return Outcome(mark, Effects(hits=n), result)

    def _attack_odds(self, sit: Situation, plan: _Plan) -> Odds:
        """Exact odds: the die (or the best of two) through the modifiers."""
        raw: Dist = dist_of(plan.spec)
        if plan.keep > 1:
            one = best = faces_dist(plan.spec.faces)
            for _ in range(plan.keep - 1):
                best = max_of(best, one)
            raw = shift(best, plan.spec.modifier)
        out: Odds = {}
        for value, p in raw.items():
            add_odds(out, self._outcome(sit, plan, value), p)
        return normalise(out)

    def _attack(self, sit: Situation, dice: Dice, plan: _Plan) -> Resolution:
        a, d = sit.attacker, sit.defender
        if plan.keep > 1:
            faces = dice.roll(f"{plan.keep}d{plan.spec.sides}", f"{a.name} dice (commander)")
            raw = max(faces) + plan.spec.modifier
            rolled = f"with the commander: best of {list(faces)} is {max(faces)}"
        else:
            raw, faces = _roll(dice, plan.spec, f"{a.name} dice to {plan.verb} {d.name}")
            rolled = f"rolled {faces[0]}"
        outcome = self._outcome(sit, plan, raw)
        n = outcome.defender.hits
        mods = "".join(f"; {note}" for note in plan.notes)
        line = (
            f"{a.name} {plan.verb} {d.name}: {plan.spec.text.upper()} {rolled} = {raw}{mods}"
            f" -> {d.name} take {_hits(n)} ({d.status.hits + n} in all)."
        )
        sides: tuple[Mapping[str, Scalar] | None, Mapping[str, Scalar] | None] = (None, None)
        if plan.extra:
            used: dict[str, Scalar] = {
                "initiative_unit": a.unit_id,
                "initiative_done": True,
                "card_used": True,
            }
            sides = side_update(a.side, used)
            line += " (the Initiative card's extra action)"
        return Resolution(outcome=outcome, sides=sides, explanation=(line,))

    # -- cards and facing ---------------------------------------------------------------

    def _card_unit(self, sit: Situation, effect: str, card: str) -> tuple[TurnView, Combatant]:
        view, unit = sit.view, sit.attacker
        if view is None:
            raise D3Refusal(f"the {card} card is played in a battle")
        if view.initiative != unit.side:
            raise D3Refusal(f"the {card} card is played in its side's own turn")
        if unit.status.eliminated:
            raise D3Refusal(f"{unit.name} have been eliminated")
        if self.card_effect(unit.side, view) != effect:
            raise D3Refusal(f"{self._name(view, unit.side)} have no working {card} card this turn")
        if bool(view.sides[unit.side].get("card_used", False)):
            raise D3Refusal(f"the {card} card has already been played this turn")
        return view, unit

    def _rally(self, sit: Situation) -> Resolution:
        """Rally card: halve the hits of one of the side's units, rounding down (errata
        rally-card-halving, card-timing)."""
        _, unit = self._card_unit(sit, "halve_unit_hits", "Rally")
        before = unit.status.hits
        after = halve(before, "down")
        update: dict[str, Scalar] = {"card_used": True}
        return Resolution(
            outcome=Outcome(attacker=Effects(hits=after - before), result=f"rallied to {after}"),
            sides=side_update(unit.side, update),
            explanation=(f"Rally: {unit.name}'s {before} hits are halved to {after}.",),
        )

    def _initiative(self, sit: Situation) -> Resolution:
        """Initiative card: name the unit that takes one extra move, shot or round of
        combat now, in the chance-card step (errata initiative-card-timing)."""
        view, unit = self._card_unit(sit, "extra_activation", "Initiative")
        if self._step(view.phase) != CHANCE_CARD:
            raise D3Refusal("the Initiative card's extra action is taken as the card is drawn")
        update: dict[str, Scalar] = {"initiative_unit": unit.unit_id, "card_used": True}
        return Resolution(
            outcome=Outcome(result="takes the initiative"),
            sides=side_update(unit.side, update),
            explanation=(
                f"Initiative: {unit.name} may move, shoot, or fight a round if already "
                "engaged, and still act normally later this turn.",
            ),
        )

    def _face(self, sit: Situation) -> Resolution:
        """D3, Combat: a unit attacked in flank or rear may turn to face if it is not
        engaged to its front; it then may not attack in its next turn."""
        unit, enemy = sit.attacker, sit.defender
        if unit.side == enemy.side:
            raise D3Refusal(f"{unit.name} turn to face enemies only")
        if not self.t.combat.may_face_flank_or_rear_unless_engaged_in_front:
            raise D3Refusal("these rules do not let units turn to face")
        units = sit.view.units if sit.view is not None else ()
        if engaged_in_front(unit, enemy, units):
            raise D3Refusal(f"{unit.name} are engaged to their front and may not turn to face")
        turned = Effects(markers_add=frozenset({"faced"}), move=f"turns to face {enemy.name}")
        return Resolution(
            outcome=Outcome(attacker=turned, result="turns to face"),
            explanation=(f"{unit.name} turn to face {enemy.name}; no attack in their next turn.",),
        )

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
                add_odds(out, Outcome(self._removed(), result=f"{text}: {_hits(n)}"), p * q)
        return normalise(out)

    def _berserk(
        self, elephant: Combatant, pool: Sequence[Combatant], dice: Dice
    ) -> tuple[str, str, Combatant | None, int]:
        """D3, Berserk Elephants: roll the table; (log line, result as in the odds, unit
        struck, hits). Berserk hits are elephant hits: never halved (errata
        berserk-within)."""
        rows = berserk_rows(self.t, elephant, pool)
        roll, _ = _roll(dice, parse_dice(self.t.berserk.dice), f"{elephant.name} berserk")
        text, struck, hits = rows[roll]
        if struck is None or hits is None:
            return f"{elephant.name} berserk roll {roll}: {text}.", text, None, 0
        n, _ = _roll(dice, parse_dice(hits), f"{elephant.name} berserk hits on {struck.name}")
        line = f"{elephant.name} berserk roll {roll}: they run amok into {struck.name}, {_hits(n)}."
        return line, f"{text}: {_hits(n)}", struck, n

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
