// Builds a Havok world (the @babylonjs/havok WASM, through its HP_* functions) from the plain physics
// description (physics_doc.mjs) and the node hierarchy: one body per motion (its colliders and triggers in a
// container shape), one static body holding every collider without a motion, materials, collision filters
// and six-degree-of-freedom constraints (havok_joints.mjs).
import { buildJoint } from "./havok_joints.mjs";
import { call, partShape } from "./havok_shapes.mjs";
import { SceneFrames } from "./scene_frames.mjs";
import { rotate, transformPoint } from "./transforms.mjs";

const COMBINE = { average: "ARITHMETIC_MEAN", minimum: "MINIMUM", maximum: "MAXIMUM", multiply: "MULTIPLY" };
const DEFAULT_MATERIAL = { staticFriction: 0.6, dynamicFriction: 0.6, restitution: 0, frictionCombine: "average",
  restitutionCombine: "average" };
const NO_SYSTEM_BIT = 31; // colliders without a filter (or with no systems) share this bit
const ALL = 0xffffffff;
const NO_VOLUME_INERTIA = 0.1; // per kilogram: a solid ball of radius 0.5 m, for a body with no collider
const TRIGGER_ENTERED = 8; // a trigger event's type (8 entered, 16 exited; hk.EventType lists only collisions)
const HAVOK_DENSITY = 1000; // what HP_Shape_BuildMassProperties assumes; KHR without a mass: density 1

export class HavokScene extends SceneFrames {
  constructor(hk, gltfFile, physics, gravity, rate) {
    super(gltfFile, physics);
    this.hk = hk;
    this.hpWorld = call(hk, "HP_World_Create");
    call(hk, "HP_World_SetGravity", this.hpWorld, gravity);
    call(hk, "HP_World_SetIdealStepTime", this.hpWorld, 1 / rate);
    this.bodies = new Map(); // motion node index -> Havok body id
    this.statics = null; // the static body holding colliders without a motion (made when needed)
    this.parts = new Map(); // body node (-1: static) -> { solid: [shape, place][], sensors: [shape, place][] }
    this.sensorName = new Map(); // a trigger shape's id -> its trigger's name (a compound trigger's own name)
    this.systems = this.#collisionSystems();
    this.#createBodies();
    this.#createShapes();
    this.#setMassProperties();
    for (const body of [...this.bodies.values(), this.statics]) {
      if (body !== null) call(hk, "HP_World_AddBody", this.hpWorld, body, false);
    }
    this.joints = physics.joints.map((joint) => buildJoint(hk, this, joint)).filter((j) => j !== null);
  }

  step(seconds) {
    call(this.hk, "HP_World_Step", this.hpWorld, seconds);
  }

  /** The Havok body a body node moves with; -1 is the static world body (made on first use). */
  havokBody(bodyNode) {
    if (bodyNode >= 0) return this.bodies.get(bodyNode);
    if (this.statics === null) {
      this.statics = call(this.hk, "HP_Body_Create");
      call(this.hk, "HP_Body_SetMotionType", this.statics, this.hk.MotionType.STATIC);
      call(this.hk, "HP_Body_SetQTransform", this.statics, [[0, 0, 0], [0, 0, 0, 1]]);
    }
    return this.statics;
  }

