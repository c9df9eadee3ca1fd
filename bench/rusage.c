/* bench/rusage.c - run a command and write what it cost, as getrusage
** gives it for the command and every process it waited for (the workers
** of -j): "USER SYS WALL MAXRSS" (seconds, seconds, seconds, KiB) on one
** line of FILE. The command's output is its own; the exit status its.
**   rusage FILE COMMAND [ARG...] */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* wait4 */

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval t)
{
  return (double)t.tv_sec + (double)t.tv_usec * 1e-6;
}

int main(int argc, char **argv)
{
  struct rusage ru;
  struct timespec t0, t1;
  int status;
  pid_t pid;
  FILE *f;
  if (argc < 3) {
    fprintf(stderr, "usage: rusage FILE COMMAND [ARG...]\n");
    return 2;
  }
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid = fork();
  if (pid < 0) {
    perror("rusage: fork");
    return 2;
  }
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    perror("rusage: exec");
    _exit(127);
  }
  if (wait4(pid, &status, 0, &ru) < 0) {
    perror("rusage: wait4");
    return 2;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  f = fopen(argv[1], "w");
  if (f == NULL) {
    perror(argv[1]);
    return 2;
  }
  fprintf(f, "%.3f %.3f %.3f %ld\n", seconds(ru.ru_utime),
          seconds(ru.ru_stime), (double)(t1.tv_sec - t0.tv_sec) +
          (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9, ru.ru_maxrss);
  if (fclose(f) != 0) return 2;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
