"""The live link: what the artist tags is what Blender plays, with no Sync step.

Edited settings are noted by their update callbacks (`properties/edits.py`); once per depsgraph update
(and before a frame is played, since a frame change runs none) the objects noted are rebuilt, each alone
(`builder/live.rebuild`), never the whole scene. Values edited in Blender's own Rigid Body panel come back
into the settings first (`sync_edits`). After an undo, a redo, a file load or an append, the objects whose
edit count differs from the one they were built from (or whose rigid body sits outside this scene's world)
are rebuilt: those counts travel with the data, so no setting is read to find them. Objects without OMI
settings are never touched: rigid bodies made by hand stay as they are.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import bpy
from bpy.app.handlers import persistent

from ..io.blender.builder import built_values, live
from ..io.blender.builder.inputs import ObjectPhysics
from ..io.omi import model
from ..properties import convert_build, edits, homes, library, object_physics, scene_physics
from ..properties.edits import EDITED
from . import sync_edits

_LOG = logging.getLogger(__name__)
_SAYS_WHICH_BODY = (5, 0, 0)  # from this version a rigid-body edit flags its object's geometry as updated


class _Link:
    """This session's link state: whether a full check is due, and a guard against building re-entrantly."""

    check_all = True
    building = False
    scheduled = False
    forced: set[str] = set()  # names of objects whose rigid body sits outside the scene's world
    library: dict[str, str] = {}  # the library entries' values at the last look (`_library`)
    said: set[str] = set()  # one session's messages, said once each


class _Remembered:
    """The settings as model values (`convert_build.SettingsPhysics`), each object's kept between builds while
    its edit count stays: a build walks every body of the scene (their collision collections stay
    consistent), and converting thousands of unedited settings for one edit would cost more than the build.

    Forgotten after an undo, a redo, a load, a library edit, or when objects were added or removed (the
    values hold references to other objects).
    """

    kept: dict[int, tuple[int, ObjectPhysics | None]] = {}  # this session's, by session_uid
    objects = -1  # how many objects there were when `kept` was filled

    def __init__(self, bl_scene: bpy.types.Scene, issues: list[model.Issue]) -> None:
        self.fresh = convert_build.SettingsPhysics(bl_scene, issues)
        if len(bpy.data.objects) != _Remembered.objects:
            _Remembered.forget()
            _Remembered.objects = len(bpy.data.objects)

    @staticmethod
    def forget() -> None:
        _Remembered.kept = {}

    def __call__(self, obj: bpy.types.Object) -> ObjectPhysics | None:
        count = built_values.edits(obj)
        found = _Remembered.kept.get(obj.session_uid)
        if found is not None and found[0] == count:
            return found[1]
        physics = self.fresh(obj)
        _Remembered.kept[obj.session_uid] = (count, physics)
        return physics


def is_on(bl_scene: bpy.types.Scene | None) -> bool:
    return bl_scene is not None and bool(scene_physics(bl_scene).live_rigid_bodies)


def _say(issues: list[model.Issue]) -> None:
    """Each message once per session: a setting edited ten times warns once, on the console."""
    for issue in issues:
        if issue.message not in _Link.said:
            _Link.said.add(issue.message)
            level = logging.INFO if issue.severity == "info" else logging.WARNING
            _LOG.log(level, "%s%s", model.LOG_PREFIX, issue.message)


def _out_of_step(bl_scene: bpy.types.Scene) -> list[bpy.types.Object]:
    """Objects whose rigid bodies were not built from their settings as they are now."""
    members = live.world_members(bl_scene)
    return [obj for obj in bl_scene.objects
            if obj.library is None and object_physics(obj).has_physics
            and (not built_values.in_step(obj) or live.needs_build(obj, members))]


def _library(bl_scene: bpy.types.Scene) -> dict[str, str]:
    """Each library entry's values, by kind and name, as text to compare."""
    libraries = scene_physics(bl_scene)
    return {**{f"material {entry.name}": repr(library.material_to_model(entry))
               for entry in libraries.physics_materials},
            **{f"filter {entry.name}": repr(library.filter_to_model(entry)) for entry in libraries.collision_filters}}


def _library_users(bl_scene: bpy.types.Scene) -> list[bpy.types.Object]:
    """The objects using a library entry whose values changed since the last look (an entry added, say by an
    import, changes nothing built before)."""
    now = _library(bl_scene)
    changed = {key for key, values in now.items() if _Link.library.get(key, values) != values}
    _Link.library = now
    found = []
    for obj in bl_scene.objects:
        settings = object_physics(obj)
        uses = set()
        if settings.use_collider:
            uses |= {f"material {settings.collider.physics_material}", f"filter {settings.collider.collision_filter}"}
        if settings.use_trigger:
            uses.add(f"filter {settings.trigger.collision_filter}")
        if uses & changed:
            found.append(obj)
    return found


def _keyed(obj: bpy.types.Object) -> bool:
    animation = obj.animation_data
    return animation is not None and animation.action is not None


