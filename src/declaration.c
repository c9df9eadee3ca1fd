/* declaration.c - placeholder until written */
typedef int rsx_placeholder_declaration;
