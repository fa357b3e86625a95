#!/usr/bin/env node
// Simulates a glTF file's physics in Havok (the @babylonjs/havok WASM that Babylon.js runs, driven through
// its HP_* functions with this folder's own loader) and prints the same JSON as simulate.mjs (Rapier):
// where each body (by node name) is at each requested time, and notes on what this loader could not express.
//
//   node havok_simulate.mjs FILE [--dialect omi|khr] [--rate STEPS_PER_SECOND] [--times T1,T2,...]
//                                [--gravity X,Y,Z] [--nodes NAME,...] [--combine MODE]
// The world gravity is --gravity, else the file's OMI_physics_gravity, else 9.81 down; the bodies entering each
// trigger are reported as simulate.mjs does. Not played here (said in the notes when the file has them):
// gravity volumes and KHR_animation_pointer channels.
import { readFileSync } from "node:fs";
import HavokPhysics from "@babylonjs/havok";
import { withCombine } from "./blender_rules.mjs";
import { worldGravity } from "./gravity_volumes.mjs";
import { HavokScene } from "./havok_scene.mjs";
import { loadPhysics, parseArguments, reported, snapshot } from "./run_report.mjs";

const USAGE = "usage: node havok_simulate.mjs FILE [--dialect omi|khr] [--rate N] [--times T,...] [--gravity X,Y,Z] [--nodes A,...] [--combine MODE]";
const PACKAGE = new URL("./node_modules/@babylonjs/havok/", import.meta.url);

function unplayed(json) {
  const notes = [];
  const used = new Set(json.extensionsUsed ?? []);
  const volumes = (json.nodes ?? []).some((node) => node.extensions?.OMI_physics_gravity !== undefined);
  if (volumes) notes.push("gravity volumes are not played by the Havok harness (the world gravity is)");
  if (used.has("KHR_animation_pointer")) notes.push("animation channels are not played by the Havok harness");
  return notes;
}

async function main() {
  const options = parseArguments(process.argv.slice(2), USAGE);
  const hk = await HavokPhysics({ wasmBinary: readFileSync(new URL("lib/esm/HavokPhysics.wasm", PACKAGE)) });
  const { file, dialect, physics } = loadPhysics(options);
  physics.notes.push(...unplayed(file.json));
  const world = options.gravitySet ? options.gravity : worldGravity(file.json) ?? options.gravity;
  const scene = new HavokScene(hk, file, options.combine ? withCombine(physics, options.combine) : physics,
    world, options.rate);
  const keys = reported(scene, options.nodes);
  const frames = [];
  let steps = 0;
  const triggers = Object.fromEntries([...new Set(scene.sensorName.values())].map((name) => [name, []]));
  for (const time of [...options.times].sort((a, b) => a - b)) {
    for (; steps < Math.round(time * options.rate); steps++) {
      scene.step(1 / options.rate);
      for (const [trigger, body] of scene.triggerEntries()) {
        if (!triggers[trigger].includes(body)) triggers[trigger].push(body);
      }
    }
    frames.push(snapshot(scene, keys, time));
  }
  const bodies = {};
  for (const [key, index] of keys) {
    const motion = scene.physics.motions.get(index);
    if (motion !== undefined) bodies[key] = { type: motion.type, mass: scene.bodyMass(index) };
  }
  const version = JSON.parse(readFileSync(new URL("package.json", PACKAGE), "utf8")).version;
  const result = { engine: `@babylonjs/havok ${version}`, dialect, rate: options.rate, bodies, frames, triggers,
    notes: scene.notes };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(2);
});