def adopt_blender_edits(bl_scene: bpy.types.Scene, holders: Iterable[bpy.types.Object],
                        issues: list[model.Issue]) -> None:
    """Values edited in Blender's Rigid Body panel (or by a script) since the last build, on these objects'
    rigid bodies or on the generated stand-in that simulates an object, become the settings' values."""
    for holder in dict.fromkeys(holders):
        obj = live.stands_for(holder)
        if obj is None or holder.rigid_body is None or obj.library is not None \
                or not object_physics(obj).has_physics or _keyed(holder) or _keyed(obj):
            continue  # keyed rigid-body values change with the frame: not an edit
        edited = built_values.changed(holder)
        if edited:
            sync_edits.adopt_edits(obj, bl_scene, edited, issues, source=holder)
            _Remembered.kept.pop(obj.session_uid, None)  # a value Blender holds (its mass) changed: convert anew
            built_values.record([holder])
            built_values.mark_in_step([obj])


_NOT_READ_BACK = ("its Blender constraints hold the joint's settings otherwise than they say them (a limit over "
                  "several axes, soft or open on one side, one past Blender's bounds, or bodies starting turned about "
                  "several axes): an edit there is not taken back, and the constraints are rebuilt from the settings; "
                  "edit the joint's limits and drives")


def adopt_constraint_edits(made: Iterable[bpy.types.Object], issues: list[model.Issue]) -> None:
    """Values edited in Blender's Rigid Body Constraint panel (or by a script) on a constraint the build made
    for a joint become the joint's settings, where the constraint reads back as them (`joint_readback`)."""
    for holder in dict.fromkeys(made):
        obj = live.joint_of(holder)
        if obj is None or obj.library is not None or not object_physics(obj).use_joint or _keyed(holder):
            continue
        ends = built_values.bodies_changed(holder)
        if ends:  # taken or refused, the joint is rebuilt from its settings (its frames moved, or kept)
            sync_edits.adopt_joint_bodies(obj, holder, ends, issues)
            built_values.record_bodies(holder)  # said once per edit
            edits.note(obj)
            continue
        if not built_values.constraint_changed(holder):
            continue
        if built_values.constraint_exact(holder) and sync_edits.adopt_joint_edit(obj, holder, issues):
            _Remembered.kept.pop(obj.session_uid, None)
            built_values.record_constraint(holder, exact=True)
            built_values.mark_in_step([obj])
            continue
        issues.append(model.Issue("", f"object {obj.name!r}: {_NOT_READ_BACK}", "warning"))
        built_values.record_constraint(holder, exact=False)  # said once per edit; the rebuild records anew
        edits.note(obj)


def _named(names: Iterable[str]) -> list[bpy.types.Object]:
    """The objects still holding these names (an undo or a delete may have taken some). A name looked up in
    `bpy.data.objects` walks it: many names are found in one pass."""
    wanted = set(names)
    if len(wanted) < 8:
        found = bpy.data.objects
        return [found[name] for name in wanted if name in found]
    return [obj for obj in bpy.data.objects if obj.name in wanted]


def _with_bodies_above(objects: Iterable[bpy.types.Object]) -> list[bpy.types.Object]:
    """These objects and the tagged ones above them (a rebuild remakes a compound body above its part)."""
    found = dict.fromkeys(objects)
    for obj in list(found):
        parent = obj.parent
        while parent is not None:
            if object_physics(parent).has_physics:
                found[parent] = None
            parent = parent.parent
    return [obj for obj in found if object_physics(obj).has_physics]


def flush(bl_scene: bpy.types.Scene | None) -> int:
    """Build what was edited since the last flush; the number of objects brought in step."""
    if _Link.building or EDITED.paused or bl_scene is None:
        return 0
    if not is_on(bl_scene):
        return 0
    names, library = EDITED.take()
    in_scene = {obj.session_uid for obj in bl_scene.objects} if names else set()  # `users_scene` walks every scene
    objects = [obj for obj in _named(names) if obj.session_uid in in_scene and not built_values.in_step(obj)]
    objects += _named(_Link.forced)
    _Link.forced = set()
    if _Link.check_all:
        _Link.check_all = False
        _Link.library = _library(bl_scene)
        objects += _out_of_step(bl_scene)
    if library:
        _Remembered.forget()
        objects += _library_users(bl_scene)
    if not objects:
        return 0
    issues: list[model.Issue] = []
    _Link.building = True
    holders = _with_bodies_above(objects)
    try:
        homes.release(holders)  # a rebuild may remake or remove the rigid bodies that hold the masses
        count = live.rebuild(bl_scene, objects, _Remembered(bl_scene, issues), issues)
        homes.settle(holders)
    finally:
        _Link.building = False
        EDITED.take()  # what the build itself set is in step already
    _say(issues)
    return count


def _flush_later() -> None:
    """A timer: build once the operator or edit that noted the changes has finished (never inside one: an
    operator that calls another one updates the depsgraph halfway through its own work)."""
    _Link.scheduled = False
    try:
        flush(bpy.context.scene)
    except Exception:
        _LOG.exception("%sthe live rigid bodies could not be updated", model.LOG_PREFIX)


