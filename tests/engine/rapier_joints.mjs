// A glTF joint as one Rapier generic joint: frame 1 is the joint node in its body, frame 2 the connected
// node in its body, so Rapier measures the connected frame seen from the joint frame, as the specs do.
// Axes fixed at zero are locked; ranges become per-axis limits; drives become per-axis motors.

const BIG = 1e6; // an unbounded side of a range
const LOCK_BITS = [1, 2, 4, 8, 16, 32]; // Rapier's JointAxesMask: LinX, LinY, LinZ, AngX, AngY, AngZ
const MOTOR_MODEL = { acceleration: 0, force: 1 }; // Rapier's MotorModel

function axesOf(limit) {
  return [...(limit.linearAxes ?? []), ...(limit.angularAxes ?? []).map((a) => a + 3)];
}

/** Per-axis locks and ranges for the limits, with a note for each approximation. */
function perAxis(limits, label, notes) {
  let locked = 0;
  const ranges = new Map();
  for (const limit of limits) {
    const axes = axesOf(limit);
    const min = limit.min ?? -Infinity;
    const max = limit.max ?? Infinity;
    if (limit.stiffness !== undefined && limit.stiffness >= 0) {
      notes.push(`${label}: soft limit (stiffness ${limit.stiffness}) made rigid: Rapier's limits are hard`);
    }
    if (min === 0 && max === 0) {
      axes.forEach((axis) => (locked |= LOCK_BITS[axis]));
      continue;
    }
    const linear = (limit.linearAxes ?? []).length;
    const angular = (limit.angularAxes ?? []).length;
    if (linear > 1 || angular > 1) {
      // A distance (2 or 3 linear axes) or a cone (2 or 3 angular axes): bounded per axis instead.
      notes.push(`${label}: a ${Math.max(linear, angular)}-axis range limit is bounded axis by axis (a box, not a `
        + "sphere or cone)");
      const bound = Math.max(Math.abs(min === -Infinity ? 0 : min), Math.abs(max === Infinity ? BIG : max));
      axes.forEach((axis) => ranges.set(axis, [-bound, bound]));
      continue;
    }
    axes.forEach((axis) => ranges.set(axis, [Math.max(min, -BIG), Math.min(max, BIG)]));
  }
  return { locked, ranges };
}

export function buildJoint(scene, joint) {
  const { R } = scene;
  const label = `joint on ${scene.name(joint.node)}`;
  const bodies = scene.jointBodies(joint);
  if (bodies === null) return null;
  const [bodyA, bodyB] = bodies;
  const frameA = scene.frameInBody(joint.node, bodyA);
  const frameB = scene.frameInBody(joint.connectedNode, bodyB);
  const { locked, ranges } = perAxis(joint.limits, label, scene.notes);
  const v = ([x, y, z]) => ({ x, y, z });
  const q = ([x, y, z, w]) => ({ x, y, z, w });
  const data = R.JointData.generic(v(frameA.translation), v(frameB.translation), { x: 1, y: 0, z: 0 }, locked);
  const created = scene.rapier.createImpulseJoint(data, scene.rigidBody(bodyA), scene.rigidBody(bodyB), true);
  created.setLocalFrame1(v(frameA.translation), q(frameA.rotation));
  created.setLocalFrame2(v(frameB.translation), q(frameB.rotation));
  created.setContactsEnabled(joint.enableCollision);
  const raw = scene.rapier.impulseJoints.raw;
  for (const [axis, [min, max]] of ranges) {
    if (!(locked & LOCK_BITS[axis])) raw.jointSetLimits(created.handle, axis, min, max);
  }
  for (const drive of joint.drives) {
    const axis = drive.axis + (drive.type === "angular" ? 3 : 0);
    if (locked & LOCK_BITS[axis]) {
      scene.notes.push(`${label}: drive on a locked axis does nothing`);
      continue;
    }
    raw.jointConfigureMotorModel(created.handle, axis, MOTOR_MODEL[drive.mode] ?? MOTOR_MODEL.force);
    const spring = drive.positionTarget !== undefined;
    raw.jointConfigureMotor(created.handle, axis, drive.positionTarget ?? 0, drive.velocityTarget ?? 0,
      spring ? drive.stiffness ?? 0 : 0, drive.damping ?? 0);
    if (drive.maxForce !== undefined && drive.maxForce >= 0) raw.jointSetMotorMaxForce(created.handle, axis, drive.maxForce);
  }
  return created;
}
