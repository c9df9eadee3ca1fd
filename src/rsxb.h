/*
** rsxb.h - the RSXB file's layout (doc/format.md, "The RSXB bundle"),
** private to the core: the reader (bundle.c) checks what the writer
** (writer.c) writes, from this one description, as lundump.h serves both
** lundump.c and ldump.c. Fields are big-endian; offsets are from the start
** of the header or of an entry.
*/
#ifndef RSXB_H
#define RSXB_H

#include "rsxmesh.h"

/* The header: magic, version, header size, then counts and offsets. */
#define RSXB_MAGIC RSX_BUNDLE_MAGIC /* "RSXB", public in rsxmesh.h */
#define RSXB_MAGIC_SIZE 4
#define RSXB_VERSION 1
#define RSXB_HEADER_SIZE 64

#define RSXB_H_VERSION 0x04        /* u16 */
#define RSXB_H_HEADER_SIZE 0x06    /* u16 */
#define RSXB_H_FILE_SIZE 0x08
#define RSXB_H_MESH_COUNT 0x0C
#define RSXB_H_MESH_TABLE 0x10
#define RSXB_H_SUBMESH_COUNT 0x14
#define RSXB_H_SUBMESH_TABLE 0x18
#define RSXB_H_MATERIAL_COUNT 0x1C
#define RSXB_H_MATERIAL_TABLE 0x20
#define RSXB_H_SAMPLER_COUNT 0x24
#define RSXB_H_SAMPLER_TABLE 0x28
#define RSXB_H_STRINGS 0x2C
#define RSXB_H_STRING_SIZE 0x30

/* A mesh entry. */
#define RSXB_MESH_ENTRY 64
#define RSXB_M_NAME 0x00
#define RSXB_M_META 0x04
#define RSXB_M_META_SIZE 0x08
#define RSXB_M_VERTEX_COUNT 0x0C
#define RSXB_M_MMP 0x10
#define RSXB_M_MMP_STRIDE 0x14
#define RSXB_M_MGP 0x18
#define RSXB_M_MGP_STRIDE 0x1C
#define RSXB_M_INDICES 0x20
#define RSXB_M_INDEX_COUNT 0x24
#define RSXB_M_INDEX_SIZE 0x28     /* u8 */
#define RSXB_M_PRIMITIVE 0x29      /* u8 */
#define RSXB_M_FIRST_SUBMESH 0x2C
#define RSXB_M_SUBMESH_COUNT 0x30

/* A submesh entry. */
#define RSXB_SUBMESH_ENTRY 32
#define RSXB_S_RECORD 0x00
#define RSXB_S_RECORD_SIZE 0x04
#define RSXB_S_FIRST_INDEX 0x08
#define RSXB_S_INDEX_COUNT 0x0C
#define RSXB_S_MATERIAL 0x10

/* A material entry. */
#define RSXB_MATERIAL_ENTRY 16
#define RSXB_MAT_NAME 0x00
#define RSXB_MAT_FIRST_SAMPLER 0x04
#define RSXB_MAT_SAMPLER_COUNT 0x08

/* A sampler entry. */
#define RSXB_SAMPLER_ENTRY 8
#define RSXB_SMP_SLOT 0x00
#define RSXB_SMP_TEXTURE 0x04

#endif
