"""``castra print refsheet|cards|roster|DOCUMENT``: the printed documents as PDF files, the
common ones and each an engine declares (:mod:`app.rules.documents`).

ROSTER is a roster file (JSON) when such a file exists, else the id or name of a roster in
the store. Exit codes: 0 written, 1 bad input (unknown ruleset or roster, unreadable file,
a declared document for a ruleset without it, a file that cannot be written), 2 usage.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cli.common import CliError, registry, resolve_roster
from app.core.roster import CONFIRM_CARDS

if TYPE_CHECKING:
    from app.core.roster import Roster
    from app.rules.documents import DocumentSpec
    from app.rules.ruleset import Ruleset

PAGE_SIZES = ("a4", "letter")


def register(sub: Any) -> None:
    printing = sub.add_parser("print", help="print reference sheets, unit cards, rosters, decks")
    psub = printing.add_subparsers(dest="print_command", metavar="DOCUMENT", required=True)

    p = psub.add_parser(
        "refsheet",
        help="a ruleset's quick-reference sheet (its tables on one or two pages; the errata "
        "on a page of their own where they do not fit beside them)",
    )
    p.add_argument("ruleset", metavar="RULESET", help="ruleset id (see `castra rulesets`)")
    _common(p)
    p.set_defaults(func=cmd_refsheet)

    p = psub.add_parser("cards", help="unit and leader cards of a roster, nine to a page")
    p.add_argument("roster", metavar="ROSTER", help="roster file, or stored roster id or name")
    p.add_argument("--no-leaders", action="store_true", help="unit cards only")
    p.add_argument(
        "--yes",
        action="store_true",
        help=f"print a job of more than {CONFIRM_CARDS:,} cards (refused without it)",
    )
    _common(p)
    p.set_defaults(func=cmd_cards)

    p = psub.add_parser("roster", help="a roster sheet with totals and validation")
    p.add_argument("roster", metavar="ROSTER", help="roster file, or stored roster id or name")
    _common(p)
    p.set_defaults(func=cmd_roster)

    # the documents the engines declare (app.rules.documents), one command each
    for spec in _declared_documents():
        p = psub.add_parser(spec.id, help=spec.help)
        p.add_argument("--side", required=True, help=spec.side_help)
        for option in spec.options:
            flag = "--" + option.name.replace("_", "-")
            if option.flag:
                p.add_argument(flag, action="store_true", help=option.help)
            else:
                p.add_argument(
                    flag, choices=option.choices, default=option.initial, help=option.help
                )
        p.add_argument("--ruleset", help=spec.ruleset_help)
        _common(p)
        p.set_defaults(func=cmd_document, document=spec)


def _declared_documents() -> list[DocumentSpec]:
    """Each document the engines declare, once, by engine name."""
    from app.rules.documents import declared_documents
    from app.rulesets import engines

    return declared_documents(engines())


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--output", metavar="FILE", help="PDF to write (default: a name here)")
    p.add_argument("--page-size", choices=PAGE_SIZES, default="a4")
    p.add_argument(
        "--invariant",
        action="store_true",
        help="reproducible output: fixed dates and ids, byte-identical PDFs for the same input",
    )


# ---------------------------------------------------------------------------- helpers


def slug(text: str) -> str:
    """A file-name-safe form of ``text`` ("Legio II" -> "legio-ii")."""
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-") or "castra"


def _document_ruleset(spec: DocumentSpec) -> Ruleset:
    """The first ruleset whose engine declares the document ``spec``, built-in ones first."""
    from app.rules.documents import declared_by

    found = sorted(
        (rs for rs in registry() if declared_by(rs.engine, spec.id) is not None),
        key=lambda r: (not r.builtin, r.id),
    )
    if not found:
        raise CliError(f"no loaded ruleset has {spec.name}")
    return found[0]


def _ruleset(ruleset_id: str) -> Ruleset:
    try:
        return registry().get(ruleset_id)
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None


def _write(what: str, default: str, args: argparse.Namespace, fn: Any) -> int:
    out = Path(args.output) if args.output else Path(default)
    try:
        written = fn(out)
    except OSError as exc:
        raise CliError(f"cannot write {out}: {exc.strerror or exc}") from None
    pages = written.pages
    print(f"wrote {what} to {out} ({pages} page{'s' if pages != 1 else ''})")
    return 0


def _warn_unprintable(roster: Roster) -> None:
    """Names in a script the bundled font lacks (CJK, emoji) print blank: say so."""
    from app.export.fonts import unprintable_warning

    warning = unprintable_warning(roster)
    if warning:
        print(f"castra: warning: {warning}", file=sys.stderr)


# ---------------------------------------------------------------------------- commands


def cmd_refsheet(args: argparse.Namespace) -> int:
    from app.export import write_refsheet

    rs = _ruleset(args.ruleset)
    return _write(
        f"the {rs.meta.short_name} quick reference",
        f"{rs.id}-refsheet.pdf",
        args,
        lambda out: write_refsheet(rs, out, page_size=args.page_size, invariant=args.invariant),
    )


def cmd_cards(args: argparse.Namespace) -> int:
    from app.export import card_count, card_grid, write_unit_cards

    roster = resolve_roster(args.roster)
    rs = _ruleset(roster.ruleset)
    _warn_unprintable(roster)
    cards = card_count(roster, leaders=not args.no_leaders)
    pages = card_grid(args.page_size).pages_for(cards)
    # said first: a big roster's cards take a while (a line of 1,000 units is 1,000 cards)
    if cards > CONFIRM_CARDS and not args.yes:
        raise CliError(
            f"{cards:,} cards on {pages:,} pages: more than {CONFIRM_CARDS:,}; "
            "add --yes to print them all"
        )
    print(f"{cards:,} card{'s' if cards != 1 else ''} on {pages:,} page{'s' if pages != 1 else ''}")
    return _write(
        f"the cards of {roster.name}",
        f"{slug(roster.name)}-cards.pdf",
        args,
        lambda out: write_unit_cards(
            rs,
            roster,
            out,
            page_size=args.page_size,
            invariant=args.invariant,
            leaders=not args.no_leaders,
        ),
    )


def cmd_roster(args: argparse.Namespace) -> int:
    from app.export import write_roster_sheet

    roster = resolve_roster(args.roster)
    rs = _ruleset(roster.ruleset)
    _warn_unprintable(roster)
    return _write(
        f"the roster sheet of {roster.name}",
        f"{slug(roster.name)}-roster.pdf",
        args,
        lambda out: write_roster_sheet(
            rs, roster, out, page_size=args.page_size, invariant=args.invariant
        ),
    )


def cmd_document(args: argparse.Namespace) -> int:
    """A document an engine declares, for one side, with its options' values."""
    from app.export.documents import maker, resolve_side
    from app.rules.documents import declared_by

    spec: DocumentSpec = args.document
    rs = _ruleset(args.ruleset) if args.ruleset else _document_ruleset(spec)
    if declared_by(rs.engine, spec.id) is None:
        raise CliError(f"ruleset {rs.id!r} ({rs.meta.short_name}) has no {spec.name}")
    try:
        army = resolve_side(rs, args.side)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    make = maker(rs.engine, spec.id)
    options = {o.name: getattr(args, o.name) for o in spec.options}
    return _write(
        f"the {rs.army(army).side} {spec.name}",
        f"{slug(army)}-{spec.id}.pdf",
        args,
        lambda out: make(
            rs,
            out,
            side=army,
            options=options,
            page_size=args.page_size,
            invariant=args.invariant,
        ),
    )
