/* bench/fmt-floor.cc - rsx_format_float against its floor, Dragonbox's
** to_chars (the fastest published shortest round trip), on the floats an
** OBJ export writes: every position, normal and stored UV of the bundles
** given. Best of -r passes of each, in turn. One line on stdout:
**   fmt N floats: rsx_format_float X ns a float, Dragonbox Y ns, ratio R
** C++ only for Dragonbox's header; built by make bench alone. */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include <dragonbox/dragonbox_to_chars.h>

extern "C" {
#include "rsxmesh.h"
}

static double cpu_seconds()
{
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
  static const int kinds[] = {RSX_POSITION, RSX_NORMAL, RSX_UV0, RSX_UV1,
                              RSX_UV2, RSX_UV3};
  std::vector<float> floats;
  int reps = 5, i = 1;
  if (argc > 2 && std::strcmp(argv[1], "-r") == 0) {
    reps = std::atoi(argv[2]);
    i = 3;
  }
  for (; i < argc; i++) {
    rsx_error err;
    rsx_bundle *b = rsx_bundle_open(argv[i], &err);
    if (!b) {
      std::fprintf(stderr, "fmt-floor: %s\n", err.text);
      return 1;
    }
    for (uint32_t k = 0; k < rsx_bundle_mesh_count(b); k++) {
      const rsx_mesh *m = rsx_bundle_mesh(b, k);
      for (int kind : kinds) {
        if (rsx_mesh_can_decode(m, kind, nullptr) != 0) continue;
        size_t at = floats.size();
        size_t n = (size_t)m->vertex_count *
                   (size_t)m->format.attr[kind]->components;
        floats.resize(at + n);
        if (rsx_mesh_decode(m, kind, 0, m->vertex_count, floats.data() + at,
                            &err) != 0)
          floats.resize(at);
      }
    }
    rsx_bundle_free(b);
  }
  if (floats.empty()) {
    std::fprintf(stderr, "fmt-floor: no floats\n");
    return 1;
  }
  double best_rsx = 1e30, best_db = 1e30;
  size_t sum = 0;
  for (int r = 0; r < reps; r++) {
    char buf[64];
    double t0 = cpu_seconds();
    for (float f : floats) sum += rsx_format_float(f, buf);
    double t1 = cpu_seconds();
    for (float f : floats)
      sum += (size_t)(jkj::dragonbox::to_chars(f, buf) - buf);
    double t2 = cpu_seconds();
    if (t1 - t0 < best_rsx) best_rsx = t1 - t0;
    if (t2 - t1 < best_db) best_db = t2 - t1;
  }
  double n = (double)floats.size();
  std::printf("fmt %zu floats: rsx_format_float %.1f ns a float, Dragonbox "
              "%.1f ns, ratio %.2f (%zu)\n", floats.size(),
              best_rsx / n * 1e9, best_db / n * 1e9, best_rsx / best_db,
              sum % 10);
  return 0;
}
