# Loads a glTF with Godot's own importer and prints, as one JSON object, what Godot built: every node's
# class, global transform (glTF axes = Godot axes), shapes and sizes, body masses, layers/masks, meshes.
# With a step count, runs Godot's physics for that many physics frames and dumps again.
# Run inside a project folder (physics only steps in a project):
#   godot --headless --path DIR --script dump_scene.gd -- FILE.glb OUT.json [PHYSICS_FRAMES [omi] [OPTION...]]
# "omi": the project holds omi-godot (tests/godot/omi_godot.py): its glTF extensions are registered first.
# Options: "floor=Y" adds a static 400 m floor whose top is at height Y; "drive=X,Y,Z" sets every
# PilotedVehicleBody3D's linear_activation (omi-godot's throttle and thrust input).
extends SceneTree

# omi_extensions_plugin.gd's registrations, in its order: (script, first priority)
# omi-godot's script properties worth a look, dumped where a node has them
const PROPERTIES := ["max_force", "max_steering_angle", "current_force_ratio", "current_steering_ratio",
	"max_hover_energy", "current_hover_ratio", "max_gimbal", "linear_activation", "use_throttle", "max_speed",
	"gyroscope_torque", "back", "foot", "knee", "angle", "engine_force", "wheel_radius", "suspension_travel",
	"suspension_stiffness"]
const OMI_EXTENSIONS := [["res://addons/omi_extensions/seat/omi_seat_doc_ext.gd", true],
	["res://addons/omi_extensions/misc/omi_spawn_point.gd", false],
	["res://addons/omi_extensions/physics_joint/omi_physics_joint_doc_ext.gd", false],
	["res://addons/omi_extensions/vehicle/omi_vehicle_doc_ext.gd", true]]

var _scene: Node
var _out: String
var _frames := 0
var _stepped := 0
var _result := {}


func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	_out = args[1]
	if args.size() > 2:
		_frames = int(args[2])
	var options := args.slice(3)
	if options.has("omi"):
		for registration in OMI_EXTENSIONS:
			GLTFDocument.register_gltf_document_extension(load(registration[0]).new(), registration[1])
	var document := GLTFDocument.new()
	var state := GLTFState.new()
	var error := document.append_from_file(args[0], state)
	if error != OK:
		_write({"error": "append_from_file: %d" % error})
		quit(2)
		return
	_scene = document.generate_scene(state)
	var made := []  # the node Godot made for each glTF node, by index (path from the scene root)
	for index in state.get_nodes().size():
		var node := state.get_scene_node(index)
		made.append(String(_scene.get_path_to(node)) if node != null else null)
	_result["gltf_nodes"] = made
	get_root().add_child(_scene)  # in the tree from the first frame on: global transforms are read there
	for option in options:
		if option.begins_with("floor="):
			var floor := StaticBody3D.new()
			floor.name = "TestFloor"
			var shape := CollisionShape3D.new()
			shape.shape = BoxShape3D.new()
			shape.shape.size = Vector3(400.0, 1.0, 400.0)
			floor.add_child(shape)
			floor.position.y = float(option.get_slice("=", 1)) - 0.5
			get_root().add_child(floor)
		elif option.begins_with("drive="):
			var values := option.get_slice("=", 1).split_floats(",")
			for node in [_scene] + _scene.find_children("*", "VehicleBody3D", true, false):
				if "linear_activation" in node:
					node.linear_activation = Vector3(values[0], values[1], values[2])


func _physics_process(_delta: float) -> bool:
	if _scene == null:
		return false
	# The first call comes before any physics step; each later one after one more step.
	if _stepped == 0 and not _result.has("loaded"):
		_result["loaded"] = _dump(_scene)
		if _frames == 0:
			_write(_result)
			return true
		return false
	_stepped += 1
	if _stepped >= _frames:
		_result["stepped"] = _dump(_scene)
		_result["physics_frames"] = _stepped
		_result["physics_ticks_per_second"] = Engine.physics_ticks_per_second
		_result["physics_engine"] = str(ProjectSettings.get_setting("physics/3d/physics_engine"))
		_write(_result)
		return true
	return false


func _write(value: Dictionary) -> void:
	var file := FileAccess.open(_out, FileAccess.WRITE)
	file.store_string(JSON.stringify(value, "", false, true))
	file.close()


func _vec(v: Vector3) -> Array:
	return [v.x, v.y, v.z]


func _basis(b: Basis) -> Array:
	return [_vec(b.x), _vec(b.y), _vec(b.z)]  # columns


func _shape(shape: Shape3D) -> Dictionary:
	var out := {"class": shape.get_class()}
	if shape is BoxShape3D:
		out["size"] = _vec(shape.size)
	elif shape is SphereShape3D:
		out["radius"] = shape.radius
	elif shape is CapsuleShape3D or shape is CylinderShape3D:
		out["radius"] = shape.radius
		out["height"] = shape.height
	elif shape is ConvexPolygonShape3D:
		out["points"] = shape.points.size()
		out["bounds"] = _bounds(shape.points)
	elif shape is ConcavePolygonShape3D:
		out["faces"] = shape.get_faces().size() / 3
		out["bounds"] = _bounds(shape.get_faces())
	return out


