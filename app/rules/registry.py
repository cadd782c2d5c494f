"""The registry of loaded rulesets: every folder that loaded, and why the others did not."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from app import bundled
from app.rules.engine import EngineLookup
from app.rules.errors import Problem, RulesetError
from app.rules.loader import load_ruleset
from app.rules.ruleset import Ruleset

BUILTIN_DIR = bundled.RULESETS_DIR


def _has_head(folder: Path) -> bool:
    """Whether ``folder`` is a ruleset folder (holds a ``ruleset.toml``); an unreadable
    entry counts as one, so its failure is reported rather than skipped."""
    try:
        return (folder / "ruleset.toml").exists() or (folder / "ruleset.toml").is_symlink()
    except OSError:
        return True


@dataclass
class Registry:
    """Rulesets by id, plus the folders that failed (``failures``: folder name -> error).
    ``find_engine`` finds the engine a folder names (:func:`app.rulesets.find_engine`)."""

    find_engine: EngineLookup

    rulesets: dict[str, Ruleset] = field(default_factory=dict)
    failures: dict[str, RulesetError] = field(default_factory=dict)

    #: where parsed TOML is cached (:mod:`app.rules.cache`); None: no cache
    cache_dir: Path | None = None

    _seen: set[Path] = field(default_factory=set, repr=False)

    @classmethod
    def load(
        cls,
        find_engine: EngineLookup,
        builtin: Path | None = BUILTIN_DIR,
        user: Iterable[Path] = (),
        *,
        only: Iterable[str] | None = None,
        cache_dir: Path | None = None,
    ) -> Registry:
        """Load every ruleset folder under ``builtin`` and each ``user`` directory. A folder
        that fails is recorded in ``failures``; the others still load. A user folder may not
        reuse a built-in id: house rules take a new id so rosters stay unambiguous.

        ``only`` names built-in folders to load now (the app opens the roster of one ruleset
        before it loads the others); :meth:`load_more` adds the rest later."""
        reg = cls(find_engine, cache_dir=cache_dir)
        reg.load_more(builtin, user, only=only)
        return reg

    def load_more(
        self,
        builtin: Path | None = BUILTIN_DIR,
        user: Iterable[Path] = (),
        *,
        only: Iterable[str] | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> None:
        """Load the folders not loaded (or failed) yet; with ``only``, just those built-in
        folders and no user folder. ``stop`` is asked between folders (a worker thread
        stops early when the app quits)."""
        wanted = None if only is None else set(only)
        sources: list[tuple[Path, bool]] = []
        if builtin is not None:
            sources.append((builtin, True))
        if wanted is None:
            sources.extend((Path(u), False) for u in user)
        for root, is_builtin in sources:
            try:
                if not root.is_dir():
                    continue
                folders = sorted(p for p in root.iterdir() if _has_head(p))
            except OSError as exc:  # an unreadable user folder: say so, load the others
                self.failures[str(root)] = RulesetError(
                    root.name, [Problem("", "", f"cannot read the folder {root}: {exc}")]
                )
                continue
            for folder in folders:
                if stop is not None and stop():
                    return
                if folder in self._seen or (wanted is not None and folder.name not in wanted):
                    continue
                self._seen.add(folder)
                self._add(folder, is_builtin)

    def absorb(self, other: Registry) -> None:
        """Take the rulesets and failures of ``other`` (loaded elsewhere, e.g. on a worker
        thread) that this registry does not have yet."""
        for rid, rs in other.rulesets.items():
            if rid not in self.rulesets:
                self.rulesets[rid] = rs
        for key, err in other.failures.items():
            self.failures.setdefault(key, err)
        self._seen |= other._seen

    def _add(self, folder: Path, builtin: bool) -> None:
        key = folder.name if builtin else f"{folder.name} ({folder.parent})"
        try:
            rs = load_ruleset(folder, self.find_engine, builtin=builtin, cache_dir=self.cache_dir)
        except RulesetError as exc:
            self.failures[key] = exc
            return
        except Exception as exc:  # any failure stays with its folder
            # Whatever a folder holds (an extreme value, an unexpected type, a bug it
            # provokes), the failure is confined to that folder and named, never a crash.
            self.failures[key] = RulesetError(
                folder.name,
                [Problem("", "", f"could not be loaded ({type(exc).__name__}: {exc})"[:500])],
            )
            return
        if rs.id in self.rulesets:
            other = self.rulesets[rs.id].folder
            self.failures[key] = RulesetError(
                rs.id,
                [
                    Problem(
                        "ruleset.toml",
                        "ruleset.id",
                        f"id {rs.id!r} is already used by {other}; give the copy a new id",
                    )
                ],
            )
            return
        self.rulesets[rs.id] = rs

    def __iter__(self) -> Iterator[Ruleset]:
        return iter(self.rulesets.values())

    def __len__(self) -> int:
        return len(self.rulesets)

    def __contains__(self, ruleset_id: object) -> bool:
        return ruleset_id in self.rulesets

    def get(self, ruleset_id: str) -> Ruleset:
        try:
            return self.rulesets[ruleset_id]
        except KeyError:
            known = ", ".join(sorted(self.rulesets)) or "none"
            extra = ""
            for err in self.failures.values():
                if err.ruleset == ruleset_id:
                    extra = f"; it failed to load: {err.first}"
            raise KeyError(f"unknown ruleset {ruleset_id!r} (loaded: {known}){extra}") from None

    def ensure(self, ruleset_id: str) -> None:
        """Make sure ``ruleset_id`` is loaded if it can be (a no-op here; see
        :class:`LazyRegistry`)."""

    def failure_lines(self) -> list[str]:
        """One line per failed folder, for the app's status bar and the CLI."""
        return [f"{key}: {err.first}" for key, err in sorted(self.failures.items())]


