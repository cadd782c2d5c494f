"""Quincunx: the rules without dice, for the mechanics (``app/rulesets/quincunx/mechanics.py``).

Geometry for command range, arc of fire and the rampage path; exact dice counts; attrition
levels and column shifts; elephant losses; the leader's risk roll; the action specs; and
:class:`QuincunxRules`, the computations on units (melee casts, the outcome of a
difference, missile dice and modifiers, losses) that the mechanics class extends. Every
number comes from the typed tables (:mod:`app.rulesets.quincunx.schema`); nothing here casts a
die or knows about the battle core.

Positions follow :class:`app.rules.mechanics.Combatant`: a footprint ``width`` x ``depth``
centred on (``x``, ``y``); ``facing`` in degrees with 0 towards +y, read clockwise (90 is +x).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

from app.rules.dice import parse_dice
from app.rules.geometry import Footprint, Point, bearing, heading_vector, polygon_distance
from app.rules.mechanics import (
    ActionSpec,
    Combatant,
    Effects,
    LeaderView,
    OptionSpec,
    Outcome,
    Scalar,
    Side,
    Situation,
    TurnView,
)
from app.rulesets.quincunx.schema import (
    AttritionRow,
    MeleeTrack,
    MissileBand,
    MoveClass,
    Tables,
    Troop,
)

if TYPE_CHECKING:
    from app.rules.ruleset import Ruleset

Counts = dict[int, int]
"""Integer weights of equally likely dice results: value -> number of ways."""

#: Compass points as bearings clockwise from North (the rampage chart names them).
COMPASS: dict[str, float] = {
    "north": 0.0,
    "northeast": 45.0,
    "east": 90.0,
    "southeast": 135.0,
    "south": 180.0,
    "southwest": 225.0,
    "west": 270.0,
    "northwest": 315.0,
}
_EPS = 1e-9
FORMED, SKIRMISH = "formed", "skirmish"


# --------------------------------------------------------------------------- geometry


def footprint(unit: Combatant) -> tuple[Point, ...]:
    """Corners of the unit's footprint (one point when it has no size)."""
    return unit.footprint.corners()


#: Shortest distance between two convex shapes (points, segments or rectangles); 0 when
#: they touch or overlap.
gap = polygon_distance


def command_reach(
    unit: Combatant,
    friends: Iterable[Combatant],
    commander: Point,
    range_inches: float,
    chain_inches: float,
) -> bool:
    """Quincunx, Commanders: a unit may move if it is within ``range_inches`` of its
    commander, or linked to a unit that is by a chain of friendly units no more than
    ``chain_inches`` apart (footprint to footprint)."""
    nodes = {u.unit_id: footprint(u) for u in (*friends, unit) if not u.status.eliminated}
    reached = [uid for uid, fp in nodes.items() if gap((commander,), fp) <= range_inches + _EPS]
    seen = set(reached)
    while reached:
        here = nodes[reached.pop()]
        for uid, fp in nodes.items():
            if uid not in seen and gap(here, fp) <= chain_inches + _EPS:
                seen.add(uid)
                reached.append(uid)
    return unit.unit_id in seen


def in_arc(shooter: Combatant, target: Combatant, arc_degrees: float) -> bool:
    """Quincunx, Missilery: the target's centre lies in the arc of fire to the shooter's
    front, measured from the centre of the stand."""
    dx, dy = target.x - shooter.x, target.y - shooter.y
    if dx == 0 and dy == 0:
        return True
    bearing = math.degrees(math.atan2(dx, dy))
    off = (bearing - shooter.facing + 180) % 360 - 180
    return abs(off) <= arc_degrees / 2 + _EPS


def units_in_path(
    mover: Combatant, bearing: float, distance: float, candidates: Iterable[Combatant]
) -> list[Combatant]:
    """Units whose footprint the mover's path crosses (a straight line of ``distance`` along
    ``bearing`` from its centre, as wide as the mover), nearest first."""
    vx, vy = heading_vector(bearing)
    start = (mover.x, mover.y)
    end = (mover.x + vx * distance, mover.y + vy * distance)
    half = max(mover.width, 0.0) / 2
    hit = [
        u
        for u in candidates
        if u.unit_id != mover.unit_id
        and not u.status.eliminated
        and gap((start, end), footprint(u)) <= half + _EPS
    ]
    return sorted(hit, key=lambda u: (u.x - mover.x) * vx + (u.y - mover.y) * vy)


def away_bearing(winner: Combatant, loser: Combatant) -> float:
    """The bearing that carries ``loser`` directly away from ``winner``: from the winner's
    centre through the loser's, or the loser's rear when the two centres coincide."""
    if abs(loser.x - winner.x) <= _EPS and abs(loser.y - winner.y) <= _EPS:
        return (loser.facing + 180.0) % 360
    return bearing(winner.x, winner.y, loser.x, loser.y)


def _normals(corners: Sequence[Point]) -> list[Point]:
    out = []
    for i in range(len(corners)):
        ex, ey = corners[i][0] - corners[i - 1][0], corners[i][1] - corners[i - 1][1]
        length = math.hypot(ex, ey)
        if length > _EPS:
            out.append((-ey / length, ex / length))
    return out


def _span(corners: Sequence[Point], axis: Point) -> tuple[float, float]:
    dots = [px * axis[0] + py * axis[1] for px, py in corners]
    return min(dots), max(dots)


def first_contact(
    moving: Sequence[Point], heading: float, limit: float, still: Sequence[Point]
) -> float | None:
    """How far ``moving`` (a convex shape's corners) goes along ``heading`` before it runs
    into ``still`` (their insides would overlap), within ``limit``; None when it never does,
    or when the two already overlap where it starts (that unit is not in its way).
    Separating axes: on each edge normal the overlap is an interval of the distance
    travelled; the shapes overlap where every axis does."""
    vx, vy = heading_vector(heading)
    lo, hi = -math.inf, math.inf
    for axis in (*_normals(moving), *_normals(still)):
        a0, a1 = _span(moving, axis)
        b0, b1 = _span(still, axis)
        speed = vx * axis[0] + vy * axis[1]
        start, end = b0 - a1 + _EPS, b1 - a0 - _EPS  # overlap while start < t * speed < end
        if abs(speed) <= _EPS:
            if not start < 0 < end:
                return None
            continue
        t0, t1 = sorted((start / speed, end / speed))
        lo, hi = max(lo, t0), min(hi, t1)
    if lo >= hi or hi <= 0 or lo < 0 or lo >= limit:
        return None
    return lo


