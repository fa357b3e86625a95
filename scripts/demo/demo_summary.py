"""The demo's text summary: what was built, what the files hold, what the import made, what the simulation did,
and how the second engine agrees. Each outcome once, each count with its noun in the right number."""

from __future__ import annotations

import math

import addon_loader
import bpy
import demo_engine
import demo_scene
from demo_result import DemoResult

# --- text --------------------------------------------------------------------------------------------


def _vec(values) -> str:
    """Metres to the centimetre, never a negative zero."""
    return "(" + ", ".join(f"{value:.2f}".replace("-0.00", "0.00") for value in values) + ")"


def plural(count: int, noun: str, nouns: str = "") -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {nouns or noun + 's'}"


def _imported(result: DemoResult) -> list[str]:
    """What the import built, and why there are more objects than the file has nodes."""
    counts = dict(result.blender)
    objects, nodes = counts.pop("objects", 0), len(result.exports[0].gltf.get("nodes", []))
    bodies = [plural(counts.pop(f"{kind} rigid bodies", 0), f"{kind} rigid body", f"{kind} rigid bodies")
              for kind in ("active", "passive")]
    constraints = [plural(count, key.removesuffix(" constraints") + " constraint") for key, count in counts.items()]
    lines = [f"Imported {result.exports[0].path.name} into a fresh scene: {plural(objects, 'object')}, "
             f"{', '.join(bodies)}, {', '.join(constraints) or 'no constraints'}"]
    if result.generated:
        kinds = sorted(set(result.generated.values()))
        what = (f"a Blender {kinds[0]} each" if len(kinds) == 1 else ", ".join(
            plural(list(result.generated.values()).count(kind), kind) for kind in kinds))
        lines.append(f"  {plural(objects, 'object')} for {plural(nodes, 'node')}: one per node, and "
                     f"{len(result.generated)} the rigid-body build made ({', '.join(result.generated)}): {what}, "
                     "hidden in the 'OMI Rigid Bodies' collection and never exported")
    return lines


def _shape(shape) -> str:
    if shape is None:
        return "compound"
    if shape.type == "box":
        return f"box {' x '.join(f'{value:g}' for value in shape.size)} m"
    if shape.type == "sphere":
        return f"sphere r {shape.radius:.3g} m"
    return shape.type


def _inventory(gltf: dict) -> list[str]:
    """One line per node with physics, read back from the exported file (glTF axes)."""
    doc = addon_loader.module("io.omi.read.reader").read_document(gltf)
    nodes = gltf.get("nodes", [])
    lines = []
    for index, physics in sorted(doc.nodes.items()):
        parts = []
        if physics.motion is not None:
            mass = f" {physics.motion.mass:g} kg" if physics.motion.type == "dynamic" else ""
            parts.append(f"{physics.motion.type} body{mass}")
        for role, part in (("collider", physics.collider), ("trigger", physics.trigger)):
            if part is None:
                continue
            text = f"{role} {_shape(part.shape)}"
            material = getattr(part, "physics_material", None)
            if material is not None:
                text += f", material {material.name or '(unnamed)'}"
            if part.collision_filter is not None:
                text += f", filter {part.collision_filter.name or '(unnamed)'}"
            parts.append(text)
        if physics.joint is not None:
            kinds = ", ".join(f"{'move' if limit.linear_axes else 'turn'} {_axes(limit)} {_range(limit)}"
                              for limit in physics.joint.settings.limits)
            parts.append(f"joint to {nodes[physics.joint.connected_node].get('name')}: {kinds}")
        lines.append(f"    {nodes[index].get('name', index)}: {'; '.join(parts)}")
    return lines


def _axes(limit) -> str:
    return "".join("XYZ"[axis] for axis in limit.linear_axes or limit.angular_axes)


def _range(limit) -> str:
    if limit.angular_axes:
        return f"{math.degrees(limit.min or 0):.0f}..{math.degrees(limit.max or 0):.0f} deg"
    return f"{limit.min or 0:g}..{limit.max or 0:g} m"


