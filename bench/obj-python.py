#!/usr/bin/env python3
# obj-python.py - benchmark floor: an RSXB bundle to OBJ and MTL in plain
# Python, as a user would write it from doc/format.md and the spec: the
# file read whole, fields taken with struct, every line made with % and
# written with f.write. It writes what `rsxmesh obj-export` writes (o, v,
# vn, a vt block per stored UV set feeding logical UV0 with V flipped, g,
# usemtl, f v/vt/vn; the MTL beside it) but for the digits of its floats:
# '%.9g', which reads back as the same float32 without being the shortest.
# Packed meshes only (every mesh of the synthetic disc).
#
#   python3 bench/obj-python.py BUNDLE.rsxb OUT_DIR

import os
import struct
import sys

BASE_COLOUR = 0x95591C40
# packed variant: bytes of each kind (mask bit) in its stream
SIZES = [12, 4, 4, 4, 4, 4, 4, 4, 4, 8, 8, 4, 8]
MGP_KINDS = [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]  # in stream order


def cstring(data, table, offset):
    start = table + offset
    return data[start:data.index(b"\0", start)].decode("utf-8")


def token(name):
    name = "".join("_" if c.isspace() else c for c in name)
    return name or "_"


def cmp_normal(u):
    x = u & 0x7FF
    y = (u >> 11) & 0x7FF
    z = u >> 22
    if x >= 0x400:
        x -= 0x800
    if y >= 0x400:
        y -= 0x800
    if z >= 0x200:
        z -= 0x400
    return x * 32 / 32767, y * 32 / 32767, z * 64 / 32767


def triangles(indices, strip, restart):
    tris = []
    if not strip:
        for i in range(0, len(indices) - 2, 3):
            a, b, c = indices[i], indices[i + 1], indices[i + 2]
            if a != b and b != c and a != c:
                tris.append((a, b, c))
        return tris
    run = []
    for v in indices:
        if v == restart:
            run = []
            continue
        run.append(v)
        if len(run) >= 3:
            a, b, c = run[-3], run[-2], run[-1]
            if len(run) % 2 == 0:  # every second triangle swaps a and b
                a, b = b, a
            if a != b and b != c and a != c:
                tris.append((a, b, c))
    return tris


def export(path, out_dir):
    with open(path, "rb") as f:
        data = f.read()
    (magic, version, _, _, mesh_count, mesh_table, _, submesh_table,
     material_count, material_table, _, sampler_table, strings,
     _) = struct.unpack_from(">4sHHIIIIIIIIIII", data, 0)
    assert magic == b"RSXB" and version == 1, path + ": not an RSXB bundle"

    materials = []
    for i in range(material_count):
        name, first, count, _ = struct.unpack_from(
            ">IIII", data, material_table + 16 * i)
        texture = None
        for k in range(first, first + count):
            slot, tex = struct.unpack_from(">II", data, sampler_table + 8 * k)
            if slot == BASE_COLOUR:
                texture = cstring(data, strings, tex)
        materials.append((token(cstring(data, strings, name)), texture))

    stem = os.path.splitext(os.path.basename(path))[0]
    obj_path = os.path.join(out_dir, stem + ".obj")
    mtl_path = os.path.join(out_dir, stem + ".mtl")
    used_none = False
    base_v = base_vt = base_vn = 0
    out = open(obj_path, "w")
    out.write("# from %s by rsxmesh obj-export\nmtllib %s\n"
              % (os.path.basename(path), stem + ".mtl"))
    for m in range(mesh_count):
        (name, meta, _, nv, mmp, mmp_stride, mgp, mgp_stride, ib, ni,
         index_size, primitive, _, first_sub, nsub) = struct.unpack_from(
            ">IIIIIIIIIIBBHII", data, mesh_table + 64 * m)
        mask = struct.unpack_from(">I", data, meta + 0x8C)[0]
        assert mask & 0x80000, "packed meshes only"
        offsets = {}
        at = 0
        for kind in MGP_KINDS:
            if mask & (1 << kind):
                offsets[kind] = at
                at += SIZES[kind]
        name = token(cstring(data, strings, name))
        out.write("o %s\n" % name)
        for i in range(nv):
            x, y, z = struct.unpack_from(">fff", data, mmp + i * mmp_stride)
            out.write("v %.9g %.9g %.9g\n" % (x, y, z))
        has_normal = bool(mask & 4)
        if has_normal:
            for i in range(nv):
                u = struct.unpack_from(">I", data, mmp + i * mmp_stride + 12)
                out.write("vn %.9g %.9g %.9g\n" % cmp_normal(u[0]))
        fmt = ">%d%s" % (ni, "H" if index_size == 2 else "I")
        indices = struct.unpack_from(fmt, data, ib)
        restart = 0xFFFF if index_size == 2 else 0xFFFFFFFF
        vt_base = {}
        vt_count = base_vt
        for s in range(nsub):
            record, _, first, count, material = struct.unpack_from(
                ">IIIII", data, submesh_table + 32 * (first_sub + s))
            selector = data[record + 0x38]
            uv_set = selector if selector != 0xFF else 0
            if uv_set > 3 or not mask & (1 << (5 + uv_set)):
                uv_set = None
            if uv_set is not None and uv_set not in vt_base:
                vt_base[uv_set] = vt_count
                where = mgp + offsets[5 + uv_set]
                for i in range(nv):
                    u, v = struct.unpack_from(">ee", data,
                                              where + i * mgp_stride)
                    out.write("vt %.9g %.9g\n" % (u, 1 - v))
                vt_count += nv
            if material == 0xFFFFFFFF:
                used_none = True
                mat = "(none)"
            else:
                mat = materials[material][0]
            out.write("g %s.%d\nusemtl %s\n" % (name, s + 1, mat))
            tris = triangles(indices[first:first + count], primitive == 1,
                             restart)
            v = base_v + 1
            n = base_vn + 1
            if uv_set is not None:
                t = vt_base[uv_set] + 1
            if uv_set is not None and has_normal:
                for a, b, c in tris:
                    out.write("f %d/%d/%d %d/%d/%d %d/%d/%d\n"
                              % (a + v, a + t, a + n, b + v, b + t, b + n,
                                 c + v, c + t, c + n))
            elif has_normal:
                for a, b, c in tris:
                    out.write("f %d//%d %d//%d %d//%d\n"
                              % (a + v, a + n, b + v, b + n, c + v, c + n))
            elif uv_set is not None:
                for a, b, c in tris:
                    out.write("f %d/%d %d/%d %d/%d\n"
                              % (a + v, a + t, b + v, b + t, c + v, c + t))
            else:
                for a, b, c in tris:
                    out.write("f %d %d %d\n" % (a + v, b + v, c + v))
        base_v += nv
        base_vn += nv if has_normal else 0
        base_vt = vt_count
    out.close()

    folder = os.path.dirname(os.path.abspath(path))
    with open(mtl_path, "w") as mtl:
        mtl.write("# from %s by rsxmesh obj-export\n"
                  % os.path.basename(path))
        for name, texture in materials:
            mtl.write("\nnewmtl %s\nKd 1 1 1\n" % name)
            if texture:
                mtl.write("map_Kd %s\n" % os.path.relpath(
                    os.path.join(folder, texture), os.path.abspath(out_dir)))
        if used_none:
            mtl.write("\nnewmtl (none)\nKd 0.8 0.8 0.8\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: obj-python.py BUNDLE.rsxb OUT_DIR")
    os.makedirs(sys.argv[2], exist_ok=True)
    export(sys.argv[1], sys.argv[2])