def clear_run(
    mover: Footprint, heading: float, distance: float, blockers: Iterable[Combatant]
) -> float:
    """How far ``mover`` can go along ``heading``, at most ``distance``, before its footprint
    meets one of ``blockers`` (units without a footprint never block)."""
    run = distance
    corners = mover.corners()
    for b in blockers:
        if not b.footprint.has_size:
            continue
        hit = first_contact(corners, heading, run, footprint(b))
        if hit is not None:
            run = hit
    return run


def as_shift(dx: float, dy: float) -> tuple[float, float] | None:
    """A displacement as ``Effects.shift`` (bearing, distance), None when it is nothing."""
    distance = math.hypot(dx, dy)
    if distance <= _EPS:
        return None
    return round(math.degrees(math.atan2(dx, dy)), 9) % 360, round(distance, 9)


# --------------------------------------------------------------------------- dice counts


def convolve_counts(a: Counts, b: Counts) -> Counts:
    out: Counts = {}
    for va, ca in a.items():
        for vb, cb in b.items():
            out[va + vb] = out.get(va + vb, 0) + ca * cb
    return out


def dice_counts(specs: Sequence[str], modifier: int = 0) -> tuple[Counts, int]:
    """Weights of the total of several dice expressions plus ``modifier``, and the number of
    equally likely throws (their denominator)."""
    total: Counts = {modifier: 1}
    denominator = 1
    for text in specs:
        spec = parse_dice(text)
        one: Counts = {}
        for face in spec.faces:
            one[face] = one.get(face, 0) + 1
        for _ in range(spec.count):
            total = convolve_counts(total, one)
            denominator *= spec.sides
        total = {v + spec.modifier: c for v, c in total.items()}
    return total, denominator


def difference_counts(spec_text: str) -> tuple[Counts, int]:
    """Weights of the difference (high minus low) of a pair of dice such as ``2d12``."""
    spec = parse_dice(spec_text)
    if spec.count != 2:
        raise ValueError(f"{spec_text!r}: missilery casts a pair of dice")
    out: Counts = {}
    for a in spec.faces:
        for b in spec.faces:
            out[abs(a - b)] = out.get(abs(a - b), 0) + 1
    return out, spec.sides**2


def dice_modifier(specs: Sequence[str]) -> int:
    """The fixed part written in dice expressions (``d12+2`` -> 2)."""
    return sum(parse_dice(s).modifier for s in specs)


# --------------------------------------------------------------------------- attrition


def attrition_limit(t: Tables, row: AttritionRow, start: int) -> Fraction:
    """Figures remaining at which ``row`` applies to a unit of ``start`` figures: the
    table's number for its size (15 reads the 16 column), else the exact fraction."""
    table = t.attrition
    column = start
    for alias in table.size_aliases:
        if alias.size == start:
            column = alias.column
    if column in table.original_sizes:
        return Fraction(row.remaining[table.original_sizes.index(column)])
    return Fraction(start, round(100 / row.percent))


def attrition_rows(t: Tables, strength: int, start: int) -> list[AttritionRow]:
    """Quincunx, Attrition: every row of the attrition table the unit has reached (its
    figures remaining at or below the row's number)."""
    return [r for r in t.attrition.rows if strength <= attrition_limit(t, r, start)]


def effective_shifts(t: Tables, active: Iterable[str]) -> list[str]:
    """The active column shifts that count: a shift that replaces another is used instead of
    it (errata "column-shifts-combine")."""
    ids = sorted(set(active))
    shifts = t.column_shifts.shifts
    replaced = {r for sid in ids for r in shifts[sid].replaces}
    return [sid for sid in ids if sid not in replaced]


def combine_shifts(t: Tables, active: Iterable[str]) -> int:
    """Total melee column shift of the active causes (shifts for different causes add)."""
    return sum(t.column_shifts.shifts[sid].columns for sid in effective_shifts(t, active))


# --------------------------------------------------------------------------- elephants


@dataclass(frozen=True)
class ElephantLoss:
    """Casualty points an elephant unit actually loses, who falls, and whether the last
    elephant goes berserk or dies."""

    casualties: int
    fallen: tuple[str, ...]
    berserk: bool
    killed: bool


def elephant_loss(
    t: Tables, strength: int, start: int, casualties: int, berserk: bool
) -> ElephantLoss:
    """Quincunx, Elephant Attrition: hits take the first element's pikeman, javelineer and
    mahout, then its elephant (three hits), then the next element's crew; when only the last
    elephant is left, its first hit sends it berserk (errata "elephant-last-beast"). A
    berserk elephant's later hits come off its remaining hits; at none it is dead."""
    el = t.elephants
    if casualties <= 0:
        return ElephantLoss(0, (), False, False)
    if berserk:
        lost = min(casualties, strength)
        return ElephantLoss(lost, ("elephant",) * lost, False, lost >= strength)
    lost = max(0, min(casualties, strength - el.elephant_hits))
    per = el.casualty_points_per_element
    crew = el.hit_order[:-1]
    fallen: list[str] = []
    for k in range(start - strength, start - strength + lost):
        element, within = divmod(k, per)
        who = crew[within] if within < len(crew) else el.hit_order[-1]
        fallen.append(f"{who} of element {element + 1}")
    return ElephantLoss(lost, tuple(fallen), casualties > lost, False)


# --------------------------------------------------------------------------- leaders


Fate = Literal["fit", "wounded", "killed"]


def leader_fate(faces: Sequence[int], wounds: int, killing_wounds: int) -> tuple[Fate, int]:
    """Quincunx, Commanders: the 2d6 risk roll: a double one kills, any other double wounds,
    and the wound that reaches ``killing_wounds`` kills. Returns (status, wounds)."""
    a, b = faces
    if a == b == 1:
        return "killed", wounds
    if a == b:
        wounds += 1
        return ("killed" if wounds >= killing_wounds else "wounded"), wounds
    return "fit", wounds


