"""Plain frozen records for the ruleset schema, declared the way pydantic models are.

A ruleset's typed objects (its troop types, tables, army lists) are made on every start of
the window and of most commands. As pydantic models they cost the import of pydantic and the
building of some 130 model classes (about 90 ms) before a single value is read, even when
the ruleset comes from the validated cache (:mod:`app.rules.cache`) and nothing is
validated. The schema classes are therefore plain records: subclasses of :class:`Record`,
declared with annotations, defaults and the markers below (``Field``, ``AfterValidator``,
``model_validator``, ...), which do nothing here but note what pydantic should check.

:mod:`app.rules.validate` turns each record class into the pydantic model its declaration
describes, only when ruleset files are validated (a changed folder, a house ruleset, an
import), and the validated data becomes records again through :mod:`app.rules.construct`,
the same rebuild a warm start uses. So the records never validate themselves: one made in
code is trusted, as a pydantic ``model_construct`` would be.

A record is frozen (attributes cannot be set), compares and hashes by its type and fields
like a frozen pydantic model, and keeps the few pydantic methods the code and tests use
(``model_fields``, ``model_dump``, ``model_copy``, ``model_construct``). Nothing here
imports pydantic.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from typing import Any, ClassVar, Literal, Protocol, Self, dataclass_transform

_MISSING: Any = object()


class FieldSpec:
    """What ``Field(...)`` noted: a default (or a factory) and pydantic's constraints. A
    field with neither is required."""

    __slots__ = ("constraints", "default", "default_factory")

    def __init__(
        self, default: Any, default_factory: Callable[[], Any] | None, constraints: dict[str, Any]
    ) -> None:
        self.default = default
        self.default_factory = default_factory
        self.constraints = constraints

    @property
    def required(self) -> bool:
        return self.default is _MISSING and self.default_factory is None

    def __repr__(self) -> str:
        return f"Field({self.constraints!r})"


def Field(
    default: Any = _MISSING,
    *,
    default_factory: Callable[[], Any] | None = None,
    **constraints: Any,
) -> Any:
    """A field's default and its constraints (pydantic's ``Field`` arguments: ``ge``, ``le``,
    ``gt``, ``min_length``, ``max_length``, ``pattern``, ``strict``, ``allow_inf_nan``),
    either as a field's default or inside ``Annotated[...]``."""
    return FieldSpec(default, default_factory, constraints)


class Check:
    """A check pydantic makes on one value: ``after`` (the function runs on the validated
    value), ``plain`` (the function is the whole validation), ``strict`` (pydantic's strict
    mode for that value)."""

    __slots__ = ("function", "kind")

    def __init__(self, kind: Literal["after", "plain", "strict"], function: Any = None) -> None:
        self.kind = kind
        self.function = function


def AfterValidator(function: Callable[[Any], Any]) -> Check:
    return Check("after", function)


def PlainValidator(function: Callable[[Any], Any]) -> Check:
    return Check("plain", function)


def Exact() -> Check:
    """Pydantic's strict mode for one value (``Strict()`` there; ours is the base model)."""
    return Check("strict")


class ValidationInfo(Protocol):
    """What a field check receives besides the value: the fields validated before it."""

    @property
    def data(self) -> dict[str, Any]: ...


class Validator:
    """A record's own check: ``model`` (the whole record once its fields are valid; the
    function takes the record and raises ``ValueError``) or ``field`` (one field's value,
    with the fields before it; the function takes the class, the value and a
    :class:`ValidationInfo`, and returns the value)."""

    __slots__ = ("fields", "function", "kind", "name")

    def __init__(
        self, kind: Literal["model", "field"], fields: tuple[str, ...], function: Any
    ) -> None:
        self.kind = kind
        self.fields = fields
        #: a function, or a classmethod (called with the class first)
        self.function = function
        #: the class attribute it was declared as (a subclass's of that name replaces it)
        self.name = ""


def model_validator(*, mode: Literal["after"]) -> Callable[[Any], Any]:
    """Mark a method that checks the whole record after its fields (pydantic's
    ``model_validator(mode="after")``)."""

    def mark(function: Callable[..., Any]) -> Any:
        return Validator("model", (), function)

    return mark


