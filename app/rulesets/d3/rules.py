"""Pure helpers for the D3 Ancient Rules mechanics (app/rulesets/d3/mechanics.py):
halving, the combat steps in the data's order and the shooting halving, the actions' options,
the table-top geometry (footprints, distance between units, the front arc, the side
attacked, contact, the nearest unit for a berserk elephant), the elimination loop, the
sides' records (deck, card, commander) and the verdict (army resolve, 15 turns).

Positions are in inches. A unit's footprint is a ``width`` x ``depth`` rectangle centred on
(``x``, ``y``); ``facing`` is in degrees, 0 = towards +y, turning clockwise (90 = towards
+x). Nothing here knows the battle: callers pass plain numbers or :class:`Combatant` values.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from app.rules.geometry import EPS, aspect, bearing, polygon_distance, unit_distance
from app.rules.geometry import in_front_arc as front_arc
from app.rules.mechanics import Combatant, OptionSpec, Scalar, Side, Victory
from app.rulesets.d3.schema import Tables, TerrainType, Troop

Rounding = Literal["up", "down"]

# --------------------------------------------------------------------------- arithmetic


def halve(n: int, rounding: Rounding) -> int:
    """Half of ``n`` rounded as the rules say (D3: shooting halves round up; Rally rounds
    down)."""
    return -(-n // 2) if rounding == "up" else n // 2


@dataclass(frozen=True)
class CombatSteps:
    """The modifiers of one D3 combat, applied in ``order`` (``tables.combat.order``).

    ``flank_bonus``: +1 light / +2 heavy from a flank or rear (0 from the front);
    ``terrain``: the defender's terrain modifier (-1 in woods, towns, broken ground, river
    crossings and hills); ``halve_target``: the defender halves combat hits (warband, heavy
    infantry, veterans, elephants) and the attacker is not an elephant;
    ``halve_ground``: heavy infantry attacking into broken ground or a town."""

    order: tuple[str, ...]
    flank_bonus: int
    terrain: int
    halve_target: bool
    halve_ground: bool
    rounding: Rounding
    minimum: int

    def apply(self, raw: int) -> int:
        """Hits from the dice total ``raw`` (the "dice" step: die plus the troop modifier)."""
        value = raw
        for step in self.order:
            if step == "flank_rear":
                value += self.flank_bonus
            elif step == "terrain":
                value += self.terrain
            elif (step == "halve_target" and self.halve_target) or (
                step == "halve_broken_ground" and self.halve_ground
            ):
                value = halve(value, self.rounding)
            elif step == "floor":
                value = max(self.minimum, value)
        return value


def combat_steps(
    t: Tables, attacker: Troop, defender: Troop, attack_from: str, terrain: TerrainType
) -> tuple[CombatSteps, list[str]]:
    """D3, Combat: the modifiers of one attack, and each in words. Flank or rear +1 light,
    +2 heavy (errata flank-rear-light-heavy); defending terrain -1; halve against warbands,
    heavy infantry, veterans and elephants unless an elephant attacks; heavy infantry halve
    attacking into broken ground or a town (errata towns-and-veterans-in-broken-ground)."""
    bonus = 0
    if attack_from != t.charges.sides[0] and attacker.flank_class is not None:
        bonus = t.combat.flank_rear_bonus[attacker.flank_class].bonus
    halve_target = defender.halved_in_combat and not attacker.combat_ignores_halving
    halve_ground = attacker.halved_attacking_broken_ground and terrain.halves_heavy_infantry_attacks
    steps = CombatSteps(
        order=t.combat.order,
        flank_bonus=bonus,
        terrain=terrain.defender_modifier,
        halve_target=halve_target,
        halve_ground=halve_ground,
        rounding=t.combat.halving_rounds,
        minimum=t.combat.minimum_hits,
    )
    notes = []
    if bonus:
        notes.append(f"{bonus:+d} attacking the {attack_from.replace('_', ' ')}")
    if terrain.defender_modifier:
        notes.append(f"{terrain.defender_modifier:+d} defender in {terrain.name.lower()}")
    if halve_target:
        notes.append(f"halved against {defender.name} (round {steps.rounding})")
    elif defender.halved_in_combat:
        notes.append(f"not halved: {attacker.name} hits are never halved")
    if halve_ground:
        notes.append(f"halved attacking into {terrain.name.lower()} (round {steps.rounding})")
    return steps, notes


def shot_halving(
    t: Tables, shooter: Troop, target: Troop, terrain: TerrainType
) -> tuple[bool, list[str]]:
    """D3, Shooting: halve (round up) for a target in cover, heavy infantry or elephants;
    catapults ignore the armour but not cover (errata catapults-and-cover); warbands are
    never halved (errata warbands-never-halved-when-shot). One halving at most."""
    armour = target.shot_halved == "always"
    reasons: list[str] = []
    notes: list[str] = []
    if armour and not shooter.shoot_ignores_armour:
        reasons.append(target.name)
    elif armour:
        notes.append(f"{shooter.name} ignore the armour of {target.name}")
    if target.shot_halved != "never" and terrain.cover:
        reasons.append(f"cover ({terrain.name.lower()})")
    if target.shot_halved == "never":
        notes.append(f"{target.name} never halve shooting hits")
    if reasons:
        rounding = t.shooting.halving_rounds
        notes.insert(0, f"halved (round {rounding}) for " + " and ".join(reasons))
    return bool(reasons), notes


# --------------------------------------------------------------------------- actions


def _terrain_choices(t: Tables) -> tuple[tuple[str, ...], str]:
    """The terrain a unit can stand in (entry ``all`` or ``listed``) and the default
    (open ground, when the data has it)."""
    types = t.terrain.types
    terrain = tuple(tid for tid, tt in types.items() if tt.entry in ("all", "listed"))
    return terrain, "open" if "open" in terrain else terrain[0]


def melee_options(t: Tables) -> tuple[OptionSpec, ...]:
    """D3, Combat: the side attacked (flank or rear +1 light, +2 heavy), the defender's
    terrain (1 hit fewer) and the commander (two D3, keep the higher)."""
    terrain, where = _terrain_choices(t)
    sides = t.charges.sides
    return (
        OptionSpec(
            "attack_from",
            "Attacking the enemy's",
            "choice",
            sides[0],
            sides,
            help="flank or rear: +1 light infantry or cavalry, +2 heavy",
        ),
        OptionSpec(
            "defender_terrain",
            "Defender's terrain",
            "choice",
            where,
            terrain,
            help="woods, towns, broken ground, crossings, hills: 1 hit fewer",
        ),
        OptionSpec(
            "commander",
            "Commander with the attacker",
            "bool",
            False,
            help="two D3, keep the higher (also read from an attached leader)",
        ),
    )


def shoot_options(t: Tables) -> tuple[OptionSpec, ...]:
    """D3, Shooting: the target's terrain (cover halves the hits)."""
    terrain, where = _terrain_choices(t)
    return (
        OptionSpec(
            "target_terrain",
            "Target's terrain",
            "choice",
            where,
            terrain,
            help="woods and towns are cover: hits halved",
        ),
    )


