# Builds physics scenes in Godot and writes them with Godot's own glTF exporter (GLTFDocument
# append_from_scene + write_to_filesystem), for tests/blender/gltf_import/test_godot_files.py (which needs no Godot).
# Regenerate tests/data/godot/ with scripts/godot.sh's root:
#   godot --headless --path PROJECT --script make_godot_files.gd -- OUT_DIR
extends SceneTree


func _initialize() -> void:
	var out: String = OS.get_cmdline_user_args()[0]
	_write(_every_shape(), out.path_join("godot_shapes.gltf"))
	_write(_bodies(), out.path_join("godot_bodies.gltf"))
	quit()


func _write(root: Node3D, path: String) -> void:
	_own(root, root)
	var document := GLTFDocument.new()
	var state := GLTFState.new()
	var error := document.append_from_scene(root, state)
	if error == OK:
		error = document.write_to_filesystem(state, path)
	print("%s: %s" % [path, error_string(error)])
	root.free()


func _own(node: Node, root: Node) -> void:
	for child in node.get_children():
		child.owner = root
		_own(child, root)


func _shape_node(shape: Shape3D, name: String) -> CollisionShape3D:
	var node := CollisionShape3D.new()
	node.name = name
	node.shape = shape
	return node


func _body(body: Node3D, name: String, at: Vector3, shape: Shape3D, mesh: Mesh = null) -> Node3D:
	body.name = name
	body.position = at
	body.add_child(_shape_node(shape, name + "Shape"))
	if mesh != null:
		var visual := MeshInstance3D.new()
		visual.name = name + "Mesh"
		visual.mesh = mesh
		body.add_child(visual)
	return body


# One static body per CollisionShape3D type, 3 m apart along X.
func _every_shape() -> Node3D:
	var root := Node3D.new()
	root.name = "GodotShapes"
	var box := BoxShape3D.new()
	box.size = Vector3(1.0, 0.6, 0.4)
	var sphere := SphereShape3D.new()
	sphere.radius = 0.4
	var capsule := CapsuleShape3D.new()  # Godot: full height 2.0 with radius 0.3 (mid-height 1.4)
	capsule.radius = 0.3
	capsule.height = 2.0
	var cylinder := CylinderShape3D.new()
	cylinder.radius = 0.35
	cylinder.height = 1.2
	var convex := ConvexPolygonShape3D.new()
	convex.points = PackedVector3Array([Vector3(0, 1, 0), Vector3(1, 0, 0), Vector3(-1, 0, 0), Vector3(0, 0, 1),
			Vector3(0, 0, -1), Vector3(0, -1, 0)])
	var concave := ConcavePolygonShape3D.new()
	concave.set_faces(PackedVector3Array([Vector3(-2, 0, -2), Vector3(2, 0, -2), Vector3(2, 0, 2),
			Vector3(-2, 0, -2), Vector3(2, 0, 2), Vector3(-2, 0, 2)]))
	var shapes := {"Box": box, "Sphere": sphere, "Capsule": capsule, "Cylinder": cylinder, "Convex": convex,
			"Concave": concave}
	var x := -7.5
	for shape_name in shapes:
		root.add_child(_body(StaticBody3D.new(), shape_name, Vector3(x, 1.0, 0.0), shapes[shape_name]))
		x += 3.0
	return root


# Every body type: a rigid body with mass and velocities, static, animatable, an area, a hinge joint.
func _bodies() -> Node3D:
	var root := Node3D.new()
	root.name = "GodotBodies"
	var floor_shape := BoxShape3D.new()
	floor_shape.size = Vector3(20.0, 1.0, 20.0)
	var floor_mesh := BoxMesh.new()
	floor_mesh.size = floor_shape.size
	root.add_child(_body(StaticBody3D.new(), "Floor", Vector3(0.0, -0.5, 0.0), floor_shape, floor_mesh))
	var crate := RigidBody3D.new()
	crate.mass = 3.5
	crate.linear_velocity = Vector3(1.0, 2.0, 0.0)
	crate.angular_velocity = Vector3(0.0, 0.5, 0.0)
	var crate_shape := BoxShape3D.new()
	crate_shape.size = Vector3(0.8, 0.8, 0.8)
	var crate_mesh := BoxMesh.new()
	crate_mesh.size = crate_shape.size
	root.add_child(_body(crate, "Crate", Vector3(0.0, 2.0, 0.0), crate_shape, crate_mesh))
	var lift_shape := BoxShape3D.new()
	lift_shape.size = Vector3(2.0, 0.2, 2.0)
	root.add_child(_body(AnimatableBody3D.new(), "Lift", Vector3(4.0, 1.0, 0.0), lift_shape))
	var zone_shape := SphereShape3D.new()
	zone_shape.radius = 1.5
	root.add_child(_body(Area3D.new(), "Zone", Vector3(-4.0, 1.0, 0.0), zone_shape))
	var door_shape := BoxShape3D.new()
	door_shape.size = Vector3(0.1, 2.0, 1.0)
	var door := RigidBody3D.new()
	root.add_child(_body(door, "Door", Vector3(0.0, 1.0, 4.0), door_shape))
	var frame_shape := CylinderShape3D.new()
	frame_shape.radius = 0.05
	frame_shape.height = 2.0
	var frame := StaticBody3D.new()
	root.add_child(_body(frame, "Frame", Vector3(0.0, 1.0, 3.5), frame_shape))
	var hinge := HingeJoint3D.new()
	hinge.name = "Hinge"
	hinge.position = Vector3(0.0, 1.0, 3.5)
	root.add_child(hinge)
	hinge.node_a = hinge.get_path_to(frame)
	hinge.node_b = hinge.get_path_to(door)
	return root