func _bounds(points: PackedVector3Array) -> Array:
	if points.is_empty():
		return []
	var box := AABB(points[0], Vector3.ZERO)
	for p in points:
		box = box.expand(p)
	return [_vec(box.position), _vec(box.end)]


func _dump(root: Node) -> Array:
	var nodes := []
	var stack := [root]
	while not stack.is_empty():
		var node: Node = stack.pop_front()
		var entry := {"name": String(node.name), "class": node.get_class(), "path": String(root.get_path_to(node))}
		if node.get_parent() != null and node != root:
			entry["parent"] = String(node.get_parent().name)
		if node is Node3D:
			var t: Transform3D = node.global_transform
			entry["origin"] = _vec(t.origin)
			entry["basis"] = _basis(t.basis)
		var script: Script = node.get_script()
		if script != null:
			entry["script_class"] = String(script.get_global_name())
		if not node.get_meta_list().is_empty():
			var meta := {}
			for key in node.get_meta_list():
				meta[String(key)] = _plain(node.get_meta(key))
			entry["meta"] = meta
		for property in PROPERTIES:
			if property in node:
				var value: Variant = node.get(property)
				entry[property] = _plain(value)
		if node is Joint3D:
			entry["node_a"] = _joined(root, node, node.node_a)
			entry["node_b"] = _joined(root, node, node.node_b)
			entry["params"] = _joint_params(node)
		if node is CollisionObject3D:
			entry["layer"] = node.collision_layer
			entry["mask"] = node.collision_mask
		if node is RigidBody3D:
			entry["mass"] = node.mass
			entry["linear_velocity"] = _vec(node.linear_velocity)
			entry["angular_velocity"] = _vec(node.angular_velocity)
			entry["gravity_scale"] = node.gravity_scale
			entry["center_of_mass_mode"] = node.center_of_mass_mode
			entry["center_of_mass"] = _vec(node.center_of_mass)
			entry["inertia"] = _vec(node.inertia)
			entry["freeze"] = node.freeze
			entry["physics_material"] = node.physics_material_override != null
		if node is StaticBody3D:
			entry["physics_material"] = node.physics_material_override != null
		if node is CollisionShape3D:
			entry["shape"] = _shape(node.shape) if node.shape != null else {}
			entry["disabled"] = node.disabled
		if node is AnimationPlayer:
			var tracks := []
			for animation_name in node.get_animation_list():
				var animation: Animation = node.get_animation(animation_name)
				for track in animation.get_track_count():
					tracks.append(String(animation_name) + ": " + String(animation.track_get_path(track)))
			entry["tracks"] = tracks
		if node is MeshInstance3D:
			entry["mesh"] = node.mesh != null
			if node.mesh != null:
				var aabb: AABB = node.mesh.get_aabb()
				entry["mesh_aabb"] = [_vec(aabb.position), _vec(aabb.size)]
		nodes.append(entry)
		for child in node.get_children():
			stack.append(child)
	return nodes


func _joined(root: Node, joint: Joint3D, path: NodePath) -> Variant:
	var body := joint.get_node_or_null(path)
	return String(root.get_path_to(body)) if body != null else null


func _joint_params(joint: Joint3D) -> Dictionary:
	var out := {}
	if joint is HingeJoint3D:
		out["use_limit"] = joint.get_flag(HingeJoint3D.FLAG_USE_LIMIT)
		out["lower"] = _num(joint.get_param(HingeJoint3D.PARAM_LIMIT_LOWER))
		out["upper"] = _num(joint.get_param(HingeJoint3D.PARAM_LIMIT_UPPER))
		out["softness"] = _num(joint.get_param(HingeJoint3D.PARAM_LIMIT_SOFTNESS))
		out["relaxation"] = _num(joint.get_param(HingeJoint3D.PARAM_LIMIT_RELAXATION))
		out["motor"] = joint.get_flag(HingeJoint3D.FLAG_ENABLE_MOTOR)
	elif joint is SliderJoint3D:
		out["linear_lower"] = _num(joint.get_param(SliderJoint3D.PARAM_LINEAR_LIMIT_LOWER))
		out["linear_upper"] = _num(joint.get_param(SliderJoint3D.PARAM_LINEAR_LIMIT_UPPER))
		out["angular_lower"] = _num(joint.get_param(SliderJoint3D.PARAM_ANGULAR_LIMIT_LOWER))
		out["angular_upper"] = _num(joint.get_param(SliderJoint3D.PARAM_ANGULAR_LIMIT_UPPER))
		out["linear_softness"] = _num(joint.get_param(SliderJoint3D.PARAM_LINEAR_LIMIT_SOFTNESS))
	elif joint is PinJoint3D:
		out["bias"] = _num(joint.get_param(PinJoint3D.PARAM_BIAS))
		out["damping"] = _num(joint.get_param(PinJoint3D.PARAM_DAMPING))
	return out


func _num(value: float) -> Variant:
	return value if is_finite(value) else str(value)  # JSON has no inf or nan


func _plain(value: Variant) -> Variant:
	"""A value JSON can hold: vectors as arrays, dictionaries and arrays item by item, objects as text."""
	if value is Vector3:
		return _vec(value)
	if value is Vector2:
		return [value.x, value.y]
	if value is Dictionary:
		var out := {}
		for key in value:
			out[str(key)] = _plain(value[key])
		return out
	if value is Array:
		return value.map(_plain)
	if value is Object:
		return str(value)
	return value
