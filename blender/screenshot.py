# blender/screenshot.py - the picture of doc/blender.md: Blender's window
# after File > Import > RSXB, the viewport in Solid shading with textures,
# framed on a few meshes. Run under Xvfb (rsxmesh on PATH; EMPTY.blend is
# any saved empty file: opening one keeps the splash screen away):
#   xvfb-run -a -s "-screen 0 1024x640x24" blender --factory-startup \
#     EMPTY.blend --python blender/screenshot.py -- blender BUNDLE OUT.png \
#     MESH,MESH...
import sys

import bpy
import mathutils

args = sys.argv[sys.argv.index("--") + 1:]
sys.path.insert(0, args[0])
import rsxmesh_blender  # noqa: E402

rsxmesh_blender.register()
bpy.ops.import_scene.rsxb(filepath=args[1])
out = args[2]
framed = set(args[3].split(","))


def frame():
    win = bpy.context.window_manager.windows[0]
    for area in win.screen.areas:
        if area.type != "VIEW_3D":
            continue
        space = area.spaces[0]
        space.shading.type = "SOLID"
        space.shading.color_type = "TEXTURE"
        region = [r for r in area.regions if r.type == "WINDOW"][0]
        with bpy.context.temp_override(window=win, area=area, region=region,
                                       screen=win.screen):
            view = space.region_3d
            view.view_perspective = "PERSP"
            view.view_rotation = mathutils.Euler((1.1, 0, 0.7)) \
                .to_quaternion()
            for o in bpy.context.scene.objects:
                o.select_set(o.name in framed)
            bpy.ops.view3d.view_selected()
            for o in bpy.context.scene.objects:
                o.select_set(False)
    bpy.app.timers.register(save, first_interval=3.0)


def save():
    win = bpy.context.window_manager.windows[0]
    with bpy.context.temp_override(window=win):
        bpy.ops.screen.screenshot(filepath=out)
    bpy.ops.wm.quit_blender()


bpy.app.timers.register(frame, first_interval=1.0)
