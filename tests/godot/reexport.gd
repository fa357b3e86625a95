# Loads a glTF with Godot's importer and writes the scene Godot built back out with Godot's exporter:
#   godot --headless --path PROJECT --script reexport.gd -- IN.glb OUT.gltf
extends SceneTree


func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	var reader := GLTFDocument.new()
	var loaded := GLTFState.new()
	var error := reader.append_from_file(args[0], loaded)
	if error == OK:
		var scene := reader.generate_scene(loaded)
		var writer := GLTFDocument.new()
		var written := GLTFState.new()
		error = writer.append_from_scene(scene, written)
		if error == OK:
			error = writer.write_to_filesystem(written, args[1])
		scene.free()
	print("reexport: %s" % error_string(error))
	quit()
