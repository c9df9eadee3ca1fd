# rsxmesh_blender/gltf.py - the glTF that `rsxmesh gltf-export` writes,
# made into Blender objects, and Blender objects written as a .glb for
# `rsxmesh gltf-import`.
#
# Blender's own glTF importer drops every "_" attribute (the stored UV
# sets that feed no logical UV, the tangent frames, the extras), so the
# objects are built here from the file, which gltf-export writes plainly:
# one buffer, tightly packed accessors, a mesh per node, a primitive per
# submesh sharing the mesh's vertices. Its attributes, their types and
# component types are those rsxmesh describes (layout.py).

import json
import os

import numpy

if "bool" not in vars(numpy):
    numpy.bool = bool  # Blender 3.4's glTF add-on uses it; numpy 1.24 lacks it

import bpy  # noqa: E402

class Document:
    def __init__(self, path, layout):
        self.path = path
        self.layout = layout
        self.dir = os.path.dirname(os.path.abspath(path))
        with open(path, "rb") as f:
            self.json = json.load(f)
        buf = self.json["buffers"][0]
        with open(os.path.join(self.dir, buf["uri"]), "rb") as f:
            self.bin = f.read()

    def accessor(self, i):
        """Accessor i as a numpy array (count, components), normalised
        integers as floats."""
        a = self.json["accessors"][i]
        v = self.json["bufferViews"][a["bufferView"]]
        n = self.layout.components[a["type"]]
        dtype = numpy.dtype(self.layout.dtypes[a["componentType"]])
        start = v.get("byteOffset", 0) + a.get("byteOffset", 0)
        stride = v.get("byteStride", n * dtype.itemsize)
        raw = numpy.frombuffer(self.bin, dtype=numpy.uint8, offset=start,
                               count=stride * (a["count"] - 1)
                               + n * dtype.itemsize)
        rows = numpy.lib.stride_tricks.as_strided(
            raw, shape=(a["count"], n * dtype.itemsize), strides=(stride, 1))
        out = numpy.ascontiguousarray(rows).view(dtype).reshape(a["count"], n)
        if a.get("normalized") and dtype.kind in "iu":
            # glTF's decoding: c / max, at least -1 when signed
            out = out.astype(numpy.float64) / numpy.iinfo(dtype).max
            return numpy.maximum(out, -1.0)
        return out


def to_blender(v):
    """glTF's +Y up to Blender's +Z up, as Blender's importer and exporter
    do: (x, y, z) -> (x, -z, y)."""
    return numpy.stack([v[:, 0], -v[:, 2], v[:, 1]], axis=1)


def material(doc, i, cache):
    if i in cache:
        return cache[i]
    m = doc.json["materials"][i]
    mat = bpy.data.materials.new(m.get("name", "material"))
    mat.use_nodes = True
    tex = m.get("pbrMetallicRoughness", {}).get("baseColorTexture")
    if tex is not None:
        image = doc.json["images"][doc.json["textures"][tex["index"]]
                                   ["source"]]
        path = os.path.normpath(os.path.join(doc.dir, image["uri"]))
        if os.path.isfile(path):
            nodes = mat.node_tree.nodes
            bsdf = nodes.get("Principled BSDF")
            node = nodes.new("ShaderNodeTexImage")
            node.image = bpy.data.images.load(path, check_existing=True)
            node.interpolation = "Closest"
            uv = nodes.new("ShaderNodeUVMap")
            uv.uv_map = "UV%d" % tex.get("texCoord", 0)
            links = mat.node_tree.links
            links.new(uv.outputs["UV"], node.inputs["Vector"])
            links.new(node.outputs["Color"], bsdf.inputs["Base Color"])
            nodes.active = node  # the viewport's Solid > Texture shows it
    mat["rsxmesh_samplers"] = json.dumps(m.get("extras", {})
                                         .get("samplers", []))
    cache[i] = mat
    return mat


