"""MWAN #90 Punic rules: pure helpers for the battle mechanics (rulesets/mwan90).

Names of formations and markers, dice counting and exact distributions, the plan of dice of
one action, the words of outcomes, and the actions' option lists. Every number comes from the
typed tables (:mod:`app.rulesets.mwan90.schema`); nothing here imports the battle core.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from app.rules.actions import Count
from app.rules.dice import dist_of, parse_dice
from app.rules.mechanics import (
    Combatant,
    Dice,
    Effects,
    NotImplementedRule,
    OptionSpec,
    Outcome,
    Side,
)
from app.rules.ruleset import Ruleset
from app.rules.validate import validate_json
from app.rules.values import effects_with
from app.rulesets.mwan90.schema import MoraleRow, Tables

BOTH: tuple[Side, Side] = (0, 1)
DISORDERED = "disordered"
ROUTED = "routed"
MOVED = "moved"
MISSILE_FIGURES = "missile_figures"
FORMED, SKIRMISH, SHIELD_WALL, WEDGE = "formed", "skirmish", "shield_wall", "wedge"
FORMATIONS = (FORMED, SKIRMISH, SHIELD_WALL, WEDGE)
AS_UNIT = "unit"
ATTACKS = ("front", "flank", "rear")
SPLITS = ("none", "cavalry", "support")
SUPPORTED = ("none", "attacker", "defender")
#: whose dice a flank or rear attack on a heavy unit triples (MWAN #90, Melee 3)
TRIPLED = ("attacker", "attacked")
#: side records, each holding the turn it was written in (records outlive the turn): the
#: initiative winner chose to move second; the first side's move is over
MOVES_SECOND = "moves_second"
FIRST_MOVE_OVER = "first_move_over"
MOVEMENT = "movement"
#: two footprints closer than this (in inches) are in contact
CONTACT = 1e-6


@dataclass(frozen=True)
class Hits(Count):
    """MWAN #90, Missiles and Melee: a die per figure (``spec``, e.g. ``12d6``), each at
    ``need`` or more a hit, counted up to ``cap`` (hits past a unit's rout or loss change
    nothing). One recorded roll of ``spec``; its words give the faces and every hit scored,
    as the players count them. Its exact distribution is the capped binomial counted in
    whole numbers (:func:`hit_weights`)."""

    def roll(self, dice: Dice) -> tuple[int, str]:
        faces = tuple(dice.roll(self.spec, self.purpose))
        hits = sum(1 for f in faces if self.scores(f))
        shown = " ".join(map(str, faces))
        return (hits if self.cap is None else min(hits, self.cap)), f"{shown}: {hits} hit(s)"

    def exact(self) -> dict[int, Fraction]:
        weights, den = hit_weights(self)
        return {k: Fraction(w, den) for k, w in weights.items()}


@lru_cache(maxsize=1024)
def hit_weights(throw: Hits) -> tuple[dict[int, int], int]:
    """The distribution of ``throw`` as whole-number weights over one denominator: ``k``
    hits weigh C(n, k) g^k b^(n-k) out of s^n (``g`` faces of ``s`` hit, ``b`` miss), and
    the cap takes whatever is left, so the weights sum to s^n exactly. Zero weights are
    left out. Whole numbers, not Fractions, keep large throws quick."""
    d = throw.dice
    n, s = d.count, d.sides
    g = sum(1 for f in d.faces if throw.scores(f))
    b = s - g
    cap = n if throw.cap is None else max(0, min(throw.cap, n))
    den = s**n
    weights: dict[int, int] = {}
    if cap:
        choose, good, bad = 1, 1, b ** (n - cap + 1)
        below = [bad]
        for _ in range(cap - 1):
            below.append(below[-1] * b)
        for k in range(cap):
            w = choose * good * below[cap - 1 - k]  # C(n,k) g^k b^(n-k)
            if w:
                weights[k] = w
            choose = choose * (n - k) // (k + 1)
            good *= g
    rest = den - sum(weights.values())
    if rest:
        weights[cap] = rest
    return weights, den


def hits_throw(die: str, n: int, need: int, cap: int, purpose: str) -> Hits:
    """``n`` dice of the table's ``die`` (``d6``) hitting on ``need``, thrown as one roll."""
    return Hits(f"{n}d{parse_dice(die).sides}", purpose, need=need, cap=cap)


