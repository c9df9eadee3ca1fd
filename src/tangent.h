/*
** tangent.h - the glTF import's tangent frames: the game's vectors A and
** B from a glTF TANGENT and NORMAL, and a TANGENT computed from the
** positions, UVs and normals with MikkTSpace's convention (Blender's) for
** vertices that have none. The binding (src/lua/gltf.c) checks the
** arguments; the import (lua/rsxmesh/gltf_import/attributes.lua) says
** which vertex took which. No Lua here.
*/
#ifndef RSXMESH_TANGENT_H
#define RSXMESH_TANGENT_H

#include <stddef.h>
#include <stdint.h>

#include "rsxmesh.h"

/* A and B of n vertices from TANGENT t (xyzw, 4 doubles a vertex) and
** NORMAL nrm (3 a vertex): A = t.xyz as it is, B = cross(N, t.xyz) * w *
** hand, w taken as -1 when below 0 and +1 otherwise. hand is +1 for the
** TANGENT gltf-export writes (w says which way B points), -1 for
** MikkTSpace's (Blender's: its bitangent runs along glTF's decreasing V,
** the game's B along the increasing V). The products in the order the
** import's Lua had, so the bits are the same. Returns n, or the first
** vertex (0-based) whose t or nrm is not finite; a and b are then filled
** only below it. */
size_t rsx_tangent_frames(const double *t, const double *nrm, size_t n,
                          double hand, double *a, double *b);

/* How rsx_tangent_compute filled a vertex. */
enum rsx_tangent_source {
  RSX_TANGENT_FROM_UVS,  /* the triangles around it, by their UVs */
  RSX_TANGENT_ACROSS_N   /* none with UV area: any direction across N */
};

/* The TANGENT (xyzw, 4 doubles a vertex, into out) of nv vertices, from
** positions pos and normals nrm (3 doubles a vertex), UVs uv (2 a vertex,
** glTF's: V grows downwards) and ntri triangles tri (3 vertex numbers,
** 0-based) with MikkTSpace's convention, as Blender exports it: each
** triangle's direction of growing U (from its UV derivatives), made
** across the vertex's normal and unit, summed over the triangles at the
** vertex weighted by their corner angles there, made unit; w = +1 where
** the UVs are not mirrored (cross(N, T) then runs along glTF's
** decreasing V), else -1. Where a vertex's triangles disagree in that,
** the side with more angle wins. A triangle with no UV area, or with
** anything not finite, gives nothing; a vertex given nothing gets a unit
** vector across its normal (from the axis least along it) and w = +1.
** The output is always finite. how (may be NULL): an enum
** rsx_tangent_source per vertex. -1 and err when a triangle names a
** vertex past nv, or memory runs out; else 0. */
int rsx_tangent_compute(const double *pos, const double *nrm,
                        const double *uv, size_t nv, const uint32_t *tri,
                        size_t ntri, double *out, unsigned char *how,
                        rsx_error *err);

#endif
