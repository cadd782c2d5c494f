"""``castra --version``, ``--install-desktop`` and ``--remove-desktop``: the version from its
one source; a freedesktop menu entry and icon written into the user's data folder
(``$XDG_DATA_HOME``) that starts this Castra, replaced only when Castra wrote it, removed
again; one-line refusals on other systems and for files that are not Castra's."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

import app
from app import bundled
from app.cli import desktop, main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse's own exits (--version, usage errors)
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return data


def exec_args(value: str) -> list[str]:
    """An ``Exec`` value read back as the specification says: the string rule first (``\\\\``
    is one backslash), then the arguments, split at spaces outside double quotes, where a
    backslash takes the next character as it is."""
    text = value.replace("\\\\", "\\")
    args: list[str] = []
    word, quoted, i, started = "", False, 0, False
    while i < len(text):
        c = text[i]
        if quoted and c == "\\":
            word, i = word + text[i + 1], i + 2
            continue
        if c == '"':
            quoted, started = not quoted, True
        elif c == " " and not quoted:
            if started:
                args.append(word.replace("%%", "%"))
            word, started = "", False
        else:
            word, started = word + c, True
        i += 1
    if started:
        args.append(word.replace("%%", "%"))
    return args


def entry_of(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(path.read_text(encoding="utf-8"))
    return parser["Desktop Entry"]


def test_version_has_one_source(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert (code, out) == (0, f"castra {app.__version__}\n")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "app.__version__"}
    assert version("castra") == app.__version__  # the installed metadata, built from it


def test_version_loads_no_command() -> None:
    """``castra --version`` answers at once: none of the commands' modules is imported."""
    code = (
        "import sys\nfrom app.cli import main\n"
        "try:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('app.cli.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.splitlines()[-1] == "['app.cli.common']"


ICONS = [
    "icons/hicolor/scalable/apps/castra.svg",
    "icons/hicolor/16x16/apps/castra.png",
    "icons/hicolor/32x32/apps/castra.png",
    "icons/hicolor/48x48/apps/castra.png",
    "icons/hicolor/256x256/apps/castra.png",
]


def test_install_writes_the_entry_and_the_icons(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    code, out, err = run(capsys, "--install-desktop")
    assert (code, err) == (0, "")
    entry = home / "applications" / "castra.desktop"
    assert out.splitlines()[:6] == [f"wrote {entry}"] + [f"wrote {home / i}" for i in ICONS]
    assert (home / ICONS[0]).read_bytes() == bundled.APP_ICON.read_bytes()
    for size, icon in zip(bundled.APP_ICON_SIZES, ICONS[1:], strict=True):
        assert (home / icon).read_bytes() == bundled.app_icon_png(size).read_bytes()
    keys = entry_of(entry)
    assert keys["Type"] == "Application"
    assert keys["Name"] == "Castra"
    assert keys["Icon"] == "castra"
    assert keys["StartupWMClass"] == "Castra"
    assert "Game" in keys["Categories"].split(";")
    assert exec_args(keys["Exec"]) == desktop.launcher()
    assert Path(exec_args(keys["Exec"])[0]).is_file()
    if shutil.which("desktop-file-validate"):  # Debian: desktop-file-utils
        check = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True)
        assert check.returncode == 0 and not check.stdout, check.stdout


def test_launcher_is_the_environments_castra_script() -> None:
    """In this environment (a venv with Castra installed), the ``castra`` script beside its
    Python; the bundle runs its own executable."""
    assert desktop.launcher() == [str(Path(sys.executable).parent / "castra")]


def test_launcher_of_the_bundle_is_its_executable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", "/opt/Castra/castra")
    assert desktop.launcher() == ["/opt/Castra/castra"]


def test_launcher_without_a_castra_script_runs_the_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    python = tmp_path / "bin" / "python3"
    monkeypatch.setattr(sys, "executable", str(python))
    assert desktop.launcher() == [str(python), "-m", "app"]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["/usr/bin/castra"], "/usr/bin/castra"),
        (["/home/a b/castra"], '"/home/a b/castra"'),
        (["/x/100%/castra"], "/x/100%%/castra"),
        (['/x/a"b$c`d/castra'], '"/x/a\\\\"b\\\\$c\\\\`d/castra"'),
        (["C:\\Castra\\castra.exe"], '"C:\\\\\\\\Castra\\\\\\\\castra.exe"'),
        (["/venv/bin/python", "-m", "app"], "/venv/bin/python -m app"),
    ],
)
def test_exec_line_quotes_as_the_specification_says(args: list[str], line: str) -> None:
    assert desktop.exec_line(args) == line


@pytest.mark.parametrize(
    "args", [["/home/a b/castra"], ["/x/100%/castra"], ['/x/a"b$c`d\\e/castra'], ["a", "b c"]]
)
def test_exec_lines_read_back_as_their_arguments(args: list[str]) -> None:
    assert exec_args(desktop.exec_line(args)) == args