def leader_choices(t: Tables) -> tuple[str, ...]:
    """Choices of a leader-bonus option: as attached, none, or the two bonuses."""
    lt = t.leaders
    return ("attached", "none", str(lt.attached_bonus), str(lt.great_leader_bonus))


# --------------------------------------------------------------------------- missilery


def missile_band(t: Tables, firing: int) -> MissileBand | None:
    """The row of the missilery matrix for the number firing (None below the first)."""
    for band in t.missile_dice.bands:
        if band.min_firing <= firing and (band.max_firing is None or firing <= band.max_firing):
            return band
    return None


def missile_dice(
    band: MissileBand, column: str, cover: bool, crossing_shift: int, ladder: Sequence[str]
) -> str | None:
    """Quincunx, Missilery Matrix: the pair of dice in the band's column (cover / overhead,
    long, short), moved ``crossing_shift`` steps up the dice ladder for a target crossing a
    stream (a 'No' cell rises to the ladder's first step; the top stays the top)."""
    die = band.cover if cover else (band.short if column == "short" else band.long)
    if crossing_shift:
        index = (ladder.index(die) if die is not None else -1) + crossing_shift
        die = ladder[min(index, len(ladder) - 1)] if index >= 0 else None
    return die


# --------------------------------------------------------------------------- actions


def action_specs(t: Tables) -> tuple[ActionSpec, ...]:
    """Every Quincunx action with its options (choices come from the tables)."""
    lead = leader_choices(t)

    def flag(key: str, label: str, help: str = "") -> OptionSpec:
        return OptionSpec(key, label, "bool", False, help=help)

    def leader(key: str, label: str) -> OptionSpec:
        return OptionSpec(key, label, "choice", "attached", lead, help="attached: as the unit")

    weapons = ("auto", *t.missile_ranges.weapons)
    bonus_rounds = max((len(tr.new_target_bonus) for tr in t.melee.tracks.values()), default=0)
    melee = ActionSpec(
        "melee",
        "Melee",
        "pair",
        (
            OptionSpec(
                "initial_attack",
                "Initial attack round (the attacker charged into contact)",
                "choice",
                "auto",
                ("auto", "yes", "no"),
                help="auto: yes unless the two units are still in contact from last round",
            ),
            flag("flank", "Attacker on the enemy's flank"),
            flag("defender_flank", "Defender on the attacker's flank"),
            flag("downhill", "Attacker fighting downhill"),
            flag("defender_downhill", "Defender fighting downhill"),
            flag("wood_edge", "Defender at the edge of a wood (attacker outside)"),
            flag("attacker_crossing", "Attacker on the far shore of a stream it is crossing"),
            flag("defender_crossing", "Defender on the far shore of a stream it is crossing"),
            flag("attacker_volleyed", "Attacking peltasts loosed javelins before the melee"),
            flag("defender_volleyed", "Defending peltasts loosed javelins before the melee"),
            OptionSpec(
                "pre_melee",
                "Lost the pre-melee volley",
                "choice",
                "status",
                ("status", "none", "attacker", "defender"),
                help="status: as recorded by the pre-melee action",
            ),
            leader("attacker_leader", "Attacker's leader bonus"),
            leader("defender_leader", "Defender's leader bonus"),
            OptionSpec(
                "elephant_round",
                "Elephants' round against this target (0: from the unit's record)",
                "int",
                0,
                minimum=0,
                maximum=bonus_rounds + 1,
            ),
        ),
        odds=True,
        help="Each side casts its die by rings plus modifiers; each 2 points of "
        "difference is a casualty to the lower side, which recoils 4 MF.",
    )
    shoot = ActionSpec(
        "shoot",
        "Shoot",
        "pair",
        (
            OptionSpec("weapon", "Weapon", "choice", "auto", weapons),
            OptionSpec("range", "Range", "choice", "short", ("short", "long")),
            OptionSpec(
                "distance",
                "Distance in inches (0: use the range option)",
                "int",
                0,
                minimum=0,
            ),
            OptionSpec("firing", "Figures firing (0: the whole unit)", "int", 0, minimum=0),
            flag("cover", "Overhead fire, or target behind a wall or in cover (wood's edge)"),
            flag("crossing", "Target is crossing a stream"),
            flag("flank", "Shooting at the enemy's flank"),
            leader("leader", "Firing unit's leader bonus"),
            flag("pass_through", "Pass-through fire (no fire next round)"),
            flag("before_melee", "Peltasts loosing javelins before a melee closes"),
        ),
        odds=True,
        help="A pair of dice by number firing and range; casualties are the difference "
        "(with modifiers) halved.",
    )
    pre = ActionSpec(
        "pre_melee",
        "Pre-melee volley",
        "pair",
        odds=True,
        help="Pila (d12) against javelins (d10) before the first melee round: the lower "
        "cast is -1 on its melee die in that round; no volley loses.",
    )
    evade = ActionSpec(
        "evade",
        "Evade",
        "pair",
        (
            OptionSpec("needed", "Move factors needed to get clear", "int", 1, minimum=0),
            OptionSpec("exit_open", "A clear route out is open", "bool", True),
        ),
        odds=True,
        help="Skirmishers (actor) contacted by a formed unit (target): d10 against d6.",
    )
    trample = ActionSpec(
        "trample",
        "Trample",
        "pair",
        odds=True,
        help="A berserk elephant (actor) fights a unit in its path with d12+2.",
    )
    rampage = ActionSpec(
        "rampage",
        "Rampage",
        "unit",
        help="A berserk elephant casts d8 for direction and d6 for move factors and "
        "tramples every unit in its path.",
    )
    command = ActionSpec(
        "command_check",
        "Command check",
        "unit",
        (
            flag("commander_detached", "The commander stands apart (give his position)"),
            OptionSpec("commander_x", "Commander x (inches)", "int", 0),
            OptionSpec("commander_y", "Commander y (inches)", "int", 0),
        ),
        help="Within 4 MF of the commander or a 2 MF chain of the battlegroup's units "
        "(the others); otherwise out of command and unable to move.",
    )
    formation = ActionSpec(
        "formation",
        "Change formation",
        "unit",
        (
            OptionSpec("to", "Formation", "choice", FORMED, (FORMED, SKIRMISH)),
            OptionSpec(
                "move_class",
                "Moves as",
                "choice",
                "own",
                ("own", *t.movement.classes),
                help="own: the troop's own class; or with a battleline / battlegroup",
            ),
        ),
    )
    order = ActionSpec(
        "order",
        "Move or counter-move",
        "side",
        (OptionSpec("choose", "Choice", "choice", "move", ("move", "counter_move")),),
        help="The initiative winner chooses to move first or second.",
    )
    return (melee, shoot, pre, evade, trample, rampage, command, formation, order)


