"""An engine's mechanics class is assembled from chapters (one mixin class per chapter of the
rules, each in its own module of the engine's package), and a reader of one chapter's file
should know what the chapter may use on ``self`` (docs/reference/code-layout.md, "The
chapters of an engine"). Read from each chapter's source (``ast``), every ``self.name`` in a
chapter's methods must be provided by:

* the chapter itself (its methods, class attributes and annotations, and what its methods
  assign to ``self``);
* its engine's base class (the classes of the engine's ``base.py``) or the common base
  (:class:`~app.rules.mechanics.Mechanics` and the mixins it is made of);
* a chapter it names as a base (that chapter's own names: not what that chapter inherits in
  turn from chapters it names, which the reader would have to look for);
* a ``typing.Protocol`` it names as a base: its needs, what it uses from chapters it cannot
  name (the final class brings them; :func:`test_every_need_is_met` checks that it does).

And no class lists a base that another of its bases already brings, a chapter names only
chapters it uses (or whose hooks it extends), and the final class of each engine is the one
class that brings every chapter together.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import sys
import textwrap
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from app.rules.mechanics import Mechanics
from app.rulesets import engines

ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- the reading


def _source(cls: type) -> tuple[ast.ClassDef, int]:
    lines, start = inspect.getsourcelines(cls)
    node = ast.parse(textwrap.dedent("".join(lines))).body[0]
    assert isinstance(node, ast.ClassDef), cls
    return node, start


def _methods(node: ast.ClassDef) -> list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]]:
    """The class's own functions with the name their first argument gives the instance (or
    the class): static methods have none."""
    out = []
    for fn in node.body:
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) or not fn.args.args:
            continue
        if any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list):
            continue
        out.append((fn, fn.args.args[0].arg))
    return out


@cache
def own_names(cls: type) -> frozenset[str]:
    """What ``cls`` itself provides: its attributes and annotations, and what its methods
    assign to ``self``."""
    names = set(vars(cls)) | set(vars(cls).get("__annotations__", {}))
    try:
        node, _ = _source(cls)
    except (OSError, TypeError):  # built in: object, typing.Generic
        return frozenset(names)
    for fn, me in _methods(node):
        for sub in ast.walk(fn):
            targets: list[ast.expr] = []
            if isinstance(sub, ast.Assign):
                targets = sub.targets
            elif isinstance(sub, ast.AnnAssign | ast.AugAssign):
                targets = [sub.target]
            for target in targets:
                for t in ast.walk(target):
                    if (
                        isinstance(t, ast.Attribute)
                        and isinstance(t.value, ast.Name)
                        and t.value.id == me
                    ):
                        names.add(t.attr)
    return frozenset(names)


def self_uses(cls: type) -> list[tuple[str, int]]:
    """Every ``self.name`` (``cls.name`` in a class method) in ``cls``'s own methods, with
    its line in the file."""
    node, start = _source(cls)
    out = []
    for fn, me in _methods(node):
        for sub in ast.walk(fn):
            if (
                isinstance(sub, ast.Attribute)
                and isinstance(sub.value, ast.Name)
                and sub.value.id == me
            ):
                out.append((sub.attr, start + sub.lineno - 1))
    return out


# --------------------------------------------------------------------------- an engine's classes


def _machinery(name: str) -> bool:
    """Python's names, and those ``typing.Protocol`` sets on its subclasses."""
    dunder = name.startswith("__") and name.endswith("__")
    return dunder or name in ("_is_protocol", "_is_runtime_protocol", "_abc_impl")


def _is_protocol(cls: type) -> bool:
    return bool(vars(cls).get("_is_protocol", False))


