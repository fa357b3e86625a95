"""The glTF Object Model of the physics extensions: which JSON pointers animation may target, and their types.

Each physics spec lists "mutable properties ... for use with the glTF Object Model including extensions
such as KHR_animation_pointer" (OMI_physics_shape, OMI_physics_body's motion and collider READMEs,
OMI_physics_joint; KHR_implicit_shapes, KHR_physics_rigid_bodies). This module holds those tables once,
with the spec default that an absent key means, and the few functions both directions and the rules need:
match a concrete pointer to its template, list the animatable values of a written item, resolve a pointer
in a document, and check an animation channel's accessor against the Object Model type.

No bpy here: used by the add-on's export and import and by the command-line validator.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..animation import one_radius
from ..json_types import array_index, escape_token, get, is_index
from ..model import Issue
from . import gravity, registry
from .base import Dialect
from .fields import Field
from .khr import KHR
from .omi import OMI

ObjectModelType = Literal["float", "float2", "float3", "float4", "bool", "int", "float[]"]
ANIMATION_POINTER_EXTENSION = "KHR_animation_pointer"

# Accessor type and component count each Object Model type is animated with (KHR_animation_pointer).
# A float[] (line gravity points) is animated with SCALAR outputs, as many per key as the array holds.
ACCESSOR_TYPES: dict[str, str] = {"float": "SCALAR", "float2": "VEC2", "float3": "VEC3", "float4": "VEC4",
                                  "bool": "SCALAR", "int": "SCALAR", "float[]": "SCALAR"}
COMPONENTS: dict[str, int] = {"float": 1, "float2": 2, "float3": 3, "float4": 4, "bool": 1, "int": 1, "float[]": 1}
DOCUMENT = ""  # PointerTemplate.array of a document-level extension's own value (`/extensions/<ext>/...`)

_ITEM = "{}"


@dataclass(frozen=True)
class PointerTemplate:
    """One Object Model row. `array` is None for a node-level property (`/nodes/{}/extensions/...`), DOCUMENT for
    a value of the document-level extension object itself (`/extensions/<extension>/...`); otherwise the
    document-level array the item lives in (`/extensions/<extension>/<array>/{}/...`).
    `path` is below the node's extension object or below the array item; `{}` marks a nested array index.
    `default` is what an absent key means; None when absence has no value (an unbounded limit, a drive
    without a target): such a value can only be animated where the file states it.
    `part` and `field` are the row's model value: the model item it lives in ("shape", "motion", "material",
    "limit", "drive", "joint") and the dialect table's Field (`field.attr` the model attribute; its bounds are
    the reader's). Rows made elsewhere may leave them out ("", None)."""

    extension: str
    array: str | None
    path: tuple[str, ...]
    type: ObjectModelType
    default: Any = None
    part: str = ""
    field: Field | None = None

    @property
    def text(self) -> str:
        return "/".join((*_head(self), *self.path))

    @property
    def model_value(self) -> tuple[str, str]:
        """(part, model attribute) of the row: the key of the settings side of this table
        (`io/blender/animation/settings`); a row without a Field is named by its JSON key."""
        return self.part, self.field.attr if self.field is not None else self.path[-1]


def _head(template: PointerTemplate) -> list[str]:
    """The pointer tokens above a template's path (with `{}` where an index goes), after the leading "/"."""
    if template.array is None:
        return ["", "nodes", _ITEM, "extensions", template.extension]
    if template.array == DOCUMENT:
        return ["", "extensions", template.extension]
    return ["", "extensions", template.extension, template.array, _ITEM]


def _json(default: Any) -> Any:
    return list(default) if isinstance(default, tuple) else default  # vectors as JSON reads them


def _node(extension: str, path: str, kind: ObjectModelType, default: Any = None, *, part: str = "",
          spec: Field | None = None) -> PointerTemplate:
    return PointerTemplate(extension, None, tuple(path.split("/")), kind, _json(default), part, spec)


def _item(extension: str, array: str, path: str, kind: ObjectModelType, default: Any = None, *, part: str = "",
          spec: Field | None = None) -> PointerTemplate:
    return PointerTemplate(extension, array, tuple(path.split("/")), kind, _json(default), part, spec)


_TYPES: dict[tuple[str, int], ObjectModelType] = {
    ("number", 1): "float", ("infinity", 1): "float", ("vector", 2): "float2", ("vector", 3): "float3",
    ("vector", 4): "float4",
    ("bool", 1): "bool"}


