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

from collections.abc import Mapping
from typing import Any, ClassVar, Protocol

from app.rules.actions import Action, Highest, Throws, Total
from app.rules.dice import parse_dice
from app.rules.geometry import EPS, unit_distance
from app.rules.mechanics import (
    Combatant,
    Effects,
    NotImplementedRule,
    Outcome,
    Resolution,
    Scalar,
    Side,
    Situation,
    TurnView,
)
from app.rules.table import TerrainKind
from app.rulesets.d3.base import (
    CHANCE_CARD,
    MELEE,
    OPEN,
    SHOOTING,
    AttackPlan,
    D3Refusal,
    hits_text,
)
from app.rulesets.d3.decisions import D3Decisions
from app.rulesets.d3.elimination import BerserkPlan
from app.rulesets.d3.movement import D3Movement
from app.rulesets.d3.rules import (
    attack_side,
    combat_steps,
    engaged,
    engaged_in_front,
    halve,
    has_footprint,
    in_front_arc,
    melee_options,
    shoot_options,
    shot_halving,
    side_update,
    touching,
)
from app.rulesets.d3.schema import TerrainType


class D3Needs(Protocol):
    """What :class:`D3Mechanics` uses of the chapters its bases bring: the chance cards
    (:class:`~app.rulesets.d3.turn.D3Turn`) and berserk elephants
    (:class:`~app.rulesets.d3.elimination.D3Elimination`)."""

    def card_effect(self, side: Side, view: TurnView) -> str: ...

    def _initiative_unit_ok(self, unit: Combatant, view: TurnView) -> bool: ...

    def _berserk_plan(self, sit: Situation) -> BerserkPlan: ...

    def _berserk(self, sit: Situation, plan: BerserkPlan, th: Throws) -> Resolution: ...


