// Where a glTF file's nodes sit relative to the bodies that move them: the half of a scene builder that
// knows no engine (rapier_scene.mjs and havok_scene.mjs build on it). glTF axes, metres.
import { compose, decompose, invert, multiply, worldMatrices } from "./transforms.mjs";

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
}