def _schedule() -> None:
    """Without a window (background) no timer runs: the next frame change, undo or load builds."""
    if not _Link.scheduled and not bpy.app.background:
        _Link.scheduled = True
        bpy.app.timers.register(_flush_later, first_interval=0.0)


def _playing() -> bool:
    """During playback every rigid body is updated each frame: nothing is being edited then."""
    screen = bpy.context.screen
    return screen is not None and screen.is_animation_playing


def _edited_in_blender(bl_scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph,
                       updates: list[tuple[bpy.types.Object, bool]]) -> list[bpy.types.Object]:
    """The objects whose rigid body an edit in Blender's panel, a script or Copy Attributes may have changed
    (`updates`: the updated objects and whether their geometry changed).

    Any rigid-body edit updates every body of the world; Blender 5 also says the edited one's geometry
    changed, and only those are asked. Blender 4 does not say (4.2 was measured): there an update that
    touched the world's collection asks every updated body (a dictionary lookup and a dozen reads each).
    """
    if bpy.app.version >= _SAYS_WHICH_BODY:
        return [obj for obj, geometry in updates if geometry and obj.rigid_body is not None]
    world = bl_scene.rigidbody_world
    collection = None if world is None else world.collection
    touched = collection is not None and any(update.id.original == collection for update in depsgraph.updates
                                             if isinstance(update.id, bpy.types.Collection))
    return [obj for obj, _geometry in updates if obj.rigid_body is not None] if touched else []


def _updated_objects(depsgraph: bpy.types.Depsgraph, settled: set[int]) -> list[tuple[bpy.types.Object, bool]]:
    """The updated objects not `settled` (an import's own), each with whether its geometry changed: one pass
    over the updates, which list every object an import made."""
    found = []
    object_type = bpy.types.Object  # looked up once: `bpy.types` answers each attribute slowly
    for update in depsgraph.updates:
        data = update.id
        if isinstance(data, object_type):
            obj = data.original
            if obj is not None and obj.session_uid not in settled:
                found.append((obj, update.is_updated_geometry))
    return found


@persistent
def on_depsgraph_update(bl_scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph) -> None:
    """Take values edited in Blender's Rigid Body panel into the settings now; build after the update."""
    if EDITED.paused:
        return
    settled, EDITED.settled = EDITED.settled, set()  # passed over once (`Edited.settled`)
    if _Link.building or not is_on(bl_scene) or _playing():
        return
    try:
        updates = _updated_objects(depsgraph, settled)
        updated = [obj for obj, _geometry in updates]
        issues: list[model.Issue] = []
        adopt_blender_edits(bl_scene, _edited_in_blender(bl_scene, depsgraph, updates), issues)
        adopt_constraint_edits((obj for obj in updated if obj.rigid_body_constraint is not None), issues)
        _say(issues)
        # a joint's frame moved into another body (a new parent): the joint is rebuilt to join that body
        _Link.forced.update(joint.name for obj in updated for joint in built_values.reparented(obj)
                            if object_physics(joint).use_joint)
        # appended or linked objects: built elsewhere (or never), now in this scene (an import built its own)
        tagged = [obj for obj in updated if object_physics(obj).has_physics]
        members = live.world_members(bl_scene) if tagged else set()
        _Link.forced.update(obj.name for obj in tagged
                            if live.needs_build(obj, members) or not built_values.in_step(obj))
        if EDITED.objects or EDITED.library or _Link.forced:
            _schedule()
    except Exception:  # a handler must not fail every update in silence
        _LOG.exception("%sthe live rigid bodies could not be updated", model.LOG_PREFIX)


@persistent
def on_frame_change(bl_scene: bpy.types.Scene, _depsgraph: bpy.types.Depsgraph | None = None) -> None:
    """Play runs no depsgraph update handler: build what is pending before the frame is simulated.

    An export's own frame changes build nothing (`EDITED.paused` until its post-export callback has put the
    settings back): builds there, of the settings it held at their static values, crashed Blender 4.2's bpy
    later, on reading the next file.
    """
    try:
        flush(bl_scene)
    except Exception:
        _LOG.exception("%sthe live rigid bodies could not be updated", model.LOG_PREFIX)


@persistent
def on_new_data(*_args: object) -> None:
    """Undo, redo and load bring back data whose edit counts say what is out of step: check all once."""
    EDITED.take()
    EDITED.paused = False
    _Remembered.forget()
    _Link.forced = set()
    _Link.check_all = True
    try:
        flush(bpy.context.scene)
    except Exception:
        _LOG.exception("%sthe live rigid bodies could not be updated", model.LOG_PREFIX)


_HANDLERS = (
    (bpy.app.handlers.depsgraph_update_post, on_depsgraph_update),
    (bpy.app.handlers.frame_change_pre, on_frame_change),
    (bpy.app.handlers.undo_post, on_new_data),
    (bpy.app.handlers.redo_post, on_new_data),
    (bpy.app.handlers.load_post, on_new_data),
)


def register() -> None:
    for handlers, function in _HANDLERS:
        if function not in handlers:
            handlers.append(function)
    _Link.check_all = True


def unregister() -> None:
    for handlers, function in _HANDLERS:
        while function in handlers:
            handlers.remove(function)
