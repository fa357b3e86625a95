// Builds a Rapier world from the plain physics description (physics_doc.mjs) and the node hierarchy:
// bodies, colliders, materials, collision groups, sensors and generic joints with limits and motors.
import { colliderDesc } from "./rapier_shapes.mjs";
import { buildJoint } from "./rapier_joints.mjs";
import { rotate, transformPoint } from "./transforms.mjs";
import { SceneFrames } from "./scene_frames.mjs";

const COMBINE = { average: 0, minimum: 1, multiply: 2, maximum: 3 }; // Rapier's CoefficientCombineRule values
const DEFAULT_MATERIAL = { dynamicFriction: 0.6, restitution: 0, frictionCombine: "average", restitutionCombine: "average" };
const NO_SYSTEM_BIT = 15; // colliders without a filter (or with no systems) share this group
const MAX_SYSTEMS = 15;

const vec = ([x, y, z]) => ({ x, y, z });
const quat = ([x, y, z, w]) => ({ x, y, z, w });

export class RapierScene extends SceneFrames {
  constructor(R, gltfFile, physics, gravity) {
    super(gltfFile, physics);
    this.R = R;
    this.rapier = new R.World(vec(gravity));
    this.bodies = new Map(); // motion node index -> RigidBody
    this.fixed = this.rapier.createRigidBody(R.RigidBodyDesc.fixed()); // the world frame: static colliders
    this.colliderOwner = new Map(); // collider handle -> node index of its body (or -1)
    this.sensorName = new Map(); // collider handle -> trigger name
    this.sensorNode = new Map(); // collider handle -> the node of its trigger shape (gravity_volumes.mjs)
    this.collidersByMaterial = new Map(); // physicsMaterials index -> colliders (animation_pointer.mjs)
    this.groups = this.#collisionGroups();
    this.#createBodies();
    this.#createColliders();
    this.#setMassProperties();
    this.jointsBySettings = new Map(); // physicsJoints index -> [{ joint, handle }] (animation_pointer.mjs)
    this.joints = physics.joints.map((joint) => {
      const made = buildJoint(this, joint);
      if (made !== null) this.jointsBySettings.set(joint.settings, [...this.jointsBySettings.get(joint.settings) ?? [], { joint, handle: made.handle }]);
      return made;
    }).filter((j) => j !== null);
  }

  rigidBody(bodyNode) {
    return bodyNode < 0 ? this.fixed : this.bodies.get(bodyNode);
  }

