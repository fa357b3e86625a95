// Plays a file's KHR_animation_pointer channels on the Rapier world while it steps: joint drive targets,
// gains and force limits, joint limit bounds, a body's velocities, mass and gravity factor, and a physics
// material's friction and restitution, in both dialects. Written from the specs' Object Model tables
// (OMI_physics_* README "glTF Object Model", KHR_physics_rigid_bodies "JSON Pointers"); a channel this player
// cannot apply is named once in the notes.
//
// Timing: Blender steps from frame f-1 to f with the values keyed at f, so a step here uses the values at
// its end time.

const BODY = { omi: "OMI_physics_body", khr: "KHR_physics_rigid_bodies" };
const JOINT_HOME = { omi: "OMI_physics_joint", khr: "KHR_physics_rigid_bodies" };
const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 };
const MOTOR_MODEL = { acceleration: 0, force: 1 };

/** The value of a sampler at `time`: STEP, LINEAR or CUBICSPLINE, clamped at both ends. */
export function sample(times, values, width, interpolation, time) {
  const cubic = interpolation === "CUBICSPLINE";
  const stride = cubic ? 3 * width : width;
  const at = (key, part) => values.slice(key * stride + part * width, key * stride + (part + 1) * width);
  const value = (key) => at(key, cubic ? 1 : 0);
  if (time <= times[0]) return value(0);
  const last = times.length - 1;
  if (time >= times[last]) return value(last);
  let key = 0;
  while (times[key + 1] <= time) key++;
  if (interpolation === "STEP") return value(key);
  const span = times[key + 1] - times[key];
  const t = (time - times[key]) / span;
  if (!cubic) return value(key).map((a, i) => a + (value(key + 1)[i] - a) * t);
  const [p0, m0, p1, m1] = [value(key), at(key, 2), value(key + 1), at(key + 1, 0)];
  const t2 = t * t;
  const t3 = t2 * t;
  return p0.map((_, i) => (2 * t3 - 3 * t2 + 1) * p0[i] + (t3 - 2 * t2 + t) * span * m0[i]
    + (-2 * t3 + 3 * t2) * p1[i] + (t3 - t2) * span * m1[i]);
}

export class AnimationPlayer {
  /** `scene`: a RapierScene; `dialect`: "omi" or "khr" (which extension's pointers apply). */
  constructor(scene, dialect) {
    this.scene = scene;
    this.dialect = dialect;
    this.channels = [];
    const json = scene.file.json;
    const unplayed = new Set();
    for (const animation of json.animations ?? []) {
      for (const channel of animation.channels ?? []) {
        const pointer = channel.target?.extensions?.KHR_animation_pointer?.pointer;
        if (channel.target?.path !== "pointer" || typeof pointer !== "string") continue;
        const apply = this.#applier(pointer);
        if (apply === undefined) continue; // another dialect's value, or not physics
        if (apply === null) {
          unplayed.add(pointer);
          continue;
        }
        const sampler = animation.samplers[channel.sampler];
        const output = json.accessors[sampler.output];
        this.channels.push({
          pointer, apply, interpolation: sampler.interpolation ?? "LINEAR", width: COMPONENTS[output.type] ?? 1,
          times: scene.file.accessor(sampler.input), values: scene.file.accessor(sampler.output),
        });
      }
    }
    for (const pointer of unplayed) scene.notes.push(`animation channel ${pointer}: not played by this engine`);
  }

  get playing() {
    return this.channels.length > 0;
  }

  /** Put every animated value at its value at `time` (seconds). */
  apply(time) {
    for (const channel of this.channels) {
      const value = sample(channel.times, channel.values, channel.width, channel.interpolation, time);
      channel.apply(channel.width === 1 ? value[0] : value);
    }
  }

