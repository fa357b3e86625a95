"""io/blender/bones: ragdoll rigs, physics on the bones of an armature."""
