"""Quick-reference sheets: one or two landscape pages per ruleset, three columns, every table
of the ruleset read from its data, with the turn sequence, leader rules and errata notes.

Each engine has a module ``app.export.rulesets.<engine>`` whose ``story(rs, ctx)`` returns the
body flowables; this module holds what they (and :mod:`app.export.generic_parts`) share: the
levels of detail, the context a story is given, and the common sections.
:mod:`app.export.refsheet_document` builds the document from them: the sheet is built at
decreasing levels of detail (prose shortened first, tables never below 8 pt) until it fits on
:data:`MAX_PAGES` pages. Every decision of the errata is printed in words: when they do not
fit beside the tables, they follow in full on a page of their own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from reportlab.lib.units import mm
from reportlab.platypus import (
    CondPageBreak,
    KeepTogether,
    Table,
)
from reportlab.platypus.flowables import Flowable

from app.export.common import (
    Cell,
    Styles,
    data_table,
    esc,
    para,
    styles,
)
from app.rules.ruleset import Ruleset

MAX_PAGES = 2
#: A one-page sheet is preferred to a two-page one only down to this prose size.
ONE_PAGE_MIN_PT = 7.5
MARGIN = 9 * mm
GUTTER = 4.5 * mm
COLUMNS = 3
SHORT_TABLE_ROWS = 8

Amount = Literal["full", "short", "none"]
#: The errata are read at the table, where the source and Castra disagree: never under 8 pt.
ERRATA_PT = 8.0


@dataclass(frozen=True)
class Detail:
    """How much prose a sheet prints; tables are always complete."""

    body_pt: float
    notes: Amount
    rules: Amount
    #: "page": the errata in full on a page of their own after the tables
    errata: Amount | Literal["page"]
    errata_pt: float


#: Tried in order until the sheet fits.
LEVELS: tuple[Detail, ...] = (
    Detail(7.5, "full", "full", "full", ERRATA_PT),
    Detail(7.5, "full", "full", "short", ERRATA_PT),
    Detail(7.5, "short", "full", "short", ERRATA_PT),
    Detail(7.5, "short", "short", "short", ERRATA_PT),
    Detail(7.0, "short", "short", "short", ERRATA_PT),
    Detail(7.0, "short", "none", "short", ERRATA_PT),
    Detail(7.0, "none", "none", "short", ERRATA_PT),
    Detail(6.8, "none", "none", "short", ERRATA_PT),
    Detail(6.5, "none", "none", "short", ERRATA_PT),
)
#: When no level fits the tables and the errata on :data:`MAX_PAGES` pages, the tables keep
#: the first level that fits them and the errata follow in full on a page of their own.
ERRATA_PAGE: Literal["page"] = "page"


@dataclass(frozen=True)
class Ctx:
    """What a story function needs: the styles, the level of detail, the column width."""

    st: Styles
    detail: Detail
    width: float

    def widths(self, *fractions: float) -> list[float]:
        """Column widths from fractions of the text column (they are scaled to sum to 1)."""
        total = sum(fractions)
        return [self.width * f / total for f in fractions]

    def table(
        self,
        rows: Sequence[Sequence[Cell]],
        fractions: Sequence[float],
        *,
        header_rows: int = 1,
        center_from: int = 1,
        bold_first_col: bool = False,
        tight: bool = False,
    ) -> Flowable:
        """A ruled table; ``tight`` narrows the padding of the centred (number) columns."""
        pad = [
            ("LEFTPADDING", (center_from, 0), (-1, -1), 0.5),
            ("RIGHTPADDING", (center_from, 0), (-1, -1), 0.5),
        ]
        extra = pad if tight else []
        table = data_table(
            rows,
            self.widths(*fractions),
            st=self.st,
            header_rows=header_rows,
            center_from=center_from,
            bold_first_col=bold_first_col,
            extra=extra,
        )
        # a short table moves whole to the next column rather than split
        return KeepTogether([table]) if len(rows) <= SHORT_TABLE_ROWS else table

    def facts(self, pairs: Iterable[tuple[str, str]], split: float = 0.42) -> Flowable:
        """A two-column label/value table for a table's single numbers."""
        rows: list[list[Cell]] = [[label, value] for label, value in pairs]
        table = data_table(
            rows,
            self.widths(split, 1 - split),
            st=self.st,
            header_rows=0,
            center_from=2,
            bold_first_col=True,
        )
        return KeepTogether([table])

    # ----------------------------------------------------------------- prose

    def note(self, text: str | None) -> list[Flowable]:
        """A table's note, at the sheet's level of detail."""
        text = shorten(text, self.detail.notes)
        return [para(esc(text), self.st.note)] if text else []

    def text(self, text: str | None, *, bold: str | None = None) -> list[Flowable]:
        """Rule text that always prints (a table's meaning), optionally with a bold lead."""
        if not text:
            return []
        lead = f"<b>{esc(bold)}</b> " if bold else ""
        return [para(lead + esc(text), self.st.body)]

    def rules(self, items: Iterable[str]) -> list[Flowable]:
        """A table's extra rules as bullets, at the sheet's level of detail."""
        out: list[Flowable] = []
        for item in items:
            text = shorten(item, self.detail.rules)
            if text:
                out.append(para("• " + esc(text), self.st.body))
        return out

    def section(self, title: str, *parts: Flowable | Sequence[Flowable]) -> list[Flowable]:
        """A titled block; the title stays with the paragraphs and the table after it."""
        flat: list[Flowable] = []
        for part in parts:
            if isinstance(part, Flowable):
                flat.append(part)
            else:
                flat.extend(part)
        if not flat:
            return []
        # the title stays with what follows it up to and including the first table
        lead: list[Flowable] = [para(esc(title), self.st.h1)]
        rest = list(flat)
        while rest:
            item = rest.pop(0)
            if isinstance(item, KeepTogether):
                # never nest KeepTogether: it reports a huge height to force a split
                # (its flowables and a table's rows are reportlab attributes its stubs omit)
                lead.extend(item._content)  # type: ignore[attr-defined]
                break
            rows = len(item._cellvalues) if isinstance(item, Table) else 0  # type: ignore[attr-defined]
            if rows > SHORT_TABLE_ROWS:
                # a long table may split (its header repeats): keep a few rows with the title
                return [CondPageBreak(22 * mm), *lead, item, *rest]
            lead.append(item)
            if isinstance(item, Table) or len(lead) >= 3:
                break
        return [CondPageBreak(12 * mm), KeepTogether(lead), *rest]

    def brief(self, text: str) -> str:
        """Prose inside a table cell, shortened like notes at low levels of detail."""
        return shorten(text, "full" if self.detail.notes == "full" else "short")


