// Reads a glTF document's physics in either dialect into one plain description the engine builder uses:
// OMI_physics_shape + OMI_physics_body + OMI_physics_joint (current revision), or KHR_physics_rigid_bodies
// + KHR_implicit_shapes (geometry.shape / geometry.mesh, and the older geometry.node).
// Written from the spec texts in ../shared (omi-spec, khr-spec); a file may carry both dialects, in which
// case the caller picks one.

const OMI = { body: "OMI_physics_body", shape: "OMI_physics_shape", joint: "OMI_physics_joint" };
const KHR = { body: "KHR_physics_rigid_bodies", shape: "KHR_implicit_shapes" };

// Shape defaults differ between the dialects (KHR's capsule and cylinder are smaller).
const SHAPE_DEFAULTS = {
  omi: {
    box: { size: [1, 1, 1] }, sphere: { radius: 0.5 },
    capsule: { height: 1, radiusTop: 0.5, radiusBottom: 0.5 },
    cylinder: { height: 2, radiusTop: 0.5, radiusBottom: 0.5 },
  },
  khr: {
    box: { size: [1, 1, 1] }, sphere: { radius: 0.5 },
    capsule: { height: 0.5, radiusTop: 0.25, radiusBottom: 0.25 },
    cylinder: { height: 0.5, radiusTop: 0.25, radiusBottom: 0.25 },
    plane: { doubleSided: false },
  },
};
const MATERIAL_DEFAULTS = {
  staticFriction: 0.6, dynamicFriction: 0.6, restitution: 0, frictionCombine: "average", restitutionCombine: "average",
};

export function dialectsIn(gltf) {
  const used = new Set(gltf.extensionsUsed ?? []);
  const found = [];
  if (used.has(OMI.body) || used.has(OMI.shape)) found.push("omi");
  if (used.has(KHR.body)) found.push("khr");
  return found;
}

/** The geometry of OMI_physics_shape entry `index` (as a collider's), or null with a note in `notes`. */
export function omiShapeGeometry(gltf, index, pointer, notes) {
  const reader = new OmiReader(gltf);
  const geometry = reader.geometry({ shape: index }, pointer);
  notes.push(...reader.notes);
  return geometry;
}

/** The physics of `gltf` in `dialect` ("omi" or "khr"). */
export function readPhysics(gltf, dialect) {
  const reader = dialect === "khr" ? new KhrReader(gltf) : new OmiReader(gltf);
  return reader.read();
}

class PhysicsReader {
  constructor(gltf, names, defaults) {
    this.gltf = gltf;
    this.nodes = gltf.nodes ?? [];
    this.names = names;
    this.defaults = defaults;
    this.notes = [];
    this.root = gltf.extensions?.[names.body] ?? {};
  }

  read() {
    const result = {
      motions: new Map(), compoundTriggers: new Map(), colliders: [], triggers: [], joints: [], notes: this.notes,
      materials: (this.root.physicsMaterials ?? []).map((m) => ({ ...MATERIAL_DEFAULTS, ...m })),
      filters: (this.root.collisionFilters ?? []).map((f) => ({
        collisionSystems: f.collisionSystems ?? [], collideWithSystems: f.collideWithSystems ?? null,
        notCollideWithSystems: f.notCollideWithSystems ?? null,
      })),
    };
    this.nodes.forEach((node, index) => {
      const body = node.extensions?.[this.names.body] ?? {};
      const pointer = `/nodes/${index}/extensions/${this.names.body}`;
      if (body.motion !== undefined) result.motions.set(index, this.motion(body.motion));
      if (body.collider !== undefined) {
        const geometry = this.geometry(body.collider, `${pointer}/collider`, index);
        if (geometry !== null) {
          result.colliders.push({ node: index, geometry, material: body.collider.physicsMaterial ?? null,
            filter: body.collider.collisionFilter ?? null });
        }
      }
      if (body.trigger !== undefined) {
        const geometry = this.geometry(body.trigger, `${pointer}/trigger`, index);
        if (geometry !== null) {
          result.triggers.push({ node: index, geometry, filter: body.trigger.collisionFilter ?? null });
        }
        (body.trigger.nodes ?? []).forEach((member) => result.compoundTriggers.set(member, index));
      }
      const joint = this.jointOf(node, body);
      if (joint !== undefined) result.joints.push(this.joint(joint, index));
    });
    return result;
  }

