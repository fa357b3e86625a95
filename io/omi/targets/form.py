"""What an export target changes in a written document, as data (`Form`), and its applier on glTF JSON.

A target (`registry.Target`) writes its dialects, then its form, in steps: each step reads the document as
the step before left it and returns a `Form`. Making a step rewrites the physics JSON that both sides hold
as plain dicts in place (shape forms, joint settings, legacy key names); the Form holds the changes to the
document's structure (node keys set: a scale baked, a frame turned; nodes added: a render mesh moved to a
child, a part moved to a scaled child, a joint frame turned on a node of its own) and what the target drops,
said once per kind (`issues`). Two appliers run the same Forms: io/omi/write/target_form.py on a parsed file
(the command line's convert), io/blender/export/target_form.py on the exporter's document (the Blender
export). A node that takes another's render mesh takes the channels of its morph weights with it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..model import Issue

MESH_KEYS = ("mesh", "skin", "weights")  # what a node's render mesh is: they move together


@dataclass
class NewNode:
    """A node the form appends, as the last child of node `parent`."""

    parent: int
    name: str | None
    rotation: list[float] | None = None
    translation: list[float] | None = None
    scale: list[float] | None = None
    takes_mesh: bool = False  # the parent's render mesh (`MESH_KEYS`) moves onto it, with its weights' channels
    extensions: dict[str, Any] | None = None  # its own extensions
    takes_extension: tuple[int, str] | None = None  # (node, extension name): that node's extension moves onto it
    # (an extension object, a key): the key is set to the new node's index (a joint's connected node)
    referenced_by: tuple[dict[str, Any], str] | None = None


@dataclass
class Form:
    """One step of a target's form (see the module text)."""

    node_changes: dict[int, dict[str, Any]] = field(default_factory=dict)  # key -> new value (None: removed)
    new_nodes: list[NewNode] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)


FormStep = Callable[[dict[str, Any]], Form]  # the document as the steps before left it -> the next step
Keys = tuple[str, list[float], list[float]]  # a channel's keys: (interpolation, times, one value per key)
# (the item's type, the still values of the rewrite's keys, the keyed ones) -> the new keys' channels, and
# why they cannot be (then none) or what they cannot hold exactly (with them); None: exact. A CUBICSPLINE
# channel gives its values without their tangents: a rewrite refuses it or returns LINEAR or STEP keys.
KeyRewrite = Callable[[str, Mapping[str, float], Mapping[str, Keys]], tuple[dict[str, Keys], str | None]]


@dataclass(frozen=True)
class ChannelRewrite:
    """A part of a target's form that rewrites channels over their keyed values: where the target writes a
    document-level item in another form and its engine plays the item's channels in that form, the channels
    of `keys` of one item (of `array` in `extension`, its type one of `types`) are replaced by those `rewrite`
    makes. It reads the channels and the item's still values as the target's dialects wrote them, so it
    stands before the form's steps; a group it cannot rewrite is named and left as it was."""

    extension: str
    array: str
    types: frozenset[str]
    keys: tuple[str, ...]
    rewrite: KeyRewrite
    what: str  # the channels, as the messages name them
    form: str  # the form they are rewritten in, as the messages name it
    how: str  # what the rewrite did, said once where it did
    kind: str  # the messages' kind


@dataclass(frozen=True)
class LinearSamplers:
    """A part of a target's form: its engine rejects CUBICSPLINE samplers on physics channels (LINEAR and
    STEP play), so the target writes them LINEAR: the Blender export samples such curves LINEAR at every
    frame, and a file's CUBICSPLINE physics channels are sampled into LINEAR keys (io/omi/write/
    linear_samplers.py; one whose keys cannot be read is left for the target's loss report to name). It
    stands first, so that the channel rewrites read LINEAR keys."""

    engine: str  # the engine, as the messages name it
    kind: str  # the messages' kind


FormPart = FormStep | ChannelRewrite | LinearSamplers  # a target's form: its samplers, channel rewrites, steps


def plays_cubic(parts: tuple[FormPart, ...]) -> bool:
    """Whether a target's engine plays CUBICSPLINE samplers on physics channels (no `LinearSamplers` part)."""
    return not any(isinstance(part, LinearSamplers) for part in parts)
