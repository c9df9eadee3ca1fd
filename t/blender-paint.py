# t/blender-paint.py - the add-on blender/rsxmesh_blender in Blender (run
# as `blender -b --factory-startup --python t/blender-paint.py -- ADDON_DIR
# BUNDLE OUT.rsxb [MESH]...`, rsxmesh on PATH): File > Import > RSXB of
# BUNDLE, the colour of every vertex of the objects of the meshes named
# set to (1, 0.5, 0.25, 1) (a paint), File > Export > RSXB as OUT.rsxb,
# its report beside it, for t/gltf-blender-colours.sh.
import sys

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
sys.path.insert(0, args[0])
import rsxmesh_blender  # noqa: E402

bpy.ops.wm.read_factory_settings(use_empty=True)
rsxmesh_blender.register()
if bpy.ops.import_scene.rsxb(filepath=args[1]) != {"FINISHED"}:
    sys.exit("blender-paint: the import failed")
objects = [o for o in bpy.data.objects if o.type == "MESH"]
for name in args[3:]:
    o = [o for o in objects if o["rsxmesh_mesh"] == name][0]
    for d in o.data.attributes["colour"].data:
        d.color = (1.0, 0.5, 0.25, 1.0)
bpy.context.view_layer.objects.active = objects[0]
if bpy.ops.export_scene.rsxb(filepath=args[2],
                             report_file=True) != {"FINISHED"}:
    sys.exit("blender-paint: the export failed")
