"""Validate ruleset data with pydantic into the schema's plain records.

The schema's classes are :class:`~app.rules.record.Record` subclasses declared as pydantic
models are (annotations, ``Field`` constraints, validators), so that a start that reads the
validated cache never imports pydantic. When files must be validated, each record class is
turned here into the pydantic model its declaration describes: the same field names, types,
defaults and constraints, the configuration every schema model had (unknown keys refused,
frozen, strings stripped), and the record's own checks as pydantic validators. Errors are
pydantic's, so every message and key path is what validating the old models gave.

Validated data becomes records through :func:`app.rules.construct.construct` of its JSON
dump: the rebuild a warm start makes from the cache, so the two cannot differ.
"""

from __future__ import annotations

import json
import types
from collections.abc import Mapping
from enum import Enum
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

import pydantic
from pydantic import BaseModel, ConfigDict, create_model

from app.rules.construct import construct
from app.rules.record import Check, FieldSpec, Record, Validator

R = TypeVar("R", bound=Record)

CONFIG = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True, defer_build=True)


def validate_json(record: type[R], data: Mapping[str, Any]) -> R:
    """``data`` validated in pydantic's strict JSON mode as ``record``, as a record. Raises
    :class:`pydantic.ValidationError`."""
    model = pydantic_model(record)
    valid = model.model_validate_json(json.dumps(data, ensure_ascii=False), strict=True)
    built: R = construct(record, valid.model_dump(mode="json"))
    return built


_MODELS: dict[type[Record], type[BaseModel]] = {}


def pydantic_model(record: type[Record]) -> type[BaseModel]:
    """The pydantic model ``record``'s declaration describes (made once per class)."""
    made = _MODELS.get(record)
    if made is None:
        made = _MODELS[record] = _make_model(record)
    return made


def _make_model(record: type[Record]) -> type[BaseModel]:
    hints = get_type_hints(record, include_extras=True)
    fields: dict[str, Any] = {}
    for name, spec in record.__record_fields__.items():
        constraints = spec.constraints
        if spec.default_factory is not None:
            info = pydantic.Field(default_factory=_factory(spec.default_factory), **constraints)
        elif spec.required:
            info = pydantic.Field(**constraints)
        else:
            info = pydantic.Field(default=_plain_default(spec.default), **constraints)
        fields[name] = (translate(hints[name]), info)
    validators: dict[str, Any] = {}
    for v in record.__record_validators__:
        validators[v.name] = _validator(record, v)
    return create_model(
        record.__name__,
        __config__=CONFIG,
        __module__=record.__module__,
        __validators__=validators,
        **fields,
    )


def _factory(factory: Any) -> Any:
    if isinstance(factory, type) and issubclass(factory, Record):
        return pydantic_model(factory)
    return factory


def _plain_default(value: Any) -> Any:
    if isinstance(value, Record):
        raise TypeError("a record as a field's default: declare a default_factory instead")
    return value


def _validator(record: type[Record], v: Validator) -> Any:
    if v.kind == "model":
        check = v.function

        def after(model: BaseModel) -> BaseModel:
            check(construct(record, model.model_dump(mode="json")))
            return model

        after.__name__ = v.name
        return pydantic.model_validator(mode="after")(after)
    # a class method or a plain function of (value, info): pydantic calls either rightly
    return pydantic.field_validator(*v.fields)(v.function)


def translate(tp: Any) -> Any:
    """A schema annotation with every record class replaced by its pydantic model and every
    marker of :mod:`app.rules.record` by pydantic's own."""
    origin = get_origin(tp)
    if origin is Annotated:
        base, *meta = get_args(tp)
        return Annotated[(translate(base), *(_marker(m) for m in meta))]
    if origin is Union or origin is types.UnionType:
        return Union[tuple(translate(a) for a in get_args(tp))]  # noqa: UP007 - built from a tuple
    if origin is Literal:
        return tp
    if origin in (tuple, list, dict, Mapping):
        args = tuple(a if a is Ellipsis else translate(a) for a in get_args(tp))
        return origin[args]
    if isinstance(tp, type) and issubclass(tp, Record):
        return pydantic_model(tp)
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp
    return tp


def _marker(meta: Any) -> Any:
    if isinstance(meta, FieldSpec):
        return pydantic.Field(**meta.constraints)
    if isinstance(meta, Check):
        if meta.kind == "after":
            return pydantic.AfterValidator(meta.function)
        if meta.kind == "plain":
            return pydantic.PlainValidator(meta.function)
        return pydantic.Strict()
    return meta
