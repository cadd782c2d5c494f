"""``castra --install-desktop`` and ``--remove-desktop``: Castra in the desktop's application
menu on Linux and the BSDs (any freedesktop.org desktop: GNOME, KDE, Xfce, ...).

It writes these files into the user's data folder (``$XDG_DATA_HOME``, else
``~/.local/share``), and nothing anywhere else:

- ``applications/castra.desktop``: the menu entry, starting this very Castra (the ``castra``
  script of the environment it runs in, or the bundle's executable), so it follows a pipx,
  pip or bundle install alike;
- ``icons/hicolor/scalable/apps/castra.svg`` and ``icons/hicolor/<size>/apps/castra.png``:
  its icon, as an SVG and as PNGs at the sizes menus without SVG support look for.

A file of any of these names that Castra did not write is left alone and the command refuses,
naming it. Windows and macOS have no such menu files: the command says what to do there instead.
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
#: the class of Castra's windows on X11 (WM_CLASS: Qt's "castra", "Castra"), which desktops
#: match to the entry
WM_CLASS = "Castra"
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
            f"StartupWMClass={WM_CLASS}",
            f"X-Castra-Version={__version__}",
            MARK,
            "",
        ]
    )


def entry_path(home: Path) -> Path:
    """Where the menu entry goes under the data folder ``home``."""
    return home / "applications" / f"{DESKTOP_ID}.desktop"


def icon_files(home: Path) -> dict[Path, Path]:
    """Where each icon goes under ``home`` (the hicolor theme: the SVG as the scalable one,
    the PNGs at their sizes, for menus that take no SVG), and the shipped file it copies."""
    icons = home / "icons" / "hicolor"
    files = {icons / "scalable" / "apps" / f"{DESKTOP_ID}.svg": bundled.APP_ICON}
    for size in bundled.APP_ICON_SIZES:
        files[icons / f"{size}x{size}" / "apps" / f"{DESKTOP_ID}.png"] = bundled.app_icon_png(size)
    return files


def _absent(path: Path) -> bool:
    return not path.exists() and not path.is_symlink()


def _castras(path: Path, mark: str | None = None, same_as: Path | None = None) -> bool:
    """Whether ``path`` is a regular file Castra wrote: one holding ``mark``, or a copy of
    ``same_as``."""
    if path.is_symlink() or not path.is_file():
        return False
    try:
        data = path.read_bytes()
        return (mark is not None and mark.encode() in data) or (
            same_as is not None and data == same_as.read_bytes()
        )
    except OSError:
        return False


def _check_ours(home: Path) -> None:
    """Refuse (naming the file) when a file of Castra's names is there that Castra did not
    write: the entry holds :data:`MARK`; with it, the icons are the ones written with it; an
    icon without it must be absent, the SVG with :data:`ICON_MARK`, or a copy of ours."""
    entry = entry_path(home)
    if not _absent(entry) and not _castras(entry, MARK):
        raise CliError(f"{entry} is there and was not written by Castra: left as it is")
    for path, source in icon_files(home).items():
        if _absent(path):
            continue
        if path.is_symlink() or not path.is_file():
            raise CliError(f"{path} is there and is not a regular file: left as it is")
        if _absent(entry) and not _castras(path, ICON_MARK, source):
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


def install(home: Path | None = None, args: Sequence[str] | None = None) -> list[Path]:
    """Write the icons and the menu entry under ``home`` (default :func:`data_home`); returns
    their paths. Every file is checked before any is written; the entry is written last."""
    _refuse_elsewhere()
    home = data_home() if home is None else home
    _check_ours(home)
    text = desktop_entry(launcher() if args is None else args)
    written = []
    for path, source in icon_files(home).items():
        _write(path, source.read_bytes())
        written.append(path)
    _write(entry_path(home), text.encode("utf-8"))
    return [entry_path(home), *written]


def remove(home: Path | None = None) -> list[Path]:
    """Remove the menu entry and the icons that :func:`install` wrote; returns what was
    removed (nothing when they were not there). The entry goes first."""
    _refuse_elsewhere()
    home = data_home() if home is None else home
    _check_ours(home)
    removed = []
    for path in (entry_path(home), *icon_files(home)):
        if not _absent(path):
            path.unlink()
            removed.append(path)
    return removed


def run(install_it: bool) -> int:
    """The command line's ``--install-desktop`` / ``--remove-desktop``."""
    if install_it:
        for path in install():
            print(f"wrote {path}")
        print(
            "Castra is in the desktop's application menu (Games); it runs " + exec_line(launcher())
        )
        return 0
    removed = remove()
    for path in removed:
        print(f"removed {path}")
    if not removed:
        print("no menu entry of Castra's was there")
    return 0
