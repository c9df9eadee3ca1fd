# t/blender-addon.py - the add-on blender/rsxmesh_blender in Blender (run
# as `blender -b --factory-startup --python t/blender-addon.py -- ADDON_DIR
# BUNDLE OUT.rsxb [OP:MESH]...`, rsxmesh on PATH): File > Import > RSXB
# of BUNDLE, the edits of t/blender_edits.py (move, apply, turn, scale,
# delete, cut) on the objects of the meshes named, then File >
# Export > RSXB as OUT.rsxb with its report ("tangents:computed" among
# the edits sets its Tangents of new vertices). Prints "objects N", and a
# line per object: "object|NAME|MESH|NUMBER|BUNDLE|UV maps|named
# attributes|materials", for t/blender-addon.sh.
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_edits  # noqa: E402

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


export = {"report_file": True}  # the operator's defaults but these
for a in args[3:]:
    op, name = a.split(":", 1)
    if op == "tangents":
        export["tangents"] = name
        continue
    blender_edits.edit([o for o in objects if o["rsxmesh_mesh"] == name][0],
                       op)

bpy.context.view_layer.objects.active = objects[0]
if bpy.ops.export_scene.rsxb(filepath=args[2], **export) != {"FINISHED"}:
    sys.exit("blender-addon: the export failed")
