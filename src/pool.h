/* pool.h - a pool of worker processes that take jobs one line at a time
**
** The first process starts up to N copies of one command (the script
** again, in worker mode) and keeps them alive. Each job is a line of text
** (an input's number); the pool sends a worker its next job when it has
** finished the last, the largest jobs first, and collects what the worker
** wrote for that job: its stdout, its stderr and its report (bytes the
** worker hands over with rsx_pool_report, such as its totals). The jobs
** come back in the order they were added, whatever order they finished
** in, so that the first process can replay them as one process would have
** written them.
**
** A worker: its stdin gives it one job line at a time, its stdout and
** stderr are the pool's pipes, and RSXMESH_POOL_CHANNEL in its
** environment names the channel for its reports (POSIX: descriptor 3;
** a report is its size in decimal, a newline, then its bytes: see
** rsx_channel below; a channel that breaks that form stops its worker
** and fails its job, with a message). Its first
** report says it is ready (what it wrote before is dropped: the script's
** header is the first process's to write); each later report ends a job.
** A worker is sent a job line only once it has reported and waits for
** it, so that all it wrote before is in the pipes, and nothing after. A worker
** that exits before its report fails that job (status is its exit status,
** 128 + the signal's number for a signal); another worker takes the rest.
** At the end of stdin, a worker exits.
**
** POSIX: posix_spawnp with pipes, poll. Windows: CreateProcessW with
** anonymous pipes, read as they have bytes (PeekNamedPipe). */
#ifndef RSX_POOL_H
#define RSX_POOL_H

#include <stddef.h>

#include "rsxmesh.h"

typedef struct rsx_pool rsx_pool;

/* A finished job, as rsx_pool_next returns it: valid until the next call
** of rsx_pool_next or rsx_pool_free. */
typedef struct rsx_pool_result {
  size_t number;               /* 1-based, in the order of rsx_pool_add */
  const char *out, *err;       /* what the worker wrote for this job */
  size_t out_size, err_size;
  const char *report;          /* its report; NULL when the worker died */
  size_t report_size;
  int status;                  /* the dead worker's exit status, else 0 */
  const char *problem;         /* why its channel failed it (a report cut
                               ** short, bytes that are no report); NULL
                               ** when it did not */
} rsx_pool_result;

enum { RSX_POOL_JOB = 1, RSX_POOL_END = 0, RSX_POOL_INTERRUPTED = 2 };

/* A pool that will run argv (argv[0] found on PATH as a shell does; a
** NULL-terminated list, copied) in at most `workers` processes. Nothing
** starts before the first rsx_pool_next. NULL and err on failure. */
rsx_pool *rsx_pool_new(const char *const *argv, int workers,
                       rsx_error *err);

/* Add a job: line (without a newline; copied) is sent to a worker as it
** is, followed by "\n". Jobs of a greater size start first; of one size,
** in the order added. 0, or -1 and err (a line with a newline, no
** memory, a pool already started). */
int rsx_pool_add(rsx_pool *p, const char *line, double size, rsx_error *err);

/* Wait for the next job in order: RSX_POOL_JOB and *r filled;
** RSX_POOL_END when every job has been returned; RSX_POOL_INTERRUPTED
** when a signal cut the wait short (call again to go on); -1 and err
** when a worker cannot be started or a pipe fails. */
int rsx_pool_next(rsx_pool *p, rsx_pool_result *r, rsx_error *err);

/* The number of jobs finished so far, returned or not (for progress). */
size_t rsx_pool_done(const rsx_pool *p);

/* End the pool: no new job starts; the workers are told to stop (with
** interrupt, POSIX: SIGINT, so that they stop their job as Control-C
** would), their output is read and dropped, and they are waited for.
** Returns the number of workers that were still running. */
int rsx_pool_stop(rsx_pool *p, int interrupt);

/* rsx_pool_stop(p, 0) if needed, then free everything. NULL is fine. */
void rsx_pool_free(rsx_pool *p);

/* In a worker: hand bytes over to the pool as this job's report (the
** first report: "ready"). 0, or -1 and err (not a worker, a write
** error). */
int rsx_pool_report(const void *bytes, size_t n, rsx_error *err);

/* In a worker: 1 when this process was started by a pool. */
int rsx_pool_is_worker(void);

/* ------------------------------------------------- the reports' channel
** A worker's channel, as the pool reads it: reports, each its size in
** decimal (1 to 10 digits, at most RSX_POOL_REPORT_MAX), a newline, then
** that many bytes. The bytes are the worker's, which a user's script
** controls: they are taken in whatever pieces they come, only what has
** come is held (a size allocates nothing), and what breaks the rules is
** said in one line, at the byte of the channel where it starts. A
** zeroed rsx_channel is an empty one. */
#define RSX_POOL_REPORT_MAX ((size_t)1 << 30)

typedef struct rsx_channel {
  char *data;
  size_t size, cap;          /* bytes held */
  size_t start;              /* data[start..size) is not yet a report */
  unsigned long long offset; /* the channel's bytes before data[0] */
} rsx_channel;

/* Append n bytes the channel gave. 0, or -1 and err (no memory). A
** report rsx_channel_next returned is gone after this. */
int rsx_channel_add(rsx_channel *c, const void *bytes, size_t n,
                    rsx_error *err);

/* The next whole report: 1 with *report and *size; 0 when its bytes have
** not all come; -1 and err when the bytes are no report (the channel is
** then of no more use). */
int rsx_channel_next(rsx_channel *c, const char **report, size_t *size,
                     rsx_error *err);

/* At the channel's end: 0 when it ended between reports, else -1 and err
** (a size or a report cut short). */
int rsx_channel_end(const rsx_channel *c, rsx_error *err);

void rsx_channel_free(rsx_channel *c);

#endif
