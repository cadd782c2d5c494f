"""Rebuild the schema's records from their own JSON dump without validating again.

A ruleset folder is validated in full the first time it loads (:mod:`app.rules.validate`);
:mod:`app.rules.cache` then keeps the validated records' dumps, and a later load rebuilds
the same records from them, with neither pydantic nor its validation (most of the cost of
loading a ruleset, and of ``castra odds`` as a whole process). Validation itself ends with
this rebuild of the validated dump, so a warm load and a validating one make the same
records. The rebuild is typed field by field: a value of the wrong type, or a shape this
module does not know, raises :class:`CacheMismatch` and the loader validates the TOML
instead.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

from app.rules.record import Record


class CacheMismatch(ValueError):
    """The cached dump does not fit the model: validate the files instead."""


Convert = Callable[[Any], Any]


def construct(tp: Any, value: Any) -> Any:
    """``value`` (JSON data dumped from a record of type ``tp``) as that type again."""
    return converter(tp)(value)


_CONVERTERS: dict[Any, Convert] = {}


def converter(tp: Any) -> Convert:
    """The function that rebuilds a value of type ``tp`` from its JSON dump (made once per
    type: the type is read once, not for every value)."""
    found = _CONVERTERS.get(tp)
    if found is None:
        found = _CONVERTERS[tp] = _make(tp)
    return found


def _make(tp: Any) -> Convert:
    origin = get_origin(tp)
    if origin is Annotated:
        return converter(get_args(tp)[0])
    if origin is Union or origin is types.UnionType:
        return _union(get_args(tp))
    if origin is Literal:
        return _literal(get_args(tp))
    if origin is tuple:
        return _tuple(get_args(tp))
    if origin is list:
        return _list(converter(get_args(tp)[0]))
    if origin in (dict, Mapping):
        key_type, value_type = get_args(tp)
        return _dict(converter(key_type), converter(value_type))
    if isinstance(tp, type) and issubclass(tp, Record):
        return _record(tp)
    if isinstance(tp, type) and issubclass(tp, Enum):
        return _enum(tp)
    return _scalar(tp)


def _literal(allowed: tuple[Any, ...]) -> Convert:
    def convert(value: Any) -> Any:
        if value not in allowed:
            raise CacheMismatch(f"{value!r} is not one of {allowed}")
        return value

    return convert


def _tuple(args: tuple[Any, ...]) -> Convert:
    if len(args) == 2 and args[1] is Ellipsis:
        item = converter(args[0])

        def convert(value: Any) -> Any:
            if type(value) is not list:
                raise CacheMismatch("a tuple must be a list")
            return tuple([item(v) for v in value])

        return convert
    items = [converter(a) for a in args]

    def convert_fixed(value: Any) -> Any:
        if type(value) is not list:
            raise CacheMismatch("a tuple must be a list")
        if len(items) != len(value):
            raise CacheMismatch("a tuple of the wrong length")
        return tuple([c(v) for c, v in zip(items, value, strict=True)])

    return convert_fixed


def _list(item: Convert) -> Convert:
    def convert(value: Any) -> Any:
        if type(value) is not list:
            raise CacheMismatch("a list must be a list")
        return [item(v) for v in value]

    return convert


def _dict(key: Convert, item: Convert) -> Convert:
    def convert(value: Any) -> Any:
        if type(value) is not dict:
            raise CacheMismatch("a table must be an object")
        return {key(k): item(v) for k, v in value.items()}

    return convert


def _enum(tp: type[Enum]) -> Convert:
    def convert(value: Any) -> Any:
        try:
            return tp(value)
        except ValueError:
            raise CacheMismatch(f"{value!r} is not a {tp.__name__}") from None

    return convert


def _scalar(tp: Any) -> Convert:
    if tp is Any:
        return lambda value: value
    if tp is float:

        def convert_float(value: Any) -> Any:
            kind = type(value)
            if kind is float:
                return value
            if kind is int:
                return float(value)
            raise CacheMismatch(f"{value!r} is not a float")

        return convert_float
    if tp in (bool, int, str, type(None)):
        exact = tp  # by exact type: a bool is not an int here

        def convert(value: Any) -> Any:
            if type(value) is not exact:
                raise CacheMismatch(f"{value!r} is not a {getattr(exact, '__name__', exact)}")
            return value

        return convert
    raise CacheMismatch(f"no rebuild for {tp!r}")


def _union(args: tuple[Any, ...]) -> Convert:
    optional = type(None) in args
    choices = [converter(a) for a in args if a is not type(None)]
    names = [a for a in args if a is not type(None)]

    def convert(value: Any) -> Any:
        if value is None:
            if optional:
                return None
            raise CacheMismatch("None where a value belongs")
        for choice in choices:  # the first that fits, in the order the union gives
            try:
                return choice(value)
            except CacheMismatch:
                continue
        raise CacheMismatch(f"{value!r} fits none of {names}")

    return convert


def _record(record: type[Record]) -> Convert:
    fields: dict[str, Convert] = {}  # filled on first use: a record may contain its own type

    def convert(value: Any) -> Any:
        if type(value) is not dict:
            raise CacheMismatch(f"{record.__name__} must be an object")
        if not fields:
            fields.update({name: converter(tp) for name, tp in _field_types(record).items()})
        built = {}
        for name, item in value.items():
            convert_field = fields.get(name)
            if convert_field is None:
                raise CacheMismatch(f"{record.__name__} has no field {name!r}")
            built[name] = convert_field(item)
        try:
            return record.model_construct(**built)
        except TypeError as exc:  # a required field missing
            raise CacheMismatch(str(exc)) from None

    return convert


_FIELD_TYPES: dict[type[Record], dict[str, Any]] = {}
_EVALUATED: dict[tuple[str, str], Any] = {}
_NOTHING = object()


def _field_types(record: type[Record]) -> dict[str, Any]:
    """A record class's fields and their types, its annotations evaluated once.

    The schema's modules write annotations as strings (``from __future__ import
    annotations``); each is evaluated in its class's module, the same text once per module.
    That is several times faster than ``typing.get_type_hints``, which the few annotations
    that are not plain strings are left to."""
    found = _FIELD_TYPES.get(record)
    if found is None:
        found = {}
        hints: dict[str, Any] | None = None
        for klass in reversed(record.__mro__):
            own = klass.__dict__.get("__annotations__", {})  # noqa: RUF063 - the class's own
            module = sys.modules[klass.__module__].__dict__
            for name, annotation in own.items():
                if name not in record.__record_fields__:
                    continue
                if isinstance(annotation, str):
                    key = (klass.__module__, annotation)
                    tp = _EVALUATED.get(key, _NOTHING)
                    if tp is _NOTHING:
                        # the annotation text of our own schema module, never data
                        tp = _EVALUATED[key] = eval(annotation, module)
                else:
                    hints = hints or get_type_hints(record, include_extras=True)
                    tp = hints[name]
                found[name] = tp
        _FIELD_TYPES[record] = found
    return found


def dump(record: Record) -> Any:
    return record.model_dump(mode="json")
