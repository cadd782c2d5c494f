"""The ``castra`` command line: the core's use cases without a window.

Exit codes: 0 ok, 1 invalid input or an invalid roster, 2 usage. A package rather than one
``cli.py`` so each group of subcommands stays a small module.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Sequence

from app import __version__
from app.cli import common

#: the module of each command, imported only when that command runs (``castra roster list``
#: must not pay for the battle code, the PDF code or pydantic)
MODULES = {
    "rulesets": "rulesets",
    "armies": "rulesets",
    "roster": "rosters",
    "validate": "rosters",
    "print": "printing",
    "odds": "odds",
    "battle": "battle",
    "campaign": "campaign",
    "scenario": "scenario",
    "store": "storecmd",
    "server": "server",
    "self-test": "selftest",
}
_ORDER = (
    "rulesets",
    "rosters",
    "printing",
    "odds",
    "battle",
    "campaign",
    "scenario",
    "storecmd",
    "server",
    "selftest",
)
#: options that run without any command (and so import none of the commands' modules)
_ALONE = ("--version", "--install-desktop", "--remove-desktop")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``command`` (the first word of the command line) only that
    command's module is imported and registered."""
    parser = argparse.ArgumentParser(
        prog="castra",
        description="Army builder, battle runner and campaign manager for Second Punic War "
        "miniature wargames. With no command, opens the app.",
    )
    parser.add_argument(
        "--store",
        metavar="URL",
        help="the store to use: a SQLite file, or a club server postgresql://USER@HOST/DB "
        "(default: CASTRA_DB, else the local store)",
    )
    parser.add_argument("--version", action="version", version=f"castra {__version__}")
    desktop = parser.add_mutually_exclusive_group()
    desktop.add_argument(
        "--install-desktop",
        action="store_true",
        help="put Castra in the desktop's application menu (Linux, BSD: a freedesktop "
        "entry and icon in the user's data folder) and exit",
    )
    desktop.add_argument(
        "--remove-desktop",
        action="store_true",
        help="take that menu entry and icon away again and exit",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = list(_ORDER)
    if command in _ALONE:
        wanted = []
    elif command in MODULES:
        wanted = [MODULES[command]]
    for name in wanted:
        importlib.import_module(f"app.cli.{name}").register(sub)
    return parser


def _take_store(args_list: list[str]) -> list[str]:
    """``--store URL`` before the command: the store for this run (as ``CASTRA_DB``)."""
    if args_list and args_list[0].startswith("--store="):
        os.environ["CASTRA_DB"] = args_list[0].split("=", 1)[1]
        return args_list[1:]
    if len(args_list) >= 2 and args_list[0] == "--store":
        os.environ["CASTRA_DB"] = args_list[1]
        return args_list[2:]
    return args_list


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    bad = not_utf8(given)
    if bad:
        print(f"castra: {bad}", file=sys.stderr)
        return 1
    args_list = _take_store(given)
    if not args_list:
        # No cyclic garbage collection until the window is usable (app.gui.app re-enables
        # it): start-up makes few cycles, and the collector's passes over the thousands of
        # objects the imports and the roster list make cost some 15-30 ms of the start.
        gc.disable()
        from app import classcode
        from app.paths import data_dir

        classcode.start(data_dir() / "cache")  # the dataclasses' methods, compiled before
        _load_before_qt()
        from app.gui.app import run  # Qt is loaded only when the window is wanted

        return run()
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = common.EscapingWriter(out), common.EscapingWriter(err)
    try:
        return _main(args_list)
    finally:
        common.close_stores()
        sys.stdout.flush()
        sys.stdout, sys.stderr = out, err


#: the Qt-free modules the window needs to show the reopened roster (with the standard
#: library modules they bring; pydantic only when a ruleset's files must be validated)
_WINDOW_MODULES = (
    "app.rules.registry",
    "app.rulesets",
    "app.core.validation",
    "app.core.totals",
    "app.core.edits",
    "app.core.history",
    "app.core.capabilities",
    "app.store",
    "app.store.read",
    "app.usecases",
    "app.usecases.access",
    "app.usecases.roster",
)


def _load_before_qt() -> None:
    """Import the window's Qt-free modules before PySide6: PySide6 reads the source of every
    module imported after it (looking for its ``__feature__`` switch), a fraction of a
    millisecond a module, about 15 ms of the window's start."""
    for name in _WINDOW_MODULES:
        importlib.import_module(name)


def not_utf8(args_list: Sequence[str]) -> str | None:
    """Why an argument cannot be read (bytes that are not UTF-8 text, which Python hands
    over as lone surrogates and no store, file or terminal can take), or None."""
    for arg in args_list:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError as exc:
            raw = arg.encode("utf-8", "surrogateescape")
            shown = raw[:40].decode("ascii", "backslashreplace")
            byte = raw[len(arg[: exc.start].encode("utf-8", "surrogateescape"))]
            return (
                f"the argument '{shown}' holds a byte that is not UTF-8 text (0x{byte:02x}); "
                "give names and file names in UTF-8; nothing was changed"
            )
    return None


def _main(args_list: list[str]) -> int:
    # Pydantic looks for plugins in every installed package's metadata on first use (some
    # tens of milliseconds); Castra uses none.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    command: str | None = args_list[0]
    if command in _ALONE and len(args_list) > 1:
        command = None  # every command, so that what follows is named in the error
    parser = build_parser(command)
    try:
        args = parser.parse_args(args_list)
        if args.install_desktop or args.remove_desktop:
            if args.command is not None:
                parser.error(f"{args_list[0]} takes no command: {args.command}")
            from app.cli import desktop

            return desktop.run(install_it=args.install_desktop)
        if args.command is None:
            parser.print_help()
            return 2
        return int(args.func(args))
    except common.CliError as exc:
        print(f"castra: {exc}", file=sys.stderr)
        return exc.code
    except BrokenPipeError:
        return 0
    except OSError as exc:  # last resort: a file or folder a command could not use
        print(f"castra: {common.os_error_text(exc)}", file=sys.stderr)
        return 1
    except ArithmeticError as exc:  # last resort: a number too large for the store or a sum
        print(f"castra: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:
        from app.usecases.access import StoreError

        if isinstance(exc, StoreError):  # locked, read-only, full, damaged: one line
            print(f"castra: {exc}", file=sys.stderr)
            return 1
        raise
