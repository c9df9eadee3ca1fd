# t/blender-move.py - Blender (run as `blender -b --factory-startup
# --python t/blender-move.py -- IN.gltf OUT.gltf MESH DX`): import a glTF,
# move the object of mesh MESH by DX along glTF's +x (Blender's +x too),
# without applying the move, and export glTF (.gltf + .bin) with tangents,
# colours and attributes. For t/gltf-blender.sh.
import sys

import numpy

numpy.bool = bool  # Blender 3.4's importer uses it; numpy 1.24 lacks it

import bpy  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1:]
src, dst, name, dx = args[0], args[1], args[2], float(args[3])
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)
moved = [o for o in bpy.data.objects
         if o.type == "MESH" and o.data.name == name]
if len(moved) != 1:
    sys.exit("blender-move: %d objects of mesh %s" % (len(moved), name))
moved[0].location.x += dx
bpy.ops.export_scene.gltf(filepath=dst, export_format="GLTF_SEPARATE",
                          export_tangents=True, export_colors=True,
                          export_attributes=True, export_extras=True)
