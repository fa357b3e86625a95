#!/usr/bin/env node
// Simulates a glTF file's physics in Rapier and prints JSON: where each body (by node name) is at each
// requested time, which bodies entered each trigger, and notes on what Rapier could not express.
//
//   node simulate.mjs FILE [--dialect omi|khr] [--rate STEPS_PER_SECOND] [--times T1,T2,...]
//                          [--gravity X,Y,Z] [--nodes NAME,...] [--combine MODE]
// The world gravity is --gravity, else the file's OMI_physics_gravity, else 9.81 down; gravity volumes act
// per body (gravity_volumes.mjs). --combine multiply: every friction and restitution combines as Bullet's do
// (blender_rules.mjs). KHR_animation_pointer channels on physics values play (animation_pointer.mjs).
import { readFileSync } from "node:fs";
import RAPIER from "@dimforge/rapier3d-compat";
import { AnimationPlayer } from "./animation_pointer.mjs";
import { withCombine } from "./blender_rules.mjs";
import { GravityVolumes, worldGravity } from "./gravity_volumes.mjs";
import { RapierScene } from "./rapier_scene.mjs";
import { loadPhysics, parseArguments, reported, snapshot } from "./run_report.mjs";

const USAGE = "usage: node simulate.mjs FILE [--dialect omi|khr] [--rate N] [--times T,...] [--gravity X,Y,Z] [--nodes A,...] [--combine MODE]";

function engineVersion() {
  const manifest = new URL("./node_modules/@dimforge/rapier3d-compat/package.json", import.meta.url);
  return `rapier3d-compat ${JSON.parse(readFileSync(manifest, "utf8")).version}`;
}

async function main() {
  const options = parseArguments(process.argv.slice(2), USAGE);
  await RAPIER.init();
  const { file, dialect, physics } = loadPhysics(options);
  const world = options.gravitySet ? options.gravity : worldGravity(file.json) ?? options.gravity;
  const scene = new RapierScene(RAPIER, file, options.combine ? withCombine(physics, options.combine) : physics,
    world);
  const volumes = GravityVolumes.from(scene, file.json, world);
  scene.rapier.timestep = 1 / options.rate;
  const keys = reported(scene, options.nodes);
  const player = new AnimationPlayer(scene, dialect);
  const queue = new RAPIER.EventQueue(true);
  const triggers = {};
  for (const name of scene.sensorName.values()) triggers[name] = [];
  const frames = [];
  const wanted = [...options.times].sort((a, b) => a - b);
  let steps = 0;
  for (const time of wanted) {
    for (; steps < Math.round(time * options.rate); steps++) {
      volumes?.apply();
      if (player.playing) player.apply((steps + 1) / options.rate);
      scene.rapier.step(queue);
      queue.drainCollisionEvents((a, b, started) => {
        if (!started) return;
        for (const [sensor, other] of [[a, b], [b, a]]) {
          const name = scene.sensorName.get(sensor);
          const body = scene.name(scene.colliderOwner.get(other) ?? -1);
          if (name !== undefined && !scene.sensorName.has(other) && !triggers[name].includes(body)) triggers[name].push(body);
        }
      });
    }
    frames.push(snapshot(scene, keys, time));
  }
  const bodies = {};
  for (const [key, index] of keys) {
    const motion = scene.physics.motions.get(index);
    if (motion !== undefined) bodies[key] = { type: motion.type, mass: scene.bodies.get(index).mass() };
  }
  const result = { engine: engineVersion(), dialect, rate: options.rate, bodies, frames, triggers, notes: scene.notes };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
});
