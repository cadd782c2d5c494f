"""The battle report: the map as it stands, the result (each side's losses, the leaders'
fates, the winner) and the log of every step with every roll, on A4 or Letter. The footer
names the ruleset and its author, as every sheet Castra prints does."""

from __future__ import annotations

import io
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.platypus import Image, Spacer
from reportlab.platypus.doctemplate import PageTemplate
from reportlab.platypus.flowables import Flowable
from reportlab.platypus.frames import Frame

from app.core.battle.session import BattleSession
from app.core.battle.summary import BattleSummary
from app.export.common import (
    Cell,
    Styles,
    Target,
    Written,
    build,
    data_table,
    esc,
    new_doc,
    page_dimensions,
    para,
    running_header,
    styles,
    write_bytes,
)

MARGIN = 14 * mm
#: the map image's largest height on the first page
MAP_HEIGHT = 110 * mm


def _result(result: BattleSummary, st: Styles, width: float) -> list[Flowable]:
    rows: list[list[str]] = [
        ["side", "units out", f"{result.strength_unit} lost", "hits / rings / DPs standing"]
    ]
    for s in result.sides:
        rows.append(
            [
                s.name,
                f"{s.units_out} of {s.units}",
                f"{s.strength_lost} of {s.strength_start}",
                f"{s.hits} / {s.rings} / {s.dps}",
            ]
        )
    out: list[Flowable] = [
        para(esc(result.headline), st.h1),
        data_table(rows, [width * 0.34, width * 0.18, width * 0.2, width * 0.28], st=st),
    ]
    if result.leaders:
        leader_rows = [["leader", "side", "rank", "fate", "wounds"]]
        for ld in result.leaders:
            leader_rows.append(
                [ld.name, result.sides[ld.side].name, ld.rank, ld.status, str(ld.wounds)]
            )
        out += [
            Spacer(1, 2 * mm),
            para("Leaders", st.h1),
            data_table(
                leader_rows,
                [width * 0.3, width * 0.25, width * 0.15, width * 0.15, width * 0.15],
                st=st,
            ),
        ]
    return out


def _map(image: Path | None, width: float, st: Styles) -> list[Flowable]:
    if image is None:
        return [para("(no map image)", st.note)]
    from reportlab.lib.utils import ImageReader

    w, h = ImageReader(str(image)).getSize()
    scale = min(width / w, MAP_HEIGHT / h)
    return [Image(str(image), width=w * scale, height=h * scale), Spacer(1, 2 * mm)]


def _log(session: BattleSession, st: Styles, width: float) -> list[Flowable]:
    rows: list[list[Cell]] = [["step", "turn", "what happened", "dice"]]
    for e in session.log():
        dice = para("<br/>".join(esc(r) for r in e.rolls) or "-", st.cell)
        rows.append([str(e.step), str(e.turn), " ".join(e.lines), dice])
    return [
        para(f"Log: {len(rows) - 1} steps", st.h1),
        data_table(rows, [width * 0.06, width * 0.06, width * 0.56, width * 0.32], st=st),
    ]


def render_battle_report(
    session: BattleSession,
    result: BattleSummary,
    image: Path | None,
    *,
    page_size: str = "a4",
    invariant: bool = False,
) -> tuple[bytes, int]:
    rs = session.ruleset
    pagesize = page_dimensions(page_size)
    st = styles(8.0)
    width = pagesize[0] - 2 * MARGIN
    buf = io.BytesIO()
    title = f"{session.name}: battle report"
    doc = new_doc(
        buf,
        pagesize,
        title=title,
        subject=f"A battle under {rs.meta.name}",
        author=rs.credit,
        invariant=invariant,
        margin=MARGIN,
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
        [PageTemplate("report", [frame], onPage=running_header(title, rs.credit, margin=MARGIN))]
    )
    state = session.state
    facts = (
        f"{rs.meta.name} · {state.sides[0].name} against {state.sides[1].name} · "
        f"turn {state.turn} · {len(session.steps)} steps · seed {session.seed}"
    )
    story: list[Flowable] = [
        para(esc(session.name), st.title),
        para(esc(facts), st.note),
        Spacer(1, 2 * mm),
        *_map(image, width, st),
        *_result(result, st, width),
        Spacer(1, 3 * mm),
        *_log(session, st, width),
    ]
    pages = build(doc, story)
    return buf.getvalue(), pages


def write_battle_report(
    target: Target,
    session: BattleSession,
    result: BattleSummary,
    image: Path | None,
    *,
    page_size: str = "a4",
    invariant: bool = False,
) -> Written:
    data, pages = render_battle_report(
        session, result, image, page_size=page_size, invariant=invariant
    )
    write_bytes(target, data)
    return Written(target, pages)
