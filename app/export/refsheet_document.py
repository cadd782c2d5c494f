"""The quick-reference sheet as a PDF document: the engine's own body (its printed parts in
:mod:`app.export.rulesets`) or, for an engine without one, the generic body of
:mod:`app.export.generic_parts`, under the title block and before the errata, fitted to
:data:`~app.export.refsheet.MAX_PAGES` landscape pages at the first level of detail that fits
(:mod:`app.export.refsheet` holds the parts every body shares)."""

from __future__ import annotations

import io
from dataclasses import replace

from reportlab.lib.units import mm
from reportlab.platypus import FrameBreak, NextPageTemplate, PageBreak, Spacer
from reportlab.platypus.doctemplate import PageTemplate
from reportlab.platypus.flowables import Flowable
from reportlab.platypus.frames import Frame

from app.export import generic_parts
from app.export.common import (
    Target,
    Written,
    build,
    new_doc,
    page_dimensions,
    running_header,
    styles,
    write_bytes,
)
from app.export.refsheet import (
    COLUMNS,
    ERRATA_PAGE,
    GUTTER,
    LEVELS,
    MARGIN,
    MAX_PAGES,
    ONE_PAGE_MIN_PT,
    Ctx,
    Detail,
    Story,
    errata_section,
    title_block,
)
from app.export.rulesets import module_for
from app.rules.engine import Engine
from app.rules.ruleset import Ruleset


def _engine_story(engine: Engine) -> Story:
    """The engine's own sheet body, or the generic one made from its data."""
    story: Story | None = getattr(module_for(engine), "story", None)
    if story is None:
        story = generic_parts.story
    return story


def _templates(
    pagesize: tuple[float, float], title: str, credit: str, title_height: float
) -> list[PageTemplate]:
    """Page 1: a full-width title frame of ``title_height`` over three columns; later pages:
    three columns."""
    width, height = pagesize
    col_w = (width - 2 * MARGIN - (COLUMNS - 1) * GUTTER) / COLUMNS
    body_h = height - 2 * MARGIN

    def columns(top: float, prefix: str) -> list[Frame]:
        return [
            Frame(
                MARGIN + i * (col_w + GUTTER),
                MARGIN,
                col_w,
                top,
                leftPadding=0,
                rightPadding=0,
                topPadding=0,
                bottomPadding=0,
                id=f"{prefix}{i}",
            )
            for i in range(COLUMNS)
        ]

    title_frame = Frame(
        MARGIN,
        height - MARGIN - title_height,
        width - 2 * MARGIN,
        title_height,
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
        id="title",
    )
    hook = running_header(title, credit, margin=MARGIN)
    return [
        PageTemplate(
            "first",
            [title_frame, *columns(body_h - title_height - 1.5 * mm, "f")],
            onPage=hook,
        ),
        PageTemplate("cols", columns(body_h, "c"), onPage=hook),
    ]


def column_width(pagesize: tuple[float, float]) -> float:
    width, _ = pagesize
    return float(width - 2 * MARGIN - (COLUMNS - 1) * GUTTER) / COLUMNS


def _story(rs: Ruleset, ctx: Ctx, title: list[Flowable]) -> list[Flowable]:
    body = _engine_story(rs.engine)(rs, ctx)
    if ctx.detail.errata == ERRATA_PAGE:
        gap: list[Flowable] = [NextPageTemplate("cols"), PageBreak()]
    else:
        gap = [Spacer(1, 2 * mm)]
    return [
        NextPageTemplate("cols"),
        *title,
        FrameBreak(),
        *body,
        *gap,
        *errata_section(rs, ctx),
    ]


def _render(
    rs: Ruleset, pagesize: tuple[float, float], detail: Detail, invariant: bool
) -> tuple[bytes, int]:
    """The PDF bytes of the sheet at one level of detail, and its page count."""
    ctx = Ctx(styles(detail.body_pt), detail, column_width(pagesize))
    title = f"{rs.meta.short_name}: quick reference"
    buf = io.BytesIO()
    doc = new_doc(
        buf,
        pagesize,
        title=title,
        subject=f"Quick-reference sheet for {rs.meta.name}",
        author=rs.credit,
        invariant=invariant,
        margin=MARGIN,
    )
    head = title_block(rs, ctx)
    full_width = pagesize[0] - 2 * MARGIN
    head_h = sum(f.wrap(full_width, pagesize[1])[1] + f.getSpaceAfter() for f in head)
    doc.addPageTemplates(_templates(pagesize, title, rs.credit, head_h + 1 * mm))
    pages = build(doc, _story(rs, ctx, head))
    return buf.getvalue(), pages


def render_refsheet(
    rs: Ruleset, *, page_size: str = "a4", invariant: bool = False
) -> tuple[bytes, int, int]:
    """(PDF bytes, pages, level of detail used). A single page is preferred while the prose
    can stay at :data:`ONE_PAGE_MIN_PT`; otherwise the first level of :data:`LEVELS` that
    fits on :data:`MAX_PAGES` pages. When none does, every decision is still printed in full
    (each decision is shown to the players): the tables take the first level that
    fits them on :data:`MAX_PAGES` pages and the errata a page of their own after them."""
    pagesize = page_dimensions(page_size, landscape_=True)
    best: tuple[bytes, int, int] | None = None
    data, pages = b"", 0
    for level, detail in enumerate(LEVELS):
        if best is not None and detail.body_pt < ONE_PAGE_MIN_PT:
            break
        data, pages = _render(rs, pagesize, detail, invariant)
        if pages == 1:
            return data, pages, level
        if pages <= MAX_PAGES and best is None:
            best = (data, pages, level)
    if best is not None:
        return best
    for level, detail in enumerate(LEVELS):
        data, pages = _render(rs, pagesize, replace(detail, errata=ERRATA_PAGE), invariant)
        if pages <= MAX_PAGES + 1:
            return data, pages, level
    return data, pages, len(LEVELS) - 1


def write_refsheet(
    rs: Ruleset, target: Target, *, page_size: str = "a4", invariant: bool = False
) -> Written:
    """Write the quick-reference sheet of ``rs`` to ``target`` (a path or a binary file):
    landscape A4 or Letter, one or two pages of every table of the ruleset, and a page of
    errata when every decision in full does not fit beside them."""
    data, pages, _ = render_refsheet(rs, page_size=page_size, invariant=invariant)
    write_bytes(target, data)
    return Written(target, pages)
