/* build.h - placeholder */
