"""The campaign chronicle PDF: the timeline of battles (result, losses and leaders' fates in
words, with notes from the battle logs), the strength of each side over the campaign (men,
then by troop type) drawn with reportlab's own charts (``reportlab.graphics.charts``: axes,
grid and legend are the library's), and a one-page leader status sheet for the table. Every
page names the source ruleset and its author."""

from __future__ import annotations

import io

from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, String
from reportlab.graphics.widgets.markers import makeMarker
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Frame, KeepTogether, PageBreak, PageTemplate, Spacer

from app.core.campaign.aftermath import recovery_of
from app.core.campaign.chronicle import (
    Strength,
    leader_sheet,
    named_points,
    strength,
    timeline,
)
from app.core.campaign.session import CampaignSession
from app.export.common import (
    ACCENT,
    STYLE_FONTS,
    Styles,
    data_table,
    esc,
    new_doc,
    page_dimensions,
    para,
    running_header,
    styles,
)
from app.export.fonts import COND, COND_BOLD
from app.rules.ruleset import Ruleset

MARGIN = 14 * mm
#: one colour a side, then the troop types (a qualitative palette that prints in grey too)
PALETTE = [
    colors.HexColor(c)
    for c in (
        "#8B1E1E",
        "#1F4E79",
        "#C77C0E",
        "#2E7D32",
        "#6A1B9A",
        "#00838F",
        "#AD1457",
        "#5D4037",
        "#558B2F",
        "#283593",
        "#EF6C00",
        "#37474F",
    )
]


def _drawing(width: float, height: float) -> Drawing:
    """A drawing whose text is in the bundled (embedded) font, not reportlab's Helvetica."""
    d = Drawing(width, height)
    d.initialFontName = COND  # type: ignore[attr-defined]  # the renderer's starting state (else Helvetica, not embedded)
    return d


def _side_colour(st: Strength, i: int) -> colors.Color:
    """Side ``i``'s colour: its army's, as the battle map draws it, else the palette's."""
    own = st.colours[i] if i < len(st.colours) else None
    return colors.HexColor(own) if own is not None else PALETTE[i % len(PALETTE)]


def _line_chart(st: Strength, width: float) -> Drawing:
    """Men per side after each battle: a reportlab LinePlot with its own axes and legend."""
    height = 62 * mm
    d = _drawing(width, height)
    lp = LinePlot()
    lp.x, lp.y = 40, 30
    lp.width, lp.height = int(width - 170), int(height - 50)
    lp.data = [[(i, v) for i, v in enumerate(values)] for _, values in st.sides]
    for i in range(len(st.sides)):
        lp.lines[i].strokeColor = _side_colour(st, i)
        lp.lines[i].strokeWidth = 1.6
        lp.lines[i].symbol = makeMarker("FilledCircle", size=4)  # type: ignore[no-untyped-call]
    n = len(st.labels)
    lp.xValueAxis.valueMin = -0.2
    lp.xValueAxis.valueMax = max(n - 1, 1) + 0.2
    lp.xValueAxis.valueSteps = list(range(n))
    named = set(named_points(n))  # fifty battles' names ran into one another
    lp.xValueAxis.labelTextFormat = lambda v: st.labels[round(v)] if round(v) in named else ""
    lp.xValueAxis.labels.fontName = COND
    lp.xValueAxis.labels.fontSize = 7
    lp.yValueAxis.valueMin = 0
    lp.yValueAxis.rangeRound = "ceiling"
    lp.yValueAxis.labels.fontName = COND
    lp.yValueAxis.labels.fontSize = 7
    lp.yValueAxis.labelTextFormat = "{:,.0f}".format
    lp.yValueAxis.visibleGrid = True
    lp.yValueAxis.gridStrokeColor = colors.HexColor("#DDDDDD")
    d.add(lp)
    legend = Legend()
    legend.x, legend.y = int(width - 120), int(height - 20)
    legend.fontName, legend.fontSize = COND, 8
    legend.alignment = "right"
    legend.columnMaximum = len(st.sides)
    legend.colorNamePairs = [
        (_side_colour(st, i), f"{name} ({values[-1]:,} {st.unit})")
        for i, (name, values) in enumerate(st.sides)
    ]
    d.add(legend)
    d.add(
        String(
            0,
            height - 8,
            f"Strength ({st.unit}) after each battle",
            fontName=COND_BOLD,
            fontSize=8,
            fillColor=ACCENT,
        )
    )
    return d


def _short(text: str, high: int) -> str:
    return text if len(text) <= high else text[: high - 1] + "\u2026"