# --------------------------------------------------------------------------- state names

# markers
MOVED, FOUGHT, FIRED, SHOT_AT = "moved", "fought", "fired", "shot_at"
EVADED, NO_FIRE, STRAGGLER, BERSERK = "evaded", "no_fire", "straggler", "berserk"
TO_RAMPAGE, OUT_OF_COMMAND = "to_rampage", "out_of_command"
ACTIVITY = frozenset({MOVED, FOUGHT, FIRED, SHOT_AT})
# extra keys
MELEE_WITH, EL_TARGET, EL_ROUNDS = "melee_with", "elephant_target", "elephant_rounds"
PENALTY, PENALTY_ROUNDS, VOLLEY_USED = "pre_melee_penalty", "pre_melee_rounds", "volley_used"
PELTAST_VOLLEY, EVADED_ROUNDS, NO_FIRE_ROUNDS = "peltast_volley", "evaded_rounds", "no_fire_rounds"
MOVE_CLASS, HEADING, DISTANCE = "move_class", "rampage_bearing", "rampage_inches"
# side-record keys
INIT_DIE, INIT_CAST, WON, MOVING = (
    "initiative_die",
    "initiative_cast",
    "won_melee",
    "moving",
)


def fmt(x: float) -> str:
    return f"{x:g}"


@dataclass(frozen=True)
class Cast:
    """One side's melee cast: the dice (data expressions), the fixed modifier and words."""

    dice: tuple[str, ...]
    modifier: int
    words: str

    def total(self, faces: Sequence[int]) -> int:
        return sum(faces) + dice_modifier(self.dice) + self.modifier


@dataclass(frozen=True)
class Fighter:
    unit: Combatant
    cast: Cast
    rings: int
    extra: Mapping[str, Scalar]
    extra_remove: frozenset[str]
    recoils: bool = True


@dataclass(frozen=True)
class Fight:
    """A melee (or a berserk elephant's trample) ready to be cast."""

    kind: str
    a: Fighter
    d: Fighter
    #: the units on the table (a straggler retiring stops at a friendly unit behind it)
    pool: tuple[Combatant, ...] = ()


@dataclass(frozen=True)
class Loss:
    casualties: int
    markers: frozenset[str]
    eliminated: bool
    words: tuple[str, ...]
    straggler: bool


@dataclass(frozen=True)
class Shot:
    dice: str
    modifier: int
    words: tuple[str, ...]
    attacker: Combatant
    target: Combatant
    attacker_effects: Effects
    pool: tuple[Combatant, ...] = ()


# --------------------------------------------------------------------------- the rules


