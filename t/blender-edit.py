# t/blender-edit.py - Blender (run as `blender -b --factory-startup --python
# t/blender-edit.py -- IN.gltf OUT.glb|OUT.gltf [OP:MESH]...`): import a
# glTF, edit the objects of the meshes named, and export with Blender's
# default options (no tangents, no custom attributes, transforms not
# applied), as a new user would. OUT's suffix picks .glb or .gltf + .bin.
# OP is an edit of t/blender_edits.py (move, apply, turn, scale, delete,
# cut).
# For t/gltf-blender-default.sh.
import os
import sys

import numpy

numpy.bool = bool  # Blender 3.4's importer uses it; numpy 1.24 lacks it

import bpy  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_edits  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1:]
src, dst = args[0], args[1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)


def object_of(name):
    found = [o for o in bpy.data.objects
             if o.type == "MESH" and o.data.name == name]
    if len(found) != 1:
        sys.exit("blender-edit: %d objects of mesh %s" % (len(found), name))
    return found[0]


for a in args[2:]:
    op, name = a.split(":", 1)
    blender_edits.edit(object_of(name), op)

bpy.ops.export_scene.gltf(
    filepath=dst,
    export_format="GLB" if dst.endswith(".glb") else "GLTF_SEPARATE")
