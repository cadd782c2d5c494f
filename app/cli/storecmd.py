"""``castra store check``: SQLite's full integrity check of the store, on request (opening
the store checks it only when that is cheap or after an unclean shutdown). ``castra store
copy roster|campaign ID --to STORE``: a roster, or a campaign with its battles, copied whole
to another store (the club server and back), keeping ids and history."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.common import CliError


def register(sub: Any) -> None:
    store = sub.add_parser("store", help="the store itself: check it")
    ssub = store.add_subparsers(dest="store_command", metavar="ACTION", required=True)
    p = ssub.add_parser("check", help="SQLite's full integrity check of the store (read-only)")
    p.set_defaults(func=cmd_check)
    p = ssub.add_parser(
        "copy",
        help="copy a roster, or a campaign with its battles, to another store, keeping ids "
        "and history",
    )
    p.add_argument("kind", choices=["roster", "campaign"])
    p.add_argument("key", metavar="ID", help="the roster's or campaign's id or name")
    p.add_argument(
        "--to",
        required=True,
        metavar="STORE",
        help="the target: a club server postgresql://USER@HOST/DB or a SQLite file",
    )
    p.set_defaults(func=cmd_copy)


def cmd_copy(args: argparse.Namespace) -> int:
    from app.cli.common import registry, store
    from app.usecases.access import StoreError, open_store
    from app.usecases.campaign import find_campaign
    from app.usecases.club import copy_campaign, copy_roster
    from app.usecases.roster import find_roster

    source = store()
    try:
        try:
            if args.kind == "roster":
                ident = find_roster(source, key=args.key, include_deleted=True)
            else:
                ident = find_campaign(source, key=args.key)
        except LookupError as exc:
            raise CliError(str(exc.args[0])) from None
        target = open_store(args.to)
        try:
            if args.kind == "roster":
                copied = copy_roster(source, target, roster_id=ident)
            else:
                copied = copy_campaign(source, target, campaign_id=ident, registry=registry())
        finally:
            target.close()
    except StoreError as exc:
        raise CliError(str(exc)) from None
    finally:
        source.close()
    print(f"copied {copied.describe()} from {source.where} to {target.where}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from app.usecases.access import StoreError, default_path, integrity_check, open_store

    path = default_path()
    try:
        open_store(path, check=True).close()
        problems = integrity_check(path)
    except StoreError as exc:
        raise CliError(str(exc)) from None
    if problems != ["ok"]:
        raise CliError(f"{path} is damaged: " + "; ".join(problems[:5]))
    print(f"{path}: ok")
    return 0