# --------------------------------------------------------------------------- geometry


def has_footprint(u: Combatant) -> bool:
    return u.footprint.has_size


def _may_touch(a: Combatant, b: Combatant) -> bool:
    """The circles about the two bases meet: a cheap test before measuring edges."""
    reach = (math.hypot(a.width, a.depth) + math.hypot(b.width, b.depth)) / 2 + EPS
    return abs(a.x - b.x) <= reach and abs(a.y - b.y) <= reach


def in_contact(a: Combatant, b: Combatant) -> bool:
    """The two footprints touch (both units must have a size)."""
    return has_footprint(a) and has_footprint(b) and _may_touch(a, b) and unit_distance(a, b) <= EPS


def in_front_arc(shooter: Combatant, target: Combatant, arc_degrees: float) -> bool:
    """Some part of ``target`` lies in ``shooter``'s front arc: ahead of its front edge,
    between lines drawn ``arc_degrees`` outward from straight ahead at each front corner
    (D3 Shooting, "within their frontal facing"; errata front-arc-and-range)."""
    return front_arc(shooter.footprint, target.footprint, arc_degrees, tolerance=EPS)


def nearest(
    origin: Combatant, candidates: Iterable[Combatant], within: float
) -> tuple[Combatant, float] | None:
    """The candidate closest to ``origin`` at no more than ``within`` inches, with its
    distance; ties go to the candidate listed first (errata elimination-order)."""
    best: tuple[Combatant, float] | None = None
    for c in candidates:
        d = unit_distance(origin, c)
        if d <= within + EPS and (best is None or d < best[1] - EPS):
            best = (c, d)
    return best


