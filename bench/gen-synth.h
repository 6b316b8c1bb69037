/* tracepipe - the benchmark's input generator: what its three formats share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gen-synth.c has the output, the threads and main(); one file a format
 * (gen-synth-systrace.c, gen-synth-json.c, gen-synth-chrome.c) writes it.
 */
#pragma once

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

/* Bumped whenever the output for a given seed and size changes, so that
 * bench/run does not reuse inputs cached by an older generator.
 */
#define GEN_SYNTH_FORMAT_VERSION 1

#define N_PROCESSES 5
#define THREADS_PER_PROCESS 10
#define N_THREADS (N_PROCESSES * THREADS_PER_PROCESS)
#define N_CPUS 8
#define MAX_DEPTH 6
#define COMM_MAX 15 /* the kernel's TASK_COMM_LEN without the NUL */
#define LINE_MAX_BYTES 1024
#define OUT_BUFFER_SIZE (1024 * 1024)

/* ------------------------------------------------------------------ data */

typedef struct
{
  int tgid;
  const char *comms[THREADS_PER_PROCESS]; /* [0] is the main thread */
} ProcessSpec;

/* Real-world comm shapes on purpose: spaces, colons, dots, slashes, dashes
 * followed by digits (so "comm-tid" must be split at the last dash), names
 * of exactly 15 characters, and a tgid of five digits.
 */
/* clang-format off */
static const ProcessSpec processes[N_PROCESSES] = {
  { 612, { "surfaceflinger", "RenderEngine", "binder:612_1", "binder:612_2",
           "HwBinder:612_1", "app", "sf", "TimerDispatch", "composer",
           "RegionSampling" } },
  { 1402, { "system_server", "android.bg", "ActivityManager",
            "android.display", "android.anim", "binder:1402_5",
            "HeapTaskDaemon", "Signal Catcher", "InputDispatcher",
            "PowerManagerSer" } },
  { 5120, { "com.example.app", "RenderThread", "hwuiTask0",
            "Jit thread pool", "Profile Saver", "FinalizerDaemon",
            "OkHttp Dispatch", "pool-3-thread-2", "GLThread 4117",
            "ReferenceQueueD" } },
  { 14260, { ".android.chrome", "Chrome_IOThread", "ThreadPoolForeg",
             "ThreadPoolServi", "VizCompositorTh", "CompositorTileW",
             "Chrome_InProcGp", "AudioOutputDevi", "CrRendererMain",
             "Chrome_ChildIOT" } },
  { 2, { "kthreadd", "kworker/u16:3", "kworker/1:2H", "ksoftirqd/1",
         "rcu_preempt", "migration/2", "irq/123-qcom-sp", "cpuhp/3",
         "kswapd0", "jbd2/dm-8-8" } },
};

/* Names must not contain '|' (the systrace payload separator) or a
 * newline; a '"' is escaped for JSON by json_escape().
 */
static const char *const slice_names[] = {
  "Choreographer#doFrame", "traversal", "measure", "layout", "draw",
  "Record View#draw()", "DrawFrame", "syncFrameState", "prepareTree",
  "flush commands", "eglSwapBuffersWithDamageKHR", "queueBuffer",
  "dequeueBuffer", "onMessageReceived", "handleMessageRefresh", "composite",
  "binder transaction", "binder reply", "binder transaction async",
  "inflate", "RV OnBindView", "activityStart", "bindApplication",
  "GC: Wait For Completion",
  "Lock contention on a monitor lock (owner tid: 4032)",
  "ThreadControllerImpl::RunTask", "V8.Execute", "Blink.ParseHTML",
  "Open \"Settings\"",
  "HIDL::IComposerClient::executeCommands_2_2::client",
};
#define N_SLICE_NAMES G_N_ELEMENTS (slice_names)

static const char *const counter_names[] = {
  "VSYNC-sf", "HW_VSYNC_0", "BufferTX - com.example.app#0", "mem.rss",
  "fps", "pending_tasks",
};
#define N_COUNTER_NAMES G_N_ELEMENTS (counter_names)

static const char *const categories[] = {
  "toplevel", "benchmark,rail", "v8", "disabled-by-default-devtools.timeline",
};
#define N_CATEGORIES G_N_ELEMENTS (categories)

static const char *const prev_states[] = { "S", "S", "R", "R+", "D" };
/* clang-format on */