def _counts(gltf: dict) -> str:
    extensions = gltf.get("extensions", {})
    shapes = extensions.get("OMI_physics_shape", {}).get("shapes", [])
    body = extensions.get("OMI_physics_body", {})
    joints = extensions.get("OMI_physics_joint", {}).get("physicsJoints", [])
    node_bodies = [node.get("extensions", {}).get("OMI_physics_body", {}) for node in gltf.get("nodes", [])]
    motions = [entry["motion"].get("type", "?") for entry in node_bodies if "motion" in entry]
    joint_nodes = sum("OMI_physics_joint" in node.get("extensions", {}) for node in gltf.get("nodes", []))
    kinds = ", ".join(f"{motions.count(kind)} {kind}" for kind in ("dynamic", "kinematic", "static") if kind in motions)
    return (f"{len(gltf.get('nodes', []))} nodes; bodies: {len(motions)} ({kinds}), "
            f"colliders: {sum('collider' in entry for entry in node_bodies)}, "
            f"triggers: {sum('trigger' in entry for entry in node_bodies)}, joints: {joint_nodes}; "
            f"document arrays: {len(shapes)} shapes, {len(body.get('physicsMaterials', []))} physics materials, "
            f"{len(body.get('collisionFilters', []))} collision filters, {len(joints)} joint settings")


def _is_tally(message: str) -> bool:
    """The log's closing "N problem(s) ... listed in the sidebar" line: the problems are listed already."""
    return "problem(s)" in message


def _note(step: str, message: str) -> str:
    return f"  {step} note: {message.removeprefix('OMI physics: ')}"


def text(result: DemoResult) -> str:
    """The summary: what was built, what the files hold, what the import made, what the simulation did."""
    recording, found = result.recording, result.measurements
    lines = [
        "OMI Physics for glTF: demo",
        "=============================",
        f"Blender {bpy.app.version_string}; {recording.count} frames at {recording.fps:g} fps "
        f"({recording.count / recording.fps:.1f} s)",
        "",
        "Built with the add-on's operators (Fit Collider, Make Body, library presets, Assign Physics Material",
        "and Collision Filter, Create Joint with the Hinge and Pin presets, Validate):",
        "  a ball on a ramp, a trigger zone at the ramp's foot, a door hinged to a post, a stack of boxes,",
        "  a pendulum pinned under a beam, a floor and a backstop.",
        "Validate: " + ("; ".join(f"{severity.lower()} {name}: {message}"
                                  for severity, name, message in result.problems) or "no problems"),
        "",
        "Exported files:",
    ]
    for check in result.exports:
        schema = "schemas not checked (no jsonschema)" if check.schema_errors is None else (
            "schema-valid" if not check.schema_errors else f"{len(check.schema_errors)} schema errors")
        lines.append(f"  {check.path.name} ({check.path.stat().st_size:,} bytes): {schema}, "
                     f"{len(check.reader_issues)} reader issues")
        lines += [f"    {problem}" for problem in (check.schema_errors or []) + check.reader_issues]
    lines.append("  same physics in every file: " + ("yes" if not result.same_physics else
                                                     "; ".join(result.same_physics)))
    lines.append("  " + _counts(result.exports[0].gltf))
    lines.append("  Physics in the file (glTF axes, Y up; joint limits in the joint's frame):")
    lines += _inventory(result.exports[0].gltf)
    lines += [_note("export", message) for message in result.export_messages if not _is_tally(message)]
    lines += ["", *_imported(result)]
    lines += [_note("import", message) for message in result.import_messages if not _is_tally(message)]
    lines += ["", "Checks:"]
    lines += [f"  [{'PASS' if check.passed else 'FAIL'}] {check.name}: {check.detail}" for check in found.checks]
    lines += ["", "Where the dynamic bodies came to rest (Blender axes, metres):"]
    for body in found.resting:
        state = "at rest" if body.at_rest else f"still moving at {body.final_speed:.2f} m/s"
        lines.append(f"  {body.name}: {_vec(body.start)} -> {_vec(body.end)}, {state}")
    pendulum = found.pendulum
    lines.append(f"  {demo_scene.ROLES.bob}: swinging, {math.degrees(pendulum.angles[-1]):.0f} deg from the vertical "
                 "at the end")
    lines += demo_engine.summary_lines(result.engine_runs)
    lines += ["", "Timings:"]
    lines += [f"  {step}: {seconds:.2f} s" for step, seconds in result.timings.items()]
    lines += ["", "Result: " + ("every check passed" if result.passed else "SOME CHECKS FAILED") + "; "
              + demo_engine.verdict(result.engine_runs), ""]
    return "\n".join(lines)