_SENTENCE_END = re.compile(r"(?<=[a-z0-9)\"'%][.!?])\s+(?=[A-Z(\"'])")


def first_sentence(text: str) -> str:
    parts = _SENTENCE_END.split(text.strip(), maxsplit=1)
    return parts[0]


def shorten(text: str | None, amount: Amount) -> str:
    if not text or amount == "none":
        return ""
    text = " ".join(text.split())
    return text if amount == "full" else first_sentence(text)


def grid_rows(items: Sequence[str], columns: int) -> list[list[Cell]]:
    """``items`` laid out row by row in a grid of ``columns`` cells (blank-padded)."""
    rows: list[list[Cell]] = []
    for i in range(0, len(items), columns):
        row: list[Cell] = list(items[i : i + columns])
        row += [""] * (columns - len(row))
        rows.append(row)
    return rows


def yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def faces(values: Iterable[int]) -> str:
    """[5, 6] -> "5-6"; [1, 2, 3] -> "1-3"; [6] -> "6"; [] -> "-"."""
    vals = sorted(values)
    if not vals:
        return "-"
    if vals == list(range(vals[0], vals[-1] + 1)) and len(vals) > 1:
        return f"{vals[0]}-{vals[-1]}"
    return ", ".join(str(v) for v in vals)


def band(low: int | None, high: int | None) -> str:
    """A die band or difference band: 3..4 -> "3-4", ..2 -> "2 or less", 5.. -> "5+"."""
    if low is None and high is None:
        return "any"
    if low is None:
        return f"{high} or less"
    if high is None:
        return f"{low}+" if low >= 0 else f"{low} or more"
    if low == high:
        return f"{low:+d}" if low < 0 else str(low)
    if high < 0:
        return f"{low} to {high}"
    return f"{low}-{high}"


# --------------------------------------------------------------------------- common sections


def turn_section(rs: Ruleset, ctx: Ctx) -> list[Flowable]:
    steps = [
        para(f"<b>{i}. {esc(phase.name)}</b>: {esc(phase.summary)}", ctx.st.body)
        for i, phase in enumerate(rs.turn.phases, start=1)
    ]
    return ctx.section("Turn sequence", ctx.note(rs.turn.summary), steps)


