// Reads a .gltf or .glb file: its JSON, its buffers (GLB chunk, data: URI or a file next to it) and the
// triangles of a mesh, which convex and triangle-mesh colliders need.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;
const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 };
const COMPONENT_TYPES = {
  5120: [1, "getInt8", 127], 5121: [1, "getUint8", 255], 5122: [2, "getInt16", 32767],
  5123: [2, "getUint16", 65535], 5125: [4, "getUint32", 0], 5126: [4, "getFloat32", 0],
};
const TRIANGLES = 4;

export class GltfFile {
  constructor(path) {
    const bytes = readFileSync(path);
    this.path = path;
    this.binChunk = null;
    if (bytes.length >= 12 && bytes.readUInt32LE(0) === GLB_MAGIC) {
      this.json = this.#readGlb(bytes);
    } else {
      this.json = JSON.parse(bytes.toString("utf8"));
    }
    this.buffers = new Map();
  }

  #readGlb(bytes) {
    let offset = 12;
    let json = null;
    while (offset + 8 <= bytes.length) {
      const length = bytes.readUInt32LE(offset);
      const type = bytes.readUInt32LE(offset + 4);
      const body = bytes.subarray(offset + 8, offset + 8 + length);
      if (type === CHUNK_JSON) json = JSON.parse(body.toString("utf8"));
      else if (type === CHUNK_BIN && this.binChunk === null) this.binChunk = body;
      offset += 8 + length + ((4 - (length % 4)) % 4);
    }
    if (json === null) throw new Error(`${this.path}: GLB without a JSON chunk`);
    return json;
  }

  buffer(index) {
    if (!this.buffers.has(index)) {
      const buffer = this.json.buffers?.[index];
      if (buffer === undefined) throw new Error(`/buffers/${index} does not exist`);
      let data;
      if (buffer.uri === undefined) {
        if (this.binChunk === null) throw new Error(`/buffers/${index} has no uri and the file no BIN chunk`);
        data = this.binChunk;
      } else if (buffer.uri.startsWith("data:")) {
        data = Buffer.from(buffer.uri.slice(buffer.uri.indexOf(",") + 1), "base64");
      } else {
        data = readFileSync(join(dirname(this.path), decodeURIComponent(buffer.uri)));
      }
      this.buffers.set(index, data);
    }
    return this.buffers.get(index);
  }

  /** An accessor's values as an array of numbers (normalized integers become floats in [-1, 1]). */
  accessor(index) {
    const accessor = this.json.accessors?.[index];
    if (accessor === undefined) throw new Error(`/accessors/${index} does not exist`);
    if (accessor.sparse !== undefined) throw new Error(`/accessors/${index}: sparse accessors are not read`);
    const width = COMPONENTS[accessor.type];
    const [size, getter, scale] = COMPONENT_TYPES[accessor.componentType] ?? [];
    if (width === undefined || size === undefined) throw new Error(`/accessors/${index}: unknown type`);
    const values = new Array(accessor.count * width).fill(0);
    if (accessor.bufferView === undefined) return values;
    const view = this.json.bufferViews[accessor.bufferView];
    const data = this.buffer(view.buffer);
    const bytes = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const stride = view.byteStride ?? size * width;
    const start = (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0);
    for (let item = 0; item < accessor.count; item++) {
      for (let c = 0; c < width; c++) {
        const value = bytes[getter](start + item * stride + c * size, true);
        values[item * width + c] = accessor.normalized && scale ? Math.max(value / scale, -1) : value;
      }
    }
    return values;
  }

  /** All triangle primitives of a mesh: flat vertex positions and triangle indices. */
  meshTriangles(meshIndex) {
    const mesh = this.json.meshes?.[meshIndex];
    if (mesh === undefined) throw new Error(`/meshes/${meshIndex} does not exist`);
    const positions = [];
    const indices = [];
    mesh.primitives.forEach((primitive, p) => {
      if ((primitive.mode ?? TRIANGLES) !== TRIANGLES) {
        throw new Error(`/meshes/${meshIndex}/primitives/${p}: only triangle primitives make colliders`);
      }
      const base = positions.length / 3;
      const points = this.accessor(primitive.attributes.POSITION);
      positions.push(...points);
      const count = points.length / 3;
      const order = primitive.indices === undefined ? [...Array(count).keys()] : this.accessor(primitive.indices);
      indices.push(...order.map((i) => i + base));
    });
    return { positions, indices };
  }
}