  implicitShape(index, pointer) {
    const shapes = this.gltf.extensions?.[this.names.shape]?.shapes ?? [];
    const shape = shapes[index];
    if (shape === undefined) {
      this.notes.push(`${pointer}: shape ${index} does not exist; no collider made`);
      return null;
    }
    const defaults = this.defaults[shape.type];
    if (defaults === undefined) return null; // mesh types are handled by the dialect
    const values = { ...defaults, ...(shape[shape.type] ?? {}) };
    if (shape.type === "capsule" && values.radius !== undefined && shape.capsule.radiusTop === undefined) {
      // The pre-2025 OMI capsule: full height and one radius (omi-spec/ERRATA.md).
      values.radiusTop = values.radius;
      values.radiusBottom = values.radius;
      values.height = Math.max(values.height - 2 * values.radius, 0);
      this.notes.push(`${pointer}: capsule in the old form (full height, one radius)`);
    }
    return { kind: "shape", type: shape.type, ...values };
  }

  joint(joint, index) {
    const settings = this.jointSettings()[joint.joint] ?? {};
    return {
      node: index, connectedNode: joint.connectedNode, enableCollision: joint.enableCollision ?? false,
      limits: settings.limits ?? [], drives: settings.drives ?? [], settings: joint.joint,
    };
  }
}

class OmiReader extends PhysicsReader {
  constructor(gltf) {
    super(gltf, OMI, SHAPE_DEFAULTS.omi);
  }

  motion(motion) {
    const inertia = motion.inertiaDiagonal ?? [0, 0, 0];
    return {
      type: motion.type ?? "dynamic",
      mass: motion.mass ?? 1,
      centerOfMass: motion.centerOfMass ?? [0, 0, 0], // OMI: the body's origin unless given
      // OMI: an inertia of zero means "let the engine compute it".
      inertiaDiagonal: inertia.every((v) => v === 0) ? null : inertia,
      inertiaOrientation: motion.inertiaOrientation ?? [0, 0, 0, 1],
      linearVelocity: motion.linearVelocity ?? [0, 0, 0],
      angularVelocity: motion.angularVelocity ?? [0, 0, 0],
      gravityFactor: motion.gravityFactor ?? 1,
    };
  }

  geometry(part, pointer) {
    if (part.shape === undefined || part.shape < 0) return null; // a grouping node: its children collide
    const shape = (this.gltf.extensions?.[OMI.shape]?.shapes ?? [])[part.shape];
    if (shape?.type === "convex" || shape?.type === "trimesh") {
      const mesh = shape[shape.type]?.mesh;
      if (mesh === undefined || mesh < 0) {
        this.notes.push(`${pointer}: ${shape.type} shape ${part.shape} names no mesh; no collider made`);
        return null;
      }
      return { kind: "mesh", mesh, convex: shape.type === "convex", meshMatrix: null };
    }
    return this.implicitShape(part.shape, pointer);
  }

  jointOf(node) {
    return node.extensions?.[OMI.joint];
  }

  jointSettings() {
    return this.gltf.extensions?.[OMI.joint]?.physicsJoints ?? [];
  }
}

class KhrReader extends PhysicsReader {
  constructor(gltf) {
    super(gltf, KHR, SHAPE_DEFAULTS.khr);
  }

  motion(motion) {
    return {
      type: motion.isKinematic ? "kinematic" : "dynamic",
      mass: motion.mass ?? null, // absent: computed from the colliders; 0: infinite
      centerOfMass: motion.centerOfMass ?? null,
      inertiaDiagonal: motion.inertiaDiagonal ?? null, // a 0 component: infinite about that axis
      inertiaOrientation: motion.inertiaOrientation ?? [0, 0, 0, 1],
      linearVelocity: motion.linearVelocity ?? [0, 0, 0],
      angularVelocity: motion.angularVelocity ?? [0, 0, 0],
      gravityFactor: motion.gravityFactor ?? 1,
    };
  }

  geometry(part, pointer, index) {
    if (part.nodes !== undefined && part.geometry === undefined) return null; // compound trigger: members carry it
    const geometry = part.geometry;
    if (geometry === undefined) {
      this.notes.push(`${pointer}: no geometry; nothing made`);
      return null;
    }
    const convex = geometry.convexHull ?? false;
    if (geometry.shape !== undefined) {
      const shape = this.implicitShape(geometry.shape, `${pointer}/geometry`);
      return shape === null ? null : { ...shape, convexHull: convex };
    }
    if (geometry.mesh !== undefined) return { kind: "mesh", mesh: geometry.mesh, convex, meshMatrix: null };
    if (geometry.node !== undefined) {
      // The older revision: the referenced node's own mesh (not its children), placed by that node's
      // transform relative to the collider node.
      const source = this.nodes[geometry.node];
      if (source?.mesh === undefined) {
        this.notes.push(`${pointer}/geometry/node: node ${geometry.node} has no mesh; no collider made`);
        return null;
      }
      return { kind: "mesh", mesh: source.mesh, convex, meshNode: geometry.node, colliderNode: index };
    }
    this.notes.push(`${pointer}/geometry: neither shape, mesh nor node; nothing made`);
    return null;
  }

  jointOf(_node, body) {
    return body.joint;
  }

  jointSettings() {
    return this.root.physicsJoints ?? [];
  }
}
