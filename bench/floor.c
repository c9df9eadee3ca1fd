/*
** floor.c - the C floor of the accessor benchmark: every position of a
** bundle decoded by the core's decoder in a plain loop, as reads/s.
**
** usage: bench/floor BUNDLE [REPS [SECONDS]]
** Prints "floor READS_PER_SECOND SUM VERTICES": the best rate of REPS
** repetitions, each as many passes over all positions as fit in SECONDS
** of CPU time (clock(), the clock of Lua's os.clock), and the sum of every
** component of a pass, x + y + z vertex after vertex in doubles, the
** same sum bench/accessor.lua makes, so both are known to read the same.
*/
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rsxmesh.h"

/* One pass: decode every position, return the sum of the components. */
static double fl_pass(const rsx_bundle *b, uint32_t nmesh)
{
  double s = 0.0;
  uint32_t i, v;
  for (i = 0; i < nmesh; i++) {
    const rsx_mesh *m = rsx_bundle_mesh(b, i);
    const rsx_attr_info *info = m->format.attr[RSX_POSITION];
    for (v = 0; v < m->vertex_count; v++) {
      float c[3];
      rsx_decode_value(info, rsx_mesh_vertex(m, RSX_POSITION, v), c);
      s = s + c[0] + c[1] + c[2];
    }
  }
  return s;
}

int main(int argc, char **argv)
{
  rsx_error err;
  rsx_bundle *b;
  uint32_t i, nmesh;
  double vertices = 0.0, best = 0.0, sum = 0.0, seconds;
  int rep, reps;

  if (argc < 2 || argc > 4) {
    fprintf(stderr, "usage: floor BUNDLE [REPS [SECONDS]]\n");
    return 2;
  }
  reps = argc > 2 ? atoi(argv[2]) : 5;
  seconds = argc > 3 ? atof(argv[3]) : 0.3;
  if (reps < 1 || !(seconds > 0.0)) {
    fprintf(stderr, "floor: REPS must be 1 or more, SECONDS above 0\n");
    return 2;
  }
  b = rsx_bundle_open(argv[1], &err);
  if (b == NULL) {
    fprintf(stderr, "floor: %s\n", err.text);
    return 1;
  }
  nmesh = rsx_bundle_mesh_count(b);
  for (i = 0; i < nmesh; i++) {
    const rsx_mesh *m = rsx_bundle_mesh(b, i);
    if (rsx_mesh_can_decode(m, RSX_POSITION, &err) != 0) {
      fprintf(stderr, "floor: %s\n", err.text);
      rsx_bundle_free(b);
      return 1;
    }
    vertices += m->vertex_count;
  }
  for (rep = 0; rep < reps; rep++) {
    clock_t start = clock(), now;
    long passes = 0;
    do {
      sum = fl_pass(b, nmesh);
      passes++;
      now = clock();
    } while ((double)(now - start) / CLOCKS_PER_SEC < seconds);
    double rate = passes * vertices / ((double)(now - start) / CLOCKS_PER_SEC);
    if (rate > best)
      best = rate;
  }
  printf("floor %.0f %.17g %.0f\n", best, sum, vertices);
  rsx_bundle_free(b);
  return 0;
}