def field_validator(*fields: str) -> Callable[[Any], Any]:
    """Mark a class method (or a function) that checks ``fields`` (pydantic's
    ``field_validator``)."""

    def mark(function: Any) -> Any:
        return Validator("field", fields, function)

    return mark


_IMMUTABLE = (str, int, float, bool, tuple, frozenset, bytes, type(None), Enum)


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(Field,))
class Record:
    """Base of the schema's records (see the module's text)."""

    #: field name -> its declaration (a plain default is noted as ``Field(default)``), in
    #: declaration order, the base classes' fields first (as pydantic orders them)
    __record_fields__: ClassVar[dict[str, FieldSpec]] = {}
    #: the record's own checks, for :mod:`app.rules.validate`
    __record_validators__: ClassVar[tuple[Validator, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields: dict[str, FieldSpec] = {}
        validators: dict[str, Validator] = {}
        for base in reversed(cls.__mro__):
            if base is not cls and issubclass(base, Record) and base is not Record:
                fields.update(base.__record_fields__)
                for v in base.__record_validators__:
                    validators[v.name] = v
        own = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 - the class's own, as strings
        for name in fields.keys() & cls.__dict__.keys() - own.keys():
            # pydantic refused this; a record would silently keep the base's default
            raise TypeError(f"{cls.__name__}.{name}: a field's new default needs its annotation")
        for name, annotation in own.items():
            if str(annotation).startswith(("ClassVar", "typing.ClassVar")):
                continue
            value = cls.__dict__.get(name, _MISSING)
            if isinstance(value, FieldSpec):
                delattr(cls, name)
                fields[name] = value
            else:
                fields[name] = FieldSpec(value, None, {})
        for attr, value in list(cls.__dict__.items()):
            if isinstance(value, Validator):
                value.name = attr
                validators[attr] = value
                delattr(cls, attr)
        cls.__record_fields__ = fields
        cls.__record_validators__ = tuple(validators.values())
        cls.model_fields = fields

    def __init__(self, **values: Any) -> None:
        fields = type(self).__record_fields__
        unknown = values.keys() - fields.keys()
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        for name, spec in fields.items():
            if name in values:
                continue
            if spec.default_factory is not None:
                values[name] = spec.default_factory()
            elif spec.default is _MISSING:
                raise TypeError(f"{type(self).__name__} needs {name!r}")
            elif isinstance(spec.default, (*_IMMUTABLE, Record)):
                values[name] = spec.default
            else:  # a mutable default is each record's own, as pydantic copies it
                values[name] = copy.deepcopy(spec.default)
        object.__setattr__(self, "__dict__", {name: values[name] for name in fields})

    # pydantic's names for what the code and the tests use

    #: the fields' names (pydantic's name; the values are not pydantic's field infos)
    model_fields: ClassVar[Mapping[str, object]] = {}

    @classmethod
    def model_construct(cls, **values: Any) -> Self:
        """A record of ``values`` (and the defaults of the fields they leave out)."""
        return cls(**values)

    def model_copy(self, *, update: Mapping[str, Any] | None = None) -> Self:
        """This record with ``update``'s fields replaced."""
        return type(self)(**{**self.__dict__, **(update or {})})

    def model_dump(
        self, *, mode: Literal["python", "json"] = "python", exclude: Iterable[str] = ()
    ) -> dict[str, Any]:
        """The fields as plain data: records as dicts; with ``mode="json"``, tuples as lists
        and enumerations as their values (what :mod:`app.rules.construct` reads back)."""
        skip = set(exclude)
        return {
            name: _dump(value, mode == "json")
            for name, value in self.__dict__.items()
            if name not in skip
        }

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: {name!r} cannot be set")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: {name!r} cannot be deleted")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((type(self), *self.__dict__.values()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"{type(self).__name__}({inner})"


def _dump(value: Any, json: bool) -> Any:
    if isinstance(value, Record):
        return value.model_dump(mode="json" if json else "python")
    if isinstance(value, Enum):
        return value.value if json else value
    if isinstance(value, tuple | list):
        items = [_dump(v, json) for v in value]
        return items if json or isinstance(value, list) else tuple(items)
    if isinstance(value, dict):
        return {_dump(k, json): _dump(v, json) for k, v in value.items()}
    return value
