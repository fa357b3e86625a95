// Where a glTF file's nodes sit relative to the bodies that move them: the half of a scene builder that
// knows no engine (rapier_scene.mjs and havok_scene.mjs build on it). glTF axes, metres.
import { compose, decompose, invert, multiply, nodeLocal, transformPoint, worldMatrices } from "./transforms.mjs";

export function rigidPose(matrix) {
  const { translation, rotation } = decompose(matrix);
  return { translation, rotation };
}

export class SceneFrames {
  constructor(gltfFile, physics) {
    this.file = gltfFile;
    this.physics = physics;
    this.notes = physics.notes;
    this.nodes = gltfFile.json.nodes ?? [];
    const { matrices, parent } = worldMatrices(this.nodes);
    this.world = matrices;
    this.parent = parent;
  }

  name(index) {
    return index < 0 ? "(world)" : this.nodes[index]?.name ?? `node ${index}`;
  }

  /** The motion node a node moves with (itself or its nearest ancestor with a motion), or -1. */
  bodyNodeOf(index) {
    for (let at = index; at !== undefined; at = this.parent.get(at)) {
      if (this.physics.motions.has(at)) return at;
    }
    return -1;
  }

  bodyPose(bodyNode) {
    return bodyNode < 0 ? { translation: [0, 0, 0], rotation: [0, 0, 0, 1] } : rigidPose(this.world[bodyNode]);
  }

  /** A node's full matrix (with scale) relative to its body's rigid frame. */
  matrixInBody(index, bodyNode) {
    const pose = this.bodyPose(bodyNode);
    return multiply(invert(compose(pose.translation, pose.rotation, [1, 1, 1])), this.world[index]);
  }

  /** A node's rigid frame (translation, rotation) in its body's frame, as the file places it. */
  frameInBody(index, bodyNode) {
    return rigidPose(this.matrixInBody(index, bodyNode));
  }

  /** World translation and rotation of a node whose body's rigid frame is now at `translation`, `rotation`
   * (a node without a body: where the file puts it). */
  poseFollowing(index, bodyNode, translation, rotation) {
    if (bodyNode < 0) return rigidPose(this.world[index]);
    return rigidPose(multiply(compose(translation, rotation, [1, 1, 1]), this.matrixInBody(index, bodyNode)));
  }

  /** A mesh collider's points placed in its body's frame (`inBody`: the collider node's matrix there). KHR's
   * older geometry.node names another node's mesh, whose own transform is then taken relative to the
   * collider node (the spec author's sample keeps such nodes outside the scene, at the origin). */
  meshPointsInBody(geometry, inBody) {
    let matrix = inBody;
    if (geometry.meshNode !== undefined && geometry.meshNode !== geometry.colliderNode) {
      matrix = multiply(inBody, nodeLocal(this.nodes[geometry.meshNode]));
    }
    const { positions, indices } = this.file.meshTriangles(geometry.mesh);
    const placed = [];
    for (let i = 0; i < positions.length; i += 3) {
      placed.push(...transformPoint(matrix, [positions[i], positions[i + 1], positions[i + 2]]));
    }
    return { placed, indices };
  }

  /** Where an implicit shape sits in its body: the node's translation, or for a plane (made a thin box,
   * `lift` its half thickness down) moved along the node's own Y so the box's top face is the plane. */
  shapeOffset(inBody, translation, scale, lift) {
    if (!lift) return translation;
    const down = multiply(inBody, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, lift / (Math.abs(scale[1]) || 1), 0, 1]);
    return [down[12], down[13], down[14]];
  }

  /** The two bodies a joint holds, [bodyA, bodyB], or null after a note when there is no joint to make
   * (its connected node is missing, or both nodes move with one body). */
  jointBodies(joint) {
    const label = `joint on ${this.name(joint.node)}`;
    if (this.nodes[joint.connectedNode] === undefined) {
      this.notes.push(`${label}: connected node ${joint.connectedNode} does not exist; no joint made`);
      return null;
    }
    const bodyA = this.bodyNodeOf(joint.node);
    const bodyB = this.bodyNodeOf(joint.connectedNode);
    if (bodyA === bodyB) {
      this.notes.push(`${label}: both nodes move with ${this.name(bodyA)}; no joint made`);
      return null;
    }
    return [bodyA, bodyB];
  }
}
