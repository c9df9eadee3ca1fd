/* build.c - placeholder */
#include "build.h"
typedef int rsx_placeholder_build;