def _animatable(fields: tuple[Field, ...]) -> tuple[tuple[Field, ObjectModelType], ...]:
    """The fields the Object Model lists: every number, vector and bool (not choices, names, strings)."""
    return tuple((spec, _TYPES[(spec.kind, spec.size)]) for spec in fields if (spec.kind, spec.size) in _TYPES)


def dialect_rows(dialect: Dialect) -> tuple[PointerTemplate, ...]:
    """A dialect's Object Model, from its field tables (keys and defaults have their one home there)."""
    rows: list[PointerTemplate] = []
    for shape_type in dialect.shape_fields:
        rows += [_item(dialect.homes["shapes"], "shapes", f"{shape_type}/{spec.key}", kind, spec.default,
                       part="shape", spec=spec) for spec, kind in _animatable(dialect.shape_fields.get(shape_type, ()))]
    rows += [_node(dialect.body_extension, f"motion/{spec.key}", kind, spec.default, part="motion", spec=spec)
             for spec, kind in _animatable(dialect.motion_fields)]
    if any(spec.key == "isKinematic" for spec in dialect.motion_fields):  # KHR's motion type, a boolean
        rows.append(_node(dialect.body_extension, "motion/isKinematic", "bool", False, part="motion"))
    rows += [_item(dialect.homes["physicsMaterials"], "physicsMaterials", spec.key, kind, spec.default,
                   part="material", spec=spec) for spec, kind in _animatable(dialect.material_fields)]
    joints = dialect.homes["physicsJoints"]
    for part, fields in (("limits", dialect.limit_fields), ("drives", dialect.drive_fields)):
        rows += [_item(joints, "physicsJoints", f"{part}/{_ITEM}/{spec.key}", kind, spec.default,
                       part=part[:-1], spec=spec)
                 for spec, kind in _animatable(fields)]
    # OMI's joint README lists /joint/enableCollision, copied from KHR where the node-level joint is an object
    # inside the body extension; in OMI the joint extension itself holds enableCollision beside `joint`.
    joint_head = "joint/" if dialect.joint_extension == dialect.body_extension else ""
    rows += [_node(dialect.joint_extension, f"{joint_head}{spec.key}", kind, spec.default, part="joint", spec=spec)
             for spec, kind in _animatable(dialect.joint_fields)]
    return tuple(rows)


# The OMI revision's Object Model (OMI_physics_shape README, OMI_physics_body README.motion.md and
# README.collider.md, OMI_physics_joint README).
OMI_POINTERS: tuple[PointerTemplate, ...] = dialect_rows(OMI)

# Khronos' Object Model (KHR_implicit_shapes and KHR_physics_rigid_bodies READMEs).
KHR_POINTERS: tuple[PointerTemplate, ...] = dialect_rows(KHR)


def gravity_rows() -> tuple[PointerTemplate, ...]:
    """OMI_physics_gravity's Object Model (its README's table), from the gravity unit's tables: the world
    gravity's strength; a volume's strength, priority, replace, stop, and every per-type value but the shaped
    type's (the README lists none there)."""
    unit = gravity.GRAVITY
    kinds: dict[str, ObjectModelType] = {"priority": "int", "points": "float[]"}
    rows = [PointerTemplate(unit, DOCUMENT, ("gravity",), "float")]
    rows += [_node(unit, spec.key, kinds.get(spec.key) or _TYPES[(spec.kind, spec.size)], spec.default)
             for spec in gravity.VOLUME_FIELDS if spec.key != "type"]
    for gravity_type in gravity.ANIMATED_TYPES:
        rows += [_node(unit, f"{gravity_type}/{spec.key}", kinds.get(spec.key) or _TYPES[(spec.kind, spec.size)],
                       spec.default) for spec in gravity.TYPE_FIELDS[gravity_type]]
    return tuple(rows)


GRAVITY_POINTERS: tuple[PointerTemplate, ...] = gravity_rows()



def node_rows(extension: str, fields: tuple[Field, ...], part: str, head: str = "") -> tuple[PointerTemplate, ...]:
    """An extension unit's node-level rows: every number, vector and bool of `fields` (below `head/`)."""
    return tuple(_node(extension, f"{head}{spec.key}", kind, spec.default, part=part, spec=spec)
                 for spec, kind in _animatable(fields))


def item_rows(extension: str, array: str, fields: tuple[Field, ...], part: str) -> tuple[PointerTemplate, ...]:
    """An extension unit's rows of the items of one of its document-level arrays."""
    return tuple(_item(extension, array, spec.key, kind, spec.default, part=part, spec=spec)
                 for spec, kind in _animatable(fields))


_ROWS: dict[str, tuple[Dialect, tuple[PointerTemplate, ...]]] = {OMI.name: (OMI, OMI_POINTERS),
                                                                   KHR.name: (KHR, KHR_POINTERS)}