def engaged(unit: Combatant, units: Iterable[Combatant]) -> bool:
    """In combat: the ``engaged`` marker, or touching an enemy on the table (only the units
    near enough to touch are measured)."""
    if unit.status.has("engaged"):
        return True
    if not has_footprint(unit):
        return False
    mine = math.hypot(unit.width, unit.depth) / 2 + EPS
    for u in units:
        if u.side == unit.side or u.status.eliminated:
            continue
        reach = mine + math.hypot(u.width, u.depth) / 2
        if abs(u.x - unit.x) > reach or abs(u.y - unit.y) > reach:
            continue
        if in_contact(unit, u):
            return True
    return False


def attack_side(target: Combatant, attacker: Combatant) -> str:
    """Which side of ``target`` the attacker's centre lies on: ``front``, ``left_flank``,
    ``right_flank`` or ``rear`` (the ids of ``tables.charges.sides``), split by the
    target's diagonals as ``app.rules.geometry.aspect`` does."""
    fp = target.footprint
    side = aspect(fp, attacker.x, attacker.y)
    if side != "flank":
        return side
    rel = (bearing(target.x, target.y, attacker.x, attacker.y) - target.facing) % 360
    return "right_flank" if rel < 180 else "left_flank"


def touching(a: Combatant, b: Combatant) -> bool:
    """In contact, or sizes unknown (then the player's word is taken)."""
    return in_contact(a, b) if has_footprint(a) and has_footprint(b) else True


def engaged_in_front(unit: Combatant, attacker: Combatant, units: Iterable[Combatant]) -> bool:
    """An enemy other than ``attacker`` touches ``unit``'s front edge (or the
    ``engaged_front`` marker): it may not turn to face (D3, Combat)."""
    if unit.status.has("engaged_front"):
        return True
    if not has_footprint(unit):
        return False
    front = unit.footprint.corners()[:2]
    return any(
        u.side != unit.side
        and u.unit_id != attacker.unit_id
        and not u.status.eliminated
        and has_footprint(u)
        and polygon_distance(front, u.footprint.corners()) <= EPS
        for u in units
    )


BerserkRows = dict[int, tuple[str, Combatant | None, str | None]]


def berserk_rows(t: Tables, elephant: Combatant, pool: Sequence[Combatant]) -> BerserkRows:
    """D3, Berserk Elephants: for each roll, the words, the unit struck (the nearest friend
    or enemy within 12", errata berserk-within and elimination-order) and its hit dice."""
    out: BerserkRows = {}
    for row in t.berserk.rows:
        if row.target == "none" or row.within is None or row.hits is None:
            out[row.roll] = ("no berserk", None, None)
            continue
        friend = row.target == "nearest_friend"
        kind = "friendly" if friend else "enemy"
        candidates = [u for u in pool if (u.side == elephant.side) == friend]
        found = nearest(elephant, candidates, row.within)
        if found is None:
            out[row.roll] = (f'berserk: no {kind} unit within {row.within:g}"', None, None)
        else:
            out[row.roll] = (f"berserk into {kind} {found[0].name}", found[0], row.hits)
    return out


def eliminations(
    t: Tables,
    units: Sequence[Combatant],
    elephants: Collection[str],
    berserk: Callable[[Combatant, list[Combatant]], tuple[Combatant | None, int]],
    removed: Callable[[Combatant, int], None],
) -> tuple[list[Combatant], dict[str, int]]:
    """D3, Eliminating Units (errata elimination-order): every unit past the limit goes
    at once (``removed`` is told each, with its hits); each elephant unit among them then
    calls ``berserk`` with the units still on the table, which returns the unit struck and
    the hits; a unit pushed past the limit goes too. Returns the units removed, in order,
    and the berserk hits added to each unit."""
    limit = t.elimination.eliminated_above_hits
    alive = [u for u in units if not u.status.eliminated]
    hits = {u.unit_id: u.status.hits for u in alive}
    added: dict[str, int] = {}
    gone: list[Combatant] = []
    queue = [u for u in alive if hits[u.unit_id] > limit]
    while queue:
        batch, queue = queue, []
        gone.extend(batch)
        ids = {u.unit_id for u in gone}
        for u in batch:
            removed(u, hits[u.unit_id])
        for u in batch:
            if u.troop not in elephants:
                continue
            struck, n = berserk(u, [c for c in alive if c.unit_id not in ids])
            if struck is None:
                continue
            added[struck.unit_id] = added.get(struck.unit_id, 0) + n
            hits[struck.unit_id] += n
            if hits[struck.unit_id] > limit and all(q.unit_id != struck.unit_id for q in queue):
                queue.append(struck)
    return gone, added


