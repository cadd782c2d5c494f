"""``castra server``: setting up a club's shared store on PostgreSQL (issue 15).

``castra server init URL`` makes an empty database a club store (schema, roles, access
policies) and says what it did; ``castra server add-member NAME --role player|umpire`` adds a
member. Both are run by the club's admin, logging in as the database's owner; a password is
never given on the command line: libpq finds the admin's (``~/.pgpass``, ``PGPASSWORD``), and
``--password`` asks for the new member's, which PostgreSQL keeps only as a SCRAM hash.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import Any

from app.cli.common import CliError


def register(sub: Any) -> None:
    server = sub.add_parser("server", help="a club's shared store on PostgreSQL: set it up")
    ssub = server.add_subparsers(dest="server_command", metavar="ACTION", required=True)
    p = ssub.add_parser(
        "init",
        help="make an empty database a club store: schema, roles and access policies",
    )
    p.add_argument("url", metavar="URL", help="postgresql://ADMIN@HOST:PORT/DATABASE")
    p.set_defaults(func=cmd_init)
    p = ssub.add_parser("add-member", help="add a player or an umpire to the club")
    p.add_argument("name", metavar="NAME", help="the member's login (a database role)")
    p.add_argument("--role", required=True, choices=["player", "umpire"])
    p.add_argument(
        "--url",
        metavar="URL",
        help="the club store, as its admin (default: --store or CASTRA_DB)",
    )
    p.add_argument(
        "--password",
        action="store_true",
        help="ask for the member's password (kept by PostgreSQL as a SCRAM hash only)",
    )
    p.add_argument(
        "--existing",
        action="store_true",
        help="make a login role the server already has a member (never a superuser's)",
    )
    p.set_defaults(func=cmd_add_member)


def _url(given: str | None) -> str:
    from app.usecases.access import is_server_url

    url = given or os.environ.get("CASTRA_DB", "")
    if not is_server_url(url):
        raise CliError("give the club store's URL: --url postgresql://ADMIN@HOST:PORT/DATABASE")
    return url


def cmd_init(args: argparse.Namespace) -> int:
    from app.usecases.access import StoreError, is_server_url
    from app.usecases.club import init_server

    if not is_server_url(args.url):
        raise CliError(f"{args.url!r} is not a PostgreSQL URL (postgresql://…)")
    try:
        lines = init_server(args.url)
    except StoreError as exc:
        raise CliError(str(exc)) from None
    for line in lines:
        print(line)
    return 0


def _ask_password() -> str:
    if sys.stdin is None or not sys.stdin.isatty():
        line = sys.stdin.readline() if sys.stdin is not None else ""
        password = line.rstrip("\n")
    else:
        password = getpass.getpass("Password for the new member: ")
        if getpass.getpass("Again: ") != password:
            raise CliError("the two passwords differ; nothing was changed")
    if not password:
        raise CliError("an empty password; nothing was changed")
    return password


def cmd_add_member(args: argparse.Namespace) -> int:
    from app.usecases.access import StoreError
    from app.usecases.club import add_member

    url = _url(args.url)
    password = _ask_password() if args.password else None
    try:
        print(
            add_member(
                url,
                name=args.name,
                role=args.role,
                password=password,
                existing=args.existing,
            )
        )
    except StoreError as exc:
        raise CliError(str(exc)) from None
    return 0
