"""The built-in units, registered: the dialects OMI (every revision read, the current one written) and KHR,
and the export targets of the export dialog and the command line.

One line per unit: a new dialect, engine target or extension unit is a module of its own whose value is
registered here (see `registry.py` for the three kinds). Modules that iterate the registry import this
one first, so the built-in units are there.
"""

from __future__ import annotations

from .. import units
from ..checks import schema, schema_khr
from ..read import khr as read_khr
from ..read import omi as read_omi
from ..targets import godot
from ..write import khr as write_khr
from ..write import omi as write_omi
from . import gravity, khr, omi, registry

OMI = omi.OMI
KHR = khr.KHR

registry.register(registry.DialectUnit(
    OMI, read_omi.read, write_omi.node_extensions, default=True,
    schema_check=lambda document, spec_dir, legacy: [*schema.schema_errors(document, spec_dir, allow_legacy=legacy),
                                                     *registry.unit_schema_errors(document, omi.NAME)]))
registry.register(registry.DialectUnit(
    KHR, read_khr.read, write_khr.node_extensions_khr,
    schema_check=lambda document, _spec_dir, _legacy: schema_khr.khr_schema_errors(document)))

registry.register(registry.ExtensionUnit(
    gravity.GRAVITY, omi.NAME, gravity.read_gravity,
    write_node=lambda node, refs, at, issues: gravity.node_json(node, refs.item, refs.shape, at, issues),
    write_document=lambda doc, out, issues: gravity.write_world(doc, out, omi.NAME, issues),
    node_losses=gravity.khr_losses, document_losses=gravity.khr_world_loss))

registry.register(registry.Target(
    omi.NAME, 0, omi.NAME, "OMI_physics_shape, OMI_physics_body and OMI_physics_joint, current revision",
    (omi.NAME,)))
registry.register(registry.Target(
    khr.NAME, 1, khr.NAME, "KHR_physics_rigid_bodies with KHR_implicit_shapes (read by Babylon.js, three.js, "
                           "PlayCanvas and the Khronos sample viewer); what KHR cannot hold is reported",
    (khr.NAME,)))
registry.register(registry.Target(
    "BOTH", 2, f"{omi.NAME} and {khr.NAME}", "Both in one file, for readers of either", (omi.NAME, khr.NAME)))
registry.register(godot.TARGET)
registry.register(godot.OMI_GODOT)

units.register_all()  # the extension units of io/omi/units, after the dialect that carries them