class QuincunxRules:
    """The rules of Quincunx as computations on units and tables: no dice are cast and no
    battle is changed here. :class:`QuincunxMechanics` (app/rulesets/quincunx/mechanics.py)
    adds the dice, the words and the phase hooks."""

    ruleset: Ruleset
    t: Tables

    def troop(self, troop_id: str) -> Troop:
        tr = self.ruleset.troop(troop_id)
        if not isinstance(tr, Troop):
            raise TypeError(f"{troop_id!r} is not a Quincunx troop")
        return tr

    def track(self, unit: Combatant) -> MeleeTrack:
        return self.t.melee.tracks[self.troop(unit.troop).melee_track]

    def is_elephant(self, unit: Combatant) -> bool:
        return self.troop(unit.troop).category == "elephant"

    def skirmishing(self, unit: Combatant) -> bool:
        return unit.status.formation == SKIRMISH

    def _phase_id(self, view: TurnView) -> str:
        phases = self.ruleset.turn.phases
        return phases[view.phase].id if 0 <= view.phase < len(phases) else ""

    def _mf(self, mf: float) -> str:
        return f'{fmt(mf)} MF ({fmt(mf * self.t.movement.inches_per_move_factor)}")'

    @staticmethod
    def pool(sit: Situation) -> tuple[Combatant, ...]:
        """The units on the table as the situation shows them: the battle's, else ``others``."""
        return sit.view.units if sit.view is not None else sit.others

    def forced_move(
        self,
        unit: Combatant,
        *,
        recoil_from: Combatant | None = None,
        retire: bool = False,
        pool: Sequence[Combatant] = (),
    ) -> tuple[tuple[float, float] | None, float]:
        """Quincunx, Melee and Attrition: the move the rules make at once, as
        ``Effects.shift``, and how far the stragglers retired. A unit that lost casualties in
        a melee recoils 4 MF directly away from the victor (``recoil_from``: from its centre
        through the loser's), still facing it; stragglers (``retire``) then move back 4 MF,
        or until they meet a friendly unit behind them (one of ``pool``). The distances are
        the tables' (``melee_resolution.recoil_inches``, ``stragglers.retire_inches``)."""
        dx = dy = 0.0
        if recoil_from is not None:
            vx, vy = heading_vector(away_bearing(recoil_from, unit))
            inches = self.t.melee_resolution.recoil_inches
            dx, dy = vx * inches, vy * inches
        retired = 0.0
        if retire:
            back = (unit.facing + 180.0) % 360
            friends = [
                u
                for u in pool
                if u.side == unit.side and u.unit_id != unit.unit_id and not u.status.eliminated
            ]
            start = replace(unit.footprint, x=unit.x + dx, y=unit.y + dy)
            retired = clear_run(start, back, self.t.stragglers.retire_inches, friends)
            vx, vy = heading_vector(back)
            dx, dy = dx + vx * retired, dy + vy * retired
        return as_shift(dx, dy), retired

    def _retire_words(self, inches: float) -> str:
        """'4 MF (12")', or the inches the stragglers went before a friendly unit behind
        stopped them."""
        if inches >= self.t.stragglers.retire_inches - _EPS:
            return self._mf(self.t.stragglers.retire_move_factors)
        return f'{fmt(round(inches, 1))}", up to the friendly unit behind'

    def leader_bonus(self, leader: LeaderView | None, choice: str = "attached") -> int:
        """Quincunx, Commanders: an attached leader adds +1 to the unit's missile difference
        or melee die; Hannibal and Scipio +2."""
        lt = self.t.leaders
        if choice == "none" or (choice == "attached" and leader is None):
            return 0
        if choice != "attached":
            return int(choice)
        assert leader is not None
        if leader.bonus:
            return leader.bonus
        great = any(g.lower() in leader.name.lower() for g in lt.great_leaders)
        return lt.great_leader_bonus if great else lt.attached_bonus

    def _killing_wounds(self) -> int:
        return min(m.wounds for m in self.t.leaders.moves if m.move_factors is None)

    def leader_move(self, leader: LeaderView) -> float:
        """Quincunx, Commanders: a leader moves 4 MF; wounded 2 MF, twice wounded 1 MF
        (errata "leader-wound-move"); a third wound kills (0)."""
        moves = sorted(self.t.leaders.moves, key=lambda m: m.wounds)
        row = moves[0]
        for m in moves:
            if m.wounds <= leader.wounds:
                row = m
        return 0.0 if row.move_factors is None else row.move_factors * self._per_mf

    @property
    def _per_mf(self) -> float:
        return self.t.movement.inches_per_move_factor

    def move_class(self, unit: Combatant) -> MoveClass:
        tr = self.troop(unit.troop)
        classes = self.t.movement.classes
        chosen = str(unit.status.extra.get(MOVE_CLASS, ""))
        if chosen in classes:
            return classes[chosen]
        if self.skirmishing(unit) and tr.movement_skirmish is not None:
            return classes[tr.movement_skirmish]
        return classes[tr.movement]

    def _command(
        self, unit: Combatant, friends: Sequence[Combatant], commander_at: Point | None
    ) -> bool:
        if commander_at is None:
            carriers = [u for u in (unit, *friends) if u.leader is not None]
            if not carriers:
                raise ValueError(
                    f"{unit.name}: no unit of the battlegroup carries its commander; "
                    "give the commander's position"
                )
            commander_at = (carriers[0].x, carriers[0].y)
        c = self.t.command
        return command_reach(unit, friends, commander_at, c.range_inches, c.chain_inches)

    def loss(self, unit: Combatant, casualties: int) -> Loss:
        """Casualties on a unit: figures come off (an elephant unit's crew, then its
        elephant; the last elephant goes berserk); a unit down to 25% disintegrates
        (Quincunx, Attrition); a unit with nothing left is gone."""
        st = unit.status
        if casualties <= 0:
            return Loss(0, frozenset(), False, (), False)
        if self.is_elephant(unit):
            el = elephant_loss(self.t, st.strength, st.start_strength, casualties, st.has(BERSERK))
            words = [f"{unit.name} loses " + ", ".join(el.fallen)] if el.fallen else []
            if el.berserk:
                words.append(f"{unit.name}: the last elephant goes berserk")
            if el.killed:
                words.append(f"{unit.name}: the elephant is killed")
            markers = frozenset({BERSERK}) if el.berserk else frozenset()
            return Loss(el.casualties, markers, el.killed, tuple(words), False)
        lost = min(casualties, st.strength)
        after = st.strength - lost
        words = [f"{unit.name} loses {lost} figure{'s' if lost != 1 else ''} ({after} left)"]
        if after == 0:
            return Loss(lost, frozenset(), True, (*words, f"{unit.name} is destroyed"), False)
        straggler = not st.has(STRAGGLER) and any(
            r.disintegrates for r in attrition_rows(self.t, after, st.start_strength)
        )
        if straggler:
            words.append(f"{unit.name} is down to 25% and disintegrates (stragglers)")
        return Loss(
            lost,
            frozenset({STRAGGLER}) if straggler else frozenset(),
            False,
            tuple(words),
            straggler,
        )

    def _melee_cast(
        self,
        unit: Combatant,
        enemy: Combatant,
        *,
        initial: bool = False,
        flank: bool = False,
        downhill: bool = False,
        volleyed: bool = False,
        wood_edge: bool = False,
        crossing: bool = False,
        penalty: int = 0,
        leader: str = "attached",
        elephant_round: int = 0,
    ) -> tuple[Cast, dict[str, Scalar]]:
        """Quincunx, Melee Matrix: the die of the unit's track for its rings, read right by
        the column shifts (skirmish mode, peltast volley, wood edge, stream far shore,
        attrition 50%/33%), plus the modifiers (mounted +1, on the enemy flank +2, downhill
        +1, leader +1/+2, fury or spear phalanx +1 and pike +1d6 on an initial attack,
        elephants +2/+1/+0 against a new target, -1 for a lost pre-melee volley). Returns
        the cast and the extra the unit keeps (the elephants' round count)."""
        t, st, tr = self.t, unit.status, self.troop(unit.troop)
        track = self.track(unit)
        mods = t.melee_modifiers.modifiers
        extra: dict[str, Scalar] = {}
        if st.has(BERSERK):
            return Cast((t.rampage.trample_die,), 0, f"berserk: {t.rampage.trample_die}"), extra
        shifts: list[str] = []
        peltast = tr.light_class == "peltast"
        if peltast and self.skirmishing(unit):
            shifts.append("skirmish_mode")
        if volleyed:
            if not peltast:
                raise ValueError(f"{unit.name} are not peltasts: no javelins before a melee")
            shifts.append(
                "peltast_volley_skirmish" if self.skirmishing(unit) else "peltast_volley_formed"
            )
        if wood_edge:
            shifts.append(t.terrain.woods.melee_column_shift)
        if crossing:
            shifts.append(t.terrain.streams.melee_column_shift)
        if not self.is_elephant(unit):
            rows = attrition_rows(t, st.strength, st.start_strength)
            shifts.extend(r.column_shift for r in rows if r.column_shift is not None)
        counted = effective_shifts(t, shifts)
        shift = combine_shifts(t, counted)
        column = min(st.rings + shift, len(track.dice) - 1)
        dice: tuple[str, ...] = (track.dice[column],)
        words = [f"{track.dice[column]} ({st.rings} ring{'s' if st.rings != 1 else ''}"]
        if shift:
            names = ", ".join(t.column_shifts.shifts[s].situation.lower() for s in counted)
            words[0] += f", {shift} column{'s' if shift != 1 else ''} right: {names}"
        words[0] += ")"
        modifier = 0

        def add(value: int, why: str) -> None:
            nonlocal modifier
            if value:
                modifier += value
                words.append(f"{value:+d} {why}")

        if tr.mounted:
            add(mods["mounted"].modifier, "mounted")
        if flank:
            add(mods["enemy_flank"].modifier, "on the enemy flank")
        if downhill:
            add(mods["downhill"].modifier, "downhill")
        add(self.leader_bonus(unit.leader, leader), "leader")
        if initial:
            add(
                track.initial_attack_bonus,
                "initial attack" + (" (fury)" if "ury" in (track.special or "") else ""),
            )
            if track.initial_attack_extra_die:
                dice = (*dice, track.initial_attack_extra_die)
                words.append(f"+{track.initial_attack_extra_die} initial attack")
        if track.new_target_bonus:
            if elephant_round > 0:
                index = elephant_round - 1
            elif st.extra.get(EL_TARGET) == enemy.unit_id:
                index = int(st.extra.get(EL_ROUNDS, 0))
            else:
                index = 0
            bonus = track.new_target_bonus[index] if index < len(track.new_target_bonus) else 0
            add(bonus, f"elephants, round {index + 1} against this target")
            extra = {EL_TARGET: enemy.unit_id, EL_ROUNDS: index + 1}
        add(penalty, "lost the pre-melee volley")
        return Cast(dice, modifier, " ".join(words)), extra

    def _penalty(
        self, unit: Combatant, choice: str, role: str
    ) -> tuple[int, dict[str, Scalar], set[str]]:
        """The pre-melee penalty for this round, and how the record of it changes."""
        pm = self.t.pre_melee
        if choice == "status":
            value = int(unit.status.extra.get(PENALTY, 0))
            if not value:
                return 0, {}, set()
            left = int(unit.status.extra.get(PENALTY_ROUNDS, 1)) - 1
            if left > 0:
                return value, {PENALTY_ROUNDS: left}, set()
            return value, {}, {PENALTY, PENALTY_ROUNDS}
        return (pm.loser_modifier if choice == role else 0), {}, set()

    def _capture(self, a: Combatant, d: Combatant, pool: Sequence[Combatant] = ()) -> Outcome:
        """Quincunx, Attrition: stragglers are captured by an enemy unit of more than 95% of
        its strength (errata "straggler-capture"); otherwise they fall back again (4 MF
        back, or up to a friendly unit behind them)."""
        limit = Fraction(self.t.stragglers.captured_by_enemy_above_percent, 100)
        if a.status.fraction_left > limit:
            return Outcome(
                defender=Effects(eliminated=True, move="captured"), result="stragglers captured"
            )
        shift, retired = self.forced_move(d, retire=True, pool=pool)
        move = f"retires {self._retire_words(retired)}"
        return Outcome(defender=Effects(move=move, shift=shift), result="stragglers fall back")

    def _shy(self, a: Combatant, d: Combatant) -> Outcome | None:
        """Quincunx, Elephants and Horses: cavalry not used to elephants may not attack them
        and withdraws when they advance: no melee takes place."""
        eh = self.t.elephants_and_horses
        for horse, elephant, role in ((a, d, "attacker"), (d, a, "defender")):
            tr = self.troop(horse.troop)
            if tr.mounted and self.is_elephant(elephant) and horse.troop not in eh.exempt_troops:
                eff = Effects(
                    move=f"withdraws {self._mf(eh.keep_away_move_factors)} from the elephants"
                )
                result = "horses shy from the elephants: no melee"
                if role == "attacker":
                    return Outcome(attacker=eff, result=result)
                return Outcome(defender=eff, result=result)
        return None

    def _fight_outcome(
        self, f: Fight, a_total: int, d_total: int
    ) -> tuple[Outcome, Side | None, tuple[Combatant, ...], tuple[str, ...]]:
        """Quincunx, Melee: every 2 points of difference is a casualty to the lower side;
        both units take a ring; the side that lost casualties recoils 4 MF (12") directly away
        from the victor, still facing it, and takes a second ring (the core moves it:
        ``Effects.shift``; stragglers then retire 4 MF more). Returns the outcome, the
        winning side (it forced a recoil) and the units that lost casualties."""
        t = self.t.melee_resolution
        diff = a_total - d_total
        cas = abs(diff) // t.casualty_divisor
        loser = None if cas == 0 else (f.d if diff > 0 else f.a)
        effects: list[Effects] = []
        labels: list[str] = []
        losers: list[Combatant] = []
        words: list[str] = []
        recoiled = False
        for me, other, role in ((f.a, f.d, "attacker"), (f.d, f.a, "defender")):
            rings = me.rings
            markers = {FOUGHT}
            extra = dict(me.extra)
            remove = set(me.extra_remove)
            move = None
            shift: tuple[float, float] | None = None
            casualties = 0
            eliminated = False
            if cas == 0:
                if f.kind == "melee":
                    extra[MELEE_WITH] = other.unit.unit_id
            else:
                remove.add(MELEE_WITH)
            if me is loser:
                loss = self.loss(me.unit, cas)
                casualties, eliminated = loss.casualties, loss.eliminated
                markers |= loss.markers
                words.extend(loss.words)
                berserk = BERSERK in loss.markers
                parts = [f"loses {casualties}"] if casualties else []
                recoils = me.recoils and not eliminated and not berserk
                if recoils:
                    rings += t.recoil_extra_rings
                    move = f"recoils {self._mf(t.recoil_move_factors)}"
                    parts.append("recoils")
                    recoiled = True
                shift, retired = self.forced_move(
                    me.unit,
                    recoil_from=other.unit if recoils else None,
                    retire=loss.straggler,
                    pool=f.pool,
                )
                if loss.straggler:
                    retire = self._retire_words(retired)
                    move = (move + " and " if move else "") + f"retires as stragglers ({retire})"
                    parts.append("disintegrates")
                if berserk:
                    move = "goes berserk"
                    parts.append("goes berserk (its last elephant)")
                if eliminated:
                    parts.append("is destroyed")
                labels.append(f"{role} " + " and ".join(parts))
                if casualties:
                    losers.append(me.unit)
            elif loser is not None and t.optional_victory_ring_removal and me.recoils:
                rings -= t.rings_per_round
            effects.append(
                Effects(
                    casualties=casualties,
                    rings=rings,
                    markers_add=frozenset(markers),
                    eliminated=eliminated,
                    move=move,
                    shift=shift,
                    extra=extra,
                    extra_remove=frozenset(
                        k for k in remove if k not in extra and k in me.unit.status.extra
                    ),
                )
            )
        result = "; ".join(labels) if labels else "no decision: the units stay in contact"
        winner: Side | None = None
        if loser is not None and recoiled and f.kind == "melee":
            winner = f.d.unit.side if loser is f.a else f.a.unit.side
        return Outcome(effects[0], effects[1], result), winner, tuple(losers), tuple(words)

    def _weapon(self, unit: Combatant, choice: str) -> str:
        tr = self.troop(unit.troop)
        carried = [w.name for w in tr.weapons]
        if self.is_elephant(unit):
            carried = [self.t.elephants.missile_weapon]
        if not tr.shoots or not carried:
            raise ValueError(f"{unit.name} have no missile weapons")
        if choice == "auto":
            return carried[0]
        if choice not in carried:
            raise ValueError(f"{unit.name} do not carry a {choice} ({', '.join(carried)})")
        return choice

    def firing_strength(self, unit: Combatant) -> int:
        """Figures that can fire: the whole unit; an elephant unit shoots as 12 light
        javelin figures at full strength, then by its remaining casualty points (errata
        "elephant-missile-strength")."""
        st = unit.status
        if self.is_elephant(unit) and st.strength >= st.start_strength:
            return self.t.elephants.missile_as_figures
        return st.strength

    def _no_fire(self, reason: str) -> Outcome:
        return Outcome(result=f"no fire: {reason}")

    def _shot_setup(self, sit: Situation) -> Shot | Outcome:
        """Quincunx, Missilery: the pair of dice by number firing (4-6, 7-9, 10-12, 13+) and
        column (short range, long range, or overhead / wall / cover); a target crossing a
        stream reads one step up the dice ladder (errata "stream-missile-level"). Modifiers
        to the difference: shielded battleline infantry, armoured heavy cavalry and
        skirmishers -1, flank +1 (skirmishers cannot be outflanked), leader +1/+2."""
        t = self.t
        a, d = sit.attacker, sit.defender
        if a.side == d.side:
            raise ValueError("missiles are shot at an enemy unit")
        if d.status.eliminated or a.status.eliminated:
            raise ValueError("both units must be on the table")
        if a.status.has(STRAGGLER) or a.status.has(BERSERK):
            raise ValueError(f"{a.name} cannot shoot (stragglers or a rampaging elephant)")
        if a.status.has(OUT_OF_COMMAND) and not sit.flag("pass_through"):
            raise ValueError(f"{a.name} are out of command: no aggressive act")
        weapon = self._weapon(a, sit.choice("weapon"))
        if a.status.has(NO_FIRE):
            return self._no_fire("fired in passing last round (chit)")
        if MELEE_WITH in d.status.extra:
            return self._no_fire("no fire into a melee")
        arc = t.missile_ranges.arc_degrees
        if a.footprint.has_size and d.footprint.has_size and not in_arc(a, d, arc):
            return self._no_fire(f"outside the {arc}-degree arc of fire to the front")
        rng = t.missile_ranges.weapons[weapon]
        distance = sit.number("distance")
        column = sit.choice("range")
        if distance > 0:
            if distance <= rng.short_max:
                column = "short"
            elif distance <= rng.long_max:
                column = "long"
            else:
                return self._no_fire(f'out of range ({distance}" for {rng.name.lower()})')
        firing = min(sit.number("firing") or self.firing_strength(a), self.firing_strength(a))
        band = missile_band(t, firing)
        if band is None:
            return self._no_fire(f"{firing} firing: {t.missile_dice.below_minimum}")
        cover = sit.flag("cover")
        where = "cover / overhead" if cover else f"{column} range"
        die = missile_dice(band, column, cover, 0, t.missile_dice.dice_ladder)
        words = [f"{firing} firing ({band.label}), {weapon} at {where}: {die or 'no fire'}"]
        if sit.flag("crossing"):
            step = t.terrain.streams.missile_level_shift
            die = missile_dice(band, column, cover, step, t.missile_dice.dice_ladder)
            words.append(f"target crossing a stream: {die or 'no fire'}")
        if die is None:
            return self._no_fire(f"{band.label} firing into cover")
        modifier = 0
        mods = t.missile_modifiers.modifiers
        skirmish_target = self.skirmishing(d)
        for cls in self.troop(d.troop).missile_target:
            if cls == "skirmisher" and not skirmish_target:
                continue
            modifier += mods[cls].modifier
            words.append(f"{mods[cls].modifier:+d} {mods[cls].situation.lower()}")
        if sit.flag("flank"):
            if skirmish_target:
                words.append("skirmishers cannot be outflanked")
            else:
                modifier += mods["flank"].modifier
                words.append(f"{mods['flank'].modifier:+d} flank")
        bonus = self.leader_bonus(a.leader, sit.choice("leader"))
        if bonus:
            modifier += bonus
            words.append(f"{bonus:+d} leader")
        markers = {FIRED}
        extra: dict[str, Scalar] = {}
        if sit.flag("pass_through"):
            markers.add(NO_FIRE)
            extra[NO_FIRE_ROUNDS] = t.missile_modifiers.pass_through_blocks_rounds
        if sit.flag("before_melee"):
            if self.troop(a.troop).light_class != "peltast":
                raise ValueError(f"{a.name} are not peltasts: no javelins before a melee")
            extra[PELTAST_VOLLEY] = True
        effects = Effects(markers_add=frozenset(markers), extra=extra)
        return Shot(die, modifier, tuple(words), a, d, effects, self.pool(sit))

    def _shot_outcome(self, shot: Shot, difference: int) -> tuple[Outcome, tuple[str, ...]]:
        """Quincunx, Missilery: each two points of the modified difference is a casualty,
        remainders dropped."""
        value = max(0, difference + shot.modifier)
        cas = value // self.t.missile_dice.casualty_divisor
        loss = self.loss(shot.target, cas)
        label = f"{loss.casualties} casualt{'ies' if loss.casualties != 1 else 'y'}"
        if BERSERK in loss.markers:
            label += "; last elephant goes berserk"
        if loss.straggler:
            label += "; target disintegrates"
        if loss.eliminated:
            label += "; target destroyed"
        move = None
        shift = None
        if loss.straggler:
            shift, retired = self.forced_move(shot.target, retire=True, pool=shot.pool)
            move = f"retires as stragglers ({self._retire_words(retired)})"
        target = Effects(
            casualties=loss.casualties,
            markers_add=frozenset({SHOT_AT}) | loss.markers,
            eliminated=loss.eliminated,
            move=move,
            shift=shift,
        )
        return Outcome(shot.attacker_effects, target, label), loss.words

    def volley_die(self, unit: Combatant) -> str | None:
        """The unit's pre-melee volley die (pila d12, javelins d10), or None when it has none
        or has already cast it (errata "pre-melee-volley": one volley per unit)."""
        tr = self.troop(unit.troop)
        if tr.volley is None or unit.status.extra.get(VOLLEY_USED):
            return None
        return self.t.pre_melee.volley_dice[tr.volley].die

    def _pre_outcome(
        self, sit: Situation, dies: tuple[str | None, str | None], a_cast: int, d_cast: int
    ) -> Outcome:
        """Quincunx, Pre-Melee Missilery: the lower cast applies -1 to its melee die in the
        first round only; a side without a volley loses automatically; equal casts have no
        effect."""
        pm = self.t.pre_melee
        if dies[0] is None:
            loser = "attacker"
        elif dies[1] is None:
            loser = "defender"
        elif a_cast == d_cast:
            loser = ""
        else:
            loser = "attacker" if a_cast < d_cast else "defender"
        effects = []
        for role, die in (("attacker", dies[0]), ("defender", dies[1])):
            extra: dict[str, Scalar] = {}
            if die is not None:
                extra[VOLLEY_USED] = True
            if role == loser:
                extra[PENALTY] = pm.loser_modifier
                extra[PENALTY_ROUNDS] = pm.rounds_affected
            effects.append(Effects(extra=extra))
        if not loser:
            result = "equal casts: no effect"
        else:
            auto = " (no volley)" if dies[0 if loser == "attacker" else 1] is None else ""
            result = f"{loser} loses the volley{auto}: {pm.loser_modifier:+d} in the first round"
        return Outcome(effects[0], effects[1], result)

    def _evade_outcome(self, sit: Situation, allowance: int, diff: int) -> Outcome:
        """Quincunx, Movement: the skirmishers withdraw one MF per point they cast above the
        attacker, within their normal move; they evade only if they cast higher (a tie
        fails: errata "evasion-ties"), the margin carries them clear and a route is open;
        the core moves them directly away from the attacker (``Effects.shift``). An evading
        unit cannot move in the next round (chit)."""
        ev = self.t.evasion
        won = diff > 0 or (diff == 0 and ev.ties == "succeed")
        mf = min(max(diff, 0) * ev.move_factors_per_point, allowance)
        if not won or mf < sit.number("needed") or not sit.flag("exit_open"):
            return Outcome(result="evasion fails: the melee follows")
        eff = Effects(
            markers_add=frozenset({EVADED, MOVED}),
            move=f"evades {self._mf(mf)}",
            # withdrawn directly away from the attacker, by the move factors it cast
            shift=(away_bearing(sit.defender, sit.attacker), mf * self._per_mf) if mf else None,
            extra={EVADED_ROUNDS: ev.rounds_without_moving_after},
        )
        return Outcome(attacker=eff, result=f"evades {mf} MF")

    def _trample_fight(
        self, elephant: Combatant, target: Combatant, pool: Sequence[Combatant] = ()
    ) -> Fight:
        """Quincunx, Rampage Chart: the berserk elephant fights a melee with d12+2 against
        any unit in its path, friend or foe; the unit casts its own melee die. The unit takes
        a ring (and recoils directly away from the elephant if it loses); the elephant loses
        hits if it is the lower side. ``pool``: the units on the table (stragglers made by
        the trample retire up to a friendly unit behind them)."""
        if not self.is_elephant(elephant):
            raise ValueError(f"{elephant.name} is not an elephant unit")
        if target.status.eliminated or target.unit_id == elephant.unit_id:
            raise ValueError(f"{target.name} cannot be trampled")
        t = self.t
        e_cast = Cast((t.rampage.trample_die,), 0, f"berserk: {t.rampage.trample_die}")
        if target.status.has(STRAGGLER):
            d_cast = Cast((), 0, "stragglers: no combat ability (0)")
        else:
            d_cast, _ = self._melee_cast(target, elephant)
        ring = t.melee_resolution.rings_per_round
        return Fight(
            "trample",
            Fighter(elephant, e_cast, 0, {}, frozenset(), recoils=False),
            Fighter(target, d_cast, ring, {}, frozenset()),
            tuple(pool),
        )

    def north_bearing(self, elephant: Combatant, view: TurnView | None) -> float:
        """Errata "rampage-north": North is the table edge behind the Roman army. Side 0
        faces +y, so its rear edge lies at bearing 180; side 1's at bearing 0."""
        roman: int | None = None
        if view is not None:
            roman = next((i for i, a in enumerate(view.armies) if "roman" in a.lower()), None)
        if roman is None:
            roman = 1 - elephant.side
        return 180.0 if roman == 0 else 0.0
