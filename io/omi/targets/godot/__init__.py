"""The Godot 4 targets, declared: `TARGET` (OMI as Godot 4's own glTF importer builds it as the artist made
it) and `OMI_GODOT` (the same, with the joints and vehicle keys as omi-godot, the OMI group's Godot add-on,
reads them). What Godot changes, each made where it is named:
- physics channels LINEAR (`channels.LINEAR`: Godot rejects CUBICSPLINE; the export samples them LINEAR, a
  converted file's are sampled into LINEAR keys), and capsule and cylinder channels in the form Godot plays
  them (`channels.ROUND_CHANNELS`, a channel rewrite);
- one step (`engine_form.form`): shapes in the one-radius form Godot reads, every render mesh of a node Godot
  turns into a body or collider moved to a child of the same name (its morph weights' channels follow it), a
  moving body's scale baked into its shapes (`targets/scale_bake.py`), and what Godot ignores, once per kind;
- omi-godot's steps: joint frames turned and limits rewritten, vehicle keys by their legacy names (`omi_godot`);
- the import side: the layout recognised and folded back (`layout.mesh_children`, `scale_bake.unbake_parts`),
  Godot's capsules read as it meant them (`layout.as_written`).

One folder, as the parts together pass a module's 400 lines; nothing outside it imports it but its
registration in `dialects/builtin.py`.
"""

from __future__ import annotations

from ... import units
from ...dialects import omi, registry
from .. import scale_bake
from . import channels, engine_form, layout, omi_godot

NAME = engine_form.NAME

TARGET = registry.Target(
    NAME.upper(), 3, engine_form.GODOT, "OMI as Godot 4's glTF importer reads it: render meshes on child nodes, "
                                        "shapes in Godot's form; what Godot ignores is reported", (omi.NAME,),
    form=(channels.LINEAR, channels.ROUND_CHANNELS, engine_form.form),
    recognise=lambda document: bool(layout.mesh_children(document)), as_written=layout.as_written,
    mesh_children=layout.mesh_children, unbake_parts=scale_bake.unbake_parts)

OMI_GODOT = registry.Target(
    omi_godot.NAME.upper(), 4, omi_godot.LABEL, "The Godot 4 form, with the joints written as omi-godot (the OMI "
                                                "group's Godot add-on) builds them right; each workaround is reported",
    (omi.NAME,), form=omi_godot.steps(units.legacy_names), mesh_children=layout.mesh_children,
    unbake_parts=scale_bake.unbake_parts)
