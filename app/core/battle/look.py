"""How a battle's units are told apart on the map, from the data: each side's colour (its
army list's, so Rome is red in every battle), each unit's troop-type symbol (its troop
type's, else its category's) and the labels it can carry, from its full name down to its
id, so the map shows the longest that fits its base.

Plain values, computed once a battle (names, armies and troop types never change in one);
the map and the exported image draw them, the tests read them without Qt.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache

from app.core.battle.state import BattleState, BattleUnit
from app.rules.ruleset import Ruleset
from app.rules.schema import ArmyEntry, Symbol, troop_symbol
from app.rules.values import frozen_made

#: The sides' colours where their armies name none: side A red, side B blue (what every
#: battle showed before armies had colours).
DEFAULT_COLOURS = ("#a83232", "#27548a")
#: Colours a side takes when its army's is missing or too near its enemy's.
PALETTE = ("#a83232", "#27548a", "#2e7d32", "#8d6e00", "#5b3b8c", "#00838f", "#6d4c41")
#: How far apart (RGB distance) two sides' colours must be to be told apart at a glance.
NEAR = 90.0

#: Words a label's abbreviation skips ("Balearics and Moors": BM).
STOP_WORDS = frozenset({"a", "an", "and", "at", "de", "in", "of", "or", "the", "to", "with"})

_NUMBER = re.compile(r"^(.*?)\s+(\d+)$")
_PARENS = re.compile(r"\(([^()]*)\)")
_WORDS = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


# --------------------------------------------------------------------------- labels


@dataclass(frozen=True)
class UnitLabel:
    """What a unit can be called on the map, longest first: its ``full`` name, a ``short``
    one (qualifiers as initials: ``Hastati R1``), a ``code`` (the entry's abbreviation:
    ``HaR1``) and its ``id`` (``A17``), the last resort."""

    id: str
    full: str
    short: str
    code: str

    @cached_property
    def variants(self) -> tuple[str, ...]:
        """The labels to try, longest first, each once."""
        out: list[str] = []
        for text in (self.full, self.short, self.code, self.id):
            if text and text not in out:
                out.append(text)
        return tuple(out)


@lru_cache(maxsize=4096)
def split_name(name: str) -> tuple[str, tuple[str, ...], str]:
    """``Hastati (right) 1`` as its head, its qualifiers in brackets and its number:
    ``("Hastati", ("right",), "1")``."""
    text = " ".join(name.split())
    number = ""
    m = _NUMBER.match(text)
    if m:
        text, number = m[1], m[2]
    qualifiers = tuple(" ".join(q.split()) for q in _PARENS.findall(text) if q.strip())
    head = " ".join(_PARENS.sub(" ", text).split())
    return head, qualifiers, number


def _words(text: str) -> list[str]:
    words = _WORDS.findall(text)
    kept = [w for w in words if w.lower() not in STOP_WORDS]
    return kept or words


@lru_cache(maxsize=4096)
def abbreviate(text: str, letters: int = 1) -> str:
    """A few letters for ``text``: the initials of its words (``Numidian light cavalry``:
    NLC; ``Liby-Phoenician Phalanx``: LPP), or, for one word, its first two letters
    (``Hastati``: Ha); ``letters`` of each word where initials are not enough."""
    words = _words(text)
    if not words:
        return ""
    if len(words) == 1:
        w = words[0]
        return w[: max(2, letters)].capitalize()
    return "".join(w[:letters].capitalize() for w in words)


def _qualifier(text: str, letters: int) -> str:
    words = _words(text)
    if len(words) == 1:
        return words[0][:letters].capitalize()
    return "".join(w[:1].upper() for w in words)


@lru_cache(maxsize=4096)
def _qualifier_forms(qualifiers: tuple[str, ...]) -> tuple[str, str, str, str]:
    """The qualifiers as initials, as two and three letters, and whole (``(right)``)."""
    forms = ["".join(_qualifier(q, n) for q in qualifiers) for n in (1, 2, 3)]
    return forms[0], forms[1], forms[2], " ".join(f"({q})" for q in qualifiers)


#: A label at a level of detail, without its number: the text and what joins the number
#: to it (``("Hastati R", "")`` gives ``Hastati R1``).
Level = tuple[str, str]


def _levels(base: str, qualifiers: tuple[str, ...], sep: str) -> list[Level]:
    """A label at each level of detail: the qualifiers left out, as initials, as two and
    three letters, then whole."""
    out: list[Level] = [(base, sep)]
    if qualifiers:
        one, two, three, whole = _qualifier_forms(qualifiers)
        out += [(f"{base}{sep}{q}", "") for q in (one, two, three)]
        out.append((f"{base} {whole}", " "))
    return out


@lru_cache(maxsize=4096)
def _stem_levels(
    stem: str, entry_name: str | None, entry_short: str | None
) -> tuple[tuple[Level, ...], tuple[Level, ...]]:
    """The short and the code labels of a name without its number (``Hastati (right)``),
    at every level of detail: made once per name (a battle's units share a few)."""
    cut = len(entry_name) if entry_name else 0
    if (
        entry_name is not None
        and stem.casefold().startswith(entry_name.casefold())
        and (len(stem) == cut or stem[cut] in " (")
    ):
        # named after its entry ("Hastati (right) 1" of "Hastati"): the entry's short
        head, entry_quals, entry_number = split_name(entry_name)
        if entry_number:
            head = f"{head} {entry_number}"
        more = split_name(f"x {stem[cut:].strip()}")[1] if stem[cut:].strip() else ()
        quals = (*entry_quals, *more)
        abbr = entry_short or abbreviate(head)
        code_quals = more if entry_short else quals
    else:
        head, quals, _ = split_name(stem)
        abbr = abbreviate(head)
        code_quals = quals
    shorts = _levels(head, quals, " ")
    codes = _levels(abbr, code_quals, "") + _levels(abbreviate(head, 2), code_quals, "")[1:4]
    return tuple(shorts), tuple(codes)


def _candidates(unit: BattleUnit, entry: ArmyEntry | None) -> tuple[list[str], list[str]]:
    """The short and the code labels of ``unit``, each at every level of detail. A unit
    named after its entry (``Hastati (right) 1`` of ``Hastati``) is abbreviated by the
    entry's ``short`` where the data gives one; any other by its own words."""
    name = " ".join(unit.name.split())
    m = _NUMBER.match(name)
    stem, number = (m[1], m[2]) if m else (name, "")
    shorts, codes = _stem_levels(
        stem, entry.name if entry is not None else None, entry.short if entry else None
    )

    def label(level: Level) -> str:
        text, join = level
        return f"{text}{join}{number}".strip() if number else text.strip()

    return [label(lv) for lv in shorts], [label(lv) for lv in codes]


def _settle(levels: Mapping[str, list[str]], names: Mapping[str, str]) -> dict[str, str]:
    """One label a unit: the least detailed level that no unit of another name shares;
    where even the most detailed is shared, None (the caller falls back)."""
    level = dict.fromkeys(levels, 0)
    while True:
        holders: dict[str, set[str]] = {}
        for uid, lv in level.items():
            holders.setdefault(levels[uid][lv], set()).add(names[uid])
        bumped = False
        for uid, lv in level.items():
            label = levels[uid][lv]
            if len(holders[label]) > 1 and lv + 1 < len(levels[uid]):
                level[uid] = lv + 1
                bumped = True
        if not bumped:
            break
    out: dict[str, str] = {}
    for uid, lv in level.items():
        label = levels[uid][lv]
        out[uid] = label if len(holders[label]) == 1 else ""
    return out


def unit_labels(state: BattleState, ruleset: Ruleset) -> dict[str, UnitLabel]:
    """Each unit's labels. The short and code labels of a side's units are told apart
    wherever their names are (``Velites (right)`` and ``Velites (rear)``: VeRi and VeRe);
    a code that cannot be is the unit's id."""
    out: dict[str, UnitLabel] = {}
    for side in (0, 1):
        units = [u for u in state.units if u.side == side]
        army = ruleset.armies.get(state.sides[side].army)
        shorts: dict[str, list[str]] = {}
        codes: dict[str, list[str]] = {}
        for u in units:
            entry = army.entries.get(u.entry) if army is not None else None
            shorts[u.id], codes[u.id] = _candidates(u, entry)
        names = {u.id: " ".join(u.name.split()) for u in units}
        short = _settle(shorts, names)
        code = _settle(codes, names)
        for u in units:
            # one a unit: every field at once (frozen_made)
            out[u.id] = frozen_made(
                UnitLabel,
                {
                    "id": u.id,
                    "full": names[u.id],
                    "short": short[u.id] or names[u.id],
                    "code": code[u.id] or u.id,
                },
            )
    return out


# --------------------------------------------------------------------------- colours


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def near(a: str, b: str) -> bool:
    """Whether two ``#rrggbb`` colours are too alike to tell two sides apart."""
    (r1, g1, b1), (r2, g2, b2) = _rgb(a), _rgb(b)
    return math.hypot(r1 - r2, g1 - g2, b1 - b2) < NEAR


def side_colours(own: tuple[str | None, str | None]) -> tuple[str, str]:
    """The sides' colours from their armies' (``own``, None where an army names none):
    each keeps its army's unless side B's is too near side A's; a side without one takes
    the default for its side, or the first of :data:`PALETTE` far enough from the other."""
    a_own, b_own = own
    if a_own is not None:
        a = a_own
    else:
        a = next(c for c in (DEFAULT_COLOURS[0], *PALETTE) if b_own is None or not near(c, b_own))
    if b_own is not None and not near(b_own, a):
        b = b_own
    else:
        b = next(c for c in (DEFAULT_COLOURS[1], *PALETTE) if not near(c, a))
    return a, b


# --------------------------------------------------------------------------- the whole look


@dataclass(frozen=True)
class SideLook:
    """A side as the legend names it: its name, its army list's name and its colour."""

    name: str
    army: str
    colour: str


@dataclass(frozen=True)
class BattleLook:
    """Everything the map needs to tell units apart, for one battle."""

    sides: tuple[SideLook, SideLook]
    labels: Mapping[str, UnitLabel]
    symbols: Mapping[str, Symbol | None]
    #: each unit's troop type by its name in the ruleset (``Roman Hastati``)
    troops: Mapping[str, str]

    def symbols_used(self) -> tuple[Symbol, ...]:
        """The symbols on the table, in :class:`Symbol`'s order (the legend's key)."""
        used = set(self.symbols.values())
        return tuple(s for s in Symbol if s in used)


def battle_look(state: BattleState, ruleset: Ruleset) -> BattleLook:
    """The look of ``state``'s battle under ``ruleset``'s data. An army list or troop type
    the data no longer has gives no colour or symbol of its own, never an error: a battle
    recorded with older data still opens."""
    armies = [ruleset.armies.get(s.army) for s in state.sides]
    a, b = side_colours(
        (armies[0].colour if armies[0] else None, armies[1].colour if armies[1] else None)
    )
    sides = tuple(
        SideLook(s.name, army.name if army is not None else s.army, colour)
        for s, army, colour in zip(state.sides, armies, (a, b), strict=True)
    )
    symbols: dict[str, Symbol | None] = {}
    troops: dict[str, str] = {}
    for u in state.units:
        troop = ruleset.troops.get(u.troop)
        symbols[u.id] = troop_symbol(troop) if troop is not None else None
        troops[u.id] = troop.name if troop is not None else u.troop
    return BattleLook(
        sides=(sides[0], sides[1]),
        labels=unit_labels(state, ruleset),
        symbols=symbols,
        troops=troops,
    )


def look_key(state: BattleState) -> tuple[object, ...]:
    """What :func:`battle_look` reads of a state: a map keeps its look while this stays."""
    return (
        tuple((s.name, s.army) for s in state.sides),
        tuple((u.id, u.side, u.name, u.entry, u.troop) for u in state.units),
    )