class D3Mechanics(D3Decisions, D3Movement, D3Needs):
    """D3 Ancient Rules (One-Hour Wargames variant for the Second Punic War)."""

    engine = "d3"
    sequence_rule = "D3, Sequence of play"
    #: the source's words for the kinds of terrain it names
    terrain_terms: ClassVar[Mapping[TerrainKind, str]] = {
        "woods": "woods",
        "town": "towns",
        "marsh": "marshland",
        "lake": "lakes",
        "river": "rivers",
        "ford": "river crossings",
        "broken": "broken ground",
        "road": "roads",
        "hill": "hills",
        "stream": "streams",
    }

    def record_item_name(self, key: str, item: str) -> str:
        """D3, Chance cards: a card in the deck or drawn, by its name ("No Event")."""
        card = self.t.chance_cards.cards.get(item)
        return card.name if card is not None else super().record_item_name(key, item)

    strength_unit = "units"
    #: D3, Sequence of play: each player takes a turn; a game turn is both players' turns.
    rounds_per_turn = 2
    round_name = "player turn"

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

    def declare(self) -> tuple[Action[Any], ...]:
        """The D3 actions, each declared once: combat and shooting (with exact odds), the
        Rally and Initiative cards, turning to face, and the berserk roll (with exact odds).
        Drawing a chance card and the elimination step are phase hooks, not actions."""
        return (
            Action(
                "melee",
                "Combat",
                "pair",
                prepare=self._melee_plan,
                play=self._attack,
                options=melee_options(self.t),
                help="The unit scores hits on an enemy in contact; only in its own turn.",
            ),
            Action(
                "shoot",
                "Shoot",
                "pair",
                prepare=self._shoot_plan,
                play=self._attack,
                options=shoot_options(self.t),
                help="Light infantry, light cavalry and catapults that did not move.",
            ),
            Action(
                "rally",
                "Rally (card)",
                "unit",
                prepare=self._rally_unit,
                play=self._rally,
                odds=False,
                help="With the Rally card: halve one of your units' hits, rounding down.",
            ),
            Action(
                "initiative",
                "Initiative (card)",
                "unit",
                prepare=self._initiative_unit,
                play=self._initiative,
                odds=False,
                help="With the Initiative card: this unit may move, shoot or fight now.",
            ),
            Action(
                "face",
                "Turn to face",
                "pair",
                prepare=self._face_check,
                play=self._face,
                odds=False,
                help="Turn to face an attacker on flank or rear (not if engaged in front).",
            ),
            Action(
                "berserk",
                "Berserk elephants",
                "unit",
                prepare=self._berserk_plan,
                play=self._berserk,
                help="An eliminated elephant unit runs amok into the nearest unit.",
            ),
        )

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

    def _melee_plan(self, sit: Situation) -> AttackPlan:
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
        return AttackPlan("attack", spec, keep, steps, None, mark, notes, extra)

    def _shoot_plan(self, sit: Situation) -> AttackPlan:
        """D3, Shooting: who may shoot at whom (not after moving, not at units in combat,
        in range, in the front arc and in sight -- errata sight-through-terrain --, not
        under Ammunition Shortage), the dice and the halving."""
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
        gap = unit_distance(a, d)
        if gap > reach + EPS:
            raise D3Refusal(f'{d.name} are {gap:.1f}" away, beyond the {reach:g}" range')
        arc = self.t.shooting.front_arc_degrees
        if self.t.shooting.front_arc_only and has_footprint(a) and not in_front_arc(a, d, arc):
            raise D3Refusal(f"{d.name} are not in the front arc of {a.name}")
        if view is not None and has_footprint(a) and has_footprint(d):
            seen, blockers = self.line_of_sight(view, a.unit_id, d.unit_id)
            if not seen:
                raise D3Refusal(
                    f"{a.name} cannot see {d.name}: {', '.join(blockers)} in the way "
                    "(errata sight-through-terrain)"
                )
        halved, notes = shot_halving(
            self.t, ta, td, self._terrain(sit.choice("target_terrain", OPEN))
        )
        rounding = self.t.shooting.halving_rounds if halved else None
        mark = "" if extra else "shot"
        return AttackPlan(
            "shoot at", parse_dice(ta.shoot_hits), 1, None, rounding, mark, notes, extra
        )

    def _terrain(self, terrain_id: str) -> TerrainType:
        terrain = self.t.terrain.types.get(terrain_id)
        if terrain is None:
            raise D3Refusal(f"unknown terrain {terrain_id!r}")
        return terrain

    def _outcome(self, sit: Situation, plan: AttackPlan, raw: int) -> Outcome:
        n = plan.hits(raw)
        total = sit.defender.status.hits + n
        result = hits_text(n)
        if total > self.t.elimination.eliminated_above_hits:
            result += f" ({total} in all: eliminated at the end of the turn)"
        mark = Effects(markers_add=frozenset({plan.mark})) if plan.mark else Effects()
        return Outcome(mark, Effects(hits=n), result)

    def _attack(self, sit: Situation, plan: AttackPlan, th: Throws) -> Resolution:
        """Roll the attack's die, or the commander's two D3 keeping the higher (one roll of
        ``2d3``, the troop's modifier added after), and turn it into hits."""
        a, d = sit.attacker, sit.defender
        if plan.keep > 1:
            best, shown = th.throw(
                Highest(f"{plan.keep}d{plan.spec.sides}", f"{a.name} dice (commander)")
            )
            raw = best + plan.spec.modifier
            rolled = f"with the commander: best of [{', '.join(shown.split())}] is {best}"
        else:
            raw, shown = th.throw(Total(plan.spec.text, f"{a.name} dice to {plan.verb} {d.name}"))
            rolled = f"rolled {shown}"
        outcome = self._outcome(sit, plan, raw)
        n = outcome.defender.hits
        mods = "".join(f"; {note}" for note in plan.notes)
        line = (
            f"{a.name} {plan.verb} {d.name}: {plan.spec.text.upper()} {rolled} = {raw}{mods}"
            f" -> {d.name} take {hits_text(n)} ({d.status.hits + n} in all)."
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

    def _rally_unit(self, sit: Situation) -> Combatant:
        """Rally card: the side has a working, unplayed Rally card this turn."""
        return self._card_unit(sit, "halve_unit_hits", "Rally")[1]

    def _rally(self, sit: Situation, unit: Combatant, th: Throws) -> Resolution:
        """Rally card: halve the hits of one of the side's units, rounding down (errata
        rally-card-halving, card-timing)."""
        before = unit.status.hits
        after = halve(before, "down")
        update: dict[str, Scalar] = {"card_used": True}
        return Resolution(
            outcome=Outcome(attacker=Effects(hits=after - before), result=f"rallied to {after}"),
            sides=side_update(unit.side, update),
            explanation=(f"Rally: {unit.name}'s {before} hits are halved to {after}.",),
        )

    def _initiative_unit(self, sit: Situation) -> Combatant:
        """Initiative card: a working, unplayed card, named as it is drawn (errata
        initiative-card-timing)."""
        view, unit = self._card_unit(sit, "extra_activation", "Initiative")
        if self._step(view.phase) != CHANCE_CARD:
            raise D3Refusal("the Initiative card's extra action is taken as the card is drawn")
        return unit

    def _initiative(self, sit: Situation, unit: Combatant, th: Throws) -> Resolution:
        """Initiative card: name the unit that takes one extra move, shot or round of
        combat now, in the chance-card step."""
        update: dict[str, Scalar] = {"initiative_unit": unit.unit_id, "card_used": True}
        return Resolution(
            outcome=Outcome(result="takes the initiative"),
            sides=side_update(unit.side, update),
            explanation=(
                f"Initiative: {unit.name} may move, shoot, or fight a round if already "
                "engaged, and still act normally later this turn.",
            ),
        )

    def _face_check(self, sit: Situation) -> None:
        """D3, Combat: a unit attacked in flank or rear may turn to face only if it is not
        engaged to its front."""
        unit, enemy = sit.attacker, sit.defender
        if unit.side == enemy.side:
            raise D3Refusal(f"{unit.name} turn to face enemies only")
        if not self.t.combat.may_face_flank_or_rear_unless_engaged_in_front:
            raise D3Refusal("these rules do not let units turn to face")
        units = sit.view.units if sit.view is not None else ()
        if engaged_in_front(unit, enemy, units):
            raise D3Refusal(f"{unit.name} are engaged to their front and may not turn to face")

    def _face(self, sit: Situation, plan: None, th: Throws) -> Resolution:
        """D3, Combat: the unit turns to face its attacker; it then may not attack in its
        next turn."""
        unit, enemy = sit.attacker, sit.defender
        turned = Effects(markers_add=frozenset({"faced"}), move=f"turns to face {enemy.name}")
        return Resolution(
            outcome=Outcome(attacker=turned, result="turns to face"),
            explanation=(f"{unit.name} turn to face {enemy.name}; no attack in their next turn.",),
        )
