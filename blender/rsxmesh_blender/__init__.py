# rsxmesh_blender - RSXB bundles in Blender, through the rsxmesh program.
#
# File > Import > RSXB runs `rsxmesh gltf-export` on the bundle and builds
# a Blender object per mesh from the glTF it writes (gltf.py); File >
# Export > RSXB exports the objects of one bundle as a .glb with Blender's
# own exporter and runs `rsxmesh gltf-import` on it against the bundle.
# Decoding and encoding stay in rsxmesh: this add-on only moves data, and
# takes the glTF's description from rsxmesh too (layout.py).
# The rsxmesh program is found on PATH, or set in the add-on's
# preferences (rsxmesh.exe on Windows).

bl_info = {
    "name": "RSXB bundles (rsxmesh)",
    "author": "the rsxmesh project",
    "version": (1, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import > RSXB, File > Export > RSXB",
    "description": "Import and export the meshes of RSXB bundles through"
                   " the rsxmesh program",
    "category": "Import-Export",
}

import os
import shutil
import subprocess
import tempfile

import bpy
from bpy.props import BoolProperty, EnumProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import gltf, layout

PACKAGE = __package__ or "rsxmesh_blender"


class RsxmeshPreferences(bpy.types.AddonPreferences):
    bl_idname = PACKAGE

    program: StringProperty(
        name="rsxmesh program",
        description="The rsxmesh program; empty: rsxmesh (rsxmesh.exe on"
                    " Windows) found on PATH",
        subtype="FILE_PATH", default="")

    def draw(self, context):
        self.layout.prop(self, "program")


def program(context):
    """The rsxmesh program to run, or raise naming what was looked for."""
    prefs = context.preferences.addons.get(PACKAGE)
    given = prefs.preferences.program if prefs else ""
    if given:
        given = bpy.path.abspath(given)
        if not os.path.isfile(given):
            raise RuntimeError("rsxmesh program %s: no such file" % given)
        return given
    name = "rsxmesh.exe" if os.name == "nt" else "rsxmesh"
    found = shutil.which(name)
    if not found:
        raise RuntimeError("no %s on PATH: install rsxmesh, or set its path"
                           " in the add-on's preferences" % name)
    return found


def run(context, *args):
    """Run rsxmesh with args: its stdout, or raise with its stderr."""
    done = subprocess.run([program(context)] + list(args),
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise RuntimeError((done.stderr or done.stdout).strip()
                           or "rsxmesh exited with status %d"
                           % done.returncode)
    return done.stdout, done.stderr


def describe(context):
    """The glTF that rsxmesh's gltf-export writes, as rsxmesh describes
    it (layout.Layout), or raise naming what failed."""
    rsxmesh = program(context)
    try:
        return layout.Layout(run(context, *layout.ARGS)[0])
    except (RuntimeError, ValueError, KeyError, TypeError) as e:
        raise RuntimeError("%s did not describe its glTF"
                           " (rsxmesh.gltf_layout.json(); an rsxmesh older"
                           " than the add-on?): %s" % (rsxmesh, e))


class ImportRSXB(bpy.types.Operator, ImportHelper):
    """Import the meshes of an RSXB bundle"""
    bl_idname = "import_scene.rsxb"
    bl_label = "Import RSXB"
    bl_options = {"UNDO"}
    filename_ext = ".rsxb"
    filter_glob: StringProperty(default="*.rsxb", options={"HIDDEN"})

    def execute(self, context):
        bundle = os.path.abspath(self.filepath)
        try:
            with tempfile.TemporaryDirectory(prefix="rsxmesh-") as tmp:
                described = describe(context)
                run(context, "gltf-export", bundle, "-o", tmp)
                name = os.path.splitext(os.path.basename(bundle))[0]
                objects = gltf.build(context, os.path.join(tmp,
                                     name + ".gltf"), bundle, described)
        except (RuntimeError, OSError, ValueError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        self.report({"INFO"}, "%s: %d meshes imported" % (bundle,
                    len(objects)))
        return {"FINISHED"}


def bundle_objects(context, bundle):
    return [o for o in context.scene.objects
            if o.type == "MESH" and o.get("rsxmesh_bundle") == bundle]


class ExportRSXB(bpy.types.Operator, ExportHelper):
    """Write the objects of an imported RSXB bundle back as a bundle"""
    bl_idname = "export_scene.rsxb"
    bl_label = "Export RSXB"
    filename_ext = ".rsxb"
    filter_glob: StringProperty(default="*.rsxb", options={"HIDDEN"})
    report_file: BoolProperty(
        name="Write the report",
        description="Write gltf-import's --report beside the bundle"
                    " (NAME.rsxb.txt)", default=False)
    tangents: EnumProperty(
        name="Tangents of new vertices",
        description="gltf-import's --tangents: the tangent vectors A and B"
                    " of the vertices added in Blender",
        items=(("base", "Base", "The base vertices' around them (a new"
                " vertex far from every base vertex: computed)"),
               ("computed", "Computed", "Computed from the UVs and normals,"
                " as Blender computes its tangents (MikkTSpace)")),
        default="base")

    def execute(self, context):
        active = context.active_object
        base = active.get("rsxmesh_bundle") if active else None
        if base is None:
            bases = {o.get("rsxmesh_bundle") for o in context.scene.objects
                     if o.get("rsxmesh_bundle")}
            if len(bases) != 1:
                self.report({"ERROR"}, "make an object of the bundle to"
                            " export active (%d bundles imported)"
                            % len(bases))
                return {"CANCELLED"}
            base = bases.pop()
        objects = bundle_objects(context, base)
        try:
            with tempfile.TemporaryDirectory(prefix="rsxmesh-") as tmp:
                glb = os.path.join(tmp, "edited.glb")
                gltf.export(context, objects, glb)
                out, err = run(context, "gltf-import", glb, "--base", base,
                               "-o", os.path.abspath(self.filepath),
                               "--tangents", self.tangents, "--report")
        except (RuntimeError, OSError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        if self.report_file:
            with open(os.path.abspath(self.filepath) + ".txt", "w") as f:
                f.write(out + err)
        summary = err.strip().splitlines()
        self.report({"INFO"}, summary[-1] if summary else "written")
        return {"FINISHED"}


def menu_import(self, context):
    self.layout.operator(ImportRSXB.bl_idname, text="RSXB (.rsxb)")


def menu_export(self, context):
    self.layout.operator(ExportRSXB.bl_idname, text="RSXB (.rsxb)")


CLASSES = (RsxmeshPreferences, ImportRSXB, ExportRSXB)


def register():
    for c in CLASSES:
        bpy.utils.register_class(c)
    bpy.types.TOPBAR_MT_file_import.append(menu_import)
    bpy.types.TOPBAR_MT_file_export.append(menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(menu_import)
    for c in reversed(CLASSES):
        bpy.utils.unregister_class(c)
