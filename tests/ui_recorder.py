"""A recording stand-in for bpy.types.UILayout: Blender has no UI in background mode.

Panels and draw functions are called with a `Recorder` as their layout. Every call that would show
something (prop, label, operator, template_list, ...) is recorded; calls that make sub-layouts (row,
column, box, split, panel, ...) return child recorders, so the tree of what a panel shows can be
inspected. Attribute assignments (`layout.enabled = False`, `use_property_split`) are recorded too.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import bpy

_CONTAINERS = {"row", "column", "box", "split", "grid_flow", "column_flow", "menu_pie"}
_SHOWING = {
    "prop", "label", "operator", "operator_menu_enum", "prop_search", "template_list", "prop_enum",
    "prop_menu_enum", "prop_tabs_enum", "menu", "separator", "separator_spacer", "template_ID",
    "progress", "popover", "context_pointer_set",
}


def _check_signature(kind: str, args: tuple, kwargs: dict) -> None:
    """Fail like Blender would on arguments the real UILayout function does not take."""
    function = bpy.types.UILayout.bl_rna.functions.get(kind)
    if function is None:
        if kind in _CONTAINERS or kind in {"panel_header", "panel_body"}:
            return
        raise AttributeError(f"UILayout has no function {kind!r} in Blender {bpy.app.version_string}")
    inputs = [p.identifier for p in function.parameters if not p.is_output]
    if len(args) > len(inputs):
        raise TypeError(f"UILayout.{kind}() takes {len(inputs)} arguments, got {len(args)}")
    unknown = set(kwargs) - set(inputs[len(args):])
    if unknown:
        raise TypeError(f"UILayout.{kind}() got unexpected keyword arguments {sorted(unknown)}")


@dataclass
class Call:
    """One recorded layout call: what was shown, with its arguments."""

    kind: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    owner: Recorder

    @property
    def prop_name(self) -> str | None:
        """For prop-like calls, the property's identifier."""
        if self.kind in {"prop", "prop_search", "prop_enum", "prop_menu_enum", "prop_tabs_enum"} and len(self.args) > 1:
            return self.args[1]
        return None

    @property
    def data(self) -> Any:
        return self.args[0] if self.args else None

    @property
    def text(self) -> str | None:
        return self.kwargs.get("text")


class OperatorProperties:
    """What `layout.operator()` returns: records the operator properties a button sets."""

    def __init__(self, idname: str) -> None:
        object.__setattr__(self, "idname", idname)
        object.__setattr__(self, "values", {})

    def __setattr__(self, name: str, value: Any) -> None:
        self.values[name] = value

    def __getattr__(self, name: str) -> Any:
        try:
            return self.values[name]
        except KeyError as error:
            raise AttributeError(name) from error


@dataclass
class Recorder:
    """A UILayout stand-in. `calls` keeps everything in order, children included as 'layout' calls."""

    kind: str = "root"
    calls: list[Call] = field(default_factory=list)
    attributes: dict[str, Any] = field(default_factory=dict)
    children: list[Recorder] = field(default_factory=list)

    # Attribute writes (enabled, active, alert, use_property_split, ...) are remembered, reads default.
    def __setattr__(self, name: str, value: Any) -> None:
        if name in {"kind", "calls", "attributes", "children"}:
            object.__setattr__(self, name, value)
        else:
            self.attributes[name] = value

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        attributes = object.__getattribute__(self, "attributes")
        if name in attributes:
            return attributes[name]
        if name in _CONTAINERS:
            return lambda *args, **kwargs: self._child(name, args, kwargs)
        if name in {"panel", "panel_prop"}:
            return self._panel
        if name == "operator":
            return self._operator
        if name == "operator_menu_enum":
            return lambda *args, **kwargs: self._operator_call(name, args, kwargs)
        if name in _SHOWING or name.startswith(("template_", "prop")):
            return lambda *args, **kwargs: self._record(name, args, kwargs)
        if name in {"enabled", "active", "use_property_split", "use_property_decorate", "alert"}:
            return True
        raise AttributeError(f"UILayout stand-in has no {name!r}")

    def _record(self, kind: str, args: tuple, kwargs: dict) -> None:
        _check_signature(kind, args, kwargs)
        self.calls.append(Call(kind, args, kwargs, self))

    def _child(self, kind: str, args: tuple, kwargs: dict) -> Recorder:
        _check_signature(kind, args, kwargs)
        child = Recorder(kind)
        self.children.append(child)
        self.calls.append(Call("layout", (child,), {"kind": kind, **kwargs}, self))
        return child

    def _panel(self, *args: Any, **kwargs: Any) -> tuple[Recorder, Recorder]:
        _check_signature("panel", args, kwargs)
        header = self._child("panel_header", args, kwargs)
        body = self._child("panel_body", args, kwargs)
        return header, body

    def _operator(self, idname: str, *args: Any, **kwargs: Any) -> OperatorProperties:
        return self._operator_call("operator", (idname, *args), kwargs)

    def _operator_call(self, kind: str, args: tuple, kwargs: dict) -> OperatorProperties:
        _check_signature(kind, args, kwargs)
        properties = OperatorProperties(args[0])
        self.calls.append(Call(kind, args, {**kwargs, "properties": properties}, self))
        return properties

    # --- inspection --------------------------------------------------------------------------------
    def walk(self) -> Iterator[Call]:
        """Every showing call in this layout and its children, depth first, in draw order."""
        for call in self.calls:
            if call.kind == "layout":
                yield from call.args[0].walk()
            else:
                yield call

    def props(self, owner: Any = None) -> list[str]:
        """The property identifiers shown (optionally only those of `owner`), in order."""
        return [c.prop_name for c in self.walk() if c.prop_name and (owner is None or c.data == owner)]

    def prop_set(self, owner: Any = None) -> set[str]:
        return set(self.props(owner))

    def operators(self) -> list[str]:
        """The operator idnames of the buttons shown (operator() and operator_menu_enum())."""
        return [c.args[0] for c in self.walk() if c.kind in {"operator", "operator_menu_enum"}]

    def operator_calls(self, idname: str) -> list[Call]:
        return [c for c in self.walk() if c.kind in {"operator", "operator_menu_enum"} and c.args[0] == idname]

    def labels(self) -> list[str]:
        return [c.kwargs.get("text", c.args[0] if c.args else "") for c in self.walk() if c.kind == "label"]

    def kinds(self) -> list[str]:
        return [c.kind for c in self.walk()]


def make_context(obj=None, selected=(), scene=None):
    return types.SimpleNamespace(
        object=obj, active_object=obj, scene=scene or bpy.context.scene, selected_objects=list(selected),
        window_manager=bpy.context.window_manager,
    )


def draw_panel(cls, context) -> Recorder:
    """Call a Panel class's draw() with a recorder as its layout (its mixin helpers bound to a stand-in)."""
    layout = Recorder()
    stand_in = types.SimpleNamespace(layout=layout)
    for name in ("part", "kind"):
        if hasattr(cls, name):
            setattr(stand_in, name, getattr(cls, name))
    for name in ("draw_part",):
        if hasattr(cls, name):
            setattr(stand_in, name, types.MethodType(getattr(cls, name), stand_in))
    cls.draw(stand_in, context)
    return layout
