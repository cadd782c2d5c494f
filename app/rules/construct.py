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
from collections.abc import Mapping
from enum import Enum
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

from app.rules.record import Record


class CacheMismatch(ValueError):
    """The cached dump does not fit the model: validate the files instead."""


def construct(tp: Any, value: Any) -> Any:
    """``value`` (JSON data dumped from a model of type ``tp``) as that type again."""
    origin = get_origin(tp)
    if origin is Annotated:
        return construct(get_args(tp)[0], value)
    if origin is Union or origin is types.UnionType:
        return _union(get_args(tp), value)
    if origin is Literal:
        if value not in get_args(tp):
            raise CacheMismatch(f"{value!r} is not one of {get_args(tp)}")
        return value
    if origin is tuple:
        args = get_args(tp)
        if not isinstance(value, list):
            raise CacheMismatch("a tuple must be a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(construct(args[0], v) for v in value)
        if len(args) != len(value):
            raise CacheMismatch("a tuple of the wrong length")
        return tuple(construct(a, v) for a, v in zip(args, value, strict=True))
    if origin is list:
        if not isinstance(value, list):
            raise CacheMismatch("a list must be a list")
        return [construct(get_args(tp)[0], v) for v in value]
    if origin in (dict, Mapping):
        if not isinstance(value, dict):
            raise CacheMismatch("a table must be an object")
        key_type, value_type = get_args(tp)
        return {construct(key_type, k): construct(value_type, v) for k, v in value.items()}
    if isinstance(tp, type) and issubclass(tp, Record):
        return _record(tp, value)
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(value)
        except ValueError:
            raise CacheMismatch(f"{value!r} is not a {tp.__name__}") from None
    return _scalar(tp, value)


def _scalar(tp: Any, value: Any) -> Any:
    if tp is Any:
        return value
    if tp is bool:
        if isinstance(value, bool):
            return value
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif tp is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    elif tp is str:
        if isinstance(value, str):
            return value
    elif tp is type(None):
        if value is None:
            return None
    else:
        raise CacheMismatch(f"no rebuild for {tp!r}")
    raise CacheMismatch(f"{value!r} is not a {getattr(tp, '__name__', tp)}")


def _union(args: tuple[Any, ...], value: Any) -> Any:
    if value is None:
        if type(None) in args:
            return None
        raise CacheMismatch("None where a value belongs")
    choices = [a for a in args if a is not type(None)]
    if len(choices) == 1:
        return construct(choices[0], value)
    for choice in choices:  # the first that fits, in the order the union gives (as pydantic)
        try:
            return construct(choice, value)
        except CacheMismatch:
            continue
    raise CacheMismatch(f"{value!r} fits none of {choices}")


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


def _record(record: type[Record], value: Any) -> Record:
    if not isinstance(value, dict):
        raise CacheMismatch(f"{record.__name__} must be an object")
    fields = _field_types(record)
    unknown = set(value) - set(fields)
    if unknown:
        raise CacheMismatch(f"{record.__name__} has no field {sorted(unknown)[0]!r}")
    built = {name: construct(tp, value[name]) for name, tp in fields.items() if name in value}
    try:
        return record.model_construct(**built)
    except TypeError as exc:  # a required field missing
        raise CacheMismatch(str(exc)) from None


def dump(record: Record) -> Any:
    return record.model_dump(mode="json")