  #createBodies() {
    const { R } = this;
    for (const [index, motion] of this.physics.motions) {
      const pose = this.bodyPose(index);
      let desc;
      if (motion.type === "static") desc = R.RigidBodyDesc.fixed();
      else if (motion.type === "kinematic") desc = R.RigidBodyDesc.kinematicVelocityBased();
      else desc = R.RigidBodyDesc.dynamic();
      desc.setTranslation(...pose.translation).setRotation(quat(pose.rotation));
      if (motion.type !== "static") {
        // Initial velocities are in the body node's space (KHR's text; OMI does not say).
        desc.setLinvel(...rotate(pose.rotation, motion.linearVelocity));
        desc.setAngvel(vec(rotate(pose.rotation, motion.angularVelocity)));
        desc.setGravityScale(motion.gravityFactor);
      }
      desc.setCanSleep(false);
      this.bodies.set(index, this.rapier.createRigidBody(desc));
    }
  }

  #material(index) {
    if (index === null) return DEFAULT_MATERIAL;
    return this.physics.materials[index] ?? DEFAULT_MATERIAL;
  }

  #applyCommon(desc, part, sensor) {
    desc.setCollisionGroups(this.#groupsOf(part.filter));
    if (sensor) {
      desc.setSensor(true).setDensity(0).setActiveEvents(this.R.ActiveEvents.COLLISION_EVENTS)
        .setActiveCollisionTypes(this.R.ActiveCollisionTypes.ALL);
      return;
    }
    const material = this.#material(part.material);
    // Rapier has one friction coefficient: the dynamic one, as the OMI text asks of such engines.
    desc.setFriction(material.dynamicFriction).setRestitution(material.restitution)
      .setFrictionCombineRule(COMBINE[material.frictionCombine] ?? 0)
      .setRestitutionCombineRule(COMBINE[material.restitutionCombine] ?? 0);
  }

  #createColliders() {
    const parts = [...this.physics.colliders.map((c) => [c, false]), ...this.physics.triggers.map((t) => [t, true])];
    const modes = new Set();
    for (const [part, sensor] of parts) {
      const bodyNode = this.bodyNodeOf(part.node);
      const inBody = this.matrixInBody(part.node, bodyNode);
      let desc;
      try {
        desc = colliderDesc(this, part, inBody);
      } catch (error) {
        this.notes.push(`${this.name(part.node)}: ${error.message}; no collider made`);
        continue;
      }
      if (desc === null) continue;
      this.#applyCommon(desc, part, sensor);
      if (!sensor) {
        const material = this.#material(part.material);
        modes.add(`${material.frictionCombine}/${material.restitutionCombine}`);
      }
      const collider = this.rapier.createCollider(desc, this.rigidBody(bodyNode));
      this.colliderOwner.set(collider.handle, bodyNode);
      if (!sensor && part.material !== null) this.collidersByMaterial.set(part.material, [...this.collidersByMaterial.get(part.material) ?? [], collider]);
      if (sensor) this.sensorName.set(collider.handle, this.name(this.physics.compoundTriggers.get(part.node) ?? part.node));
      if (sensor) this.sensorNode.set(collider.handle, part.node);
    }
    if (modes.size > 1) {
      this.notes.push("combine modes differ between colliders: where two meet, Rapier's priority (maximum > "
        + "multiply > minimum > average) decides instead of the spec's (average > minimum > maximum > multiply)");
    }
  }

  #setMassProperties() {
    for (const [index, motion] of this.physics.motions) {
      if (motion.type !== "dynamic") continue;
      const body = this.bodies.get(index);
      const colliders = [...Array(body.numColliders()).keys()].map((i) => body.collider(i)).filter((c) => !c.isSensor());
      const volume = colliders.reduce((sum, c) => sum + c.volume(), 0);
      const mass = motion.mass ?? volume; // KHR without a mass: density 1, Rapier's default
      if (volume > 0) colliders.forEach((c) => c.setDensity(mass / volume));
      const explicit = motion.centerOfMass !== null || motion.inertiaDiagonal !== null;
      if (volume > 0 && !explicit) continue;
      // Explicit centre of mass or inertia (or no volume to compute from): the body carries it all.
      body.recomputeMassPropertiesFromColliders();
      // A stated centre of mass is in the body node's own space: its scale applies.
      const com = motion.centerOfMass === null ? (volume > 0 ? [body.localCom().x, body.localCom().y, body.localCom().z] : [0, 0, 0])
        : transformPoint(this.matrixInBody(index, index), motion.centerOfMass);
      let inertia = motion.inertiaDiagonal;
      let frame = motion.inertiaOrientation;
      if (inertia === null) {
        if (volume > 0) {
          const p = body.principalInertia();
          const f = body.principalInertiaLocalFrame();
          inertia = [p.x, p.y, p.z];
          frame = [f.x, f.y, f.z, f.w];
        } else {
          inertia = Array(3).fill(0.4 * mass * 0.25); // a solid ball of radius 0.5
          this.notes.push(`${this.name(index)}: no collider volume; inertia of a 0.5 m ball assumed`);
        }
      }
      colliders.forEach((c) => c.setDensity(0));
      body.setAdditionalMassProperties(mass, vec(com), vec(inertia), quat(frame), true);
    }
  }

  #collisionGroups() {
    const systems = new Map();
    for (const filter of this.physics.filters) {
      for (const list of [filter.collisionSystems, filter.collideWithSystems ?? [], filter.notCollideWithSystems ?? []]) {
        list.forEach((name) => systems.has(name) || systems.set(name, systems.size));
      }
    }
    if (systems.size > MAX_SYSTEMS) {
      this.notes.push(`${systems.size} collision systems: more than Rapier's 16 groups hold; filters ignored`);
      return null;
    }
    if (this.physics.filters.some((f) => f.collisionSystems.length > 1 && f.collideWithSystems !== null)) {
      this.notes.push("a collider in several systems meets collideWithSystems: Rapier collides when any system is "
        + "listed, the spec when all are");
    }
    return systems;
  }

  #groupsOf(filterIndex) {
    const all = 0xffff;
    const filter = filterIndex === null ? undefined : this.physics.filters[filterIndex];
    if (this.groups === null || filter === undefined) return ((1 << NO_SYSTEM_BIT) << 16) | all;
    const bits = (names) => names.reduce((mask, name) => mask | (1 << this.groups.get(name)), 0);
    const membership = filter.collisionSystems.length ? bits(filter.collisionSystems) : 1 << NO_SYSTEM_BIT;
    let mask = all;
    if (filter.collideWithSystems !== null) mask = bits(filter.collideWithSystems);
    else if (filter.notCollideWithSystems !== null) mask = all & ~bits(filter.notCollideWithSystems);
    return ((membership << 16) | mask) >>> 0;
  }

  /** World translation and rotation of a node now (nodes below a body move with it). */
  nodePose(index) {
    const bodyNode = this.bodyNodeOf(index);
    if (bodyNode < 0) return this.poseFollowing(index, bodyNode);
    const body = this.bodies.get(bodyNode);
    const t = body.translation();
    const r = body.rotation();
    return this.poseFollowing(index, bodyNode, [t.x, t.y, t.z], [r.x, r.y, r.z, r.w]);
  }
}
