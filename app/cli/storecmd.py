"""``castra store check``: SQLite's full integrity check of the store, on request (opening
the store checks it only when that is cheap or after an unclean shutdown)."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.common import CliError


def register(sub: Any) -> None:
    store = sub.add_parser("store", help="the store itself: check it")
    ssub = store.add_subparsers(dest="store_command", metavar="ACTION", required=True)
    p = ssub.add_parser("check", help="SQLite's full integrity check of the store (read-only)")
    p.set_defaults(func=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    from app.store.engine import StoreError, default_path, integrity_check, open_store

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