UNFORMED = "unformed: no morale check"


#: The most dice one side throws at once. Four times the largest unit the army lists allow,
#: tripled in a flank, throws under 300; a limit keeps absurd units and options (a billion
#: supporting figures) from rolling, recording or counting the odds for minutes.
MAX_DICE = 5_000


@dataclass(frozen=True)
class Plan:
    """Dice of one action, both ways: the attacker's ``dice_a`` hit the defender on
    ``need_a``, the defender's ``dice_d`` hit the attacker on ``need_d``; hits past
    ``cap_a``/``cap_d`` change nothing (routed or gone)."""

    kind: str
    die: str
    form_a: str
    form_d: str
    why: tuple[str, ...]
    dice_a: int = 0
    need_a: int = 0
    dice_d: int = 0
    need_d: int = 0
    cap_a: int = 0
    cap_d: int = 0
    disorder_d: bool = False
    dispersed: int = 0

    def __post_init__(self) -> None:
        """Refuse, with a one-line reason, a side throwing more than :data:`MAX_DICE`."""
        for dice in (self.dice_a, self.dice_d):
            if dice > MAX_DICE:
                raise ValueError(
                    f"{self.kind}: {dice:,} dice at once is more than Castra throws "
                    f"({MAX_DICE:,}); check the unit sizes and the options"
                )


def row_for(rows: Sequence[MoraleRow], score: int) -> MoraleRow | None:
    for row in rows:
        if row.rolls[0] <= score <= row.rolls[1]:
            return row
    return None


def routed(e: Effects) -> bool:
    return ROUTED in e.markers_add


def with_(e: Effects, **changes: Any) -> Effects:
    """``e`` with ``changes`` (:func:`~app.rules.values.effects_with`: quick, as the odds
    of big units make hundreds)."""
    return effects_with(e, **changes)


def describe(e: Effects) -> str:
    if routed(e):
        text = "routs"
    elif e.eliminated:
        text = "is destroyed"
    elif e.casualties:
        text = f"loses {e.casualties}"
    else:
        text = "no losses"
    if DISORDERED in e.markers_add:
        text += ", disordered"
    if e.move:
        text += f", {e.move}"
    return text


def split(dice: int, share: str, larger: str, smaller: str) -> tuple[int, list[str]]:
    """MWAN #90, Missiles and Melee 5: dice against cavalry supported by medium infantry are
    shared out before rolling: the larger half at the cavalry (our reading of
    'equitable'), the rest at the supporter."""
    if share == "none":
        return dice, []
    if share not in (larger, smaller):
        raise ValueError(f"split must be none, {larger} or {smaller}")
    big, small = dice - dice // 2, dice // 2
    mine, rest = (big, small) if share == larger else (small, big)
    return mine, [f"dice shared with the supported cavalry: {mine} here, {rest} at the other"]


def side_options(t: Tables, p: str, who: str) -> tuple[OptionSpec, ...]:
    """One side's melee options (``a_`` attacker, ``d_`` defender); the counts default to
    the unit's figures."""
    return (
        OptionSpec(
            f"{p}_front",
            f"{who}: front-rank figures in contact (0 = all)",
            "int",
            0,
            minimum=0,
            help="For elephants, the elephants in contact; for skirmishers, the figures "
            "touching enemy skirmishers.",
        ),
        OptionSpec(f"{p}_overlaps", f"{who}: flanks overlapping", "int", 0, minimum=0, maximum=2),
        OptionSpec(
            f"{p}_support",
            f"{who}: supporting medium infantry, figures in its front rank",
            "int",
            0,
            minimum=0,
            help=f"Each adds {t.melee.support_mi_ranks} (its ranks).",
        ),
        OptionSpec(
            f"{p}_formation", f"{who}: formation", "choice", AS_UNIT, (AS_UNIT, *FORMATIONS)
        ),
        OptionSpec(
            f"{p}_moved", f"{who}: moved this turn (a shield wall is not heavy)", "bool", False
        ),
        OptionSpec(
            f"{p}_wedge_support",
            f"{who}: figures of the barbarian unit behind a wedge",
            "int",
            0,
            minimum=0,
        ),
    )


