// One Havok shape per glTF collider or trigger, in its body's frame: implicit shapes sized by the node's
// scale (a tapered capsule or cylinder as a convex hull of its points), meshes baked into the body's frame
// as convex hulls or triangle meshes. Each shape comes with where it sits in its body (a container child).
import { taperedPoints } from "./rapier_shapes.mjs";
import { decompose } from "./transforms.mjs";

const PLANE_THICKNESS = 0.01; // a KHR plane is a thin box with its top face on the plane
const INFINITE_PLANE = 1000; // an infinite plane's extent (Havok has no half-space)

/** Run an HP_* call and return its value, or throw with the call's name when Havok refuses it. */
export function call(hk, name, ...args) {
  const result = hk[name](...args);
  const status = Array.isArray(result) ? result[0] : result;
  if (status !== hk.Result.RESULT_OK) throw new Error(`Havok ${name} failed (${status?.value ?? status})`);
  return Array.isArray(result) ? result[1] : undefined;
}

/** Copy numbers into Havok's heap (Float32 or Int32), call `use(address)`, then free them. */
function withHeap(hk, values, Type, use) {
  const address = hk._malloc(values.length * 4);
  try {
    new Type(hk.HEAPU8.buffer, address, values.length).set(values);
    return use(address);
  } finally {
    hk._free(address);
  }
}

function hull(hk, points) {
  return withHeap(hk, points, Float32Array, (address) => call(hk, "HP_Shape_CreateConvexHull", address,
    points.length / 3));
}

function implicitShape(hk, scene, part, scale) {
  const g = part.geometry;
  const [sx, sy, sz] = scale.map(Math.abs);
  const label = scene.name(part.node);
  switch (g.type) {
    case "box":
      return [call(hk, "HP_Shape_CreateBox", [0, 0, 0], [0, 0, 0, 1], [g.size[0] * sx, g.size[1] * sy, g.size[2] * sz]), 0];
    case "sphere":
      if (Math.abs(sx - sy) > 1e-6 || Math.abs(sy - sz) > 1e-6) scene.notes.push(`${label}: sphere under a non-uniform scale; the largest axis is used`);
      return [call(hk, "HP_Shape_CreateSphere", [0, 0, 0], g.radius * Math.max(sx, sy, sz)), 0];
    case "capsule":
    case "cylinder": {
      if (Math.abs(sx - sz) > 1e-6) scene.notes.push(`${label}: ${g.type} scaled unevenly across; the larger radius scale is used`);
      const radial = Math.max(sx, sz);
      const half = (g.height * sy) / 2;
      const top = g.radiusTop * radial;
      const bottom = g.radiusBottom * radial;
      if (Math.abs(top - bottom) > 1e-9) return [hull(hk, taperedPoints(g.type, 2 * half, top, bottom)), 0];
      const name = g.type === "capsule" ? "HP_Shape_CreateCapsule" : "HP_Shape_CreateCylinder";
      return [call(hk, name, [0, half, 0], [0, -half, 0], top), 0];
    }
    case "plane": {
      const infinite = g.sizeX === undefined || g.sizeZ === undefined;
      if (infinite && g.doubleSided) scene.notes.push(`${label}: an infinite double-sided plane is made one-sided (+Y)`);
      const x = infinite ? INFINITE_PLANE : g.sizeX * sx;
      const z = infinite ? INFINITE_PLANE : g.sizeZ * sz;
      return [call(hk, "HP_Shape_CreateBox", [0, 0, 0], [0, 0, 0, 1], [x, PLANE_THICKNESS, z]), -PLANE_THICKNESS / 2];
    }
    default:
      throw new Error(`shape type '${g.type}' is not known`);
  }
}

function meshShape(hk, scene, part, inBody) {
  const g = part.geometry;
  const { placed, indices } = scene.meshPointsInBody(g, inBody);
  if (g.convex) return hull(hk, placed);
  return withHeap(hk, placed, Float32Array, (vertices) => withHeap(hk, indices, Int32Array, (triangles) =>
    call(hk, "HP_Shape_CreateMesh", vertices, placed.length / 3, triangles, indices.length / 3)));
}

/** The Havok shape of a collider or trigger `part` whose node sits at `inBody` (its body's frame), and the
 * QSTransform that places it in that body's container. */
export function partShape(hk, scene, part, inBody) {
  if (part.geometry.kind === "mesh") return { shape: meshShape(hk, scene, part, inBody), place: [[0, 0, 0], [0, 0, 0, 1], [1, 1, 1]] };
  const { translation, rotation, scale } = decompose(inBody);
  const [shape, lift] = implicitShape(hk, scene, part, scale);
  const offset = scene.shapeOffset(inBody, translation, scale, lift);
  return { shape, place: [offset, rotation, [1, 1, 1]] };
}
