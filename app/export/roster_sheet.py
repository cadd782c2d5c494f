"""The roster sheet: units with their sizes at the roster's scale, totals, commands and
leaders, and the validation status with every message (portrait A4 or Letter)."""

from __future__ import annotations

import io
from collections.abc import Callable

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle
from reportlab.platypus.doctemplate import PageTemplate
from reportlab.platypus.flowables import Flowable
from reportlab.platypus.frames import Frame

from app.core.roster import Roster
from app.core.totals import ZERO, RosterTotals, UnitTotals, roster_totals
from app.core.validation import Report, Severity, validate
from app.export.card_faces import strength
from app.export.common import (
    Cell,
    Styles,
    Target,
    Written,
    build,
    data_table,
    esc,
    fmt_int,
    new_doc,
    page_dimensions,
    para,
    running_header,
    styles,
    write_bytes,
)
from app.export.fonts import COND
from app.rules.ruleset import Ruleset
from app.rules.schema import ArmyList

MARGIN = 14 * mm
SEVERITY_COLOURS: dict[Severity, Color] = {
    Severity.ERROR: HexColor("#B22222"),
    Severity.WARNING: HexColor("#C77700"),
    Severity.NOTE: HexColor("#3C6E9F"),
}
VALID = HexColor("#2E7D32")


def _title(rs: Ruleset, roster: Roster, st: Styles) -> list[Flowable]:
    army = rs.armies[roster.army].name if roster.army in rs.armies else roster.army
    scale = f" · scale {roster.scale}" if roster.scale else ""
    facts = f"{rs.meta.name} · {army} · side {roster.side}{scale}"
    if roster.data_version and roster.data_version != rs.meta.data_version:
        facts += f" · data {roster.data_version} (current {rs.meta.data_version})"
    return [para(esc(roster.name), st.title), para(esc(facts), st.note), Spacer(1, 2 * mm)]


def _kind(rs: Ruleset, army: ArmyList | None, entry_id: str) -> str:
    entry = army.entries.get(entry_id) if army else None
    troop = rs.troops.get(entry.troop) if entry else None
    return troop.name if troop else f"{entry_id} (not in the list)"


def _total_cell(field: str) -> Callable[[UnitTotals], str]:
    """The cell of a line's total figures, bases or men."""

    def cell(ut: UnitTotals) -> str:
        value: int | None = getattr(ut.total, field)
        return fmt_int(value)

    return cell


def _totals(rs: Ruleset, roster: Roster) -> RosterTotals:
    """Roster totals; with an army list the ruleset no longer has, each unit's raw size."""
    if roster.army in rs.armies:
        return roster_totals(rs, roster)
    per_unit = []
    total = ZERO
    for unit in roster.units:
        each = strength(rs, roster, unit)
        per_unit.append(UnitTotals(unit, each, each.times(unit.count)))
        total = total + each.times(unit.count)
    return RosterTotals(roster.unit_count(), total, tuple(per_unit))


def _units(rs: Ruleset, roster: Roster, st: Styles, width: float) -> list[Flowable]:
    totals = _totals(rs, roster)
    commands = {c.id: c.name for c in roster.commands}
    leaders = {ld.id: ld.name for ld in roster.leaders}
    army = rs.armies.get(roster.army)
    size_unit = "figures" if rs.counts_figures else "bases"
    # (header, width fraction, cell of a unit line, cell of the total line)
    columns: list[tuple[str, float, Callable[[UnitTotals], str], str]] = [
        ("Unit", 0.19, lambda ut: ut.unit.name, "Total"),
        ("Type", 0.18, lambda ut: _kind(rs, army, ut.unit.entry), ""),
    ]
    if any(u.grade for u in roster.units):
        columns.append(("Grade", 0.06, lambda ut: ut.unit.grade or "-", ""))
    columns += [
        ("No.", 0.05, lambda ut: str(ut.unit.count), str(totals.units)),
        (f"Size ({size_unit})", 0.08, lambda ut: str(ut.unit.size), ""),
    ]
    for header, field, total in (
        ("Figures", "figures", totals.figures),
        ("Bases", "bases", totals.bases),
        ("Men", "men", totals.men),
    ):
        if any(getattr(ut.total, field) is not None for ut in totals.per_unit):
            columns.append((header, 0.08, _total_cell(field), fmt_int(total)))

    def where(ut: UnitTotals) -> str:
        u = ut.unit
        parts = [commands.get(u.command or "", "")]
        if u.leader:
            parts.append(leaders.get(u.leader, u.leader))
        return "; ".join(p for p in parts if p)

    columns.append(("Command / leader", 0.24, where, ""))
    rows: list[list[Cell]] = [[c[0] for c in columns]]
    rows += [[c[2](ut) for c in columns] for ut in totals.per_unit]
    rows.append([c[3] for c in columns])
    widths = [width * c[1] / sum(c[1] for c in columns) for c in columns]
    head = rows[0]
    n = len(rows)
    table = data_table(
        rows,
        widths,
        st=st,
        center_from=2,
        left=[len(head) - 1],
        extra=[
            ("BACKGROUND", (0, n - 1), (-1, n - 1), HexColor("#E9E1D1")),
            ("LINEABOVE", (0, n - 1), (-1, n - 1), 1, HexColor("#1E1E1E")),
        ],
    )
    parts = [f"<b>{totals.units} units</b>"]
    for amount, what in ((totals.figures, "figures"), (totals.bases, "bases"), (totals.men, "men")):
        if amount is not None:
            parts.append(f"{amount:,} {what}")
    if roster.scale and totals.men is not None:
        parts[-1] += f" at {esc(roster.scale)}"
    summary = " · ".join(parts)
    return [para("Units", st.h1), para(summary, st.body), table]