  #createBodies() {
    const { hk } = this;
    const types = { static: hk.MotionType.STATIC, kinematic: hk.MotionType.KINEMATIC, dynamic: hk.MotionType.DYNAMIC };
    for (const [index, motion] of this.physics.motions) {
      const body = call(hk, "HP_Body_Create");
      const pose = this.bodyPose(index);
      call(hk, "HP_Body_SetMotionType", body, types[motion.type] ?? hk.MotionType.DYNAMIC);
      call(hk, "HP_Body_SetQTransform", body, [pose.translation, pose.rotation]);
      if (motion.type !== "static") {
        // Initial velocities are in the body node's space (KHR's text; OMI does not say).
        call(hk, "HP_Body_SetLinearVelocity", body, rotate(pose.rotation, motion.linearVelocity));
        call(hk, "HP_Body_SetAngularVelocity", body, rotate(pose.rotation, motion.angularVelocity));
        call(hk, "HP_Body_SetGravityFactor", body, motion.gravityFactor);
        call(hk, "HP_Body_SetLinearDamping", body, 0); // the file's bodies are undamped (Havok: 0 and 0.1)
        call(hk, "HP_Body_SetAngularDamping", body, 0);
        call(hk, "HP_Body_SetActivationControl", body, hk.ActivationControl.ALWAYS_ACTIVE);
      }
      this.bodies.set(index, body);
    }
  }

  #material(index) {
    const material = index === null ? DEFAULT_MATERIAL : this.physics.materials[index] ?? DEFAULT_MATERIAL;
    const combine = (mode) => this.hk.MaterialCombine[COMBINE[mode] ?? COMBINE.average];
    return [material.staticFriction, material.dynamicFriction, material.restitution,
      combine(material.frictionCombine), combine(material.restitutionCombine)];
  }

  #createShapes() {
    const { hk } = this;
    const parts = [...this.physics.colliders.map((c) => [c, false]), ...this.physics.triggers.map((t) => [t, true])];
    for (const [part, sensor] of parts) {
      const bodyNode = this.bodyNodeOf(part.node);
      let made;
      try {
        made = partShape(hk, this, part, this.matrixInBody(part.node, bodyNode));
      } catch (error) {
        this.notes.push(`${this.name(part.node)}: ${error.message}; no collider made`);
        continue;
      }
      call(hk, "HP_Shape_SetFilterInfo", made.shape, this.#filterOf(part.filter));
      if (sensor) {
        call(hk, "HP_Shape_SetTrigger", made.shape, true);
        this.sensorName.set(made.shape[0], this.name(this.physics.compoundTriggers.get(part.node) ?? part.node));
      }
      else call(hk, "HP_Shape_SetMaterial", made.shape, this.#material(part.material));
      const entry = this.parts.get(bodyNode) ?? { solid: [], sensors: [] };
      (sensor ? entry.sensors : entry.solid).push([made.shape, made.place]);
      this.parts.set(bodyNode, entry);
    }
    for (const [bodyNode, { solid, sensors }] of this.parts) {
      call(hk, "HP_Body_SetShape", this.havokBody(bodyNode), this.#container([...solid, ...sensors]));
    }
  }

  #container(children) {
    const container = call(this.hk, "HP_Shape_CreateContainer");
    for (const [shape, place] of children) call(this.hk, "HP_Shape_AddChild", container, shape, place);
    return container;
  }

  #setMassProperties() {
    const { hk } = this;
    for (const [index, motion] of this.physics.motions) {
      if (motion.type !== "dynamic") continue;
      const solid = this.parts.get(index)?.solid ?? [];
      // Havok's own mass properties of the solid colliders (density 1000 kg/m^3, inertia per kilogram).
      const built = solid.length ? call(hk, "HP_Shape_BuildMassProperties", this.#container(solid)) : null;
      const volume = built === null ? 0 : built[1] / HAVOK_DENSITY;
      const mass = motion.mass ?? volume; // KHR without a mass: computed from the colliders at density 1
      let centre = built === null ? [0, 0, 0] : built[0];
      if (motion.centerOfMass !== null) {
        // In the body node's own space: its scale applies (the body's frame is the node's rigid frame).
        centre = transformPoint(this.matrixInBody(index, index), motion.centerOfMass);
        if (motion.centerOfMass.some((v, i) => v !== centre[i])) this.notes.push(`${this.name(index)}: centre of mass scaled by its node`);
      }
      let inertia = built === null ? [NO_VOLUME_INERTIA, NO_VOLUME_INERTIA, NO_VOLUME_INERTIA] : built[2];
      let frame = built === null ? [0, 0, 0, 1] : built[3];
      if (built === null) this.notes.push(`${this.name(index)}: no collider volume; inertia of a 0.5 m ball assumed`);
      if (motion.inertiaDiagonal !== null) {
        inertia = motion.inertiaDiagonal.map((v) => (mass > 0 ? v / mass : v)); // Havok's is per kilogram
        frame = motion.inertiaOrientation;
      }
      if (mass === 0 || inertia.some((v) => v === 0)) this.notes.push(`${this.name(index)}: a zero mass or inertia (KHR: infinite) is given to Havok as is`);
      call(hk, "HP_Body_SetMassProperties", this.bodies.get(index), [centre, mass, inertia, frame]);
    }
  }

  #collisionSystems() {
    const systems = new Map();
    for (const filter of this.physics.filters) {
      for (const list of [filter.collisionSystems, filter.collideWithSystems ?? [], filter.notCollideWithSystems ?? []]) {
        list.forEach((name) => systems.has(name) || systems.set(name, systems.size));
      }
    }
    if (systems.size > NO_SYSTEM_BIT) {
      this.notes.push(`${systems.size} collision systems: more than Havok's 32 bits hold; filters ignored`);
      return null;
    }
    if (this.physics.filters.some((f) => f.collisionSystems.length > 1 && f.collideWithSystems !== null)) {
      this.notes.push("a collider in several systems meets collideWithSystems: Havok collides when any system is "
        + "listed, the spec when all are");
    }
    return systems;
  }

  /** [membership, collide-with] bits of a collision filter (all systems for colliders without one). */
  #filterOf(filterIndex) {
    const filter = filterIndex === null ? undefined : this.physics.filters[filterIndex];
    const own = (2 ** NO_SYSTEM_BIT) >>> 0;
    if (this.systems === null || filter === undefined) return [own, ALL];
    const bits = (names) => names.reduce((mask, name) => (mask | (1 << this.systems.get(name))) >>> 0, 0);
    const membership = filter.collisionSystems.length ? bits(filter.collisionSystems) : own;
    let mask = ALL;
    if (filter.collideWithSystems !== null) mask = bits(filter.collideWithSystems);
    else if (filter.notCollideWithSystems !== null) mask = (ALL & ~bits(filter.notCollideWithSystems)) >>> 0;
    return [membership, mask];
  }

  /** The trigger entries of the last step: [trigger name, name of the body that entered]. */
  triggerEntries() {
    const { hk } = this;
    const bodyName = new Map([...this.bodies].map(([index, body]) => [body[0], this.name(index)]));
    const entries = [];
    // Without events the first call answers RESULT_FAIL and address 0, as Babylon.js's plugin reads it.
    let at = hk.HP_World_GetTriggerEvents(this.hpWorld)[1];
    for (; at; at = hk.HP_World_GetNextTriggerEvent(this.hpWorld, at)) {
      // A trigger event: its type (int32), then body A, shape A, body B, shape B (64-bit ids).
      const ids = new BigUint64Array(hk.HEAPU8.buffer, at + 8, 4);
      if (new Int32Array(hk.HEAPU8.buffer, at, 1)[0] !== TRIGGER_ENTERED) continue;
      for (const [shape, body] of [[ids[1], ids[2]], [ids[3], ids[0]]]) {
        const trigger = this.sensorName.get(shape);
        if (trigger !== undefined && bodyName.has(body)) entries.push([trigger, bodyName.get(body)]);
      }
    }
    return entries;
  }

  /** World translation and rotation of a node now (nodes below a body move with it). */
  nodePose(index) {
    const bodyNode = this.bodyNodeOf(index);
    if (bodyNode < 0) return this.poseFollowing(index, bodyNode);
    const [translation, rotation] = call(this.hk, "HP_Body_GetQTransform", this.bodies.get(bodyNode));
    return this.poseFollowing(index, bodyNode, translation, rotation);
  }

  bodyMass(bodyNode) {
    return call(this.hk, "HP_Body_GetMassProperties", this.bodies.get(bodyNode))[1];
  }
}