def test_exec_line_refuses_a_control_character() -> None:
    with pytest.raises(desktop.CliError, match="control character"):
        desktop.exec_line(["/tmp/a\nb/castra"])


def test_an_entry_with_quotes_reads_back_as_the_path(tmp_path: Path) -> None:
    """A path with a space, quotes and a dollar sign survives the file's two escapings: read
    with the string rule (``\\\\`` is one backslash) and then split as the Exec rule says."""
    weird = str(tmp_path / 'my "games" $HOME' / "castra")
    path = tmp_path / "castra.desktop"
    path.write_text(desktop.desktop_entry([weird]), encoding="utf-8")
    assert exec_args(entry_of(path)["Exec"]) == [weird]
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(path)], capture_output=True)
        assert check.returncode == 0 and not check.stdout, check.stdout


def test_install_again_replaces_castras_own_entry(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    assert run(capsys, "--install-desktop")[0] == 0
    entry = home / "applications" / "castra.desktop"
    entry.write_text(entry.read_text().replace("Exec=", "Exec=/old/path "), encoding="utf-8")
    assert run(capsys, "--install-desktop")[0] == 0
    assert "/old/path" not in entry.read_text()


def test_a_file_castra_did_not_write_is_left_alone(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    entry = home / "applications" / "castra.desktop"
    entry.parent.mkdir(parents=True)
    entry.write_text("[Desktop Entry]\nName=Someone else's castra\n", encoding="utf-8")
    before = entry.read_bytes()
    code, out, err = run(capsys, "--install-desktop")
    assert (code, out) == (1, "")
    assert err == f"castra: {entry} is there and was not written by Castra: left as it is\n"
    assert entry.read_bytes() == before
    assert not (home / "icons").exists()  # checked before anything was written
    assert run(capsys, "--remove-desktop")[0] == 1
    assert entry.read_bytes() == before


@pytest.mark.parametrize("icon", [ICONS[0], ICONS[3]])
def test_a_foreign_icon_is_left_alone(
    icon: str, capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    path = home / icon
    path.parent.mkdir(parents=True)
    path.write_bytes(b"someone else's icon")
    code, _, err = run(capsys, "--install-desktop")
    assert (
        code == 1
        and err == f"castra: {path} is there and was not written by Castra: left as it is\n"
    )
    assert path.read_bytes() == b"someone else's icon"
    assert not (home / "applications").exists()
    assert run(capsys, "--remove-desktop")[0] == 1
    assert path.read_bytes() == b"someone else's icon"


def test_icons_written_with_castras_entry_are_replaced(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    """An icon of an older Castra (the entry is Castra's) is replaced by this one's; a copy of
    this one's icon without the entry (a half-removed install) is taken as Castra's."""
    assert run(capsys, "--install-desktop")[0] == 0
    (home / ICONS[3]).write_bytes(b"an older Castra's icon")
    assert run(capsys, "--install-desktop")[0] == 0
    assert (home / ICONS[3]).read_bytes() == bundled.app_icon_png(48).read_bytes()
    (home / "applications" / "castra.desktop").unlink()
    assert run(capsys, "--install-desktop")[0] == 0


def test_a_folder_in_an_icons_place_is_refused(
    capsys: pytest.CaptureFixture[str], home: Path
) -> None:
    (home / ICONS[2]).mkdir(parents=True)
    code, _, err = run(capsys, "--install-desktop")
    assert code == 1 and err.endswith(
        "castra.png is there and is not a regular file: left as it is\n"
    )


def test_a_relative_xdg_data_home_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert run(capsys, "--install-desktop")[0] == 0
    assert (tmp_path / "home/.local/share/applications/castra.desktop").is_file()
    assert not (tmp_path / "relative").exists()


def test_an_unwritable_data_folder_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be", encoding="utf-8")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))
    code, out, err = run(capsys, "--install-desktop")
    assert (code, out) == (1, "")
    assert err.startswith("castra: ") and err.count("\n") == 1 and "data" in err
    assert blocker.read_text() == "a file where the data folder should be"


@pytest.mark.parametrize(
    ("platform", "words"), [("win32", "Pin to Start"), ("darwin", "Castra.app")]
)
def test_other_systems_are_told_what_to_do(
    platform: str,
    words: str,
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "platform", platform)
    code, out, err = run(capsys, "--install-desktop")
    assert (code, out) == (1, "")
    assert err.startswith("castra: the menu entry is for Linux and BSD desktops") and words in err
    assert not home.exists()


def test_the_desktop_options_take_no_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--install-desktop", "roster", "list")
    assert code == 2 and "--install-desktop takes no command: roster" in err
    code, _, err = run(capsys, "--install-desktop", "--remove-desktop")
    assert code == 2 and "not allowed with" in err