def rows_of(dialect: Dialect) -> tuple[PointerTemplate, ...]:
    """`dialect_rows`, made once per dialect's tables (an export asks for them per sampled value)."""
    made = _ROWS.get(dialect.name)
    if made is None or made[0] is not dialect:
        made = _ROWS[dialect.name] = (dialect, dialect_rows(dialect))
    return made[1]


def home_rows() -> tuple[PointerTemplate, ...]:
    """The Object Model rows of the registry's default dialect: the spelling the export samples its channels in."""
    return rows_of(registry.default().tables)


def all_pointers() -> tuple[PointerTemplate, ...]:
    """Every Object Model row: the registered dialects' (in registration order), gravity's and the registered
    extension units'."""
    return (*(row for name in registry.names() for row in rows_of(registry.get(name).tables)), *GRAVITY_POINTERS,
            *registry.unit_pointers())


def _physics_extensions() -> frozenset[str]:
    """Every extension name of a registered dialect or extension unit."""
    return frozenset({*(name for dialect in registry.names() for name in registry.owned_names(dialect)),
                      *(unit.name for unit in registry.extension_units())})


@dataclass(frozen=True)
class PointerMatch:
    """A concrete pointer matched to its template: the node or item index, and nested array indices."""

    template: PointerTemplate
    index: int  # node index (node-level) or document array index
    nested: tuple[int, ...] = ()


def split(pointer: str) -> list[str] | None:
    """The RFC 6901 tokens of a pointer (unescaped); None for text that is not a pointer."""
    if not isinstance(pointer, str) or not pointer.startswith("/"):
        return None
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


def is_physics_pointer(pointer: str) -> bool:
    """True when the pointer leads into a physics extension (whether or not the Object Model lists it)."""
    tokens = split(pointer) or []
    if len(tokens) >= 4 and tokens[0] == "nodes" and tokens[2] == "extensions":
        return tokens[3] in _physics_extensions()
    return len(tokens) >= 2 and tokens[0] == "extensions" and tokens[1] in _physics_extensions()


def match(pointer: str, templates: tuple[PointerTemplate, ...] | None = None) -> PointerMatch | None:
    """The template a concrete pointer instantiates (among `templates`, default all), or None when it names no
    Object Model property."""
    tokens = split(pointer)
    if tokens is None:
        return None
    for template in all_pointers() if templates is None else templates:
        pattern = [*_head(template)[1:], *template.path]
        if len(pattern) != len(tokens):
            continue
        numbers: list[int] = []
        for want, got in zip(pattern, tokens, strict=True):
            if want == _ITEM:
                number = array_index(got)
                if number is None:
                    break
                numbers.append(number)
            elif want != got:
                break
        else:
            return PointerMatch(template, numbers[0] if numbers else 0, tuple(numbers[1:]))
    return None


def pointer_of(template: PointerTemplate, index: int, nested: tuple[int, ...] = ()) -> str:
    """The concrete pointer of a template at a node or item index (and nested array indices)."""
    numbers = iter((index, *nested))
    return "/".join(str(next(numbers)) if token == _ITEM else escape_token(token)
                    for token in template.text.split("/"))


def _walk(container: object, path: tuple[str, ...], nested: tuple[int, ...]) -> tuple[bool, Any]:
    """(found the parent object, value or _ABSENT) for a template path below a container."""
    numbers = iter(nested)
    current = container
    for position, token in enumerate(path):
        last = position == len(path) - 1
        if token == _ITEM:
            number = next(numbers, None)
            if not isinstance(current, list) or number is None or not 0 <= number < len(current):
                return False, None
            current = current[number]
            continue
        if not isinstance(current, Mapping):
            return False, None
        if last:
            return True, current.get(token, _ABSENT)
        current = current.get(token)
    return False, None


_ABSENT = object()


def resolve(gltf: Mapping[str, Any], found: PointerMatch) -> tuple[bool, Any]:
    """(resolves, value) of a matched pointer in a document: it resolves when everything above the final
    key exists (the key itself may be absent, meaning its default). The value is the default when absent."""
    template = found.template
    if template.array is None:
        nodes = gltf.get("nodes") if isinstance(gltf, Mapping) else None
        if not isinstance(nodes, list) or not 0 <= found.index < len(nodes):
            return False, None
        container = get(get(nodes[found.index], "extensions"), template.extension)
    elif template.array == DOCUMENT:
        container = get(get(gltf, "extensions"), template.extension)
    else:
        items = get(get(get(gltf, "extensions"), template.extension), template.array)
        if not isinstance(items, list) or not 0 <= found.index < len(items):
            return False, None
        container = items[found.index]
    exists, value = _walk(container, template.path, found.nested)
    if not exists:
        return False, None
    return True, template.default if value is _ABSENT else value