def build_mesh(doc, mi, g, materials):
    prims = g["primitives"]
    attrs0 = prims[0]["attributes"]
    P = doc.accessor(attrs0["POSITION"]).astype(numpy.float64)
    nv = len(P)
    tris, prim_of = [], []
    for p, prim in enumerate(prims):
        idx = doc.accessor(prim["indices"]).reshape(-1, 3)
        tris.append(idx)
        prim_of.append(numpy.full(len(idx), p))
    tris = numpy.concatenate(tris) if tris else numpy.zeros((0, 3), int)
    prim_of = numpy.concatenate(prim_of) if prim_of else numpy.zeros(0, int)
    nt = len(tris)
    me = bpy.data.meshes.new(g["name"])
    me.vertices.add(nv)
    me.vertices.foreach_set("co", to_blender(P).ravel())
    me.loops.add(3 * nt)
    me.loops.foreach_set("vertex_index", tris.ravel().astype(numpy.int32))
    me.polygons.add(nt)
    me.polygons.foreach_set("loop_start",
                            numpy.arange(0, 3 * nt, 3, dtype=numpy.int32))
    me.polygons.foreach_set("loop_total", numpy.full(nt, 3, numpy.int32))
    # material slots: the primitives' materials in order
    slot_of = {}
    for prim in prims:
        m = prim.get("material")
        if m is not None and m not in slot_of:
            slot_of[m] = len(me.materials)
            me.materials.append(material(doc, m, materials))
    slots = numpy.array([slot_of.get(prim.get("material"), 0)
                         for prim in prims], dtype=numpy.int32)
    me.polygons.foreach_set("material_index", slots[prim_of]
                            if nt else numpy.zeros(0, numpy.int32))
    me.update(calc_edges=True)
    # every logical UV as UV0..UV3, corner by corner: a primitive routes
    # its own stored sets (V flipped, as Blender's importer does)
    corner_prim = numpy.repeat(prim_of, 3)
    corner_vertex = tris.ravel()
    for logical, name in doc.layout.texcoords:
        if not any(name in prim["attributes"] for prim in prims):
            continue
        uv = numpy.zeros((3 * nt, 2))
        for p, prim in enumerate(prims):
            if name in prim["attributes"]:
                values = doc.accessor(prim["attributes"][name])
                sel = corner_prim == p
                uv[sel] = values[corner_vertex[sel]]
        uv[:, 1] = 1.0 - uv[:, 1]
        layer = me.uv_layers.new(name="UV%d" % logical)
        layer.data.foreach_set("uv", uv.ravel())
    for name, (shown, kind) in doc.layout.point_attributes.items():
        if name in attrs0:
            values = doc.accessor(attrs0[name]).astype(numpy.float64)
            attr = me.attributes.new(shown, kind, "POINT")
            attr.data.foreach_set("color" if kind == "FLOAT_COLOR"
                                  else "vector", values.ravel())
    # the render colour, which is not exported, is the colour's only: no
    # other attribute may stand in for it
    colours = me.color_attributes
    if len(colours) > 0 and colours.find("colour") == -1:
        # Blender makes the last colour attribute made the render colour,
        # and will have one: a placeholder, so that no extra is left out
        me.attributes.new("no colour", "BYTE_COLOR", "POINT")
    at = colours.find("colour")
    if at == -1:
        at = colours.find("no colour")
    if at != -1:
        colours.render_color_index = at
        colours.active_color_index = at
    if "NORMAL" in attrs0:
        N = to_blender(doc.accessor(attrs0["NORMAL"]).astype(numpy.float64))
        me.use_auto_smooth = True
        me.normals_split_custom_set_from_vertices([tuple(n) for n in N])
    return me


def build(context, path, bundle, layout):
    """The objects of the glTF at path (gltf-export's of bundle, as layout
    describes it), linked to a new collection named after the bundle;
    returns them."""
    doc = Document(path, layout)
    name = os.path.splitext(os.path.basename(bundle))[0]
    coll = bpy.data.collections.new(name)
    context.scene.collection.children.link(coll)
    materials, objects = {}, []
    for node in doc.json.get("nodes", []):
        mi = node.get("mesh")
        if mi is None:
            continue
        g = doc.json["meshes"][mi]
        me = build_mesh(doc, mi, g, materials)
        obj = bpy.data.objects.new(node.get("name", g["name"]), me)
        for target in (obj, me):
            target["rsxmesh_bundle"] = bundle
            target["rsxmesh_mesh"] = g["name"]
            target["rsxmesh_number"] = mi + 1
            target["rsxmesh_mask"] = g.get("extras", {}).get("mask", "")
        coll.objects.link(obj)
        objects.append(obj)
    return objects


def export(context, objects, glb):
    """objects written as the .glb glb by Blender's glTF exporter, its
    defaults but for the "_" attributes and the extras (on)."""
    for o in context.scene.objects:
        o.select_set(o in objects)
    if objects:
        context.view_layer.objects.active = objects[0]
    bpy.ops.export_scene.gltf(filepath=glb, export_format="GLB",
                              use_selection=True, export_attributes=True,
                              export_colors=True, export_tangents=False,
                              export_extras=True)