def melee_options(t: Tables) -> tuple[OptionSpec, ...]:
    """MWAN #90, Melee: the attack's aspect, each side's figures in contact, and supported
    cavalry."""
    return (
        OptionSpec("attack", "Attacking", "choice", "front", ATTACKS),
        OptionSpec(
            "flank_tripled",
            "Flank or rear on a heavy unit: whose dice are tripled",
            "choice",
            t.melee.flank_rear.multiplied_side,
            TRIPLED,
            help="attacker: the attacker's dice against the heavy unit (Castra's reading); "
            "attacked: the heavy unit's own dice (the text as written). See errata "
            "flank-rear-triple.",
        ),
        *side_options(t, "a", "Attacker"),
        *side_options(t, "d", "Defender"),
        OptionSpec(
            "supported_cavalry",
            "Cavalry supported by medium infantry (its enemy's dice are shared)",
            "choice",
            "none",
            SUPPORTED,
        ),
    )


SHOOT_OPTIONS = (
    OptionSpec(
        "shooters",
        "Figures with a clear shot (0 = counted from the table, or all)",
        "int",
        0,
        minimum=0,
    ),
    OptionSpec("split", "Target shares the dice with its support", "choice", "none", SPLITS),
)
JAVELIN_OPTIONS = (
    OptionSpec("a_front", "Attacker: front-rank figures in contact (0 = all)", "int", 0, minimum=0),
    OptionSpec("d_front", "Defender: front-rank figures in contact (0 = all)", "int", 0, minimum=0),
)
DISPERSE_OPTIONS = (
    OptionSpec("skirmishers", "Skirmishers passed through (0 = all)", "int", 0, minimum=0),
)


#: the players' call on a morale check the data cannot settle: their words, and the first
#: ("table") to roll on a table instead (the ruleset's rows, or the club's the battle keeps)
CALLS = ("table", "passes", "disordered", "falls back", "routs")
#: in a battle's side records: the club's own morale table, as JSON (``die`` and ``rows``),
#: copied into each new battle so it keeps its own (errata morale-table-truncated)
HOUSE_MORALE = "house_morale"


def morale_options(t: Tables) -> tuple[OptionSpec, ...]:
    """The situations of the user's own morale rows (none built in), routing elephants, the
    players' call (while the source's table is lost) and which situation of a club's own
    table the unit is in."""
    units_in = tuple(dict.fromkeys(r.unit_in for r in t.morale.rows))
    opts: tuple[OptionSpec, ...] = (
        OptionSpec("routing_elephants", "The routers are elephants", "bool", False),
    )
    if units_in:
        opts = (OptionSpec("unit_in", "Unit in", "choice", units_in[0], units_in), *opts)
    if not t.morale.complete:
        opts = (
            *opts,
            OptionSpec(
                "result",
                "Result (the source's table is lost)",
                "choice",
                CALLS[0],
                CALLS,
                help="The players' call; 'table' rolls on your club's own table",
            ),
            OptionSpec(
                "situation",
                "Unit in: which situation of your club's table (1 = its first)",
                "int",
                1,
                minimum=1,
                maximum=50,
            ),
        )
    return opts


def morale_help(t: Tables) -> str:
    if not t.morale.complete:
        return (
            "INCOMPLETE IN SOURCE: give the players' result, or roll on your club's own table "
            "(castra morale-table)."
        )
    return "From your own table (the source's is lost)."


