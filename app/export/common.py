"""What every printed document shares: page sizes, margins, colours, paragraph styles, the
running header and footer that name the ruleset, its author and Castra, table helpers, and
the build step (with reportlab's invariant mode for byte-stable PDFs).

Documents follow reportlab's platypus layering: a ``BaseDocTemplate`` holding
``PageTemplate``s whose ``Frame``s are filled with flowables; headers and footers are drawn
in the templates' ``onPage`` hooks.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, BinaryIO, Literal, TypeAlias

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Paragraph, Table, TableStyle

from app.export.fonts import ALL_FONTS, COND, COND_BOLD, SANS_BOLD, register_fonts
from app.rules.inputs import refuse_store_target

PageSizeName = Literal["a4", "letter"]
PAGE_SIZES: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
Target = str | Path | BinaryIO

#: Smallest type on any table of a sheet (quality bar: readable at arm's length).
MIN_TABLE_PT = 8.0

# Colours: dark ink on white, one Roman red for accents; all readable in greyscale.
INK = colors.HexColor("#1E1E1E")
MUTED = colors.HexColor("#5A5A5A")
ACCENT = colors.HexColor("#8B1E1E")
RULE = colors.HexColor("#9A9A9A")
HEAD_FILL = colors.HexColor("#E9E1D1")
ZEBRA = colors.HexColor("#F6F2EA")
CUT = colors.HexColor("#000000")
GUIDE = colors.HexColor("#C8C8C8")
WARN_50 = colors.HexColor("#F2C14E")
WARN_33 = colors.HexColor("#E07A3F")
WARN_25 = colors.HexColor("#B22222")


def page_dimensions(name: str, *, landscape_: bool = False) -> tuple[float, float]:
    """The page size for ``name`` ("a4" or "letter"), in points."""
    try:
        size = PAGE_SIZES[name.lower()]
    except KeyError:
        raise ValueError(f"unknown page size {name!r} (use a4 or letter)") from None
    return landscape(size) if landscape_ else size


def author_of(meta_author: str | None, author_note: str | None) -> str:
    """The author for a short credit line: the name, else the first clause of the note."""
    if meta_author:
        return meta_author
    if author_note:
        return re.split(r"[;(]", author_note, maxsplit=1)[0].strip()
    return "author unknown"


def esc(text: object) -> str:
    """Text from the data, escaped for reportlab's paragraph mark-up: ``&``, ``<`` and ``>``
    (``&`` first), as ``xml.sax.saxutils.escape`` does; that module would import
    ``urllib.request`` and with it ``http.client``, ``ssl`` and ``email``, some 8 ms of
    every printing process."""
    return str(text).replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def fmt_int(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def fmt_num(value: float | None) -> str:
    """1.0 -> "1", 12.5 -> "12.5", None -> "-"."""
    if value is None:
        return "-"
    return f"{value:g}"


# --------------------------------------------------------------------------- styles


@dataclass(frozen=True)
class Styles:
    title: ParagraphStyle
    h1: ParagraphStyle
    h2: ParagraphStyle
    body: ParagraphStyle
    note: ParagraphStyle
    cell: ParagraphStyle
    cell_bold: ParagraphStyle
    cell_head: ParagraphStyle
    cell_center: ParagraphStyle


#: the fonts of :func:`styles`, :func:`data_table` and :func:`running_header`: all a document
#: prints with when its text has no ``<i>`` and no ``<b>`` outside the bold styles
STYLE_FONTS: tuple[str, ...] = (SANS_BOLD, COND, COND_BOLD)


@cache
def styles(
    body_pt: float = 7.5, table_pt: float = MIN_TABLE_PT, *, fonts: tuple[str, ...] = ALL_FONTS
) -> Styles:
    """Paragraph styles for a body size and a table size (tables never below 8 pt), with
    ``fonts`` registered: every bundled font, or those a document prints with (the styles'
    :data:`STYLE_FONTS`, and the bold and italic its ``<b>`` and ``<i>`` mark-up reaches)."""
    register_fonts(fonts)
    table_pt = max(table_pt, MIN_TABLE_PT)

    def style(name: str, font: str, size: float, **kw: Any) -> ParagraphStyle:
        kw.setdefault("leading", round(size * 1.15, 2))
        kw.setdefault("textColor", INK)
        return ParagraphStyle(name, fontName=font, fontSize=size, **kw)

    return Styles(
        title=style("title", SANS_BOLD, 14, textColor=ACCENT, spaceAfter=2),
        h1=style("h1", SANS_BOLD, 9, textColor=ACCENT, spaceBefore=3.5, spaceAfter=1.2),
        h2=style("h2", COND_BOLD, 8.5, spaceBefore=2, spaceAfter=1),
        body=style("body", COND, body_pt, leading=body_pt * 1.12, spaceAfter=1.1),
        note=style("note", COND, body_pt, leading=body_pt * 1.12, textColor=MUTED, spaceAfter=1.1),
        cell=style("cell", COND, table_pt, leading=table_pt * 1.1),
        cell_bold=style("cellb", COND_BOLD, table_pt, leading=table_pt * 1.1),
        cell_head=style("cellh", COND_BOLD, table_pt, leading=table_pt * 1.1),
        cell_center=style("cellc", COND, table_pt, leading=table_pt * 1.1, alignment=TA_CENTER),
    )


def para(text: str, style: ParagraphStyle) -> Paragraph:
    """A paragraph of already-escaped mark-up."""
    return Paragraph(text, style)


# --------------------------------------------------------------------------- tables

Cell: TypeAlias = str | Flowable
#: A table cell longer than this is prose: its column is set flush left, not centred.
PROSE_CHARS = 28


def data_table(
    rows: Sequence[Sequence[Cell]],
    widths: Sequence[float],
    *,
    st: Styles,
    header_rows: int = 1,
    center_from: int = 1,
    bold_first_col: bool = False,
    left: Sequence[int] = (),
    extra: Sequence[tuple[Any, ...]] = (),
) -> Table:
    """A ruled table. Plain strings are escaped and wrapped in cell paragraphs, centred from
    column ``center_from`` on except the ``left`` columns and any column holding prose (a
    cell longer than :data:`PROSE_CHARS`); flowables pass through. The header row repeats on
    split."""
    prose = {
        c
        for row in rows[header_rows:]
        for c, value in enumerate(row)
        if isinstance(value, str) and len(value) > PROSE_CHARS
    }
    flush_left = {*left, *prose}
    cells: list[list[Cell]] = []
    for r, row in enumerate(rows):
        out_row: list[Cell] = []
        for c, value in enumerate(row):
            if not isinstance(value, str):
                out_row.append(value)
                continue
            if r < header_rows:
                style = st.cell_head
            elif c == 0 and bold_first_col:
                style = st.cell_bold
            else:
                style = st.cell_center if c >= center_from and c not in flush_left else st.cell
            if r < header_rows and c >= center_from and c not in flush_left:
                style = ParagraphStyle("hc", parent=st.cell_head, alignment=TA_CENTER)
            out_row.append(Paragraph(esc(value), style))
        cells.append(out_row)
    table = Table(cells, colWidths=list(widths), repeatRows=header_rows, hAlign="LEFT")
    commands: list[tuple[Any, ...]] = [
        # the table's own font (reportlab defaults to Helvetica, which is not embedded)
        ("FONT", (0, 0), (-1, -1), COND, MIN_TABLE_PT),
        ("GRID", (0, 0), (-1, -1), 0.4, RULE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2),
        ("TOPPADDING", (0, 0), (-1, -1), 0.2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.1),
    ]
    if header_rows:
        commands.append(("BACKGROUND", (0, 0), (-1, header_rows - 1), HEAD_FILL))
    if len(rows) > header_rows + 2:
        commands.append(("ROWBACKGROUNDS", (0, header_rows), (-1, -1), [None, ZEBRA]))
    commands.extend(extra)
    table.setStyle(TableStyle(commands))
    return table


# --------------------------------------------------------------------------- documents


@dataclass(frozen=True)
class Written:
    """What a document writer produced: where, and how many pages."""

    target: Target
    pages: int


PageHook = Callable[[Canvas, BaseDocTemplate], None]


def running_header(title: str, credit: str, *, margin: float) -> PageHook:
    """Header (document title) and footer (source ruleset and author, Castra, page number)
    drawn on every page: every printed sheet names the ruleset it summarises."""

    def draw(canvas: Canvas, doc: BaseDocTemplate) -> None:
        width, height = doc.pagesize
        canvas.saveState()
        canvas.setFont(SANS_BOLD, 8)
        canvas.setFillColor(ACCENT)
        canvas.drawString(margin, height - margin + 3 * mm, title)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.5)
        canvas.line(margin, height - margin + 2 * mm, width - margin, height - margin + 2 * mm)
        canvas.setFont(COND, 6.5)
        canvas.setFillColor(MUTED)
        footer = f"Printed by Castra, summarised in its own words. Source: {credit}."
        # Wrapped, never cut: a long source line takes a second line above the first.
        lines = simpleSplit(footer, COND, 6.5, width - 2 * margin - 40)[:3]
        base = margin - 4.5 * mm
        for i, line in enumerate(lines):
            canvas.drawString(margin, base + (len(lines) - 1 - i) * 7.5, line)
        canvas.drawRightString(width - margin, base, f"page {doc.page}")
        canvas.restoreState()

    return draw


def fit_text(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut with an ellipsis so that it fits ``width`` points."""
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def new_doc(
    target: Target | io.BytesIO,
    pagesize: tuple[float, float],
    *,
    title: str,
    subject: str,
    author: str,
    invariant: bool,
    margin: float = 12 * mm,
    fonts: tuple[str, ...] = ALL_FONTS,
) -> BaseDocTemplate:
    """A document with Castra's metadata; page templates are added by the caller.
    ``invariant`` switches on reportlab's invariant mode (fixed dates and ids), so the same
    input gives byte-identical PDFs. ``fonts``: as :func:`styles`."""
    register_fonts(fonts)
    dest: Any = str(target) if isinstance(target, Path) else target
    return BaseDocTemplate(
        dest,
        pagesize=pagesize,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
        title=title,
        subject=subject,
        author=author,
        creator="Castra",
        producer="Castra (reportlab)",
        invariant=1 if invariant else 0,
        initialFontName=COND,
        initialFontSize=8,
        pageCompression=1,
    )


def write_bytes(target: Target, data: bytes) -> None:
    """Write a finished PDF to a path (atomically: a partial file never replaces a good one)
    or to an open binary file."""
    if isinstance(target, str | Path):
        path = Path(target)
        refuse_store_target(path)
        tmp = path.with_name(path.name + ".part")
        tmp.write_bytes(data)
        tmp.replace(path)
    else:
        target.write(data)


def build(doc: BaseDocTemplate, story: list[Flowable]) -> int:
    """Build ``story`` into ``doc``; the number of pages written."""
    doc.build(story)
    return int(doc.page)
