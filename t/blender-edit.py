# t/blender-edit.py - Blender (run as `blender -b --factory-startup --python
# t/blender-edit.py -- IN.gltf OUT.glb|OUT.gltf [OP:MESH]...`): import a
# glTF, edit the objects of the meshes named, and export with Blender's
# default options (no tangents, no custom attributes, transforms not
# applied), as a new user would. OUT's suffix picks .glb or .gltf + .bin.
# OP is one of
#   move      +1 along glTF's x (Blender's x), not applied: a node move
#   apply     the same move, applied to the vertices
#   turn      90 degrees about glTF's y (Blender's z), applied
#   scale     x 2 about the origin, applied
#   delete    the mesh's first face deleted (edit mode's Delete Faces)
#   cut       the mesh's first face's edges subdivided once: new vertices
# For t/gltf-blender-default.sh.
import math
import sys

import numpy

numpy.bool = bool  # Blender 3.4's importer uses it; numpy 1.24 lacks it

import bmesh  # noqa: E402
import bpy  # noqa: E402

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


def apply(o):
    bpy.ops.object.select_all(action="DESELECT")
    o.select_set(True)
    bpy.context.view_layer.objects.active = o
    bpy.ops.object.transform_apply(location=True, rotation=True, scale=True)


for a in args[2:]:
    op, name = a.split(":", 1)
    o = object_of(name)
    if op == "move":
        o.location.x += 1
    elif op == "apply":
        o.location.x += 1
        apply(o)
    elif op == "turn":
        o.rotation_mode = "XYZ"
        o.rotation_euler.z += math.pi / 2
        apply(o)
    elif op == "scale":
        o.scale.x *= 2
        apply(o)
    elif op in ("delete", "cut"):
        bm = bmesh.new()
        bm.from_mesh(o.data)
        bm.faces.ensure_lookup_table()
        face = bm.faces[0]
        if op == "delete":
            bmesh.ops.delete(bm, geom=[face], context="FACES")
        else:
            bmesh.ops.subdivide_edges(bm, edges=list(face.edges), cuts=1,
                                      use_grid_fill=True)
        bm.to_mesh(o.data)
        bm.free()
    else:
        sys.exit("blender-edit: unknown edit " + op)

bpy.ops.export_scene.gltf(
    filepath=dst,
    export_format="GLB" if dst.endswith(".glb") else "GLTF_SEPARATE")