# --------------------------------------------------------------------------- side records

#: What the end of a side's turn resets in its record (cards are not carried over).
CLEAR_CARD: Mapping[str, Scalar] = {
    "card": "",
    "card_name": "",
    "card_active": False,
    "card_used": False,
    "initiative_unit": "",
    "initiative_done": False,
}


def deck_cards(record: Mapping[str, Scalar]) -> list[str]:
    """The cards still in a side's deck, in the record's order."""
    return [c for c in str(record.get("deck", "")).split(",") if c]


def fresh_record(cards: Sequence[str], commander_unit: str, units: int) -> dict[str, Scalar]:
    """A side's record at the start of the battle."""
    return {
        **CLEAR_CARD,
        "deck": ",".join(cards),
        "cards_drawn": "",
        "turn": 0,
        "commander_unit": commander_unit,
        "commander_lost": False,
        "units_start": units,
        "units_lost": 0,
        "resolve_broken": False,
        "game_over": False,
    }


def side_update(
    side: Side, update: Mapping[str, Scalar]
) -> tuple[Mapping[str, Scalar] | None, Mapping[str, Scalar] | None]:
    """``Resolution.sides`` changing one side's record."""
    return (update, None) if side == 0 else (None, update)


def commander_lost(record: Mapping[str, Scalar], units: Iterable[Combatant]) -> bool:
    """D3, Commanders: the unit carrying the side's commander has been eliminated."""
    if bool(record.get("commander_lost", False)):
        return True
    uid = str(record.get("commander_unit", ""))
    return bool(uid) and not any(u.unit_id == uid and not u.status.eliminated for u in units)


def card_effect(t: Tables, record: Mapping[str, Scalar], lost_commander: bool) -> str:
    """The effect key of the side's card this turn: "none" with no card, or when losing
    the commander disabled it (Rally, Initiative, All-out Attack)."""
    cid = str(record.get("card", ""))
    card = t.chance_cards.cards.get(cid)
    if card is None or (lost_commander and cid in t.commanders.cards_disabled_on_loss):
        return "none"
    return card.effect_key


# --------------------------------------------------------------------------- resolve, victory


def unit_counts(
    record: Mapping[str, Scalar], units: Sequence[Combatant], gone: int = 0
) -> tuple[int, int]:
    """(units lost, units the army started with); ``gone`` more being removed now."""
    left = sum(1 for u in units if not u.status.eliminated) - gone
    start = int(record.get("units_start", 0)) or len(units)
    return max(0, start - left), start


def past_resolve(t: Tables, lost: int, start: int) -> bool:
    """D3, Army Resolve: more than 70% of the army's units lost (errata army-resolve-count)."""
    return start > 0 and lost * 100 > t.army_resolve.lost_more_than_percent * start


def verdict(
    t: Tables,
    names: tuple[str, str],
    lost: tuple[tuple[int, int], tuple[int, int]],
    broken: tuple[bool, bool],
    game_over: bool,
) -> Victory | None:
    """Errata victory: the first army to lose its resolve loses (when
    ``army_resolve.loses_battle``); an army with no units left loses; after both sides'
    15th turn the smaller share of units lost wins; equal shares draw."""
    share = [Fraction(n, start) if start else Fraction(0) for n, start in lost]

    def by_share(why: str) -> Victory:
        if share[0] == share[1]:
            return Victory(None, f"{why}; both lost the same share of their units: a draw")
        loser: Side = 0 if share[0] > share[1] else 1
        winner: Side = 1 if loser == 0 else 0
        return Victory(
            winner,
            f"{why}; {names[loser]} lost {lost[loser][0]} of {lost[loser][1]} units, "
            f"{names[winner]} {lost[winner][0]} of {lost[winner][1]}",
        )

    if t.army_resolve.loses_battle and any(broken):
        if all(broken):
            return by_share("both armies have lost their resolve")
        loser: Side = 0 if broken[0] else 1
        return Victory(
            1 if loser == 0 else 0,
            f"{names[loser]} lost {lost[loser][0]} of {lost[loser][1]} units: "
            "the army's resolve is broken",
        )
    wiped = [start > 0 and n >= start for n, start in lost]
    if any(wiped):
        if all(wiped):
            return Victory(None, "both armies have been destroyed: a draw")
        gone: Side = 0 if wiped[0] else 1
        return Victory(1 if gone == 0 else 0, f"{names[gone]} have no units left")
    if game_over:
        return by_share(f"the {t.sequence.turns} turns are over")
    return None