def _commands(rs: Ruleset, roster: Roster, st: Styles, width: float) -> list[Flowable]:
    out: list[Flowable] = []
    name = rs.organisation.group_name
    if roster.commands:
        rows: list[list[Cell]] = [[name.title(), "Kind", "Leader", "Units"]]
        leaders = {ld.id: ld.name for ld in roster.leaders}
        for c in roster.commands:
            count = sum(u.count for u in roster.units_in(c.id))
            rows.append([c.name, c.kind or "-", leaders.get(c.leader or "", "-"), str(count)])
        loose = sum(u.count for u in roster.units_in(None))
        if loose:
            rows.append([f"(no {name})", "-", "-", str(loose)])
        out += [
            para(f"{esc(name.title())}s", st.h1),
            data_table(
                rows, [width * f for f in (0.45, 0.15, 0.28, 0.12)], st=st, center_from=1, left=[2]
            ),
        ]
    if roster.leaders:
        rows = [["Leader", "Rank", "Bonus", "Quality", "Status", "Wounds", "Leads / with"]]
        for ld in roster.leaders:
            where = [c.name for c in roster.commands if c.leader == ld.id]
            where += [u.name for u in roster.units if u.leader == ld.id]
            rows.append(
                [
                    ld.name,
                    ld.rank,
                    "-" if ld.bonus is None else f"{ld.bonus:+d}",
                    ld.quality or "-",
                    ld.status.value,
                    str(ld.wounds),
                    "; ".join(where) or "-",
                ]
            )
        out += [
            para("Leaders", st.h1),
            data_table(
                rows,
                [width * f for f in (0.24, 0.11, 0.07, 0.09, 0.09, 0.08, 0.32)],
                st=st,
                center_from=1,
                left=[6],
            ),
        ]
    return out


def _validation(report: Report, st: Styles, width: float) -> list[Flowable]:
    errors, warnings, notes = (report.count(s) for s in Severity)
    if report.valid:
        state, colour = "VALID", VALID
    else:
        state, colour = "INVALID", SEVERITY_COLOURS[Severity.ERROR]
    counts = f"{errors} error(s), {warnings} warning(s), {notes} note(s)"
    badge = Table(
        [
            [
                Paragraph(f"<font color='white'><b>{state}</b></font>", st.cell_center),
                Paragraph(esc(counts), st.cell),
            ]
        ],
        colWidths=[22 * mm, width - 22 * mm],
        hAlign="LEFT",
    )
    badge.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), COND, 8),
                ("BACKGROUND", (0, 0), (0, 0), colour),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ]
        )
    )
    out: list[Flowable] = [para("Validation", st.h1), badge, Spacer(1, 1.5 * mm)]
    if not report.messages:
        return [*out, para("No messages: the roster follows the army list.", st.body)]
    rows: list[list[Cell]] = [["Severity", "Concerns", "Message", "Rule"]]
    for m in report.messages:
        hexcolour = SEVERITY_COLOURS[m.severity].hexval()[2:]
        severity = Paragraph(
            f"<font color='#{hexcolour}'><b>{esc(m.severity.value)}</b></font>", st.cell
        )
        rows.append([severity, str(m.subject), m.text, m.rule])
    widths = [width * f for f in (0.1, 0.2, 0.45, 0.25)]
    return [*out, data_table(rows, widths, st=st, center_from=4)]


def render_roster_sheet(
    rs: Ruleset,
    roster: Roster,
    *,
    page_size: str = "a4",
    invariant: bool = False,
    report: Report | None = None,
) -> tuple[bytes, int]:
    pagesize = page_dimensions(page_size)
    st = styles(8.0)
    width = pagesize[0] - 2 * MARGIN
    report = report if report is not None else validate(rs, roster)
    buf = io.BytesIO()
    title = f"{roster.name}: roster sheet"
    doc = new_doc(
        buf,
        pagesize,
        title=title,
        subject=f"Roster for {rs.meta.name}",
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
        [PageTemplate("roster", [frame], onPage=running_header(title, rs.credit, margin=MARGIN))]
    )
    story: list[Flowable] = [
        *_title(rs, roster, st),
        *_units(rs, roster, st, width),
        *_commands(rs, roster, st, width),
        *_validation(report, st, width),
    ]
    if roster.notes:
        story += [para("Notes", st.h1), para(esc(roster.notes), st.body)]
    pages = build(doc, story)
    return buf.getvalue(), pages


def write_roster_sheet(
    rs: Ruleset,
    roster: Roster,
    target: Target,
    *,
    page_size: str = "a4",
    invariant: bool = False,
    report: Report | None = None,
) -> Written:
    """The roster sheet of ``roster`` (validated now unless a ``report`` is given)."""
    data, pages = render_roster_sheet(
        rs, roster, page_size=page_size, invariant=invariant, report=report
    )
    write_bytes(target, data)
    return Written(target, pages)
