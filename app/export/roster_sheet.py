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

from app.core.capabilities import declared_fields
from app.core.roster import Leader, Roster
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
from app.rules.leaderfields import LeaderField
from app.rules.ruleset import Ruleset
from app.rules.schema import ArmyList

MARGIN = 14 * mm
SEVERITY_COLOURS: dict[Severity, Color] = {
    Severity.ERROR: HexColor("#B22222"),
    Severity.WARNING: HexColor("#C77700"),
    Severity.NOTE: HexColor("#3C6E9F"),
}
VALID = HexColor("#2E7D32")
GROUP_BG = HexColor("#F3EEE4")


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


def _groups(roster: Roster, totals: RosterTotals) -> list[tuple[str | None, list[UnitTotals]]]:
    """The unit lines by command, in the roster's order of commands, then those without one
    (the name is None when the roster has no commands at all)."""
    by_command: dict[str, list[UnitTotals]] = {c.id: [] for c in roster.commands}
    loose: list[UnitTotals] = []
    for ut in totals.per_unit:
        bucket = by_command.get(ut.unit.command or "")
        (bucket if bucket is not None else loose).append(ut)
    out: list[tuple[str | None, list[UnitTotals]]] = [
        (c.name, by_command[c.id]) for c in roster.commands if by_command[c.id]
    ]
    if loose:
        out.append((None, loose))
    return out


def _units(rs: Ruleset, roster: Roster, st: Styles, width: float) -> list[Flowable]:
    """The units grouped by command (battlegroup), each group with its subtotal, then the
    army's total."""
    totals = _totals(rs, roster)
    leaders = {ld.id: ld.name for ld in roster.leaders}
    army = rs.armies.get(roster.army)
    size_unit = "figures" if rs.counts_figures else "bases"
    group_name = rs.organisation.group_name
    # (header, width fraction, cell of a unit line)
    columns: list[tuple[str, float, Callable[[UnitTotals], str]]] = [
        ("Unit", 0.24, lambda ut: ut.unit.name),
        ("Type", 0.22, lambda ut: _kind(rs, army, ut.unit.entry)),
    ]
    if any(u.grade for u in roster.units):
        columns.append(("Grade", 0.06, lambda ut: ut.unit.grade or "-"))
    columns += [
        ("No.", 0.05, lambda ut: str(ut.unit.count)),
        (f"Size ({size_unit})", 0.08, lambda ut: str(ut.unit.size)),
    ]
    sums: list[tuple[int, str]] = []  # (column, field) of the summed columns
    for header, field in (("Figures", "figures"), ("Bases", "bases"), ("Men", "men")):
        if any(getattr(ut.total, field) is not None for ut in totals.per_unit):
            sums.append((len(columns), field))
            columns.append((header, 0.08, _total_cell(field)))
    columns.append(("Leader", 0.17, lambda ut: leaders.get(ut.unit.leader or "", "")))
    count_col = next(i for i, c in enumerate(columns) if c[0] == "No.")

    def sum_row(label: str, lines: list[UnitTotals]) -> list[Cell]:
        row: list[Cell] = [""] * len(columns)
        row[0] = label
        row[count_col] = str(sum(ut.unit.count for ut in lines))
        for col, field in sums:
            values = [getattr(ut.total, field) for ut in lines]
            row[col] = fmt_int(None if any(v is None for v in values) else sum(values))
        return row

    rows: list[list[Cell]] = [[c[0] for c in columns]]
    extra: list[tuple[object, ...]] = []
    groups = _groups(roster, totals)
    grouped = bool(roster.commands)
    for name, lines in groups:
        if grouped:
            title = name if name is not None else f"Without a {group_name}"
            r = len(rows)
            heading: list[Cell] = [Paragraph(f"<b>{esc(title)}</b>", st.cell)]
            rows.append(heading + [""] * (len(columns) - 1))
            extra += [("SPAN", (0, r), (-1, r)), ("BACKGROUND", (0, r), (-1, r), GROUP_BG)]
        rows += [[c[2](ut) for c in columns] for ut in lines]
        if grouped and len(groups) > 1:
            r = len(rows)
            rows.append(sum_row("Subtotal", lines))
            extra.append(("LINEABOVE", (0, r), (-1, r), 0.8, HexColor("#5A5A5A")))
    n = len(rows)
    rows.append(sum_row("Total", [ut for _, lines in groups for ut in lines]))
    rows[-1][count_col] = str(totals.units)
    for col, field in sums:
        rows[-1][col] = fmt_int(getattr(totals, field))
    extra += [
        ("BACKGROUND", (0, n), (-1, n), HexColor("#E9E1D1")),
        ("LINEABOVE", (0, n), (-1, n), 1, HexColor("#1E1E1E")),
    ]
    widths = [width * c[1] / sum(c[1] for c in columns) for c in columns]
    table = data_table(rows, widths, st=st, center_from=2, left=[len(columns) - 1], extra=extra)
    parts = [f"<b>{totals.units} units</b>"]
    for amount, what in ((totals.figures, "figures"), (totals.bases, "bases"), (totals.men, "men")):
        if amount is not None:
            parts.append(f"{amount:,} {what}")
    if roster.scale and totals.men is not None:
        parts[-1] += f" at {esc(roster.scale)}"
    if grouped:
        parts.append(f"by {esc(group_name)}")
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
        # (header, width fraction, cell), the rules' own fields only where they read them
        cols: list[tuple[str, float, Callable[[Leader], str]]] = [
            ("Leader", 0.24, lambda ld: ld.name),
            ("Rank", 0.11, lambda ld: ld.rank),
        ]
        cols += [(f.label, f.sheet_width, _field_cell(rs, f)) for f in declared_fields(rs)]
        cols += [
            ("Status", 0.09, lambda ld: ld.status.value),
            ("Wounds", 0.08, lambda ld: str(ld.wounds)),
            ("Leads / with", 0.32, lambda ld: _placement(roster, ld)),
        ]
        leader_rows: list[list[Cell]] = [[c[0] for c in cols]]
        leader_rows += [[c[2](ld) for c in cols] for ld in roster.leaders]
        total = sum(c[1] for c in cols)
        out += [
            para("Leaders", st.h1),
            data_table(
                leader_rows,
                [width * c[1] / total for c in cols],
                st=st,
                center_from=1,
                left=[len(cols) - 1],
            ),
        ]
    return out


def _field_cell(rs: Ruleset, field: LeaderField) -> Callable[[Leader], str]:
    """A leader field's cell: his value (his own, else the rules'), "-" for none."""
    return lambda ld: field.shown(field.value(rs, ld.name, ld.fields), blank="-")


def _placement(roster: Roster, ld: Leader) -> str:
    where = [c.name for c in roster.commands if c.leader == ld.id]
    where += [u.name for u in roster.units if u.leader == ld.id]
    return "; ".join(where) or "-"


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
