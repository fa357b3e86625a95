// One collider description per glTF collider or trigger: implicit shapes sized by the node's scale and
// placed in their body's frame; meshes baked into the body's frame as convex hulls or triangle meshes.
import { decompose } from "./transforms.mjs";

const SEGMENTS = 24; // tapered cylinders and capsules become convex hulls of this many points per ring
const PLANE_THICKNESS = 0.01; // a finite KHR plane is a thin box with its top face on the plane

function ring(radius, y, out) {
  for (let i = 0; i < SEGMENTS; i++) {
    const a = (2 * Math.PI * i) / SEGMENTS;
    out.push(radius * Math.cos(a), y, radius * Math.sin(a));
  }
}

/** Points whose convex hull is a tapered cylinder or capsule (Y up, centred; havok_shapes.mjs uses it too). */
export function taperedPoints(type, height, radiusTop, radiusBottom) {
  const points = [];
  if (type === "cylinder") {
    ring(radiusTop, height / 2, points);
    ring(radiusBottom, -height / 2, points);
    return points;
  }
  // A tapered capsule: the hull of its two capping spheres, sampled on rings of latitude.
  for (const [radius, centre] of [[radiusTop, height / 2], [radiusBottom, -height / 2]]) {
    for (let j = 0; j <= 8; j++) {
      const phi = (Math.PI * j) / 8 - Math.PI / 2;
      ring(radius * Math.cos(phi), centre + radius * Math.sin(phi), points);
    }
  }
  return points;
}

function implicitShape(R, scene, part, scale) {
  const g = part.geometry;
  const [sx, sy, sz] = scale.map(Math.abs);
  const uniform = Math.abs(sx - sy) < 1e-6 && Math.abs(sy - sz) < 1e-6;
  const label = scene.name(part.node);
  switch (g.type) {
    case "box":
      return [R.ColliderDesc.cuboid((g.size[0] * sx) / 2, (g.size[1] * sy) / 2, (g.size[2] * sz) / 2), null];
    case "sphere":
      if (!uniform) scene.notes.push(`${label}: sphere under a non-uniform scale; the largest axis is used`);
      return [R.ColliderDesc.ball(g.radius * Math.max(sx, sy, sz)), null];
    case "capsule":
    case "cylinder": {
      if (Math.abs(sx - sz) > 1e-6) scene.notes.push(`${label}: ${g.type} scaled unevenly across; the larger radius scale is used`);
      const radial = Math.max(sx, sz);
      const height = g.height * sy;
      const top = g.radiusTop * radial;
      const bottom = g.radiusBottom * radial;
      if (Math.abs(top - bottom) > 1e-9) {
        return [R.ColliderDesc.convexHull(new Float32Array(taperedPoints(g.type, height, top, bottom))), null];
      }
      const desc = g.type === "capsule" ? R.ColliderDesc.capsule(height / 2, top) : R.ColliderDesc.cylinder(height / 2, top);
      return [desc, null];
    }
    case "plane":
      if (g.sizeX === undefined || g.sizeZ === undefined) {
        if (g.doubleSided) scene.notes.push(`${label}: an infinite double-sided plane is made one-sided (+Y)`);
        return [new R.ColliderDesc(new R.HalfSpace({ x: 0, y: 1, z: 0 })), null];
      }
      return [R.ColliderDesc.cuboid((g.sizeX * sx) / 2, PLANE_THICKNESS / 2, (g.sizeZ * sz) / 2), -PLANE_THICKNESS / 2];
    default:
      throw new Error(`shape type '${g.type}' is not known`);
  }
}

function meshShape(R, scene, part, inBody) {
  const g = part.geometry;
  const { placed, indices } = scene.meshPointsInBody(g, inBody);
  const vertices = new Float32Array(placed);
  if (g.convex) {
    const desc = R.ColliderDesc.convexHull(vertices);
    if (desc === null) throw new Error(`mesh ${g.mesh} has no convex hull (flat or empty)`);
    return desc;
  }
  return R.ColliderDesc.trimesh(vertices, new Uint32Array(indices));
}

/** The Rapier collider description for a collider or trigger `part`, whose node sits at `inBody`. */
export function colliderDesc(scene, part, inBody) {
  const { R } = scene;
  if (part.geometry.kind === "mesh") return meshShape(R, scene, part, inBody);
  const { translation, rotation, scale } = decompose(inBody);
  const [desc, lift] = implicitShape(R, scene, part, scale);
  const offset = scene.shapeOffset(inBody, translation, scale, lift);
  desc.setTranslation(...offset).setRotation({ x: rotation[0], y: rotation[1], z: rotation[2], w: rotation[3] });
  return desc;
}
