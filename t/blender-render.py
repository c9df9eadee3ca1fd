# blender-render.py - Blender renders an OBJ export with a camera given in
# mesh coordinates, the way doc/rendering.md says rsxmesh does, so that
# t/render-blender.sh can compare the two pictures pixel by pixel.
#
#   blender -b --factory-startup --python t/blender-render.py -- \
#     IN.obj OUT.png WIDTH HEIGHT EX,EY,EZ AX,AY,AZ FOV_DEGREES [FILTER]
#
# Workbench, flat lighting, texture colours, textures sampled "Closest"
# (nearest, no mipmaps; FILTER "Linear": bilinear, as rsxmesh's), no anti-aliasing, no dithering, the "Standard"
# view transform, a transparent background. The OBJ importer maps mesh
# (x, y, z) to Blender's (x, -z, y); the camera is mapped the same way,
# looks at the mapped target with the mapped +Y up, and has the vertical
# field of view given; its near clip is rsxmesh's default, 0.01.
import math
import sys

import bpy
from mathutils import Vector

args = sys.argv[sys.argv.index("--") + 1:]
obj_path, out_path = args[0], args[1]
width, height = int(args[2]), int(args[3])
eye = [float(v) for v in args[4].split(",")]
at = [float(v) for v in args[5].split(",")]
fov = float(args[6])
interpolation = args[7] if len(args) > 7 else "Closest"


def blender_axes(p):
    """mesh (x, y, z) -> Blender (x, -z, y), as the OBJ importer maps it"""
    return Vector((p[0], -p[2], p[1]))


bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.wm.obj_import(filepath=obj_path, forward_axis="NEGATIVE_Z",
                      up_axis="Y")

for mat in bpy.data.materials:
    if mat.use_nodes:
        for node in mat.node_tree.nodes:
            if node.type == "TEX_IMAGE":
                node.interpolation = interpolation

scene = bpy.context.scene
cam_data = bpy.data.cameras.new("cam")
cam_data.sensor_fit = "VERTICAL"
cam_data.angle_y = math.radians(fov)
cam_data.clip_start = 0.01
cam_data.clip_end = 100000.0
cam = bpy.data.objects.new("cam", cam_data)
scene.collection.objects.link(cam)
scene.camera = cam
e, a = blender_axes(eye), blender_axes(at)
cam.location = e
# -Z of the camera along the view, its +Y towards Blender's +Z (mesh +Y)
cam.rotation_euler = (a - e).to_track_quat("-Z", "Y").to_euler()

scene.render.engine = "BLENDER_WORKBENCH"
scene.display.shading.light = "FLAT"
scene.display.shading.color_type = "TEXTURE"
scene.display.shading.show_backface_culling = False
scene.display.render_aa = "OFF"
scene.render.dither_intensity = 0.0
scene.render.film_transparent = True
scene.view_settings.view_transform = "Standard"
scene.view_settings.look = "None"
scene.view_settings.exposure = 0.0
scene.view_settings.gamma = 1.0
scene.render.resolution_x = width
scene.render.resolution_y = height
scene.render.resolution_percentage = 100
scene.render.image_settings.file_format = "PNG"
scene.render.image_settings.color_mode = "RGBA"
scene.render.image_settings.color_depth = "8"
scene.render.filepath = out_path
bpy.ops.render.render(write_still=True)
