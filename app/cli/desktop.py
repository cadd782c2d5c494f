"""``castra --install-desktop`` and ``--remove-desktop``: Castra in the desktop's application
menu on Linux and the BSDs (any freedesktop.org desktop: GNOME, KDE, Xfce, ...).

It writes two files into the user's data folder (``$XDG_DATA_HOME``, else
``~/.local/share``), and nothing anywhere else:

- ``applications/castra.desktop``: the menu entry, starting this very Castra (the ``castra``
  script of the environment it runs in, or the bundle's executable), so it follows a pipx,
  pip or bundle install alike;
- ``icons/hicolor/scalable/apps/castra.svg``: its icon.

A file of either name that Castra did not write is left alone and the command refuses, naming
it. Windows and macOS have no such menu files: the command says what to do there instead.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from app import bundled
from app.cli.common import CliError

#: the entry's file name without ``.desktop``, and the icon's name (``app.gui.app.DESKTOP_ID``)
DESKTOP_ID = "castra"
#: a key of our own in every entry Castra writes: how it knows the file is its own
MARK = "X-Castra-Installed=true"
#: text only Castra's icon holds (its comment), for the same purpose
ICON_MARK = "Castra's own icon"

OTHER_SYSTEMS = {
    "win32": "on Windows, right-click castra.exe in the bundle's folder and choose "
    "'Pin to Start' (or make a shortcut to it)",
    "darwin": "on macOS, drag Castra.app from the bundle into Applications",
}


def data_home(env: dict[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME`` when it is an absolute path (the specification ignores any other),
    else ``~/.local/share``."""
    value = (os.environ if env is None else env).get("XDG_DATA_HOME", "")
    if value and os.path.isabs(value):
        return Path(value)
    return Path.home() / ".local" / "share"


def launcher() -> list[str]:
    """The command line that starts this Castra: the bundle's executable, the ``castra``
    script beside this environment's Python (pip, pipx, a venv), else ``python -m app``."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    script = Path(sys.executable).parent / ("castra.exe" if os.name == "nt" else "castra")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-m", "app"]


_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def exec_line(args: Sequence[str]) -> str:
    """``args`` as the value of an ``Exec`` key: each argument with a reserved character
    quoted (``"``, backquote, ``$`` and backslash escaped inside the quotes), ``%`` doubled,
    then every backslash escaped once more as the file's string values require. A control
    character cannot be written and is refused."""
    words = []
    for arg in args:
        if any(ord(c) < 32 or ord(c) == 127 for c in arg):
            raise CliError(
                f"cannot write a menu entry for a path with a control character: {arg!r}"
            )
        word = arg.replace("%", "%%")
        if not word or any(c in _RESERVED for c in word):
            for c in '\\"`$':
                word = word.replace(c, "\\" + c)
            word = f'"{word}"'
        words.append(word)
    return " ".join(words).replace("\\", "\\\\")


def desktop_entry(args: Sequence[str]) -> str:
    from app import __version__

    return "\n".join(
        [
            "[Desktop Entry]",
            "Type=Application",
            "Version=1.4",
            "Name=Castra",
            "GenericName=Wargame army builder",
            "Comment=Army builder, battle runner and campaign manager for Second Punic War "
            "miniature wargames",
            f"Exec={exec_line(args)}",
            f"Icon={DESKTOP_ID}",
            "Terminal=false",
            "Categories=Game;StrategyGame;",
            "Keywords=wargame;miniatures;army;roster;battle;campaign;Punic;Rome;Carthage;",
            f"StartupWMClass={DESKTOP_ID}",
            f"X-Castra-Version={__version__}",
            MARK,
            "",
        ]
    )


def paths(home: Path) -> tuple[Path, Path]:
    """Where the entry and the icon go under the data folder ``home``."""
    return (
        home / "applications" / f"{DESKTOP_ID}.desktop",
        home / "icons" / "hicolor" / "scalable" / "apps" / f"{DESKTOP_ID}.svg",
    )


def _ours(path: Path, mark: str) -> bool:
    """Whether ``path`` is absent (then it is free) or a regular file Castra wrote."""
    if not path.exists() and not path.is_symlink():
        return True
    if path.is_symlink() or not path.is_file():
        return False
    try:
        return mark in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def _check_ours(entry: Path, icon: Path) -> None:
    for path, mark in ((entry, MARK), (icon, ICON_MARK)):
        if not _ours(path, mark):
            raise CliError(f"{path} is there and was not written by Castra: left as it is")


def _write(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all (a temporary file beside it, then renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.castra-tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _refuse_elsewhere() -> None:
    other = OTHER_SYSTEMS.get(sys.platform)
    if other is not None:
        raise CliError(f"the menu entry is for Linux and BSD desktops: {other}")


def install(home: Path | None = None, args: Sequence[str] | None = None) -> tuple[Path, Path]:
    """Write the menu entry and the icon under ``home`` (default :func:`data_home`); returns
    their paths. Both are checked before either is written."""
    _refuse_elsewhere()
    entry, icon = paths(data_home() if home is None else home)
    _check_ours(entry, icon)
    text = desktop_entry(launcher() if args is None else args)
    svg = bundled.APP_ICON.read_bytes()
    _write(icon, svg)
    _write(entry, text.encode("utf-8"))
    return entry, icon


def remove(home: Path | None = None) -> list[Path]:
    """Remove the menu entry and the icon that :func:`install` wrote; returns what was
    removed (nothing when they were not there)."""
    _refuse_elsewhere()
    entry, icon = paths(data_home() if home is None else home)
    _check_ours(entry, icon)
    removed = []
    for path in (entry, icon):
        if path.exists():
            path.unlink()
            removed.append(path)
    return removed


def run(install_it: bool) -> int:
    """The command line's ``--install-desktop`` / ``--remove-desktop``."""
    if install_it:
        entry, icon = install()
        print(f"wrote {entry}")
        print(f"wrote {icon}")
        print(
            "Castra is in the desktop's application menu (Games); it starts: "
            + exec_line(launcher())
        )
        return 0
    removed = remove()
    for path in removed:
        print(f"removed {path}")
    if not removed:
        print("no menu entry of Castra's was there")
    return 0
