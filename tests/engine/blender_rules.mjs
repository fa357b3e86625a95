// Blender's rules put onto a file's physics, so that a gap between Blender and this engine can be measured
// apart from what Blender cannot express: `--combine multiply` makes every friction and restitution combine
// as Bullet always does (Bullet multiplies the two bodies' values, whatever the file's combine modes say).

const DEFAULT_MATERIAL = { staticFriction: 0.6, dynamicFriction: 0.6, restitution: 0 };

/** The physics with every material (the default one included) combining by `mode`. */
export function withCombine(physics, mode) {
  const materials = physics.materials.map((m) => ({ ...m, frictionCombine: mode, restitutionCombine: mode }));
  const fallback = materials.push({ ...DEFAULT_MATERIAL, frictionCombine: mode, restitutionCombine: mode }) - 1;
  const colliders = physics.colliders.map((c) => (c.material === null ? { ...c, material: fallback } : c));
  physics.notes.push(`every material combines by '${mode}' (--combine)`);
  return { ...physics, materials, colliders };
}
