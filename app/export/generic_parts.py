"""The printed parts of a ruleset whose engine has none of its own (no module in
:mod:`app.export.rulesets`, or one without ``story`` or ``face``): a plain quick-reference
body and unit card face made from the data every ruleset has, so a new engine prints from
its first day and its own parts can come later.

The sheet: the turn sequence, each of ``tables.toml``'s tables (its title, its single
numbers as facts, its rows as a table, its note: every number from the data, labelled by
the data's own keys), the troop types with their missiles and special rules, and the
leaders. The card: the troop type and category, missiles and basing, a
box per figure or base to tick, and the special rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reportlab.platypus.flowables import Flowable

from app.core.roster import Roster, Unit
from app.export.card_draw import Track, track_block
from app.export.card_faces import Face, category, weapons
from app.export.common import Cell, esc, fmt_num, para
from app.export.refsheet import Ctx, leaders_section, turn_section, yes_no
from app.rules.ruleset import Ruleset
from app.rules.schema import TroopBase

#: a table of rows prints as columns up to this many fields, as lines beyond
MAX_COLUMNS = 4
#: the words of a table that are not numbers to print as facts
_WORDS = ("title", "note")

Scalar = str | int | float | bool | None


def _label(key: str) -> str:
    words = key.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def _scalar(value: object) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _show(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return yes_no(value)
    if isinstance(value, int | float):
        return fmt_num(value)
    if isinstance(value, list | tuple) and all(_scalar(v) for v in value):
        return ", ".join(_show(v) for v in value)
    return str(value)


def _shown(value: Any) -> bool:
    """A field the sheet prints: a number, a word, or a list of them."""
    return _scalar(value) or (isinstance(value, list | tuple) and all(_scalar(v) for v in value))


def _rows(value: Any) -> list[tuple[str, Mapping[str, Any]]] | None:
    """A table's rows (a mapping or a list of records), labelled; None when it is not one."""
    if isinstance(value, Mapping) and value and all(isinstance(v, Mapping) for v in value.values()):
        return [(str(v.get("label") or v.get("name") or _label(k)), v) for k, v in value.items()]
    if isinstance(value, list | tuple) and value and all(isinstance(v, Mapping) for v in value):
        return [(str(v.get("label") or v.get("name") or i), v) for i, v in enumerate(value, 1)]
    return None


def _row_table(key: str, rows: Sequence[tuple[str, Mapping[str, Any]]], ctx: Ctx) -> list[Any]:
    columns: list[str] = []
    for _, row in rows:
        columns += [k for k, v in row.items() if k not in ("label", "name", *columns)]
    columns = [c for c in columns if all(_shown(row.get(c)) for _, row in rows)]
    if len(columns) <= MAX_COLUMNS:
        cells: list[list[Cell]] = [[_label(key), *(_label(c) for c in columns)]]
        cells += [[label, *(_show(row.get(c)) for c in columns)] for label, row in rows]
        return [ctx.table(cells, (2.0, *(1.0 for _ in columns)))]
    return [
        para(
            f"<b>{esc(label)}</b>: "
            + esc("; ".join(f"{_label(c).lower()} {_show(row.get(c))}" for c in columns)),
            ctx.st.body,
        )
        for label, row in rows
    ]


def _table_section(key: str, table: Mapping[str, Any], ctx: Ctx) -> list[Flowable]:
    facts = [(_label(k), _show(v)) for k, v in table.items() if k not in _WORDS and _shown(v)]
    parts: list[Any] = [ctx.facts(facts)] if facts else []
    for k, v in table.items():
        rows = _rows(v)
        if rows is not None:
            parts += _row_table(k, rows, ctx)
    note = table.get("note")
    return ctx.section(
        str(table.get("title") or _label(key)), parts, ctx.note(note if note else None)
    )


def tables_story(rs: Ruleset, ctx: Ctx) -> list[Flowable]:
    """Each table of ``tables.toml``, in the data's order; single numbers at the top level
    under "Numbers"."""
    dumped = rs.tables.model_dump(mode="json")
    out: list[Flowable] = []
    loose = [(_label(k), _show(v)) for k, v in dumped.items() if _shown(v)]
    if loose:
        out += ctx.section("Numbers", ctx.facts(loose))
    for key, value in dumped.items():
        if isinstance(value, Mapping):
            out += _table_section(key, value, ctx)
        elif (rows := _rows(value)) is not None:
            out += ctx.section(_label(key), _row_table(key, rows, ctx))
    return out


def _measure(rs: Ruleset) -> str:
    return {"inch": '"', "cm": " cm"}.get(rs.meta.unit_of_measure, " UW")


def troops_story(rs: Ruleset, ctx: Ctx) -> list[Flowable]:
    """The troop types: category and missiles in a table, special rules after it."""
    rows: list[list[Cell]] = [["Troops", "Type", "Missiles"]]
    rows += [[t.name, category(t), weapons(t, _measure(rs))] for t in rs.troops.values()]
    special = [
        para(f"<b>{esc(t.name)}</b>: " + esc("; ".join(t.special_rules)), ctx.st.body)
        for t in rs.troops.values()
        if t.special_rules
    ]
    return ctx.section("Troop types", ctx.table(rows, (0.4, 0.28, 0.32)), special)


def story(rs: Ruleset, ctx: Ctx) -> list[Flowable]:
    return [
        *turn_section(rs, ctx),
        *tables_story(rs, ctx),
        *troops_story(rs, ctx),
        *leaders_section(rs, ctx),
    ]


def face(rs: Ruleset, roster: Roster, unit: Unit, troop: TroopBase, w: float) -> Face:
    b = troop.basing
    basing = f"{fmt_num(b.frontage_mm)} x {fmt_num(b.depth_mm)} mm"
    if b.per == "base" and b.figures_per_base:
        basing += f", {b.figures_per_base} figures a base"
    stats = [
        ("Missiles", weapons(troop, _measure(rs))),
        ("Basing", basing),
    ]
    counted = "figure" if rs.counts_figures else "base"
    track = Track(f"{counted.title()}s (tick one per {counted} lost)", unit.size)
    return Face(
        f"{troop.name} · {category(troop)}",
        stats,
        [track_block(track, w)],
        list(troop.special_rules),
    )
