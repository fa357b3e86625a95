// The command line and the report both engine scripts share (simulate.mjs: Rapier, havok_simulate.mjs:
// Havok): the same options, the same reading of the file, and the same JSON of where each body and asked-for
// node is at each time.
import { GltfFile } from "./gltf_file.mjs";
import { dialectsIn, readPhysics } from "./physics_doc.mjs";

/** The file, the dialect it is read in (--dialect, else the first it uses) and its physics. */
export function loadPhysics(options) {
  const file = new GltfFile(options.file);
  const found = dialectsIn(file.json);
  const dialect = options.dialect ?? found[0];
  if (dialect === undefined || !found.includes(dialect)) {
    throw new Error(`${options.file}: no ${options.dialect ?? "OMI or KHR"} physics (extensionsUsed: ${found})`);
  }
  return { file, dialect, physics: readPhysics(file.json, dialect) };
}

export function parseArguments(argv, usage) {
  const options = { file: null, dialect: null, rate: 240, times: [1], gravity: [0, -9.81, 0], nodes: [] };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    switch (argv[i]) {
      case "--dialect": options.dialect = value; i++; break;
      case "--rate": options.rate = Number(value); i++; break;
      case "--times": options.times = value.split(",").map(Number); i++; break;
      case "--gravity": options.gravity = value.split(",").map(Number); options.gravitySet = true; i++; break;
      case "--nodes": options.nodes = value.split(",").filter(Boolean); i++; break;
      case "--combine": options.combine = value; i++; break;
      default:
        if (argv[i].startsWith("--") || options.file !== null) throw new Error(usage);
        options.file = argv[i];
    }
  }
  if (options.file === null || !(options.rate > 0) || options.times.some((t) => !(t >= 0))) throw new Error(usage);
  return options;
}

/** Node indices to report, keyed by a unique name: every body, then the nodes asked for by name. */
export function reported(scene, extraNames) {
  const keys = new Map();
  const add = (index) => {
    const name = scene.name(index);
    const key = [...keys.values()].includes(index) ? null : keys.has(name) ? `${name}#${index}` : name;
    if (key !== null) keys.set(key, index);
  };
  [...scene.physics.motions.keys()].forEach(add);
  for (const name of extraNames) {
    const index = scene.nodes.findIndex((node) => node.name === name);
    if (index < 0) throw new Error(`no node named '${name}'`);
    add(index);
  }
  return keys;
}

export function snapshot(scene, keys, time) {
  const nodes = {};
  for (const [key, index] of keys) {
    const { translation, rotation } = scene.nodePose(index);
    nodes[key] = { translation, rotation };
  }
  return { time, nodes };
}
