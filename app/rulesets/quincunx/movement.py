"""Quincunx on the table: what each kind of terrain is to each troop (woods for light troops
only, except along a road; streams and fords crossed in three moves; rivers only at a
ford), who may move in a round (the mover; not a unit out of command or one that evaded),
moves checked against the movement matrix in move factors (only skirmishers move on after
shooting: the split move), leaving a melee (only as the mover in the first round of a
turn, and no new melee that round), horses keeping 2 MF from elephants, the unit fighting
two enemies taking the right-hand one first, the ground read from the table for melee and
missiles (only a wood's edge fights or is shot at from outside, with the cover column and
the attackers' column shift; a unit in the water as crossing), shots refused out of range
or out of sight, and the map's shooting reach (weapon ranges in the 90-degree arc) and
command reach (4 MF of the commander).

Every number is the data's: ``tables.terrain.kinds`` (errata "terrain-kinds",
"woods-light-troops"), ``tables.terrain.woods`` (errata "woods-edge"),
``tables.terrain.streams`` (errata "stream-crossing"), ``tables.movement``,
``tables.melee_resolution.break_off`` (errata "break-off"),
``tables.melee_resolution.pairing`` (errata "two-enemies-right-first"),
``tables.elephants_and_horses`` (errata "horses-keep-away"), ``tables.missile_ranges``,
``tables.command`` and each troop's ``enters_woods`` and ``weapons``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from app.rules.contact import TOUCH, not_in_contact
from app.rules.geometry import Footprint, aspect, edge_distance, heading_vector, surely_apart
from app.rules.mechanics import Mechanics, Outcome
from app.rules.movement import Breach, MoveCheck, MoveReason, TerrainEffect
from app.rules.paths import Path
from app.rules.sight import CommandReach, ShotReach
from app.rules.table import TerrainKind, TerrainPiece
from app.rules.values import Combatant, LeaderView, Side, Situation, TurnView
from app.rulesets.quincunx.combat import QuincunxCombat
from app.rulesets.quincunx.geometry import command_chain, command_reach
from app.rulesets.quincunx.missiles import no_fire
from app.rulesets.quincunx.rules import (
    BERSERK,
    EVADED,
    FIRED,
    FOUGHT,
    MELEE_WITH,
    MOVING,
    OUT_OF_COMMAND,
    Fight,
    Shot,
    fmt,
)

MOVE_RULE = "Quincunx, Movement Matrix"
WOODS_RULE = "Quincunx, Woods"
WATER_RULE = "Quincunx, Water"
COMMAND_RULE = "Quincunx, Commanders"
MELEE_RULE = "Quincunx, Melee"
HORSES_RULE = "Quincunx, Elephants and Horses"
MISSILE_RULE = "Quincunx, Missilery"
#: the moves a unit makes of its own will (the others go where the rules send them)
CHOSEN: frozenset[MoveReason] = frozenset({"move", "charge"})
#: the rule each kind of terrain comes from (the rest: errata "terrain-kinds")
KIND_RULE: dict[str, str] = {
    "woods": WOODS_RULE,
    "road": WOODS_RULE,
    "stream": WATER_RULE,
    "river": WATER_RULE,
    "ford": WATER_RULE,
}


class QuincunxTableNeeds(Protocol):
    """What :class:`QuincunxTable` uses of the missilery
    (:class:`~app.rulesets.quincunx.missiles.QuincunxMissiles`, which its base
    :class:`~app.rulesets.quincunx.combat.QuincunxCombat` brings)."""

    def _weapon(self, unit: Combatant, choice: str) -> str: ...


class QuincunxTable(QuincunxCombat, Mechanics, QuincunxTableNeeds):
    """The table hooks of :class:`~app.rules.mechanics.Mechanics` as Quincunx fills them."""

    _effects: dict[tuple[str, bool, str], TerrainEffect]
    _laid: dict[TerrainKind, frozenset[TerrainKind]]

    # ------------------------------------------------------------------ terrain

    def terrain_laid_over(self) -> Mapping[TerrainKind, frozenset[TerrainKind]]:
        """Quincunx, Woods and Water: a road opens the wood it runs through (errata
        "woods-light-troops"), a ford the river or stream it lies on (``tables.terrain.kinds``
        ``opens``)."""
        if not hasattr(self, "_laid"):
            self._laid = {
                kind: frozenset(rule.opens)
                for kind, rule in self.t.terrain.kinds.items()
                if rule.opens
            }
        return self._laid

    def terrain_effect(self, unit: Combatant, kind: TerrainKind) -> TerrainEffect:
        """Quincunx, Woods and Water (``tables.terrain.kinds``): woods (and, by errata
        "terrain-kinds", towns and marsh) only for troops that enter woods, peltasts only
        in skirmish order; streams and fords open, crossed in three moves (checked by
        :meth:`check_move`); a river only at a ford; a lake never. No terrain slows a move."""
        if not hasattr(self, "_effects"):
            self._effects = {}
        skirmish = self.skirmishing(unit)
        key = (unit.troop, skirmish, kind)
        known = self._effects.get(key)
        if known is not None:
            return known
        rule = self.t.terrain.kinds[kind]
        tr = self.troop(unit.troop)
        note = rule.note
        passable = True
        if rule.entry == "light_troops":
            if not tr.enters_woods:
                passable = False
                note = f"{note}: {tr.name} are not light troops"
            elif tr.light_class == "peltast" and not skirmish:
                passable = False
                note = f"{note}: formed peltasts only on a road; skirmish to enter"
        elif rule.entry in ("at_ford", "none"):
            passable = False
        cited = KIND_RULE.get(kind, "Quincunx, terrain")
        if rule.errata is not None:
            cited = f'{cited} (errata "{rule.errata}")'
        effect = TerrainEffect(
            passable=passable,
            cost_factor=rule.cost_factor,
            blocks_los=rule.blocks_sight,
            cover=rule.cover,
            note=note,
            rule=cited,
        )
        self._effects[key] = effect
        return effect

    # ------------------------------------------------------------------ who moves

    def side_to_move(self, view: TurnView) -> Side | None:
        """Quincunx, Sequence: the side moving in this round (move or counter-move); None
        before the first initiative is cast."""
        for side in (0, 1):
            if view.sides[side].get(MOVING):
                return 0 if side == 0 else 1
        return None

    def may_move(self, view: TurnView, unit_id: str, reason: MoveReason) -> Breach | None:
        """The core's rule, then: a unit out of command cannot move (only be driven back by
        a melee), and a unit that evaded cannot move in the next round (its chit). Answered
        once a view for a unit and a reason (a view never changes: every path a move's
        search tries asks it again)."""
        known: dict[tuple[object, str, str], Breach | None] = view.__dict__.setdefault(
            "_quincunx_may_move", {}
        )
        key = (self, unit_id, reason)
        if key in known:
            return known[key]
        found = known[key] = self._may_move(view, unit_id, reason)
        return found

    def _may_move(self, view: TurnView, unit_id: str, reason: MoveReason) -> Breach | None:
        found = super().may_move(view, unit_id, reason)
        if found is not None or reason not in CHOSEN:
            return found
        unit = view.unit(unit_id)
        who = f"{unit.name} ({unit.unit_id})"
        out = self.command_problem(view, unit)
        if out is None and unit.status.has(OUT_OF_COMMAND):
            out = (
                f"{who} is out of command (more than {self._mf(self.t.command.range_move_factors)}"
                f" from its commander, no chain of units "
                f"{self._mf(self.t.command.chain_move_factors)} apart)"
            )
        if out is not None:
            return Breach(COMMAND_RULE, f"{out}: it cannot move")
        if unit.status.has(EVADED):
            return Breach(MOVE_RULE, f"{who} evaded: it cannot move in the next round (chit)")
        return None

    def commanders_of(self, view: TurnView, unit: Combatant) -> list[LeaderView]:
        """Quincunx, Commanders: "Each commander is assigned a 'Battlegroup'": the leaders
        of the unit's side who lead its battlegroup (the roster's command); a unit of no
        battlegroup, or whose commander is gone, answers to the side's commander-in-chief
        (its general; errata "command-range-on-the-table"). Empty: no one to command it."""
        side = [ld for ld in view.leaders if ld.side == unit.side]
        mine = [ld for ld in side if unit.command is not None and unit.command in ld.commands]
        return mine or [ld for ld in side if ld.rank == "general"]

    def command_problem(self, view: TurnView, unit: Combatant) -> str | None:
        """Quincunx, Commanders: "In order for units to move, they must be within four move
        factors (12") of their commander or able to trace a line of command through
        affiliated units no further apart than two move factors (6"). A unit not meeting
        this criteria is out of command": read from the table when it acts (the commander
        where he stands, the chain through the units of its battlegroup); None when it is
        in command, has no footprint, or has no commander to answer to."""
        if not unit.footprint.has_size:
            return None
        leaders = self.commanders_of(view, unit)
        if not leaders:
            return None
        c = self.t.command
        if self._in_command(view, unit, leaders):
            return None
        names = " or ".join(ld.name for ld in leaders)
        return (
            f"{unit.name} ({unit.unit_id}) is out of command: more than "
            f"{self._mf(c.range_move_factors)} from {names}, and no chain of its "
            f"battlegroup's units {self._mf(c.chain_move_factors)} apart leads to him"
        )

    def _in_command(self, view: TurnView, unit: Combatant, leaders: list[LeaderView]) -> bool:
        """Whether ``unit`` is within range of one of ``leaders`` or chained to him through
        its battlegroup's units. A view never changes: the units a battlegroup's chain
        reaches are worked out once a view (a move's check asks it for every path tried),
        for a unit standing where the view has it."""
        c = self.t.command
        group = [
            u
            for u in view.units
            if u.side == unit.side
            and u.command == unit.command
            and u.unit_id != unit.unit_id
            and not u.status.eliminated
            and u.footprint.has_size
        ]
        listed = next((u for u in view.units if u.unit_id == unit.unit_id), None)
        if listed is None or listed.footprint != unit.footprint:  # a unit the view has not
            return any(
                command_reach(unit, group, (ld.x, ld.y), c.range_inches, c.chain_inches)
                for ld in leaders
            )
        known: dict[tuple[int, str | None], set[str]] = view.__dict__.setdefault(
            "_quincunx_chains", {}
        )
        key = (unit.side, unit.command)
        if key not in known:
            members = [*group, listed]
            reached: set[str] = set()
            for ld in leaders:
                reached |= command_chain(members, (ld.x, ld.y), c.range_inches, c.chain_inches)
            known[key] = reached
        return unit.unit_id in known[key]

    def may_act(self, action: str, sit: Situation) -> str | None:
        """Quincunx, Commanders: a unit out of command "may defend themselves, but may make
        no aggressive act": it does not shoot (but in passing) or attack in a melee, read
        from the table as for a move (:meth:`command_problem`)."""
        if action not in ("shoot", "melee") or sit.view is None or sit.actor is None:
            return None
        if action == "shoot" and sit.flag("pass_through"):
            return None
        problem = self.command_problem(sit.view, sit.actor)
        return None if problem is None else f"{COMMAND_RULE}: {problem}: no aggressive act"

    # ------------------------------------------------------------------ the check

    def check_move(
        self,
        view: TurnView,
        unit_id: str,
        path: Path,
        *,
        reason: MoveReason = "move",
        target: str | None = None,
    ) -> MoveCheck:
        """The core's checks (the allowance given in move factors), then Quincunx's own: the
        streams' three-round crossing; for a move or a charge, leaving a melee only as the
        mover of a turn's first round (and no new melee after it), and horses not used to
        elephants staying 2 MF from them."""
        found = super().check_move(view, unit_id, path, reason=reason, target=target)
        unit = view.unit(unit_id)
        breaches = [self._in_move_factors(b, found, unit) for b in found.breaches]
        if reason == "move":
            breaches += self._split_move(unit)
        if reason in CHOSEN:
            breaches += self._crossings(view, unit, found)
            breaches += self._break_off(view, unit, reason, target)
            breaches += self._horses(view, unit, found.end, target)
        if breaches == list(found.breaches):
            return found
        return replace(found, breaches=tuple(breaches))

    def _in_move_factors(self, b: Breach, found: MoveCheck, unit: Combatant) -> Breach:
        """The core's allowance breach, said in move factors with the unit's class of the
        movement matrix."""
        if b.rule != f"{self.ruleset.meta.short_name}, movement" or b.severity != "forbidden":
            return b
        if found.allowance is None or found.left is None:
            return b
        per = self._per_mf
        cls = self.move_class(unit)
        used = f", {fmt(round(unit.moved / per, 2))} MF used this round" if unit.moved else ""
        return Breach(
            MOVE_RULE,
            f'{unit.name} ({unit.unit_id}) would move {found.cost:.1f}" '
            f"({fmt(round(found.cost / per, 2))} MF) with {fmt(round(max(found.left, 0) / per, 2))}"
            f" MF left of its {fmt(round(found.allowance / per, 2))} MF "
            f"({cls.name.lower()}{used})",
        )

    def _split_move(self, unit: Combatant) -> list[Breach]:
        """Quincunx, Movement: only light cavalry and light infantry deployed as skirmishers
        split-move (move up, shoot, move back within the allowance): a unit that has shot
        this round moves no more unless it is one."""
        if not unit.status.has(FIRED):
            return []
        if self.troop(unit.troop).category.light and self.skirmishing(unit):
            return []
        return [
            Breach(
                MOVE_RULE,
                f"{unit.name} ({unit.unit_id}) has shot this round: only light troops deployed "
                "as skirmishers move on after shooting (split move)",
            )
        ]

    def _crossings(self, view: TurnView, unit: Combatant, found: MoveCheck) -> list[Breach]:
        """Quincunx, Water (errata "stream-crossing"): to the bank and stop; into the water
        and stop, in a later round; out to the bank and stop, in a later round: a move into
        the water starts at the bank and ends in it, a move out of it ends at the bank,
        each is the unit's first move of the round, and no move crosses the water whole."""
        kinds = self.t.terrain.kinds
        touched = {pid for leg in found.legs for pid in leg.terrain}
        start, end = unit.footprint, found.end
        pieces = [
            p
            for p in view.table.terrain
            if kinds[p.kind].entry == "crossing"
            and (p.id in touched or p.overlaps(end) or p.overlaps(start))
        ]
        if not pieces:
            return []
        # a ford is where a river or stream is crossed: the stream under it is not crossed
        fords = [p for p in pieces if p.kind == "ford"]
        bank = self.t.terrain.streams.bank_inches
        who = f"{unit.name} ({unit.unit_id})"
        out: list[Breach] = []
        for p in pieces:
            if p.kind != "ford" and any(_meet(f, p) for f in fords):
                continue
            was, now = p.overlaps(start), p.overlaps(end)
            water = f"the {p.kind} {p.id}" + (f' "{p.name}"' if p.name else "")
            if not was and not now:
                out.append(
                    Breach(
                        WATER_RULE,
                        f"{who} would cross {water} in one move: to the bank, into the water "
                        "and out, one move a round, stopping each time",
                    )
                )
                continue
            if was == now:
                continue
            if unit.moved > 1e-9:
                out.append(
                    Breach(
                        WATER_RULE,
                        f"{who} has moved this round: it goes into or out of {water} only "
                        "as its first move of a round",
                    )
                )
            if not was and not _near(start, p, bank):
                out.append(
                    Breach(
                        WATER_RULE,
                        f'{who} must first stop at the bank of {water} (within {fmt(bank)}")'
                        " before going into it",
                    )
                )
            if was and not _near(end, p, bank):
                out.append(
                    Breach(
                        WATER_RULE,
                        f"{who} leaving {water} stops at its bank "
                        f'(within {fmt(bank)}" of the water)',
                    )
                )
        return out

    def in_melee(self, view: TurnView, unit: Combatant) -> Combatant | None:
        """The enemy ``unit`` is locked in melee with: the one it fought an undecided round
        against, still touching it (errata "break-off"); None when there is none."""
        other_id = unit.status.extra.get(MELEE_WITH)
        if other_id is None:
            return None
        other = next((u for u in view.units if u.unit_id == str(other_id)), None)
        if other is None or other.status.eliminated:
            return None
        if not (unit.footprint.has_size and other.footprint.has_size):
            return other
        return other if edge_distance(unit.footprint, other.footprint) <= TOUCH else None

    def broke_off(self, view: TurnView, unit: Combatant) -> bool:
        """Whether ``unit`` left a melee this round: it still bears the melee it fought,
        has moved this round and no longer touches that enemy."""
        return (
            MELEE_WITH in unit.status.extra
            and unit.moved > 1e-9
            and self.in_melee(view, unit) is None
        )

    def _break_off(
        self, view: TurnView, unit: Combatant, reason: MoveReason, target: str | None
    ) -> list[Breach]:
        """Quincunx, Melee (``melee_resolution.break_off``, errata "break-off"): a unit in a
        melee leaves it only as the mover in the first round of a turn, never on a
        counter-move; one that left a melee this round may not charge anyone else."""
        who = f"{unit.name} ({unit.unit_id})"
        foe = self.in_melee(view, unit)
        if foe is not None and (reason == "move" or target != foe.unit_id):
            mover = bool(view.sides[unit.side].get(MOVING))
            if not (mover and view.round == 1):
                return [
                    Breach(
                        MELEE_RULE,
                        f"{who} is in a melee with {foe.name} ({foe.unit_id}): it may leave it "
                        "only when its side moves first in a new turn, never on a counter-move",
                    )
                ]
        if reason == "charge" and self.broke_off(view, unit):
            return [
                Breach(
                    MELEE_RULE,
                    f"{who} left a melee this round: it may not start another until the round ends",
                )
            ]
        return []

    def _shies(self, unit: Combatant) -> bool:
        """Cavalry not used to elephants (all but the exempt troops)."""
        eh = self.t.elephants_and_horses
        tr = self.troop(unit.troop)
        return tr.mounted and not self.is_elephant(unit) and unit.troop not in eh.exempt_troops

    def _horses(
        self, view: TurnView, unit: Combatant, end: Footprint, target: str | None
    ) -> list[Breach]:
        """Quincunx, Elephants and Horses (errata "horses-keep-away"): cavalry not used to
        elephants ends no move or charge within 2 MF of an elephant unit, and never
        charges one."""
        if not self._shies(unit) or not end.has_size:
            return []
        eh = self.t.elephants_and_horses
        keep = eh.keep_away_inches
        who = f"{unit.name} ({unit.unit_id})"
        r = (end.width**2 + end.depth**2) ** 0.5 / 2 + keep
        out: list[Breach] = []
        for other in view.units:
            if other.unit_id == unit.unit_id or other.status.eliminated:
                continue
            if abs(other.x - end.x) > r + other.width + other.depth:
                continue  # far off on the table: a cheap box test before the elephant's
            if abs(other.y - end.y) > r + other.width + other.depth:
                continue
            if not self.is_elephant(other) or not other.footprint.has_size:
                continue
            name = f"{other.name} ({other.unit_id})"
            if target == other.unit_id:
                out.append(Breach(HORSES_RULE, f"{who} may not charge the elephants {name}"))
            elif edge_distance(end, other.footprint) < keep - 1e-6:
                out.append(
                    Breach(
                        HORSES_RULE,
                        f"{who} must stay {self._mf(eh.keep_away_move_factors)} from the "
                        f"elephants {name}",
                    )
                )
        return out

    # ------------------------------------------------------------------ two enemies

    def right_hand_first(self, view: TurnView, unit: Combatant, foe: Combatant) -> Combatant | None:
        """Quincunx, Melee (errata "two-enemies-right-first"): when ``unit`` has two or more
        enemies touching its front, the one farthest to its right is fought first; the
        enemy to fight before ``foe`` (one that has not fought this round), or None."""
        if not unit.footprint.has_size:
            return None
        front = [
            u
            for u in view.units
            if u.side != unit.side
            and not u.status.eliminated
            and u.footprint.has_size
            and not surely_apart(unit.footprint, u.footprint, TOUCH)
            and edge_distance(unit.footprint, u.footprint) <= TOUCH
            and aspect(unit.footprint, u.x, u.y) == "front"
        ]
        if len(front) < 2 or all(u.unit_id != foe.unit_id for u in front):
            return None
        rx, ry = heading_vector(unit.facing + 90)
        right = max(front, key=lambda u: (u.x - unit.x) * rx + (u.y - unit.y) * ry)
        if right.unit_id == foe.unit_id or right.status.has(FOUGHT):
            return None
        return right

    def _melee_setup(self, sit: Situation) -> Fight | Outcome:
        """The melee's checks, then the order of fights and leaving a melee: a unit facing
        two enemies fights the right-hand one first; a unit that left a melee this round
        starts no other. Refused when both units stand on the table and their bases do not
        touch (a melee is fought by contacting the enemy's line); the ground's refusals (a
        unit deep in a wood, which no unit outside it can touch) and leaving a melee are
        told first, as they say more."""
        view = sit.view
        if view is not None:
            sit = self._melee_ground(view, sit)
            a, d = sit.attacker, sit.defender
            if (
                any(u.unit_id == a.unit_id for u in view.units)
                and self.broke_off(view, a)
                and a.status.extra.get(MELEE_WITH) != d.unit_id
            ):
                raise ValueError(
                    f"{a.name} left a melee this round and may not start another ({MELEE_RULE})"
                )
        apart = not_in_contact(MELEE_RULE, sit.attacker, sit.defender)
        if apart is not None:
            raise ValueError(apart)
        if view is not None:
            a, d = sit.attacker, sit.defender
            for me, other in ((a, d), (d, a)):
                if all(u.unit_id != me.unit_id for u in view.units):
                    continue
                first = self.right_hand_first(view, me, other)
                if first is not None:
                    raise ValueError(
                        f"{me.name} fights two enemies: the one on its right, {first.name} "
                        f"({first.unit_id}), first ({MELEE_RULE})"
                    )
        return super()._melee_setup(sit)

    # ------------------------------------------------------------------ the ground

    def _on_table(self, view: TurnView, *units: Combatant) -> bool:
        ids = {u.unit_id for u in view.units}
        return all(u.unit_id in ids and u.footprint.has_size for u in units)

    def _covers(self, view: TurnView, unit: Combatant) -> list[TerrainPiece]:
        """The pieces giving cover (woods, and towns by errata "terrain-kinds") the unit
        stands in."""
        kinds = self.t.terrain.kinds
        return [p for p in view.table.terrain if kinds[p.kind].cover and p.overlaps(unit.footprint)]

    def _in_water(self, view: TurnView, unit: Combatant) -> bool:
        """Whether the unit stands in a stream, a ford or a river it is crossing."""
        kinds = self.t.terrain.kinds
        return any(
            kinds[p.kind].entry in ("crossing", "at_ford") and p.overlaps(unit.footprint)
            for p in view.table.terrain
        )

    def deep_in(self, piece: TerrainPiece, unit: Combatant) -> bool:
        """Quincunx, Woods (errata "woods-edge"): the unit stands inside the wood, not at its
        edge: its base, grown by ``tables.terrain.woods.edge_inches``, lies wholly in it."""
        grow = self.t.terrain.woods.edge_inches
        f = unit.footprint
        grown = Footprint(f.x, f.y, f.facing, f.width + 2 * grow, f.depth + 2 * grow)
        return all(piece.contains(c) for c in grown.corners())

    def _hidden(self, view: TurnView, a: Combatant, d: Combatant) -> str | None:
        """Why ``a`` and ``d`` cannot fight or shoot across a wood's edge: one of them deep
        in a wood the other is not in (only figures at the edge fight or are shot at)."""
        for me, other in ((d, a), (a, d)):
            for p in self._covers(view, me):
                if not p.overlaps(other.footprint) and self.deep_in(p, me):
                    name = f' "{p.name}"' if p.name else ""
                    return (
                        f"{me.name} stand deep in the {p.kind} {p.id}{name}: only troops at its "
                        f"edge fight or are shot at from outside ({WOODS_RULE})"
                    )
        return None

    def _melee_ground(self, view: TurnView, sit: Situation) -> Situation:
        """Quincunx, Woods and Water, read from the table: a melee across a wood's edge only
        with the troops at the edge, the attackers one column right against defenders at
        the edge (both in the wood: as normal); a unit in the water fights two columns
        right. Only turns the options on, never off."""
        a, d = sit.attacker, sit.defender
        if not self._on_table(view, a, d):
            return sit
        hidden = self._hidden(view, a, d)
        if hidden is not None:
            raise ValueError(hidden)
        on: dict[str, bool] = {}
        if any(not p.overlaps(a.footprint) for p in self._covers(view, d)):
            on["wood_edge"] = True
        for role, u in (("attacker", a), ("defender", d)):
            if self._in_water(view, u):
                on[f"{role}_crossing"] = True
        if not on:
            return sit
        return replace(sit, options={**sit.options, **on})

    # ------------------------------------------------------------------ shooting

    def _shot_setup(self, sit: Situation) -> Shot | Outcome:
        """The shot's checks with the ground read from the table: no fire into or out of the
        depths of a wood, only at its edge, and then the cover column; a target in the water
        one level up. Then, unless a distance is given by hand: no fire beyond the weapon's
        long range, base edge to base edge, nor at a target out of sight behind terrain.
        Units in between do not stop it: the cover option is fire over friends' heads. The
        options are only turned on, never off."""
        view = sit.view
        a, d = sit.attacker, sit.defender
        if view is None or not self._on_table(view, a, d):
            return super()._shot_setup(sit)
        hidden = self._hidden(view, a, d)
        if hidden is not None:
            return no_fire(hidden)
        on: dict[str, bool] = {}
        if any(not p.overlaps(a.footprint) for p in self._covers(view, d)):
            on["cover"] = True  # at a wood's edge: the cover column
        if self._in_water(view, d):
            on["crossing"] = True
        if on:
            sit = replace(sit, options={**sit.options, **on})
        found = super()._shot_setup(sit)
        if isinstance(found, Outcome) or sit.number("distance") > 0:
            return found
        weapon = self._weapon(a, sit.choice("weapon"))
        rng = self.t.missile_ranges.weapons[weapon]
        distance = edge_distance(a.footprint, d.footprint)
        if distance > rng.long_max + 1e-6:
            return no_fire(
                f'out of range: {distance:.1f}" away, the {rng.name.lower()} reaches '
                f'{fmt(rng.long_max)}" ({MISSILE_RULE})'
            )
        clear, blocked = self.line_of_sight(view, a.unit_id, d.unit_id)
        terrain = {p.id for p in view.table.terrain}
        behind = [b for b in blocked if b in terrain]
        if not clear and behind:
            return no_fire(f"out of sight behind {', '.join(behind)} ({MISSILE_RULE})")
        return found

    # ------------------------------------------------------------------ the map

    def shooting_reach(self, view: TurnView, unit_id: str) -> ShotReach | None:
        """Quincunx, Missilery: the longest range of the unit's weapons (an elephant unit's
        crew throw javelins) in the 90-degree arc of fire; None for troops that do not
        shoot and for a rampaging elephant."""
        unit = view.unit(unit_id)
        tr = self.troop(unit.troop)
        names = [w.name for w in tr.weapons]
        if self.is_elephant(unit):
            names = [self.t.elephants.missile_weapon]
        if not tr.shoots or not names or unit.status.has(BERSERK):
            return None
        mr = self.t.missile_ranges
        reach = max(mr.weapons[n].long_max for n in names)
        return ShotReach(reach, float(mr.arc_degrees), MISSILE_RULE)

    def command_reach(self, view: TurnView, unit_id: str) -> CommandReach | None:
        """Quincunx, Commanders: 4 MF about the nearest leader of the unit's side (a unit
        outside it may still be in command through a chain of units 2 MF apart: the
        command check says); None when its side has no leader on the table."""
        unit = view.unit(unit_id)
        leaders = [ld for ld in view.leaders if ld.side == unit.side]
        if not leaders:
            return None
        near = min(leaders, key=lambda ld: (ld.x - unit.x) ** 2 + (ld.y - unit.y) ** 2)
        c = self.t.command
        return CommandReach(
            (near.x, near.y),
            c.range_inches,
            f"{COMMAND_RULE} (or a chain {self._mf(c.chain_move_factors)} apart)",
        )


def _near(f: Footprint, piece: TerrainPiece, within: float) -> bool:
    """Whether ``f`` stands within ``within`` of ``piece`` (grown by that much, it meets it)."""
    grown = Footprint(f.x, f.y, f.facing, f.width + 2 * within, f.depth + 2 * within)
    return piece.overlaps(grown)


def _meet(a: TerrainPiece, b: TerrainPiece) -> bool:
    """Whether two pieces' boxes meet (a ford laid on a stream)."""
    ax0, ay0, ax1, ay1 = a.bbox
    bx0, by0, bx1, by1 = b.bbox
    return ax0 <= bx1 and bx0 <= ax1 and ay0 <= by1 and by0 <= ay1


__all__: Sequence[str] = ("QuincunxTable",)