/* ------------------------------------------------------------------ PRNG */

/* xoshiro256** seeded through splitmix64: fast, and unlike GRand its
 * sequence is fixed here, so a seed means the same bytes forever.
 */
typedef struct
{
  guint64 s[4];
} Rng;

static inline guint64
rotl (guint64 x,
      int k)
{
  return (x << k) | (x >> (64 - k));
}

static inline void
rng_init (Rng *rng,
          guint64 seed)
{
  for (int i = 0; i < 4; i++)
    {
      guint64 z = (seed += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));
      z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
      z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
      rng->s[i] = z ^ (z >> 31);
    }
}

static inline guint64
rng_next (Rng *rng)
{
  guint64 *s = rng->s;
  guint64 result = rotl (s[1] * 5, 7) * 9;
  guint64 t = s[1] << 17;

  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl (s[3], 45);
  return result;
}

/* A number in [0, n): multiply-shift on the top 32 bits; the bias for the
 * small n used here is far below anything a benchmark could notice.
 */
static inline guint32
rng_below (Rng *rng,
           guint32 n)
{
  return (guint32) (((rng_next (rng) >> 32) * n) >> 32);
}

/* ---------------------------------------------------------------- output */

typedef struct
{
  const char *path;
  char *tmp_path;
  FILE *fp;
  char *buf;
  gsize len;
  guint64 total; /* bytes flushed plus bytes buffered */
  GError *error; /* the first write error; later writes are dropped */
} Output;

gboolean output_open (Output *out,
                      const char *path,
                      GError **error);
void output_flush (Output *out);
gboolean output_close (Output *out,
                       GError **error);

/* Returns where the next line goes, with room for LINE_MAX_BYTES. */
static inline char *
output_line_begin (Output *out)
{
  if (out->len + LINE_MAX_BYTES > OUT_BUFFER_SIZE)
    output_flush (out);
  return out->buf + out->len;
}

static inline void
output_line_end (Output *out,
                 char *end)
{
  gsize n = (gsize) (end - (out->buf + out->len));

  g_assert (n <= LINE_MAX_BYTES);
  out->len += n;
  out->total += n;
}

/* ------------------------------------------------------------- appenders */

/* Hand-rolled formatting: snprintf would be most of the run time. */

static inline char *
put_mem (char *p,
         const char *s,
         gsize len)
{
  memcpy (p, s, len);
  return p + len;
}

#define put_lit(p, lit) put_mem ((p), (lit), sizeof (lit) - 1)

static inline char *
put_str (char *p,
         const char *s)
{
  return put_mem (p, s, strlen (s));
}

/* @v in decimal, left-padded with @fill to at least @width characters. */
static inline char *
put_uint_pad (char *p,
              guint64 v,
              int width,
              char fill)
{
  char tmp[24];
  int n = 0;

  do
    {
      tmp[n++] = (char) ('0' + v % 10);
      v /= 10;
    }
  while (v > 0);
  for (; width > n; width--)
    *p++ = fill;
  while (n > 0)
    *p++ = tmp[--n];
  return p;
}

static inline char *
put_uint (char *p,
          guint64 v)
{
  return put_uint_pad (p, v, 0, ' ');
}

static inline int
count_digits (guint64 v)
{
  int n = 1;

  while (v >= 10)
    {
      v /= 10;
      n++;
    }
  return n;
}

/* ---------------------------------------------------------------- thread */

typedef struct
{
  int tgid;
  int tid;
  int prio;
  const char *comm;
  int depth;
  guint8 stack[MAX_DEPTH]; /* slice name indices, innermost last */
  gboolean running;        /* systrace: currently on some CPU */
  guint64 busy_until_us;   /* json: end of the last X slice, rounded up */
  char prefix[48];         /* systrace "     comm-tid   (tgid) " */
  gsize prefix_len;
} Thread;

void threads_init (Thread *threads);

/* A table name as a JSON string body (newly allocated). */
char *json_escape (const char *s);

/* Each writes about @target bytes of its format to @out; returns the
 * number of events written. */
guint64 gen_systrace (Output *out,
                      guint64 target,
                      guint64 seed,
                      gboolean waking);
guint64 gen_json (Output *out,
                  guint64 target,
                  guint64 seed);
guint64 gen_chrome (Output *out,
                    guint64 target,
                    guint64 seed);
