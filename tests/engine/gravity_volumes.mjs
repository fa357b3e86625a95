// OMI_physics_gravity in the second engine: the file's world gravity, and each step the acceleration of every
// dynamic body from the gravity volumes it overlaps, combined as the spec says (higher priority first; `replace`
// discards what was gathered so far, `stop` ignores the lower priorities and the world gravity, which always
// comes last). Written from omi-spec/OMI_physics_gravity/README.md.
//
// Rapier has one gravity per world, so when a file has volumes the world's gravity is set to zero and each
// body gets its acceleration as a force (mass x acceleration x its gravityFactor), reset every step. A body
// is in a volume when one of its colliders intersects one of the volume's trigger colliders where they are
// now (an exact shape test, not the narrow phase's contacts of the previous step), as Godot's Area3D counts
// overlapping bodies.
import { omiShapeGeometry } from "./physics_doc.mjs";
import { colliderDesc } from "./rapier_shapes.mjs";
import { invert, rotate, transformPoint, decompose } from "./transforms.mjs";

const EXTENSION = "OMI_physics_gravity";
const DOWN = [0, -1, 0];

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const length = (a) => Math.sqrt(dot(a, a));

/** The file's world gravity as an acceleration vector, or null when it has none. */
export function worldGravity(gltf) {
  const world = gltf.extensions?.[EXTENSION];
  if (world === undefined || typeof world.gravity !== "number") return null;
  return scale(world.direction ?? DOWN, world.gravity);
}

/** The nearest point to `p` on the segment a-b. */
function nearestOnSegment(p, a, b) {
  const ab = sub(b, a);
  const span = dot(ab, ab);
  const t = span > 0 ? Math.min(Math.max(dot(sub(p, a), ab) / span, 0), 1) : 0;
  return add(a, scale(ab, t));
}

export class GravityVolumes {
  /** The volumes of the file, or null when it has none (the engine then keeps Rapier's own gravity). */
  static from(scene, gltf, world) {
    const volumes = [];
    (gltf.nodes ?? []).forEach((node, index) => {
      const content = node.extensions?.[EXTENSION];
      if (content === undefined) return;
      const volume = { node: index, content, type: content.type, gravity: content.gravity ?? 0,
        priority: content.priority ?? 0, replace: content.replace ?? false, stop: content.stop ?? false,
        details: content[content.type] ?? {}, sensors: [], target: null };
      volumes.push(volume);
    });
    if (volumes.length === 0) return null;
    return new GravityVolumes(scene, gltf, world, volumes);
  }

  constructor(scene, gltf, world, volumes) {
    this.scene = scene;
    this.world = world;
    // higher priority first; equal priorities in node order (the spec leaves their order open)
    this.volumes = volumes.sort((a, b) => b.priority - a.priority || a.node - b.node);
    const owner = new Map(); // trigger node -> its volume (a compound's members count as the compound)
    for (const volume of volumes) owner.set(volume.node, volume);
    scene.rapier.forEachCollider((collider) => {
      if (!collider.isSensor()) return;
      const node = scene.sensorNode.get(collider.handle);
      const volume = owner.get(scene.physics.compoundTriggers.get(node) ?? node);
      if (volume !== undefined) volume.sensors.push(collider);
    });
    for (const volume of volumes) {
      if (volume.sensors.length === 0) scene.notes.push(`${scene.name(volume.node)}: gravity on a node without trigger colliders; ignored`);
      if (volume.type === "shaped") volume.target = this.#shapedTarget(gltf, volume);
    }
    scene.rapier.gravity = { x: 0, y: 0, z: 0 }; // applied per body, with the volumes
  }

  /** A collider of the shaped volume's shape that interacts with nothing, for its nearest points. */
  #shapedTarget(gltf, volume) {
    const { scene } = this;
    const shape = volume.details.shape;
    const geometry = shape === undefined ? null
      : omiShapeGeometry(gltf, shape, `/nodes/${volume.node}/extensions/${EXTENSION}/shaped`, scene.notes);
    if (geometry === null) return null;
    const desc = colliderDesc(scene, { node: volume.node, geometry }, scene.world[volume.node]);
    desc.setSensor(true).setCollisionGroups(0).setActiveEvents(0);
    return scene.rapier.createCollider(desc, scene.fixed);
  }

  /** The point of the volume's type that gravity at world point `p` pulls towards (null: directional). */
  #nearest(volume, p) {
    const matrix = this.scene.world[volume.node];
    const local = transformPoint(invert(matrix), p);
    const toWorld = (q) => transformPoint(matrix, q);
    const d = volume.details;
    switch (volume.type) {
      case "point":
        return toWorld([0, 0, 0]);
      case "disc":
      case "torus": {
        const radius = d.radius ?? 1;
        const flat = [local[0], 0, local[2]];
        const reach = length(flat);
        if (volume.type === "disc" && reach <= radius) return toWorld(flat);
        return toWorld(reach > 0 ? scale(flat, radius / reach) : [radius, 0, 0]);
      }
      case "line": {
        const points = d.points ?? [];
        let best = null;
        for (let i = 0; i + 5 < points.length; i += 3) {
          const q = nearestOnSegment(local, points.slice(i, i + 3), points.slice(i + 3, i + 6));
          if (best === null || length(sub(q, local)) < length(sub(best, local))) best = q;
        }
        return best === null ? null : toWorld(best);
      }
      case "shaped": {
        const projection = volume.target?.projectPoint({ x: p[0], y: p[1], z: p[2] }, true);
        return projection ? [projection.point.x, projection.point.y, projection.point.z] : null;
      }
      default:
        return null;
    }
  }

  /** The acceleration one volume gives at world point `p`. */
  acceleration(volume, p) {
    if (volume.type === "directional") {
      const { rotation } = decompose(this.scene.world[volume.node]);
      return scale(rotate(rotation, volume.details.direction ?? DOWN), volume.gravity);
    }
    const target = this.#nearest(volume, p);
    if (target === null) return [0, 0, 0];
    const toward = sub(target, p);
    const distance = length(toward);
    if (distance === 0) return [0, 0, 0];
    const unit = volume.details.unitDistance ?? 0;
    const strength = unit > 0 ? volume.gravity * (unit / distance) ** 2 : volume.gravity;
    return scale(toward, strength / distance);
  }

  /** The combined acceleration at `p` of the volumes `inside` (in priority order), then the world gravity. */
  combine(inside, p) {
    let total = [0, 0, 0];
    for (const volume of inside) {
      const a = this.acceleration(volume, p);
      total = volume.replace ? a : add(total, a);
      if (volume.stop) return total;
    }
    return add(total, this.world);
  }

  /** Before each step: every dynamic body's force from the volumes it overlaps and the world gravity. */
  apply() {
    const { scene } = this;
    for (const [index, motion] of scene.physics.motions) {
      if (motion.type !== "dynamic") continue;
      const body = scene.bodies.get(index);
      const colliders = [...Array(body.numColliders()).keys()].map((i) => body.collider(i));
      const inside = this.volumes.filter((volume) => volume.sensors.some((sensor) => colliders.some(
        (collider) => !collider.isSensor() && sensor.intersectsShape(collider.shape, collider.translation(),
          collider.rotation()))));
      const com = body.worldCom();
      const a = this.combine(inside, [com.x, com.y, com.z]);
      const f = scale(a, body.mass() * (motion.gravityFactor ?? 1));
      body.resetForces(true);
      body.addForce({ x: f[0], y: f[1], z: f[2] }, true);
    }
  }
}
