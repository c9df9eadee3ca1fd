# t/blender-addon.py - the add-on blender/rsxmesh_blender in Blender (run
# as `blender -b --factory-startup --python t/blender-addon.py -- ADDON_DIR
# BUNDLE OUT.rsxb [OP:MESH]...`, rsxmesh on PATH): File > Import > RSXB
# of BUNDLE, the edits of t/blender-edit.py's kinds (move, apply, turn,
# scale, delete, cut) on the objects of the meshes named, then File >
# Export > RSXB as OUT.rsxb. Prints "objects N", and a line per object:
# "object|NAME|MESH|NUMBER|BUNDLE|UV maps|named attributes|materials",
# for t/blender-addon.sh.
import math
import sys

import bmesh
import bpy

args = sys.argv[sys.argv.index("--") + 1:]
sys.path.insert(0, args[0])
import rsxmesh_blender  # noqa: E402

bpy.ops.wm.read_factory_settings(use_empty=True)
rsxmesh_blender.register()
if bpy.ops.import_scene.rsxb(filepath=args[1]) != {"FINISHED"}:
    sys.exit("blender-addon: the import failed")
objects = [o for o in bpy.data.objects if o.type == "MESH"]
print("objects", len(objects))
for o in objects:
    print("object", o.name, o["rsxmesh_mesh"], o["rsxmesh_number"],
          o["rsxmesh_bundle"], ",".join(u.name for u in o.data.uv_layers),
          ",".join(sorted(a.name for a in o.data.attributes
                          if not a.name.startswith(".")
                          and a.name not in ("position",
                                             "material_index",
                                             "sharp_face"))),
          ",".join(m.name for m in o.data.materials if m), sep="|")


def apply(o):
    bpy.ops.object.select_all(action="DESELECT")
    o.select_set(True)
    bpy.context.view_layer.objects.active = o
    bpy.ops.object.transform_apply(location=True, rotation=True, scale=True)


for a in args[3:]:
    op, name = a.split(":", 1)
    o = [o for o in objects if o["rsxmesh_mesh"] == name][0]
    if op == "move":
        o.location.x += 1
    elif op == "apply":
        o.location.x += 1
        apply(o)
    elif op == "turn":
        o.rotation_euler.z += math.pi / 2
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

bpy.context.view_layer.objects.active = objects[0]
if bpy.ops.export_scene.rsxb(filepath=args[2],
                             report_file=True) != {"FINISHED"}:
    sys.exit("blender-addon: the export failed")
