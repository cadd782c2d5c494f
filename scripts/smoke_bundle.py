"""The bundle's smoke test (``make dist`` runs it after PyInstaller): the bundled ``castra``,
run offscreen from an empty folder with a bare environment (no Python of ours on the path,
no virtual environment, a home of its own), answers ``--version`` with the checkout's version,
lists every ruleset of the checkout (each folder of ``rulesets/``, as the registry finds
them), and passes ``castra self-test``: its window opens a sample roster and
a battle, prints unit cards to a PDF (checked here with pypdf) and quits.

    python scripts/smoke_bundle.py dist/castra

Prints each step and the seconds it took; exits 0 when all passed, else 1.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import __version__  # noqa: E402

#: the built-in rulesets the bundle must list: the checkout's folders, as the registry finds
#: them (a folder with a ruleset.toml, listed by its id)
RULESETS = tuple(
    sorted(
        tomllib.loads(head.read_text(encoding="utf-8"))["ruleset"]["id"]
        for head in (ROOT / "rulesets").glob("*/ruleset.toml")
    )
)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: smoke_bundle.py BUNDLE_FOLDER (e.g. dist/castra)", file=sys.stderr)
        return 2
    exe = Path(argv[0]).absolute() / ("castra.exe" if os.name == "nt" else "castra")
    if not exe.is_file():
        print(f"smoke: no bundled executable at {exe}: run make dist first", file=sys.stderr)
        return 1
    from pypdf import PdfReader

    with tempfile.TemporaryDirectory(prefix="castra-smoke-") as tmp:
        where = Path(tmp)
        env = {
            "PATH": os.defpath,
            "HOME": str(where / "home"),
            "LANG": "C.UTF-8",
            "QT_QPA_PLATFORM": "offscreen",
            **({"SYSTEMROOT": os.environ["SYSTEMROOT"]} if "SYSTEMROOT" in os.environ else {}),
        }
        failures = []

        def step(name: str, args: list[str], check: Callable[[str], bool]) -> str:
            start = time.perf_counter()
            out = subprocess.run(
                [str(exe), *args], cwd=where, env=env, capture_output=True, text=True, timeout=300
            )
            seconds = time.perf_counter() - start
            ok = out.returncode == 0 and check(out.stdout)
            print(f"smoke: {name}: {'ok' if ok else 'FAILED'} ({seconds:.1f} s)", flush=True)
            if not ok:
                failures.append(name)
                print(out.stdout + out.stderr, file=sys.stderr)
            return out.stdout

        step("castra --version", ["--version"], lambda out: out == f"castra {__version__}\n")
        step(
            "castra rulesets",
            ["rulesets"],
            lambda out: all(f"\n{r} " in out for r in RULESETS) and "failed" not in out,
        )
        pdf = where / "self-test-cards.pdf"
        out = step(
            "castra self-test (window offscreen: sample roster, battle, unit cards PDF)",
            ["self-test", "--pdf", str(pdf)],
            lambda out: out.rstrip().endswith("self-test: passed"),
        )
        print(out, end="")
        if pdf.is_file():
            pages = len(PdfReader(pdf).pages)
            print(f"smoke: the PDF has {pages} pages")
            if pages < 1:
                failures.append("the PDF")
        elif "castra self-test" not in " ".join(failures):
            failures.append("the PDF was not written")
    print("smoke: passed" if not failures else f"smoke: FAILED: {', '.join(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
