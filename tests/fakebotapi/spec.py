"""The Bot API as data: methods, parameters and types from api.json, and a strict validator.

api.json is Bot API 10.0 in the format of PaulSonOfLars/telegram-bot-api-spec (MIT licence, see
LICENSE-NOTE.md). Every parameter of a request is decoded from what arrives on the wire (form
fields are strings, JSON-serialized objects arrive as JSON text, uploaded files as multipart parts)
and checked against its declared types, recursing field by field into objects such as
InlineKeyboardMarkup, InputMediaPhoto or BotCommandScopeChat. The same checker validates the
objects the fake itself returns (self-check), so a response PTB could not parse is caught too.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Spec", "Upload", "load_spec", "DEFAULT_SPEC_PATH"]

DEFAULT_SPEC_PATH = Path(__file__).with_name("api.json")

_INT_RE = re.compile(r"-?[0-9]+")
_SCALARS = ("Integer", "Float", "Boolean", "String")
_DISCRIMINATOR_FIELDS = ("type", "source", "status")
# String fields of InputMedia* and friends that may say "attach://<part name>"
_ATTACHABLE = (".media", ".thumbnail", ".cover")
_CONST_RE = re.compile(r"(?:must be|always)\s+[\"“]?([A-Za-z0-9_]+)")


@dataclass(frozen=True)
class Upload:
    """One multipart file part."""

    name: str
    filename: str
    content: bytes
    content_type: str | None = None


@dataclass
class _Ctx:
    """One validation pass: where files come from, and what went wrong."""

    output: bool = False  # validating something the fake returns (no decoding leniency)
    files: dict[str, Upload] = field(default_factory=dict)
    used_files: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)

    def fail(self, path: str, message: str) -> None:
        self.errors.append(f"{path}: {message}" if path else message)


class Spec:
    """Methods and types of one api.json."""

    def __init__(self, data: dict):
        self.version: str = data.get("version", "?")
        self.methods: dict[str, dict] = data["methods"]
        self.types: dict[str, dict] = data["types"]
        self._lower = {name.lower(): name for name in self.methods}
        self._fields = {
            name: {f["name"]: f for f in t.get("fields", [])} for name, t in self.types.items()
        }
        self._method_fields = {
            name: {f["name"]: f for f in m.get("fields", [])} for name, m in self.methods.items()
        }
        # subtype name -> (discriminator field, constant) when the docs state one
        self._const: dict[str, tuple[str, str]] = {}
        for name, fields in self._fields.items():
            for fname in _DISCRIMINATOR_FIELDS:
                f = fields.get(fname)
                if f and f["types"] == ["String"]:
                    m = _CONST_RE.search(f["description"])
                    if m:
                        self._const[name] = (fname, m.group(1))
                        break

    # ---- lookup -------------------------------------------------------------------------------

    def canonical_method(self, name: str) -> str | None:
        """The method's canonical name (Telegram matches method names case-insensitively)."""
        return self._lower.get(name.lower())

    def method_fields(self, method: str) -> dict[str, dict]:
        return self._method_fields[method]

    def returns(self, method: str) -> list[str]:
        return self.methods[method]["returns"]

    def type_fields(self, type_name: str) -> dict[str, dict]:
        return self._fields[type_name]

    # ---- requests -----------------------------------------------------------------------------

    def decode_request(
        self, method: str, raw: dict[str, Any], uploads: dict[str, Upload], *, json_body: bool
    ) -> tuple[dict[str, Any], list[str]]:
        """Decode and validate the parameters of a request to `method` (canonical name).

        raw: parameter name -> str (form field), Upload (multipart file part) or, for a JSON body,
        any JSON value. uploads: every multipart file part by its part name (also those that are
        referenced as attach://name). Returns (decoded params, errors). Decoded files are bytes;
        an InputMedia's attach:// media is replaced by the uploaded bytes.
        """
        fields = self._method_fields[method]
        ctx = _Ctx(files=dict(uploads))
        out: dict[str, Any] = {}
        for name, value in raw.items():
            f = fields.get(name)
            if f is None:
                if isinstance(value, Upload) and name in uploads:
                    continue  # an attach:// part; checked below for being referenced
                ctx.fail(name, f"unknown parameter {name!r} for method {method}")
                continue
            if isinstance(value, Upload):
                ctx.used_files.add(name)
            decoded = self._decode_top(value, f["types"], name, ctx, json_body)
            if decoded is not _INVALID:
                out[name] = decoded
        for name, f in fields.items():
            if f["required"] and name not in raw:
                ctx.fail(name, f"required parameter {name!r} of {method} is missing")
        for part in uploads:
            if part not in ctx.used_files:
                ctx.fail(part, f"uploaded file part {part!r} is not referenced by any parameter")
        return out, ctx.errors

    def _decode_top(self, value: Any, types: list[str], path: str, ctx: _Ctx, json_body: bool):
        if isinstance(value, Upload):
            if "InputFile" in types:
                return value.content
            ctx.fail(path, f"a file was uploaded, but the parameter takes {' or '.join(types)}")
            return _INVALID
        if json_body:
            if isinstance(value, str) and not any(t in _SCALARS or t == "InputFile" for t in types):
                value = self._json_text(value, path, ctx)
                if value is _INVALID:
                    return _INVALID
            return self._check(value, types, path, ctx, lenient_scalars=True)
        if not isinstance(value, str):  # pragma: no cover - form values are always strings
            ctx.fail(path, "unexpected value")
            return _INVALID
        # a form field: scalar text or JSON text
        errors = []
        for t in types:
            if t == "Integer":
                if _INT_RE.fullmatch(value):
                    return int(value)
                errors.append(f"{value!r} is not an Integer")
            elif t == "Float":
                try:
                    f = float(value)
                except ValueError:
                    errors.append(f"{value!r} is not a Float")
                else:
                    if math.isfinite(f):
                        return f
                    errors.append(f"{value!r} is not a finite Float")
            elif t == "Boolean":
                if value in ("true", "false", "True", "False", "1", "0"):
                    return value in ("true", "True", "1")
                errors.append(f"{value!r} is not a Boolean (true/false)")
            elif t == "String":
                return self._attach(value, path, ctx) if "InputFile" in types else value
            elif t == "InputFile":
                if value.startswith("attach://"):
                    return self._attach(value, path, ctx)
                errors.append("an InputFile must be uploaded as a multipart file part")
            else:
                decoded = self._json_text(value, path, ctx)
                if decoded is _INVALID:
                    return _INVALID
                return self._check(decoded, types, path, ctx)
        ctx.fail(path, "; ".join(errors))
        return _INVALID

    def _attach(self, value: str, path: str, ctx: _Ctx):
        if not value.startswith("attach://"):
            return value
        part = value[len("attach://") :]
        up = ctx.files.get(part)
        if up is None:
            ctx.fail(path, f"{value!r} refers to no uploaded file part")
            return _INVALID
        ctx.used_files.add(part)
        return up.content

    @staticmethod
    def _json_text(value: str, path: str, ctx: _Ctx):
        try:
            return json.loads(value)
        except ValueError as exc:
            ctx.fail(path, f"can't parse JSON: {exc}")
            return _INVALID

    # ---- values -------------------------------------------------------------------------------

    def check_value(self, value: Any, types: list[str], path: str = "") -> list[str]:
        """Errors of a JSON value (something the fake returns) against types; [] when valid."""
        ctx = _Ctx(output=True)
        self._check(value, types, path, ctx)
        return ctx.errors

    def _check(self, value: Any, types: list[str], path: str, ctx: _Ctx, *, lenient_scalars=False):
        """Validate a JSON value against alternatives; returns the decoded value or _INVALID."""
        if value is None:
            ctx.fail(path, "null is not allowed; omit the field instead")
            return _INVALID
        if isinstance(value, dict):
            obj_types = [t for t in types if t in self.types and t != "InputFile"]
            if not obj_types:
                ctx.fail(path, f"an object was given, expected {' or '.join(types)}")
                return _INVALID
            chosen = self._pick(value, obj_types, path, ctx)
            if chosen is None:
                return _INVALID
            return self._check_object(value, chosen, path, ctx)
        if isinstance(value, list):
            arrays = [t[len("Array of ") :] for t in types if t.startswith("Array of ")]
            if not arrays:
                ctx.fail(path, f"an array was given, expected {' or '.join(types)}")
                return _INVALID
            inner = arrays[0]
            return [self._check(v, [inner], f"{path}[{i}]", ctx) for i, v in enumerate(value)]
        for t in types:
            if t == "Integer" and isinstance(value, int) and not isinstance(value, bool):
                return value
            if t == "Float" and isinstance(value, int | float) and not isinstance(value, bool):
                return value
            if t == "Boolean" and isinstance(value, bool):
                return value
            if t == "String" and isinstance(value, str):
                if "InputFile" in types or (not ctx.output and path.endswith(_ATTACHABLE)):
                    return self._attach(value, path, ctx)
                return value
            if t == "InputFile" and isinstance(value, str) and value.startswith("attach://"):
                return self._attach(value, path, ctx)
            if lenient_scalars and isinstance(value, str):
                # Telegram accepts scalars as strings in a JSON body too
                if t == "Integer" and _INT_RE.fullmatch(value):
                    return int(value)
                if t == "Boolean" and value in ("true", "false"):
                    return value == "true"
            if lenient_scalars and t == "String" and isinstance(value, int | float):
                if not isinstance(value, bool):
                    return str(value)
        ctx.fail(path, f"{json.dumps(value)[:60]} is not {' or '.join(types)}")
        return _INVALID

    def _pick(self, obj: dict, candidates: list[str], path: str, ctx: _Ctx) -> str | None:
        """Choose which object type a dict is meant to be (unions, subtypes, alternatives)."""
        expanded: list[str] = []
        for t in candidates:
            subtypes = self.types[t].get("subtypes")
            expanded.extend(subtypes if subtypes else [t])
        if len(expanded) == 1:
            return expanded[0]
        # a documented discriminator that matches; several types may share one (an inline
        # result of type "photo" is InlineQueryResultCachedPhoto with photo_file_id or
        # InlineQueryResultPhoto with photo_url), and then the fields tell them apart
        matching = [t for t in expanded
                    if self._const.get(t) and obj.get(self._const[t][0]) == self._const[t][1]]
        if len(matching) > 1:
            return self._best_fit(obj, matching)
        if matching:
            return matching[0]
        consts = [self._const.get(t) for t in expanded]
        if all(consts) and len({c[0] for c in consts}) == 1:
            key = consts[0][0]
            allowed = ", ".join(c[1] for c in consts)
            ctx.fail(
                path,
                f"{key} {obj.get(key)!r} is not one of {allowed} ({' or '.join(candidates)})",
            )
            return None
        return self._best_fit(obj, expanded)

    def _best_fit(self, obj: dict, candidates: list[str]) -> str:
        """The first candidate whose fields fit the dict: all required fields present and none
        unknown, else all required present, else the first."""
        with_fields = [t for t in candidates if t in self._fields]
        for t in with_fields:
            fields = self._fields[t]
            req = {n for n, f in fields.items() if f["required"]}
            if req <= obj.keys() and obj.keys() <= fields.keys():
                return t
        for t in with_fields:
            req = {n for n, f in self._fields[t].items() if f["required"]}
            if req <= obj.keys():
                return t
        return candidates[0]

    def _check_object(self, obj: dict, type_name: str, path: str, ctx: _Ctx):
        fields = self._fields.get(type_name)
        if not fields:  # a placeholder type such as CallbackGame
            if obj:
                ctx.fail(path, f"{type_name} takes no fields")
            return obj
        const = self._const.get(type_name)
        if const and obj.get(const[0]) != const[1]:
            if const[0] in obj:
                ctx.fail(path, f"{type_name}.{const[0]} must be {const[1]!r}")
        out = {}
        for key, v in obj.items():
            f = fields.get(key)
            if f is None:
                ctx.fail(f"{path}.{key}" if path else key, f"unknown field of {type_name}")
                continue
            decoded = self._check(v, f["types"], f"{path}.{key}" if path else key, ctx)
            if decoded is not _INVALID:
                out[key] = decoded
        for key, f in fields.items():
            if f["required"] and key not in obj:
                ctx.fail(path, f"required field {key!r} of {type_name} is missing")
        return out


class _Invalid:
    def __repr__(self) -> str:
        return "<invalid>"


_INVALID: Any = _Invalid()


@functools.lru_cache(maxsize=4)
def _load(path: str) -> Spec:
    with open(path, encoding="utf-8") as fh:
        return Spec(json.load(fh))


def load_spec(path: str | Path = DEFAULT_SPEC_PATH) -> Spec:
    """The Spec of an api.json (parsed once per path)."""
    return _load(str(Path(path).resolve()))