class LazyRegistry(Registry):
    """A registry that loads a ruleset when it is first asked for: the built-in folder of
    that name alone when there is one, else every folder (a house-rules id is found only by
    reading the folders). Iterating, counting or listing failures loads everything. The
    command line uses it so that ``castra odds quincunx`` reads one ruleset, not five."""

    def __init__(
        self,
        find_engine: EngineLookup,
        builtin: Path | None = BUILTIN_DIR,
        user: Iterable[Path] = (),
        on_load: Callable[[Registry], None] | None = None,
        cache_dir: Path | None = None,
    ) -> None:
        super().__init__(find_engine, cache_dir=cache_dir)
        self._builtin = builtin
        self._user = list(user)
        self._all = False
        self._on_load = on_load

    def load_all(self) -> None:
        if not self._all:
            self._all = True
            self.load_more(self._builtin, self._user)
            # the order a full load gives: built-in folders by name, then the user's
            ordered = sorted(self.rulesets.values(), key=lambda r: (not r.builtin, str(r.folder)))
            self.rulesets = {r.id: r for r in ordered}
            if self._on_load is not None:
                self._on_load(self)

    def ensure(self, ruleset_id: str) -> None:
        if ruleset_id in self.rulesets or self._all:
            return
        if self._builtin is not None and "/" not in ruleset_id and ruleset_id not in (".", ".."):
            try:
                present = (self._builtin / ruleset_id / "ruleset.toml").is_file()
            except (OSError, ValueError):
                present = False
            if present:
                self.load_more(self._builtin, only={ruleset_id})
                if ruleset_id in self.rulesets:
                    return
        self.load_all()

    def get(self, ruleset_id: str) -> Ruleset:
        self.ensure(ruleset_id)
        return super().get(ruleset_id)

    def __contains__(self, ruleset_id: object) -> bool:
        if isinstance(ruleset_id, str):
            self.ensure(ruleset_id)
        return super().__contains__(ruleset_id)

    def __iter__(self) -> Iterator[Ruleset]:
        self.load_all()
        return super().__iter__()

    def __len__(self) -> int:
        self.load_all()
        return super().__len__()

    def failure_lines(self) -> list[str]:
        self.load_all()
        return super().failure_lines()