class Chapters:
    """The chapters of one engine package, read at run time."""

    def __init__(self, package: str) -> None:
        self.package = package
        root = importlib.import_module(package)
        self.modules: list[ModuleType] = [
            importlib.import_module(f"{package}.{m.name}")
            for m in pkgutil.iter_modules(root.__path__)
        ]
        self.base_module = f"{package}.base"
        self.chapters = [
            k
            for module in self.modules
            if module.__name__ != self.base_module
            for k in vars(module).values()
            if isinstance(k, type)
            and k.__module__ == module.__name__
            and not _is_protocol(k)
            and any(self.is_base(b) or b is Mechanics for b in k.__mro__[1:])
        ]
        finals = [k for k in self.chapters if k.__module__ == f"{package}.mechanics"]
        assert len(finals) == 1, f"{package}.mechanics: one final class, found {finals}"
        self.final = finals[0]

    def is_base(self, cls: type) -> bool:
        return cls.__module__ == self.base_module

    def is_chapter(self, cls: type) -> bool:
        return cls in self.chapters

    def is_need(self, cls: type) -> bool:
        """A Protocol of the engine's: what a chapter needs of chapters it cannot name."""
        return _is_protocol(cls) and cls.__module__.startswith(f"{self.package}.")

    def named(self, cls: type) -> list[type]:
        """The chapters and needs ``cls`` names as its bases."""
        return [b for b in cls.__bases__ if self.is_chapter(b) or self.is_need(b)]

    def provided(self, cls: type) -> set[str]:
        """What ``cls`` may use on ``self``."""
        names = set(own_names(cls))
        for k in cls.__mro__[1:]:
            if not self.is_chapter(k) and not self.is_need(k):
                names |= own_names(k)  # the engine's base, the common base
        for b in self.named(cls):
            names |= own_names(b)
        return names

    def violations(self, cls: type) -> list[str]:
        path = Path(inspect.getsourcefile(cls) or "?").resolve()
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        allowed = self.provided(cls)
        named = ", ".join(b.__name__ for b in self.named(cls)) or "no chapter"
        out = []
        for name, line in self_uses(cls):
            if name in allowed:
                continue
            owners = [k.__name__ for k in (*cls.__mro__, *self.chapters) if name in own_names(k)]
            owner = f"it is {owners[0]}'s" if owners else "no chapter has it"
            out.append(
                f"{where}:{line}: {cls.__name__} uses self.{name}, which neither it, its "
                f"engine's base, the common base nor what it names ({named}) provides "
                f"({owner}: name that chapter as a base, or declare the need in a Protocol)"
            )
        return out

    def redundant_bases(self, cls: type) -> list[str]:
        return [
            f"{cls.__name__} lists {b.__name__}, which {other.__name__} already brings"
            for b in cls.__bases__
            for other in cls.__bases__
            if other is not b and b in other.__mro__
        ]

    def unused_bases(self, cls: type) -> list[str]:
        """The chapters and needs ``cls`` names of which it neither uses nor extends
        anything (the final class names chapters to bring them together: only its needs)."""
        used = {n for n in {name for name, _ in self_uses(cls)} | own_names(cls)}
        return [
            f"{cls.__name__} names {b.__name__} but uses nothing of it"
            for b in cls.__bases__
            if (self.is_need(b) or (self.is_chapter(b) and cls is not self.final))
            and not {n for n in used & own_names(b) if not _machinery(n)}
        ]

    def unmet_needs(self) -> list[str]:
        """Needs (Protocol members) that no chapter of the final class provides."""
        out = []
        for need in self.final.__mro__:
            if not self.is_need(need):
                continue
            for name in own_names(need):
                if _machinery(name):
                    continue
                first = next(k for k in self.final.__mro__ if name in vars(k))
                if _is_protocol(first):
                    final = self.final.__name__
                    out.append(f"{need.__name__}.{name}: no chapter of {final} has it")
        return out


PACKAGES = [e.package for e in engines()]


@pytest.fixture(scope="module", params=PACKAGES)
def book(request: pytest.FixtureRequest) -> Chapters:
    return Chapters(request.param)


# --------------------------------------------------------------------------- the rules