def leaves(extension: str, array: str | None, content: object) -> dict[tuple[str, tuple[int, ...]], Any]:
    """Every Object Model value of one written object: a node's extension object (`array` None) or one item
    of a document-level array. Keys are (template text, nested indices); absent keys give their default,
    and values with no default that are absent are left out."""
    found: dict[tuple[str, tuple[int, ...]], Any] = {}
    for template in all_pointers():
        if template.extension != extension or template.array != array:
            continue
        for nested in _nested_indices(content, template.path):
            exists, value = _walk(content, template.path, nested)
            if exists and value is _ABSENT:
                value = template.default
            if exists and value is not None:
                found[(template.text, nested)] = value
    return found


def _nested_indices(content: object, path: tuple[str, ...]) -> list[tuple[int, ...]]:
    """Every combination of nested array indices the path can take in `content`."""
    combos: list[tuple[object, tuple[int, ...]]] = [(content, ())]
    for token in path[:-1]:
        step: list[tuple[object, tuple[int, ...]]] = []
        for current, numbers in combos:
            if token == _ITEM:
                if isinstance(current, list):
                    step.extend((entry, (*numbers, position)) for position, entry in enumerate(current))
            elif isinstance(current, Mapping) and token in current:
                step.append((current[token], numbers))
        combos = step
    return [numbers for _current, numbers in combos]


# --- checking animation channels (rules, CLI validate) ------------------------------------------------

def _accessor(gltf: Mapping[str, Any], index: object) -> Mapping[str, Any] | None:
    accessors = get(gltf, "accessors")
    if not isinstance(index, int) or not is_index(index) or not isinstance(accessors, list) \
            or index >= len(accessors):
        return None
    accessor = accessors[index]
    return accessor if isinstance(accessor, Mapping) else None


def channel_pointers(gltf: Mapping[str, Any]) -> list[tuple[str, str, Mapping[str, Any] | None]]:
    """(channel location, pointer, sampler) of every KHR_animation_pointer channel into a physics extension."""
    found = []
    animations = get(gltf, "animations")
    for a, animation in enumerate(animations if isinstance(animations, list) else []):
        channels = get(animation, "channels")
        samplers = get(animation, "samplers")
        for c, channel in enumerate(channels if isinstance(channels, list) else []):
            target = get(channel, "target")
            pointer = get(get(get(target, "extensions"), ANIMATION_POINTER_EXTENSION), "pointer")
            if get(target, "path") != "pointer" or not isinstance(pointer, str) or not is_physics_pointer(pointer):
                continue
            sampler_index = get(channel, "sampler")
            sampler = samplers[sampler_index] if is_index(sampler_index) and isinstance(samplers, list) \
                and sampler_index < len(samplers) and isinstance(samplers[sampler_index], Mapping) else None
            found.append((f"/animations/{a}/channels/{c}", pointer, sampler))
    return found


def check_animation(gltf: Mapping[str, Any]) -> list[Issue]:
    """Problems of the physics channels of a document: the pointer names an Object Model property, resolves,
    and its sampler's output accessor has the property's type (float: SCALAR, float3: VEC3, float4: VEC4)."""
    issues: list[Issue] = []
    for at, pointer, sampler in channel_pointers(gltf):
        where = f"{at}/target/extensions/{ANIMATION_POINTER_EXTENSION}/pointer"
        found = match(pointer)
        if found is None and one_radius.is_its_channel(gltf, pointer):
            continue  # a capsule's or cylinder's in the one-radius form: the import reads it as the spec's values
        if found is None:
            issues.append(Issue(where, f"{pointer} is not a physics property of the glTF Object Model"))
            continue
        resolves, _value = resolve(gltf, found)
        if not resolves:
            issues.append(Issue(where, f"{pointer} does not exist in this file", "error"))
        output = _accessor(gltf, get(sampler, "output")) if sampler is not None else None
        if output is None:
            continue
        kind = found.template.type
        wanted = ACCESSOR_TYPES[kind]
        if get(output, "type") != wanted:
            issues.append(Issue(where, f"{pointer} is a {kind}; its sampler's output accessor is "
                                       f"{get(output, 'type')!s}, not {wanted}", "error"))
        if kind != "bool" and get(output, "componentType") != 5126:
            issues.append(Issue(where, f"{pointer} is a {kind}; its output accessor should hold floats (5126)"))
    return issues
