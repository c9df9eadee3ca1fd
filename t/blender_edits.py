# t/blender_edits.py - the edits t/blender-edit.py and t/blender-addon.py
# make on a Blender object, as a user makes them in the viewport:
#   move      +1 along Blender's x (glTF's x), not applied: a node move
#   apply     the same move, applied to the vertices
#   turn      90 degrees about Blender's z (glTF's y), applied
#   scale     x 2 about the origin, applied
#   delete    the mesh's first face deleted (edit mode's Delete Faces)
#   cut       the mesh's first face's edges subdivided once: new vertices
#   paint     every vertex's colour (the add-on's "colour") set to
#             (1, 0.5, 0.25, 1)
import math

import bmesh
import bpy


def apply(o):
    bpy.ops.object.select_all(action="DESELECT")
    o.select_set(True)
    bpy.context.view_layer.objects.active = o
    bpy.ops.object.transform_apply(location=True, rotation=True, scale=True)


def edit(o, op):
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
    elif op == "paint":
        for d in o.data.attributes["colour"].data:
            d.color = (1.0, 0.5, 0.25, 1.0)
    else:
        raise SystemExit("blender_edits: unknown edit " + op)