def leaders_section(
    rs: Ruleset, ctx: Ctx, *, wounds: bool = True, risk: bool = True
) -> list[Flowable]:
    """The ruleset's leader rules; ``wounds``/``risk`` False when the engine prints its own
    table of wound effects or risks."""
    ld = rs.leaders
    parts: list[Flowable] = [*ctx.text(ctx.brief(ld.summary))]
    if risk and ld.risk:
        parts += ctx.text(ld.risk, bold="Risk:")
    if wounds and ld.wound_effects:
        rows: list[list[Cell]] = [["Wounds", "Effect"]]
        rows += [[str(w.wounds), w.effect] for w in ld.wound_effects]
        parts.append(ctx.table(rows, (0.19, 0.81), center_from=0))
    return ctx.section("Leaders", parts)


_PLAY_PREFIXES = ("tables", "turn", "leaders", "troops")
_NOT_PLAY_FIELDS = ("basing", "abbreviation", "name", "description")


def plays_at_table(applies_to: Sequence[str]) -> bool:
    """Whether an erratum changes play (tables, turn, leaders, a troop's numbers) rather than
    only army building or naming (army lists, basing, spellings): the sheet prints the first
    kind in words and counts the second."""
    if not applies_to:
        return True
    for path in applies_to:
        parts = path.split(".")
        if parts[0] not in _PLAY_PREFIXES:
            continue
        if parts[0] == "troops" and (len(parts) < 3 or parts[2] in _NOT_PLAY_FIELDS):
            continue
        return True
    return False


#: what an erratum that only sets Castra's own call as a player applies to (``[umpire]``: the
#: result it declares where it plays a side, issue 30)
_CASTRA_ONLY = "tables.umpire"


def castra_only(applies_to: Sequence[str]) -> bool:
    """Whether an erratum only sets what Castra does when it plays a side (its default for
    the umpire's call): no rule the players use at the table."""
    return bool(applies_to) and all(
        p == _CASTRA_ONLY or p.startswith(_CASTRA_ONLY + ".") for p in applies_to
    )


def errata_section(rs: Ruleset, ctx: Ctx) -> list[Flowable]:
    """Errata and interpretation notes: what Castra decided where the source is garbled,
    inconsistent or silent (every such decision is shown to the players).
    Decisions that only concern army building are listed by topic; those that only set
    Castra's own call where it plays a side are named in a line (the app shows them)."""
    if not rs.errata:
        return []
    amount = ctx.detail.errata
    small = styles(ctx.detail.errata_pt).body
    out: list[Flowable] = []
    building: list[str] = []
    castra: list[str] = []
    for e in rs.errata:
        if castra_only(e.applies_to):
            castra.append(e.topic)
            continue
        if not plays_at_table(e.applies_to):
            building.append(e.topic)
            continue
        decision = shorten(e.decision, "short" if amount == "short" else "full")
        kind = {"errata": "erratum", "interpretation": "reading", "gap": "gap"}[e.kind]
        out.append(para(f"<b>{esc(e.topic)}</b> <i>({kind})</i>: {esc(decision)}", small))
    intro = (
        "Where the source is garbled, inconsistent or silent, Castra's data decides as below; "
        "each decision can be changed in a copied ruleset folder."
    )
    if building and amount in ("full", ERRATA_PAGE):
        out.append(
            para(
                f"<b>Army lists, basing and names</b>: {esc('; '.join(building))}; the roster "
                "editor and its validation apply these.",
                small,
            )
        )
    elif building:
        intro += (
            f" {len(building)} more concern only army lists, basing and names; the roster "
            "editor applies them."
        )
    if castra:
        intro += " Castra's own call as a player is in the app."
    return ctx.section("Errata and interpretations", [para(esc(intro), ctx.st.note), *out])


def title_block(rs: Ruleset, ctx: Ctx) -> list[Flowable]:
    meta = rs.meta
    facts = [f"Source: {rs.credit}."]
    facts.append(f"Figures: {meta.figure_scale}.")
    if meta.unit_of_measure_note:
        note = meta.unit_of_measure_note.rstrip(".")
        facts.append(note[:1].upper() + note[1:] + ".")
    if meta.game_length:
        facts.append(f"Game length: {meta.game_length}.")
    if meta.table_size:
        facts.append(f"Table: {meta.table_size}.")
    return [
        para(f"{esc(meta.name)} <font size=9 color='#5A5A5A'>quick reference</font>", ctx.st.title),
        para(" ".join(esc(f) for f in facts), ctx.st.note),
    ]


#: the body of a sheet: an engine's ``story``, or the generic one
Story = Callable[[Ruleset, Ctx], list[Flowable]]
