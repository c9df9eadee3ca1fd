# t/blender-tangents.py - Blender (run as `blender -b --factory-startup
# --python t/blender-tangents.py -- IN.gltf TANGENTS.gltf ISLAND.gltf
# MESH`): import a glTF and export it with Blender's TANGENT
# (TANGENTS.gltf); then add to the object of mesh MESH a quad of its own,
# far from the rest, with UVs (0, 0) to (1, 1) in each UV map, and export that with
# Blender's default options, no tangents (ISLAND.gltf). For
# t/gltf-blender-tangents.sh.
import sys

import numpy

numpy.bool = bool  # Blender 3.4's importer uses it; numpy 1.24 lacks it

import bmesh  # noqa: E402
import bpy  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1:]
src, with_tangents, island, name = args[0], args[1], args[2], args[3]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)
bpy.ops.export_scene.gltf(filepath=with_tangents,
                          export_format="GLTF_SEPARATE",
                          export_tangents=True)
objs = [o for o in bpy.data.objects
        if o.type == "MESH" and o.data.name == name]
if len(objs) != 1:
    sys.exit("blender-tangents: %d objects of mesh %s" % (len(objs), name))
bm = bmesh.new()
bm.from_mesh(objs[0].data)
corners = ((40, 40, 0), (41, 40, 0), (41, 41, 0), (40, 41, 0))
face = bm.faces.new([bm.verts.new(c) for c in corners])
# every UV map alike: the submesh may route one stored set to several
for loop, u in zip(face.loops, ((0, 0), (1, 0), (1, 1), (0, 1))):
    for uv in bm.loops.layers.uv.values():
        loop[uv].uv = u
bm.to_mesh(objs[0].data)
bm.free()
bpy.ops.export_scene.gltf(filepath=island, export_format="GLTF_SEPARATE")
