"""``castra self-test``: start the window in a temporary data folder, open a sample roster and
a battle, print unit cards, quit (:mod:`app.gui.selftest`); exit 0 when all worked."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from app.cli.common import CliError
from app.rules.inputs import control_problem


def register(sub: Any) -> None:
    p = sub.add_parser(
        "self-test",
        help="check that this Castra works: open the window (in a temporary data folder, "
        "never yours), a sample roster and a battle, print unit cards, quit",
    )
    p.add_argument(
        "--pdf", metavar="FILE", help="keep the printed unit cards in FILE (default: not kept)"
    )
    p.set_defaults(func=cmd_self_test)


def cmd_self_test(args: argparse.Namespace) -> int:
    pdf = None
    if args.pdf is not None:
        bad = control_problem("--pdf", args.pdf)
        if bad:
            raise CliError(bad)
        pdf = Path(args.pdf).absolute()
    from app.gui import selftest  # Qt loads only for this command

    if pdf is not None:
        try:
            selftest.check_output(pdf)
        except ValueError as exc:
            raise CliError(str(exc)) from None
    return selftest.run(pdf)
