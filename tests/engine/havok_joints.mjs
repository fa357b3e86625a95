// A glTF joint as one Havok six-degree-of-freedom constraint, the way the KHR spec author's Babylon.js
// loader builds it: the parent is the joint node's body with the joint node's frame as its anchor, the child
// the connected node's body with that node's frame; an axis whose range is [0, 0] is locked, any other range
// limits it (soft where the limit has a stiffness), three linear axes in one limit bound the distance, and a
// drive is a spring motor (SPRING_FORCE or SPRING_ACCELERATION by its mode) with its targets and gains; the
// loader ignores what Havok refuses (a spring motor's position target), this one says so when it matters.
import { call } from "./havok_shapes.mjs";
import { rotate } from "./transforms.mjs";

const BIG = 1e6; // an unbounded side of a range
const NO_FORCE_LIMIT = 3.4e38; // a drive without maxForce

function anchor(frame) {
  return [frame.translation, rotate(frame.rotation, [1, 0, 0]), rotate(frame.rotation, [0, 1, 0])];
}

function limitAxes(hk, limit) {
  const linear = limit.linearAxes ?? [];
  const angular = limit.angularAxes ?? [];
  const min = limit.min ?? -BIG;
  const max = limit.max ?? BIG;
  const locked = min === 0 && max === 0;
  const A = hk.ConstraintAxis;
  const axes = [...linear.map((a) => [A.LINEAR_X, A.LINEAR_Y, A.LINEAR_Z][a]),
    ...angular.map((a) => [A.ANGULAR_X, A.ANGULAR_Y, A.ANGULAR_Z][a])];
  if (linear.length === 3 && !locked) return [[A.LINEAR_DISTANCE, Math.max(min, 0), max]];
  return axes.map((axis) => [axis, min, max]);
}

export function buildJoint(hk, scene, joint) {
  const label = `joint on ${scene.name(joint.node)}`;
  const bodies = scene.jointBodies(joint);
  if (bodies === null) return null;
  const [bodyA, bodyB] = bodies;
  const constraint = call(hk, "HP_Constraint_Create");
  call(hk, "HP_Constraint_SetParentBody", constraint, scene.havokBody(bodyA));
  call(hk, "HP_Constraint_SetChildBody", constraint, scene.havokBody(bodyB));
  call(hk, "HP_Constraint_SetAnchorInParent", constraint, ...anchor(scene.frameInBody(joint.node, bodyA)));
  call(hk, "HP_Constraint_SetAnchorInChild", constraint, ...anchor(scene.frameInBody(joint.connectedNode, bodyB)));
  const { LOCKED, LIMITED } = hk.ConstraintAxisLimitMode;
  for (const limit of joint.limits) {
    for (const [axis, min, max] of limitAxes(hk, limit)) {
      if (min === 0 && max === 0) {
        call(hk, "HP_Constraint_SetAxisMode", constraint, axis, LOCKED);
        continue;
      }
      call(hk, "HP_Constraint_SetAxisMode", constraint, axis, LIMITED);
      call(hk, "HP_Constraint_SetAxisMinLimit", constraint, axis, min);
      call(hk, "HP_Constraint_SetAxisMaxLimit", constraint, axis, max);
      if (limit.stiffness !== undefined) call(hk, "HP_Constraint_SetAxisStiffness", constraint, axis, limit.stiffness);
      if (limit.damping !== undefined) call(hk, "HP_Constraint_SetAxisDamping", constraint, axis, limit.damping);
    }
  }
  const A = hk.ConstraintAxis;
  for (const drive of joint.drives) {
    const axis = drive.type === "angular" ? [A.ANGULAR_X, A.ANGULAR_Y, A.ANGULAR_Z][drive.axis]
      : [A.LINEAR_X, A.LINEAR_Y, A.LINEAR_Z][drive.axis];
    const type = drive.mode === "force" ? hk.ConstraintMotorType.SPRING_FORCE : hk.ConstraintMotorType.SPRING_ACCELERATION;
    call(hk, "HP_Constraint_SetAxisMotorType", constraint, axis, type);
    const target = drive.positionTarget ?? 0;
    const status = hk.HP_Constraint_SetAxisMotorPositionTarget(constraint, axis, target);
    if (status !== hk.Result.RESULT_OK && target !== 0) {
      // Havok 1.3's spring motors refuse a position target (their spring pulls to the axis's zero).
      scene.notes.push(`${label}: Havok's spring motor takes no position target; ${target} made 0`);
    }
    call(hk, "HP_Constraint_SetAxisMotorVelocityTarget", constraint, axis, drive.velocityTarget ?? 0);
    call(hk, "HP_Constraint_SetAxisMotorStiffness", constraint, axis, drive.stiffness ?? 0);
    call(hk, "HP_Constraint_SetAxisMotorDamping", constraint, axis, drive.damping ?? 0);
    call(hk, "HP_Constraint_SetAxisMotorMaxForce", constraint, axis, drive.maxForce ?? NO_FORCE_LIMIT);
  }
  call(hk, "HP_Constraint_SetCollisionsEnabled", constraint, joint.enableCollision ? 1 : 0);
  call(hk, "HP_Constraint_SetEnabled", constraint, 1);
  return constraint;
}