def house_morale(text: str) -> tuple[str, tuple[MoraleRow, ...]]:
    """A club's morale table as a battle keeps it (JSON: ``die`` and ``rows``), read and
    checked (ValueError naming what is wrong)."""
    try:
        data = json.loads(text)
        die = str(data["die"])
        rows = tuple(validate_json(MoraleRow, r) for r in data["rows"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"the club's morale table cannot be read: {exc}") from None
    if not rows:
        raise ValueError("the club's morale table has no rows")
    return die, rows


def house_morale_problem(die: str, rows: Sequence[MoraleRow]) -> str | None:
    """Why a club's morale rows cannot be rolled on (a situation's rows leave a score of the
    die, less 3 for routing elephants, uncovered), or None."""
    try:
        faces = dist_of(die)
    except ValueError as exc:
        return f"{die!r} is not a die: {exc}"
    for unit_in in dict.fromkeys(r.unit_in for r in rows):
        mine = [r for r in rows if r.unit_in == unit_in]
        for score in sorted(faces):
            for mod in (0, -3):
                if row_for(mine, score + mod) is None:
                    return (
                        f"the rows for {unit_in!r} do not cover a score of {score + mod} "
                        "(the die, less 3 for routing elephants)"
                    )
    return None


# --------------------------------------------------------------------------- morale


def morale_missing(rs: Ruleset) -> str:
    """MWAN #90, Morale 3: the article breaks off at 'Unit in:'. What to tell a player who
    asks for a check: the table is incomplete in the source, and how to supply it."""
    m = rs.tables.morale if isinstance(rs.tables, Tables) else None
    cut = m.source_breaks_off_at if m is not None else "Unit in:"
    try:
        how = rs.erratum("morale-table-truncated").override
    except KeyError:
        how = None
    return (
        f"{rs.meta.short_name} morale check: the results table is incomplete in the source "
        f"(the article breaks off at '{cut}') and Castra does not invent it. Settle the check "
        "between the players, or supply the table yourself. "
        + (how or "In a copy of the ruleset, fill rows under [morale] and set complete = true.")
    )


def morale_rows(
    t: Tables,
    unit_in: str,
    routing_elephants: bool,
    table: tuple[str, tuple[MoraleRow, ...]] | None = None,
) -> tuple[str, int, tuple[MoraleRow, ...]]:
    """The user's rows for ``unit_in`` (the first situation when empty) and the die
    modifier, checked to cover every score the die can give; from ``table`` (a club's own,
    ``(die, rows)``) when given, else the ruleset's."""
    m = t.morale
    die, all_rows = table if table is not None else (m.die, m.rows)
    if not all_rows or die is None:
        raise NotImplementedRule("the morale table has no rows")
    unit_in = unit_in or all_rows[0].unit_in
    rows = tuple(r for r in all_rows if r.unit_in == unit_in)
    if not rows:
        known = ", ".join(sorted({r.unit_in for r in all_rows}))
        raise ValueError(f"no morale rows for {unit_in!r} (rows: {known})")
    mod = m.routing_elephants_modifier if routing_elephants else 0
    for score in sorted(dist_of(die)):
        if row_for(rows, score + mod) is None:
            raise NotImplementedRule(
                f"the morale rows for {unit_in!r} do not cover a score of {score + mod}; "
                "add a row for it in tables.toml under [morale]"
            )
    return unit_in, mod, rows


def morale_effects(t: Tables, unit: Combatant, outcome: str) -> Effects:
    """What a morale result does to the checking unit: disordered is marked; routs, routed
    (removed, MWAN #90, Morale 2); falls back, the players' move (the article gives no
    distance); holds or passes, nothing."""
    if outcome == "disordered":
        return Effects(markers_add=frozenset({DISORDERED}))
    if outcome == "routs":
        removed = t.morale.routed_removed
        return Effects(
            casualties=unit.status.strength if removed else 0,
            eliminated=removed,
            markers_add=frozenset({ROUTED}),
        )
    if outcome == "falls back":
        return Effects(move="falls back: the players move it (the article gives no distance)")
    return Effects()


def morale_outcome(t: Tables, unit: Combatant, row: MoraleRow) -> Outcome:
    """The effect of a user's morale row on the checking unit."""
    return Outcome(
        attacker=morale_effects(t, unit, row.outcome), result=f"{row.outcome}: {row.result}"
    )