def test_each_chapter_uses_only_what_its_file_names(book: Chapters) -> None:
    found = [v for cls in book.chapters for v in book.violations(cls)]
    assert not found, "\n".join(found)


def test_no_class_lists_a_base_another_base_brings(book: Chapters) -> None:
    found = [v for cls in book.chapters for v in book.redundant_bases(cls)]
    assert not found, "\n".join(found)


def test_a_chapter_names_only_the_chapters_it_uses(book: Chapters) -> None:
    found = [v for cls in book.chapters for v in book.unused_bases(cls)]
    assert not found, "\n".join(found)


def test_every_need_is_met(book: Chapters) -> None:
    assert not book.unmet_needs()


def test_the_final_class_brings_every_chapter(book: Chapters) -> None:
    assert set(book.chapters) <= set(book.final.__mro__)
    assert issubclass(book.final, Mechanics)
    assert book.final.engine == book.package.rpartition(".")[2].replace("_", "-")


def test_chapter_names_are_not_shared_between_engines() -> None:
    """A chapter's class name says its engine: none is shared with another engine's, nor
    with a class of the common base."""
    owners: dict[str, list[str]] = {}
    for package in PACKAGES:
        for cls in Chapters(package).chapters:
            owners.setdefault(cls.__name__, []).append(package)
    for cls in Mechanics.__mro__:
        owners.setdefault(cls.__name__, []).append(cls.__module__)
    assert {n: p for n, p in owners.items() if len(p) > 1} == {}


# --------------------------------------------------------------------------- the check can fail

PLANTED = {
    "__init__.py": "",
    "base.py": """
        from app.rules.mechanics import Mechanics

        class PlantBase(Mechanics):
            def helper(self) -> int:
                return 1
        """,
    "first.py": """
        from plant.base import PlantBase

        class First(PlantBase):
            def one(self) -> int:
                return self.helper()
        """,
    "second.py": """
        from typing import Protocol

        from plant.first import First

        class SecondNeeds(Protocol):
            def three(self) -> int: ...
            def four(self) -> int: ...

        class Second(First, SecondNeeds):
            def two(self) -> int:
                return self.one() + self.three() + self.four()
        """,
    "third.py": """
        from plant.second import Second

        class Third(Second):
            def three(self) -> int:
                self.cache = 3
                return self.cache + self.two() + self.one()
        """,
    "fourth.py": """
        from plant.first import First

        class Fourth(First):
            def five(self) -> int:
                return 5
        """,
    "mechanics.py": """
        from plant.first import First
        from plant.third import Third

        class PlantMechanics(Third, First):
            engine = "plant"
        """,
}


def test_a_planted_violation_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "plant").mkdir()
    for name, text in PLANTED.items():
        (tmp_path / "plant" / name).write_text(textwrap.dedent(text), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        plant = Chapters("plant")
        names = {k.__name__: k for k in plant.chapters}
        assert set(names) == {"First", "Second", "Third", "Fourth", "PlantMechanics"}
        assert plant.final is names["PlantMechanics"]
        assert plant.violations(names["First"]) == []
        assert plant.violations(names["Second"]) == []
        # Third reaches First's one() only through Second: the line is named
        [found] = plant.violations(names["Third"])
        assert found.startswith(f"{tmp_path / 'plant' / 'third.py'}:7: Third uses self.one, ")
        assert "(Second) provides (it is First's" in found
        assert plant.redundant_bases(names["PlantMechanics"]) == [
            "PlantMechanics lists First, which Third already brings"
        ]
        assert plant.unused_bases(names["Third"]) == []
        assert plant.unused_bases(names["Fourth"]) == ["Fourth names First but uses nothing of it"]
        assert plant.unmet_needs() == ["SecondNeeds.four: no chapter of PlantMechanics has it"]
    finally:
        for module in [m for m in sys.modules if m == "plant" or m.startswith("plant.")]:
            del sys.modules[module]
