"""``castra campaign chronicle | export | import``: what is read out of a campaign (the
timeline, strength and leaders, or the chronicle PDF; the campaign file) and a campaign file
read in, all or nothing."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from app.cli.common import CliError, print_json, registry, store, table
from app.core.campaign.session import CampaignSession


def _load(text: str) -> CampaignSession:
    from app.usecases.campaign import find_campaign, load_campaign

    try:
        cid = find_campaign(store(), key=text)
    except LookupError as exc:
        raise CliError(str(exc.args[0])) from None
    return load_campaign(store(), campaign_id=cid, registry=registry())


def cmd_chronicle(args: argparse.Namespace) -> int:
    from app.core.campaign.chronicle import leader_sheet, strength, timeline

    session = _load(args.campaign)
    rs, c = session.ruleset, session.campaign
    if args.pdf:
        from app.export.chronicle import chronicle_pdf
        from app.export.common import write_bytes

        data = chronicle_pdf(rs, session)
        if args.pdf == "-":
            sys.stdout.buffer.write(data)
        else:
            write_bytes(Path(args.pdf), data)
            print(f"wrote {args.pdf}")
        return 0
    entries = timeline(rs, c)
    st = strength(rs, session)
    leaders = leader_sheet(rs, c)
    if args.json:
        print_json(
            {
                "battles": [
                    {
                        "id": e.battle.id,
                        "name": e.battle.name,
                        "date": e.battle.date,
                        "place": e.battle.place,
                        "state": e.state,
                        "winner": e.winner,
                        "words": list(e.words),
                        "notes": list(e.notes),
                        "history": list(e.history),
                    }
                    for e in entries
                ],
                "strength": {
                    "labels": list(st.labels),
                    "unit": st.unit,
                    "sides": {n: list(v) for n, v in st.sides},
                },
                "leaders": [r.__dict__ for r in leaders],
            }
        )
        return 0
    for e in entries:
        print(
            f"{e.battle.name} ({e.battle.date or 'no date'}, {e.battle.place or 'no place'}): "
            f"{e.state}"
        )
        for w in (*e.words, *e.history, *e.notes):
            print(f"  {w}")
    print(table([(n, *v) for n, v in st.sides], ("side", *st.labels)))
    print(
        table(
            [(r.side, r.name, r.status, r.battles, r.history or "") for r in leaders],
            ("side", "leader", "status", "battles", "in history"),
        )
    )
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from app.core.campaign.campaignfile import export_file

    export_file(_load(args.campaign), Path(args.file))
    print(f"wrote {args.file}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from app.core.campaign.campaignfile import CampaignFileError, read_file
    from app.usecases.campaign import create_campaign

    try:
        session = read_file(Path(args.file), registry())
    except CampaignFileError as exc:
        raise CliError(str(exc)) from None
    cid = create_campaign(store(), session=session)
    print(f"campaign {cid}: {session.campaign.name} ({len(session.done)} steps)")
    return 0
