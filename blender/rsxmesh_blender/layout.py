# rsxmesh_blender/layout.py - the glTF that `rsxmesh gltf-export` writes,
# as rsxmesh itself describes it (rsxmesh.gltf_layout's JSON), and what
# the add-on makes of its attributes in Blender. Only what is Blender's
# own is kept here; the glTF's names, types and component types come from
# the rsxmesh program that writes the glTF. No bpy nor numpy: the test
# t/blender-layout.sh checks this against rsxmesh with plain Python.

import json

# The rsxmesh arguments that print the description (doc/blender.md).
ARGS = ("-e", 'io.write(require "rsxmesh.gltf_layout".json())')

# Blender's data type of a vertex attribute of each glTF element type.
BLENDER_TYPE = {"VEC2": "FLOAT2", "VEC3": "FLOAT_VECTOR",
                "VEC4": "FLOAT_COLOR"}

# The attributes kept as Blender attributes on the vertices are the "_"
# ones (Blender's importer drops them) and these, by the layout's kind.
# Blender's exporter writes a vertex attribute as "_" + its name in
# capitals, so "_UV_SET_1" is kept as "UV_SET_1" and goes back out under
# its glTF name. The tangent frames' names have spaces: they go out under
# names gltf-import does not read, and it takes each vertex's from the
# base instead, turned as the object was (Blender turns no attribute when
# a transform is applied). The colour is the render colour, a point
# colour in floats, which Blender's exporter writes as COLOR_0 as it is
# (the corner colours of its own importer it scrambles): the meshes'
# extras (the rsxmesh_ properties) tell gltf-import that the colours are
# the add-on's, to be taken.
NAME_OF_KIND = {"tangent_a": "tangent frame A",
                "tangent_b": "tangent frame B",
                "colour": "colour"}

# numpy's type (little-endian) of each glTF component type, by its name.
DTYPE = {"BYTE": "<i1", "UNSIGNED_BYTE": "<u1", "SHORT": "<i2",
         "UNSIGNED_SHORT": "<u2", "UNSIGNED_INT": "<u4", "FLOAT": "<f4"}


def blender_name(attribute):
    """The Blender name of the vertex attribute that keeps a glTF
    attribute (a description's entry), or None: kept otherwise or not."""
    name = NAME_OF_KIND.get(attribute.get("kind"))
    if name is None and attribute["name"].startswith("_"):
        name = attribute["name"][1:]
    return name


class Layout:
    """The description printed by `rsxmesh` with ARGS."""

    def __init__(self, text):
        d = json.loads(text)
        self.attributes = d["attributes"]
        # element type -> components; component type -> numpy's type
        self.components = d["components"]
        self.dtypes = {c["componentType"]: DTYPE[c["name"]]
                       for c in d["componentTypes"]}
        # (logical UV n, its glTF attribute), n from 0
        self.texcoords = sorted((a["logical"], a["name"])
                                for a in self.attributes if "logical" in a)
        # glTF name -> (Blender name, Blender data type) of the attributes
        # kept on the vertices
        self.point_attributes = {}
        for a in self.attributes:
            name = blender_name(a)
            if name is not None:
                self.point_attributes[a["name"]] = (name,
                                                    BLENDER_TYPE[a["type"]])