  /** The function that puts a value at `pointer`: undefined when the pointer is none of this dialect's
   * physics, null when it is but cannot be played. */
  #applier(pointer) {
    const parts = pointer.split("/").slice(1);
    const body = BODY[this.dialect];
    const jointHome = JOINT_HOME[this.dialect];
    if (parts[0] === "nodes" && parts[2] === "extensions" && parts[3] === body && parts[4] === "motion") {
      return this.#motion(Number(parts[1]), parts[5]);
    }
    if (parts[0] === "extensions" && parts[1] === jointHome && parts[2] === "physicsJoints") {
      return this.#joint(Number(parts[3]), parts[4], Number(parts[5]), parts[6]);
    }
    if (parts[0] === "extensions" && parts[1] === body && parts[2] === "physicsMaterials") {
      return this.#material(Number(parts[3]), parts[4]);
    }
    if (parts.includes(body) || parts.includes(jointHome) || parts.some((part) => part.endsWith("_shapes")
      || part === "OMI_physics_shape")) {
      return null;
    }
    return undefined;
  }

  #motion(node, key) {
    const rigid = this.scene.bodies.get(node);
    if (rigid === undefined) return null;
    const local = (vector) => rotateBy(rigid.rotation(), vector);
    switch (key) {
      case "linearVelocity": return (v) => rigid.setLinvel(local(v), true);
      case "angularVelocity": return (v) => rigid.setAngvel(local(v), true);
      case "gravityFactor": return (v) => rigid.setGravityScale(v, true);
      case "mass": return (v) => rigid.setAdditionalMass(Math.max(v, 0) - colliderMass(rigid), true);
      default: return null;
    }
  }

  #joint(settings, kind, index, key) {
    const joints = this.scene.jointsBySettings?.get(settings) ?? [];
    if (joints.length === 0) return null;
    const raw = this.scene.rapier.impulseJoints.raw;
    if (kind === "drives") {
      const drives = joints.map(({ joint, handle }) => ({ drive: { ...joint.drives[index] }, handle }));
      if (drives.some(({ drive }) => drive.type === undefined)) return null;
      if (!["velocityTarget", "positionTarget", "stiffness", "damping", "maxForce"].includes(key)) return null;
      return (value) => {
        for (const { drive, handle } of drives) {
          drive[key] = value;
          const axis = drive.axis + (drive.type === "angular" ? 3 : 0);
          raw.jointConfigureMotorModel(handle, axis, MOTOR_MODEL[drive.mode] ?? MOTOR_MODEL.force);
          const spring = drive.positionTarget !== undefined;
          raw.jointConfigureMotor(handle, axis, drive.positionTarget ?? 0, drive.velocityTarget ?? 0,
            spring ? drive.stiffness ?? 0 : 0, drive.damping ?? 0);
          if (drive.maxForce !== undefined && drive.maxForce >= 0) raw.jointSetMotorMaxForce(handle, axis, drive.maxForce);
        }
      };
    }
    if (kind === "limits" && (key === "min" || key === "max")) {
      const limits = joints.map(({ joint, handle }) => ({ limit: { ...joint.limits[index] }, handle }));
      return (value) => {
        for (const { limit, handle } of limits) {
          limit[key] = value;
          const axes = [...(limit.linearAxes ?? []), ...(limit.angularAxes ?? []).map((a) => a + 3)];
          for (const axis of axes) raw.jointSetLimits(handle, axis, limit.min ?? -1e6, limit.max ?? 1e6);
        }
      };
    }
    return null;
  }

  #material(index, key) {
    const colliders = this.scene.collidersByMaterial?.get(index) ?? [];
    if (colliders.length === 0) return null;
    switch (key) {
      case "dynamicFriction": return (v) => colliders.forEach((c) => c.setFriction(v));
      case "restitution": return (v) => colliders.forEach((c) => c.setRestitution(v));
      case "staticFriction": return () => {}; // Rapier has one friction: the dynamic one (as when built)
      default: return null;
    }
  }
}

function rotateBy(q, [x, y, z]) {
  // v' = q v q*, with q = (x, y, z, w)
  const ix = q.w * x + q.y * z - q.z * y;
  const iy = q.w * y + q.z * x - q.x * z;
  const iz = q.w * z + q.x * y - q.y * x;
  const iw = -q.x * x - q.y * y - q.z * z;
  return {
    x: ix * q.w + iw * -q.x + iy * -q.z - iz * -q.y,
    y: iy * q.w + iw * -q.y + iz * -q.x - ix * -q.z,
    z: iz * q.w + iw * -q.z + ix * -q.y - iy * -q.x,
  };
}

function colliderMass(rigid) {
  let mass = 0;
  for (let i = 0; i < rigid.numColliders(); i++) mass += rigid.collider(i).mass();
  return mass;
}