def _troop_chart(
    side: str, per: dict[str, tuple[int, ...]], labels: tuple[str, ...], unit: str, width: float
) -> Drawing:
    """One side's strength by troop type, a bar group per point of the campaign."""
    names = sorted(per, key=lambda k: -per[k][0])[:12]
    height = 70 * mm
    d = _drawing(width, height)
    bc = VerticalBarChart()
    bc.x, bc.y = 40, 22
    bc.width, bc.height = int(width - 230), int(height - 40)
    bc.data = [list(per[n]) for n in names]
    named = set(named_points(len(labels)))
    bc.categoryAxis.categoryNames = [t if i in named else "" for i, t in enumerate(labels)]
    bc.categoryAxis.labels.fontName = COND
    bc.categoryAxis.labels.fontSize = 7
    bc.valueAxis.valueMin = 0
    bc.valueAxis.rangeRound = "ceiling"  # the tallest bar under a labelled tick, not at the frame
    bc.valueAxis.labels.fontName = COND
    bc.valueAxis.labels.fontSize = 7
    bc.valueAxis.labelTextFormat = "{:,.0f}".format
    bc.valueAxis.visibleGrid = True
    bc.valueAxis.gridStrokeColor = colors.HexColor("#DDDDDD")
    bc.groupSpacing = 6
    for i in range(len(names)):
        bc.bars[i].fillColor = PALETTE[i % len(PALETTE)]
        bc.bars[i].strokeColor = None
    d.add(bc)
    legend = Legend()
    legend.x, legend.y = int(width - 175), int(height - 14)
    legend.fontName, legend.fontSize = COND, 7
    legend.alignment = "right"
    legend.deltay = 9
    legend.columnMaximum = len(names)
    legend.colorNamePairs = [
        (PALETTE[i % len(PALETTE)], _short(n, 38)) for i, n in enumerate(names)
    ]
    d.add(legend)
    d.add(
        String(
            0,
            height - 8,
            f"{side}: {unit} by troop type",
            fontName=COND_BOLD,
            fontSize=8,
            fillColor=ACCENT,
        )
    )
    return d


def _timeline(rs: Ruleset, session: CampaignSession, st: Styles) -> list[Flowable]:
    out: list[Flowable] = [para("Battles", st.h1)]
    for e in timeline(rs, session.campaign):
        b = e.battle
        where = ", ".join(x for x in (b.date, b.place) if x)
        head = f"{esc(b.name)}" + (f" <font color='#5A5A5A'>({esc(where)})</font>" if where else "")
        block: list[Flowable] = [para(head, st.h2)]
        if not e.words:
            block.append(para(f"Not fought yet ({esc(e.state)}).", st.note))
        for w in e.words:
            block.append(para(esc(w), st.body))
        for w in e.history:
            block.append(para(esc(w), st.note))
        if e.notes:
            block.append(para("From the battle's log:", st.note))
            block += [para("- " + esc(n), st.note) for n in e.notes[:12]]
        out.append(KeepTogether(block))
    return out


def _leaders(session: CampaignSession, st: Styles, width: float) -> list[Flowable]:
    rows = leader_sheet(session.ruleset, session.campaign)
    history = any(r.history for r in rows)
    head = ["Side", "Leader", "Rank", "Status", "Wounds", "Battles"]
    widths = [0.12, 0.26, 0.11, 0.16, 0.08, 0.08]
    if history:
        head.append("In history")
        widths.append(0.19)
    else:
        widths[1] += 0.19
    table = [head] + [
        [r.side, r.name, r.rank, r.status, str(r.wounds), str(r.battles)]
        + ([r.history or "-"] if history else [])
        for r in rows
    ]
    return [
        para("Leaders", st.h1),
        para(
            "Every leader of the campaign, his status and wounds now, and the battles he "
            "fought" + (", beside what became of him in history." if history else "."),
            st.note,
        ),
        data_table(table, [w * width for w in widths], st=st, center_from=2),
    ]


def chronicle_pdf(rs: Ruleset, session: CampaignSession, *, invariant: bool = False) -> bytes:
    """The chronicle as PDF bytes."""
    pagesize = page_dimensions("a4")
    width = pagesize[0] - 2 * MARGIN
    # the chronicle's mark-up has no <b> or <i>: it prints with the styles' three fonts and
    # registers no other (each costs about 10 ms of CPU a process)
    st = styles(8.5, fonts=STYLE_FONTS)
    c = session.campaign
    title = f"{c.name}: chronicle"
    buf = io.BytesIO()
    doc = new_doc(
        buf,
        pagesize,
        title=title,
        subject=f"Campaign for {rs.meta.name}",
        author=rs.credit,
        invariant=invariant,
        margin=MARGIN,
        fonts=STYLE_FONTS,
    )
    frame = Frame(
        MARGIN,
        MARGIN,
        width,
        pagesize[1] - 2 * MARGIN,
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
    )
    doc.addPageTemplates(
        [PageTemplate("c", [frame], onPage=running_header(title, rs.credit, margin=MARGIN))]
    )
    sides = ", ".join(s.name for s in c.sides)
    applied = sum(1 for b in c.battles if b.applied)
    rule = recovery_of(rs, c.recovery)
    if c.recovery == "ruleset":
        rule += " (the ruleset's default)"
    story: list[Flowable] = [
        para(esc(c.name), st.title),
        para(
            f"{esc(rs.meta.short_name)} campaign: {esc(sides)}. {applied} of {len(c.battles)} "
            f"battles fought and applied; losses recovered between battles: {esc(rule)}.",
            st.body,
        ),
    ]
    strength_now = strength(rs, session)
    story += _timeline(rs, session, st)
    story += [Spacer(1, 3 * mm), _line_chart(strength_now, width)]
    for side, per in strength_now.troops:
        if per:
            story.append(_troop_chart(side, per, strength_now.labels, strength_now.unit, width))
    story += [PageBreak(), *_leaders(session, st, width)]
    doc.build(story)
    return buf.getvalue()
