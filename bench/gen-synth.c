/* tracepipe - deterministic synthetic trace inputs for the benchmark
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 *   gen-synth systrace OUT --mb N --seed S [--waking]
 *   gen-synth json     OUT --mb N --seed S
 *   gen-synth chrome   OUT --mb N --seed S
 *
 * systrace: ftrace text with the TGID column ("# tracer: nop" header):
 *   sched_switch, sched_wakeup (or sched_waking) and tracing_mark_write
 *   B|pid|name, E|pid, C|pid|name|value over 50 threads of 5 processes.
 * json: a Chrome trace in array form: M metadata naming processes and
 *   threads, then B/E/X/C events with fractional microsecond timestamps.
 * chrome: a Chrome trace shaped like one Chrome saves (object form, args
 *   objects with nested values, X with dur and tts/tdur, instants, flows
 *   v1 and v2, counters, metadata); see gen_chrome().  Added for issue 19
 *   without changing the other two kinds' bytes (format version 1 still).
 *
 * Both outputs have strictly increasing timestamps, B/E properly nested per
 * thread (at most MAX_DEPTH deep), X slices that end before the next event
 * of their thread, and every slice closed at the end.  The output is N MiB
 * (2^20 bytes) within one line, byte-identical for the same seed and size
 * on every platform: the generator uses only integer arithmetic and its own
 * PRNG.  The number of events written goes to stderr as
 * "OUT: <events> events, <bytes> bytes".  The file is written under a
 * temporary name and renamed when complete, so a cache never sees half a
 * file.
 */
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

static void
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

/* Sets @error from errno as "PATH: WHAT: reason"; returns FALSE. */
static gboolean
set_io_error (GError **error,
              const char *path,
              const char *what)
{
  int saved = errno;

  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
               "%s: %s: %s", path, what, g_strerror (saved));
  return FALSE;
}

static gboolean
output_open (Output *out,
             const char *path,
             GError **error)
{
  int fd;

  out->path = path;
  out->tmp_path = g_strconcat (path, ".tmp-XXXXXX", NULL);
  fd = g_mkstemp (out->tmp_path);
  if (fd < 0)
    return set_io_error (error, out->tmp_path, "cannot create");
  if (!(out->fp = fdopen (fd, "wb")))
    {
      set_io_error (error, out->tmp_path, "cannot open");
      close (fd);
      g_unlink (out->tmp_path);
      return FALSE;
    }
  /* mkstemp creates 0600; give the file the mode open() would. */
  {
    mode_t mask = umask (0);
    umask (mask);
    fchmod (fd, 0666 & ~mask);
  }
  /* Our own buffer already batches writes into big chunks. */
  setvbuf (out->fp, NULL, _IONBF, 0);
  out->buf = g_malloc (OUT_BUFFER_SIZE);
  out->len = 0;
  out->total = 0;
  return TRUE;
}

/* A write error is kept in @out, so that the generators need no error
 * paths: they stop when out->error is set, and output_close() reports it.
 */
static void
output_flush (Output *out)
{
  if (out->len > 0 && !out->error && fwrite (out->buf, 1, out->len, out->fp) != out->len)
    set_io_error (&out->error, out->tmp_path, "write failed");
  out->len = 0;
}

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

/* Flushes, closes and renames into place; on failure removes the file. */
static gboolean
output_close (Output *out,
              GError **error)
{
  gboolean ok;

  output_flush (out);
  ok = !out->error;
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&out->error));
  if (fclose (out->fp) != 0 && ok)
    ok = set_io_error (error, out->tmp_path, "close failed");
  if (ok && g_rename (out->tmp_path, out->path) != 0)
    ok = set_io_error (error, out->path, "cannot rename the finished file into place");
  if (!ok)
    g_unlink (out->tmp_path);
  g_clear_pointer (&out->tmp_path, g_free);
  g_clear_pointer (&out->buf, g_free);
  return ok;
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

static int
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

static void
threads_init (Thread *threads)
{
  for (int p = 0; p < N_PROCESSES; p++)
    for (int i = 0; i < THREADS_PER_PROCESS; i++)
      {
        Thread *th = &threads[p * THREADS_PER_PROCESS + i];
        int n;

        memset (th, 0, sizeof *th);
        th->tgid = processes[p].tgid;
        /* The main thread's tid is the pid, as on Linux. */
        th->tid = i == 0 ? th->tgid : th->tgid + 3 + i * 11;
        th->prio = i % 4 == 1 ? 110 : 120;
        th->comm = processes[p].comms[i];
        g_assert (strlen (th->comm) <= COMM_MAX);
        /* The kernel's "%16s-%-5d (%5d) " task column. */
        n = g_snprintf (th->prefix, sizeof th->prefix, "%16s-%-5d (%5d) ",
                        th->comm, th->tid, th->tgid);
        g_assert (n > 0 && (gsize) n < sizeof th->prefix);
        th->prefix_len = (gsize) n;
      }
}

/* ------------------------------------------------------------- systrace */

static const char systrace_header[] =
    "# tracer: nop\n"
    "#\n"
    "# entries-in-buffer/entries-written: 0/0   #P:8\n"
    "#\n"
    "#                                      _-----=> irqs-off\n"
    "#                                     / _----=> need-resched\n"
    "#                                    | / _---=> hardirq/softirq\n"
    "#                                    || / _--=> preempt-depth\n"
    "#                                    ||| /     delay\n"
    "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
    "#              | |        |      |   ||||       |         |\n";

/* About four days of uptime, in microseconds. */
#define SYSTRACE_START_US G_GUINT64_CONSTANT (354621087413)

typedef struct
{
  Rng rng;
  Thread threads[N_THREADS];
  int on_cpu[N_CPUS]; /* thread index, or -1 for the idle task */
  guint64 ts_us;
  const char *wakeup_event;
  guint64 close_cost; /* bytes of the E lines still owed to open slices */
  guint64 events;
} Systrace;

/* "[003] d..3 354621.087413: " */
static inline char *
put_cpu_flags_ts (char *p,
                  int cpu,
                  const char *flags,
                  guint64 ts_us)
{
  *p++ = '[';
  p = put_uint_pad (p, (guint64) cpu, 3, '0');
  p = put_lit (p, "] ");
  p = put_mem (p, flags, 4);
  *p++ = ' ';
  p = put_uint (p, ts_us / 1000000);
  *p++ = '.';
  p = put_uint_pad (p, ts_us % 1000000, 6, '0');
  return put_lit (p, ": ");
}

static inline char *
put_task (char *p,
          const Thread *th,
          int cpu,
          const char *flags,
          guint64 ts_us)
{
  p = put_mem (p, th->prefix, th->prefix_len);
  return put_cpu_flags_ts (p, cpu, flags, ts_us);
}

/* Length of the "E|tgid" line that will close a slice of @th. */
static guint64
systrace_end_line_len (const Systrace *st,
                       const Thread *th)
{
  guint64 len = th->prefix_len;

  len += sizeof "[000] .... " - 1;
  len += (guint64) count_digits (st->ts_us / 1000000) + sizeof ".000000: " - 1;
  len += sizeof "tracing_mark_write: E|" - 1;
  return len + (guint64) count_digits ((guint64) th->tgid) + 1;
}

static int
systrace_pick_next (Systrace *st)
{
  int next;

  /* Never a thread already running on some CPU (8 of 50 at most). */
  do
    next = (int) rng_below (&st->rng, N_THREADS);
  while (st->threads[next].running);
  return next;
}

static char *
systrace_switch (Systrace *st,
                 char *p,
                 int cpu)
{
  int prev = st->on_cpu[cpu];
  int next = systrace_pick_next (st);

  if (rng_below (&st->rng, 10) == 0)
    next = -1; /* the CPU goes idle */

  if (prev < 0)
    {
      p = put_lit (p, "          <idle>-0     (-----) ");
      p = put_cpu_flags_ts (p, cpu, "d..3", st->ts_us);
      p = put_lit (p, "sched_switch: prev_comm=swapper/");
      p = put_uint (p, (guint64) cpu);
      p = put_lit (p, " prev_pid=0 prev_prio=120 prev_state=R");
    }
  else
    {
      const Thread *th = &st->threads[prev];
      p = put_task (p, th, cpu, "d..3", st->ts_us);
      p = put_lit (p, "sched_switch: prev_comm=");
      p = put_str (p, th->comm);
      p = put_lit (p, " prev_pid=");
      p = put_uint (p, (guint64) th->tid);
      p = put_lit (p, " prev_prio=");
      p = put_uint (p, (guint64) th->prio);
      p = put_lit (p, " prev_state=");
      p = put_str (p, prev_states[rng_below (&st->rng, G_N_ELEMENTS (prev_states))]);
      st->threads[prev].running = FALSE;
    }

  if (next < 0)
    {
      p = put_lit (p, " ==> next_comm=swapper/");
      p = put_uint (p, (guint64) cpu);
      p = put_lit (p, " next_pid=0 next_prio=120\n");
    }
  else
    {
      const Thread *th = &st->threads[next];
      p = put_lit (p, " ==> next_comm=");
      p = put_str (p, th->comm);
      p = put_lit (p, " next_pid=");
      p = put_uint (p, (guint64) th->tid);
      p = put_lit (p, " next_prio=");
      p = put_uint (p, (guint64) th->prio);
      *p++ = '\n';
      st->threads[next].running = TRUE;
    }
  st->on_cpu[cpu] = next;
  return p;
}

static char *
systrace_wakeup (Systrace *st,
                 char *p,
                 int cpu)
{
  const Thread *waker = &st->threads[rng_below (&st->rng, N_THREADS)];
  const Thread *wakee = &st->threads[rng_below (&st->rng, N_THREADS)];

  p = put_task (p, waker, cpu, "d..4", st->ts_us);
  p = put_str (p, st->wakeup_event);
  p = put_lit (p, ": comm=");
  p = put_str (p, wakee->comm);
  p = put_lit (p, " pid=");
  p = put_uint (p, (guint64) wakee->tid);
  p = put_lit (p, " prio=");
  p = put_uint (p, (guint64) wakee->prio);
  p = put_lit (p, " target_cpu=");
  p = put_uint_pad (p, rng_below (&st->rng, N_CPUS), 3, '0');
  *p++ = '\n';
  return p;
}

static char *
systrace_slice (Systrace *st,
                char *p,
                int cpu,
                gboolean want_begin)
{
  Thread *th = &st->threads[rng_below (&st->rng, N_THREADS)];

  if (th->depth >= MAX_DEPTH)
    want_begin = FALSE;
  else if (th->depth == 0)
    want_begin = TRUE;

  p = put_task (p, th, cpu, "....", st->ts_us);
  p = put_lit (p, "tracing_mark_write: ");
  if (want_begin)
    {
      guint name = rng_below (&st->rng, N_SLICE_NAMES);
      th->stack[th->depth++] = (guint8) name;
      st->close_cost += systrace_end_line_len (st, th);
      p = put_lit (p, "B|");
      p = put_uint (p, (guint64) th->tgid);
      *p++ = '|';
      p = put_str (p, slice_names[name]);
    }
  else
    {
      th->depth--;
      st->close_cost -= systrace_end_line_len (st, th);
      p = put_lit (p, "E|");
      p = put_uint (p, (guint64) th->tgid);
    }
  *p++ = '\n';
  return p;
}

static char *
systrace_counter (Systrace *st,
                  char *p,
                  int cpu)
{
  const Thread *th = &st->threads[rng_below (&st->rng, N_THREADS)];

  p = put_task (p, th, cpu, "....", st->ts_us);
  p = put_lit (p, "tracing_mark_write: C|");
  p = put_uint (p, (guint64) th->tgid);
  *p++ = '|';
  p = put_str (p, counter_names[rng_below (&st->rng, N_COUNTER_NAMES)]);
  *p++ = '|';
  p = put_uint (p, rng_below (&st->rng, 1000));
  *p++ = '\n';
  return p;
}

/* One line: 20 % sched_switch, 10 % wakeup, 60 % B/E (begin favoured
 * until MAX_DEPTH), 10 % counter.
 */
static char *
systrace_event (Systrace *st,
                char *p)
{
  guint r, cpu;

  st->ts_us += 1 + rng_below (&st->rng, 20);
  r = rng_below (&st->rng, 100);
  cpu = rng_below (&st->rng, N_CPUS);
  st->events++;
  if (r < 20)
    return systrace_switch (st, p, (int) cpu);
  if (r < 30)
    return systrace_wakeup (st, p, (int) cpu);
  if (r < 90)
    return systrace_slice (st, p, (int) cpu, r < 60);
  return systrace_counter (st, p, (int) cpu);
}

static void
systrace_close_all (Systrace *st,
                    Output *out)
{
  for (int t = 0; t < N_THREADS; t++)
    {
      Thread *th = &st->threads[t];

      while (th->depth > 0)
        {
          char *p = output_line_begin (out);

          st->ts_us++;
          th->depth--;
          st->events++;
          p = put_task (p, th, (int) rng_below (&st->rng, N_CPUS), "....", st->ts_us);
          p = put_lit (p, "tracing_mark_write: E|");
          p = put_uint (p, (guint64) th->tgid);
          *p++ = '\n';
          output_line_end (out, p);
        }
    }
}

/* Returns the number of events written. */
static guint64
gen_systrace (Output *out,
              guint64 target,
              guint64 seed,
              gboolean waking)
{
  g_autofree Systrace *st = g_new0 (Systrace, 1);
  char *p;

  rng_init (&st->rng, seed);
  threads_init (st->threads);
  for (int c = 0; c < N_CPUS; c++)
    st->on_cpu[c] = -1;
  st->ts_us = SYSTRACE_START_US;
  st->wakeup_event = waking ? "sched_waking" : "sched_wakeup";

  p = output_line_begin (out);
  output_line_end (out, put_lit (p, systrace_header));

  /* Stop early enough that the closing E lines land on the target. */
  while (out->total + st->close_cost < target && !out->error)
    {
      p = output_line_begin (out);
      output_line_end (out, systrace_event (st, p));
    }
  systrace_close_all (st, out);
  return st->events;
}

/* ------------------------------------------------------------------ json */

/* Chrome's own exporter order: pid, tid, ts, ph, cat, name, args, dur. */

#define JSON_START_US G_GUINT64_CONSTANT (352187043)

typedef struct
{
  Rng rng;
  Thread threads[N_THREADS];
  char *names[N_SLICE_NAMES]; /* JSON-escaped */
  gsize name_lens[N_SLICE_NAMES];
  guint64 ts_us;
  guint64 close_cost;
  guint64 events;
} ChromeJson;

/* Escapes only what the tables can contain: '"' and '\\'. */
static char *
json_escape (const char *s)
{
  GString *str = g_string_new (NULL);

  for (; *s; s++)
    {
      if (*s == '"' || *s == '\\')
        g_string_append_c (str, '\\');
      g_string_append_c (str, *s);
    }
  return g_string_free (str, FALSE);
}

/* ',\n{"pid":612,"tid":612,"ts":352187044.123,"ph":"B",' */
static inline char *
json_put_head (char *p,
               const Thread *th,
               guint64 ts_us,
               guint frac,
               char ph)
{
  p = put_lit (p, ",\n{\"pid\":");
  p = put_uint (p, (guint64) th->tgid);
  p = put_lit (p, ",\"tid\":");
  p = put_uint (p, (guint64) th->tid);
  p = put_lit (p, ",\"ts\":");
  p = put_uint (p, ts_us);
  *p++ = '.';
  p = put_uint_pad (p, frac, 3, '0');
  p = put_lit (p, ",\"ph\":\"");
  *p++ = ph;
  return put_lit (p, "\",\"cat\":\"");
}

static inline char *
json_put_name (char *p,
               const ChromeJson *cj,
               guint name)
{
  p = put_lit (p, "\",\"name\":\"");
  p = put_mem (p, cj->names[name], cj->name_lens[name]);
  *p++ = '"';
  return p;
}

/* The E event closing a slice: same category and name as its B. */
static char *
json_put_end (char *p,
              const ChromeJson *cj,
              const Thread *th,
              guint64 ts_us,
              guint frac,
              guint8 slot)
{
  p = json_put_head (p, th, ts_us, frac, 'E');
  p = put_str (p, categories[slot >> 5]);
  p = json_put_name (p, cj, slot & 31);
  *p++ = '}';
  return p;
}

/* Bytes json_put_end() will write for @slot, with today's ts width. */
static guint64
json_end_len (const ChromeJson *cj,
              const Thread *th,
              guint8 slot)
{
  guint64 len = sizeof (",\n{\"pid\":,\"tid\":,\"ts\":.000,\"ph\":\"E\",\"cat\":\"\",\"name\":\"\"}") - 1;

  len += (guint64) count_digits ((guint64) th->tgid);
  len += (guint64) count_digits ((guint64) th->tid);
  len += (guint64) count_digits (cj->ts_us);
  return len + strlen (categories[slot >> 5]) + cj->name_lens[slot & 31];
}

static char *
json_slice (ChromeJson *cj,
            char *p,
            Thread *th,
            guint frac,
            gboolean want_begin)
{
  if (th->depth >= MAX_DEPTH)
    want_begin = FALSE;
  else if (th->depth == 0)
    want_begin = TRUE;

  if (want_begin)
    {
      guint name = rng_below (&cj->rng, N_SLICE_NAMES);
      guint cat = rng_below (&cj->rng, N_CATEGORIES);
      /* One byte holds both: category in bits 5-6, name in bits 0-4. */
      guint8 slot = (guint8) (cat << 5 | name);

      th->stack[th->depth++] = slot;
      cj->close_cost += json_end_len (cj, th, slot);
      p = json_put_head (p, th, cj->ts_us, frac, 'B');
      p = put_str (p, categories[cat]);
      p = json_put_name (p, cj, name);
      p = put_lit (p, ",\"args\":{\"seq\":");
      p = put_uint (p, cj->events);
      return put_lit (p, "}}");
    }
  th->depth--;
  cj->close_cost -= json_end_len (cj, th, th->stack[th->depth]);
  return json_put_end (p, cj, th, cj->ts_us, frac, th->stack[th->depth]);
}

/* A complete slice of 1 to 40 µs, fractional; the thread emits nothing
 * else until it has ended, so it is always a leaf.
 */
static char *
json_complete (ChromeJson *cj,
               char *p,
               Thread *th,
               guint frac)
{
  guint dur_ns = 1000 + rng_below (&cj->rng, 39000);

  th->busy_until_us = cj->ts_us + (frac + dur_ns) / 1000 + 2;
  p = json_put_head (p, th, cj->ts_us, frac, 'X');
  p = put_str (p, categories[rng_below (&cj->rng, N_CATEGORIES)]);
  p = json_put_name (p, cj, rng_below (&cj->rng, N_SLICE_NAMES));
  p = put_lit (p, ",\"args\":{\"n\":");
  p = put_uint (p, rng_below (&cj->rng, 100));
  p = put_lit (p, "},\"dur\":");
  p = put_uint (p, dur_ns / 1000);
  *p++ = '.';
  p = put_uint_pad (p, dur_ns % 1000, 3, '0');
  *p++ = '}';
  return p;
}

static char *
json_counter (ChromeJson *cj,
              char *p,
              const Thread *th,
              guint frac)
{
  p = json_put_head (p, th, cj->ts_us, frac, 'C');
  p = put_str (p, categories[0]);
  p = put_lit (p, "\",\"name\":\"");
  p = put_str (p, counter_names[rng_below (&cj->rng, N_COUNTER_NAMES)]);
  p = put_lit (p, "\",\"args\":{\"value\":");
  p = put_uint (p, rng_below (&cj->rng, 100000));
  return put_lit (p, "}}");
}

/* One event: 70 % B/E (half wanting to begin), 18 % X, 12 % counter; a
 * thread inside an X slice gets a counter instead.
 */
static char *
json_event (ChromeJson *cj,
            char *p)
{
  guint r, frac;
  Thread *th;

  cj->ts_us += 1 + rng_below (&cj->rng, 12);
  frac = rng_below (&cj->rng, 1000);
  r = rng_below (&cj->rng, 100);
  th = &cj->threads[rng_below (&cj->rng, N_THREADS)];
  cj->events++;
  if (th->busy_until_us > cj->ts_us)
    r = 95;
  if (r < 70)
    return json_slice (cj, p, th, frac, r < 35);
  if (r < 88)
    return json_complete (cj, p, th, frac);
  return json_counter (cj, p, th, frac);
}

static char *
json_put_metadata (char *p,
                   const Thread *th,
                   const char *what,
                   const char *name,
                   gboolean first)
{
  p = first ? put_lit (p, "[\n{\"pid\":") : put_lit (p, ",\n{\"pid\":");
  p = put_uint (p, (guint64) th->tgid);
  p = put_lit (p, ",\"tid\":");
  p = put_uint (p, (guint64) th->tid);
  p = put_lit (p, ",\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"");
  p = put_str (p, what);
  p = put_lit (p, "\",\"args\":{\"name\":\"");
  p = put_str (p, name);
  return put_lit (p, "\"}}");
}

static void
json_write_metadata (ChromeJson *cj,
                     Output *out)
{
  for (int t = 0; t < N_THREADS; t++)
    {
      const Thread *th = &cj->threads[t];
      char *p = output_line_begin (out);

      if (th->tid == th->tgid)
        {
          p = json_put_metadata (p, th, "process_name", th->comm, t == 0);
          cj->events++;
        }
      p = json_put_metadata (p, th, "thread_name", th->comm, FALSE);
      cj->events++;
      output_line_end (out, p);
    }
}

static void
json_close_all (ChromeJson *cj,
                Output *out)
{
  char *p;

  /* Past the end of any X slice still running. */
  cj->ts_us += 100;
  for (int t = 0; t < N_THREADS; t++)
    {
      Thread *th = &cj->threads[t];

      while (th->depth > 0)
        {
          p = output_line_begin (out);
          cj->ts_us++;
          th->depth--;
          cj->events++;
          p = json_put_end (p, cj, th, cj->ts_us, rng_below (&cj->rng, 1000),
                            th->stack[th->depth]);
          output_line_end (out, p);
        }
    }
  p = output_line_begin (out);
  output_line_end (out, put_lit (p, "\n]\n"));
}

/* Returns the number of events written. */
static guint64
gen_json (Output *out,
          guint64 target,
          guint64 seed)
{
  g_autofree ChromeJson *cj = g_new0 (ChromeJson, 1);
  char *p;

  G_STATIC_ASSERT (N_SLICE_NAMES <= 32 && N_CATEGORIES <= 4);
  rng_init (&cj->rng, seed);
  threads_init (cj->threads);
  for (guint i = 0; i < N_SLICE_NAMES; i++)
    {
      cj->names[i] = json_escape (slice_names[i]);
      cj->name_lens[i] = strlen (cj->names[i]);
    }
  cj->ts_us = JSON_START_US;

  json_write_metadata (cj, out);
  /* The closing events and "\n]\n" must fit in the target too. */
  while (out->total + cj->close_cost + 3 < target && !out->error)
    {
      p = output_line_begin (out);
      output_line_end (out, json_event (cj, p));
    }
  json_close_all (cj, out);
  for (guint i = 0; i < N_SLICE_NAMES; i++)
    g_free (cj->names[i]);
  return cj->events;
}

/* ---------------------------------------------------------------- chrome */

/* The "chrome" kind: shaped like a trace saved by Chrome (chrome://tracing,
 * DevTools), where the "json" kind above is a plain B/E/X/C mix.  Object
 * form {"traceEvents":[…],"metadata":{…}}; every event with its keys in
 * the alphabetical order of Chrome's exporter and an "args" object (empty
 * on E); integer microsecond ts and dur; M metadata (process and thread
 * names, sort indices); B/E with args; X with dur, and on two threads in
 * three tts/tdur; args with nested objects, arrays, strings (with
 * escapes), integers, fractions, negative numbers, booleans and null; C
 * counters with one or two series; I instants; flows of both versions:
 * v1 "s"/"f" (bp "e") inside open slices with hex-string ids, v2
 * "bind_id" with "flow_out"/"flow_in" on X events.  Timestamps increase
 * strictly in file order (as in Perfetto's JSON export; Chrome's own
 * exporter writes an X at its end, which no importer here depends on).
 * The output is at most N MiB and short of it by less than the bytes of
 * the events that close the open slices and flows.
 */

/* clang-format off */
static const char *const chrome_categories[] = {
  "toplevel", "devtools.timeline", "v8", "blink", "cc", "gpu",
  "disabled-by-default-devtools.timeline", "loading,rail,devtools.timeline",
};
#define N_CHROME_CATEGORIES G_N_ELEMENTS (chrome_categories)

static const char *const chrome_urls[] = {
  "https://example.com/static/js/app.3f9a1c.js",
  "https://cdn.example.net/vendor/react-dom.production.min.js",
  "https://example.com/",
  "chrome-extension://abcdefghijklmnopabcdefghijklmnop/background.js",
};

static const char *const chrome_functions[] = {
  "onClick", "", "dispatchEvent", "requestAnimationFrame callback",
  "Promise.then", "render",
};

static const char *const chrome_posted_from[][2] = {
  { "../../base/task/thread_pool/worker_thread.cc", "RunWorker" },
  { "../../content/browser/renderer_host/render_widget_host_impl.cc", "ForwardInputEvent" },
  { "../../cc/trees/proxy_main.cc", "BeginMainFrame" },
  { "../../mojo/public/cpp/bindings/lib/connector.cc", "PostDispatchNextMessageFromPipe" },
};

static const char *const chrome_counters[] = {
  "JSHeapSize", "UpdateCounters", "FrameRate", "gpu.memory", "ThreadPool.Tasks",
};
/* clang-format on */

#define CHROME_START_US G_GUINT64_CONSTANT (183912345678)
#define CHROME_MAX_FLOWS 16
/* More than any line chrome_put_end() or a closing "f" writes. */
#define CHROME_CLOSE_LINE_MAX 200

typedef struct
{
  Rng rng;
  Thread threads[N_THREADS];
  guint64 tts_us[N_THREADS];  /* thread time, on threads that have it */
  char *names[N_SLICE_NAMES]; /* JSON-escaped */
  gsize name_lens[N_SLICE_NAMES];
  guint64 ts_us;
  guint64 open_slices;
  guint64 events;
  guint64 next_flow_id;
  guint64 v1_flows[CHROME_MAX_FLOWS]; /* "s" written, "f" not yet */
  guint n_v1_flows;
  guint64 v2_flows[CHROME_MAX_FLOWS]; /* "flow_out" written, no "flow_in" yet */
  guint n_v2_flows;
} ChromeTrace;

static inline char *
put_hex (char *p,
         guint64 v,
         int digits)
{
  static const char hex[] = "0123456789abcdef";

  for (int i = digits - 1; i >= 0; i--)
    *p++ = hex[(v >> (4 * i)) & 0xf];
  return p;
}

/* A v1 flow id, "0x1a2b": Chrome's are small counters or pointers. */
static inline char *
put_flow_id (char *p,
             guint64 id)
{
  p = put_lit (p, "\"0x");
  p = put_hex (p, id, id > 0xffff ? 8 : 4);
  *p++ = '"';
  return p;
}

/* A v2 bind_id, "0x9c0a4d6e1b2f3a85": Chrome's are hashes spread over 64
 * bits (splitmix64 of the counter here).  Small v2 ids would also collide
 * with the ids trace_processor numbers v1 flows with (it reports them as
 * flow_duplicate_id), which real traces do not do.
 */
static inline char *
put_bind_id (char *p,
             guint64 id)
{
  guint64 z = id * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  z ^= z >> 31;
  p = put_lit (p, "\"0x");
  p = put_hex (p, z, 16);
  *p++ = '"';
  return p;
}

/* A frame id as Chrome writes it: 32 upper-case hex digits. */
static char *
chrome_put_frame (ChromeTrace *ct,
                  char *p)
{
  char *start = p;

  *p++ = '"';
  p = put_hex (p, rng_next (&ct->rng), 16);
  p = put_hex (p, rng_next (&ct->rng), 16);
  for (char *c = start + 1; c < p; c++)
    if (*c >= 'a')
      *c = (char) (*c - 'a' + 'A');
  *p++ = '"';
  return p;
}

static char *
chrome_put_stack_frame (ChromeTrace *ct,
                        char *p)
{
  p = put_lit (p, "{\"columnNumber\":");
  p = put_uint (p, rng_below (&ct->rng, 120));
  p = put_lit (p, ",\"functionName\":\"");
  p = put_str (p, chrome_functions[rng_below (&ct->rng, G_N_ELEMENTS (chrome_functions))]);
  p = put_lit (p, "\",\"lineNumber\":");
  p = put_uint (p, rng_below (&ct->rng, 20000));
  p = put_lit (p, ",\"scriptId\":\"");
  p = put_uint (p, 10 + rng_below (&ct->rng, 400));
  p = put_lit (p, "\",\"url\":\"");
  p = put_str (p, chrome_urls[rng_below (&ct->rng, G_N_ELEMENTS (chrome_urls))]);
  return put_lit (p, "\"}");
}

/* The "args" member, without a leading comma: one of a few shapes taken
 * from real traces, with random values.
 */
static char *
chrome_put_args (ChromeTrace *ct,
                 char *p)
{
  guint shape = rng_below (&ct->rng, 10);

  p = put_lit (p, "\"args\":");
  switch (shape)
    {
    case 0: /* devtools.timeline FunctionCall */
      p = put_lit (p, "{\"data\":{\"columnNumber\":");
      p = put_uint (p, rng_below (&ct->rng, 200));
      p = put_lit (p, ",\"frame\":");
      p = chrome_put_frame (ct, p);
      p = put_lit (p, ",\"functionName\":\"");
      p = put_str (p, chrome_functions[rng_below (&ct->rng, G_N_ELEMENTS (chrome_functions))]);
      p = put_lit (p, "\",\"isMainFrame\":");
      p = rng_below (&ct->rng, 4) ? put_lit (p, "true") : put_lit (p, "false");
      p = put_lit (p, ",\"lineNumber\":");
      p = put_uint (p, rng_below (&ct->rng, 30000));
      p = put_lit (p, ",\"scriptId\":\"");
      p = put_uint (p, 10 + rng_below (&ct->rng, 400));
      p = put_lit (p, "\",\"url\":\"");
      p = put_str (p, chrome_urls[rng_below (&ct->rng, G_N_ELEMENTS (chrome_urls))]);
      return put_lit (p, "\"}}");
    case 1: /* a network request, with a nested initiator */
      p = put_lit (p, "{\"data\":{\"frame\":");
      p = chrome_put_frame (ct, p);
      p = put_lit (p, ",\"initiator\":{\"lineNumber\":");
      p = put_uint (p, rng_below (&ct->rng, 500));
      p = put_lit (p, ",\"type\":\"parser\",\"url\":\"https://example.com/\"},\"isLinkPreload\":false,\"priority\":\"");
      p = rng_below (&ct->rng, 2) ? put_lit (p, "High") : put_lit (p, "VeryLow");
      p = put_lit (p, "\",\"renderBlocking\":\"non_blocking\",\"requestId\":\"");
      p = put_uint (p, 1000 + rng_below (&ct->rng, 9000));
      *p++ = '.';
      p = put_uint (p, rng_below (&ct->rng, 1000));
      p = put_lit (p, "\",\"requestMethod\":\"GET\",\"url\":\"https://cdn.example.net/img/");
      p = put_uint (p, rng_below (&ct->rng, 100000));
      return put_lit (p, ".webp?w=640&h=480\"}}");
    case 2: /* a stack trace: an array of objects */
      {
        guint frames = 1 + rng_below (&ct->rng, 3);

        p = put_lit (p, "{\"beginData\":{\"frame\":");
        p = chrome_put_frame (ct, p);
        p = put_lit (p, ",\"stackTrace\":[");
        for (guint i = 0; i < frames; i++)
          {
            if (i > 0)
              *p++ = ',';
            p = chrome_put_stack_frame (ct, p);
          }
        p = put_lit (p, "]},\"elementCount\":");
        p = put_uint (p, rng_below (&ct->rng, 5000));
        return put_lit (p, "}");
      }
    case 3: /* a task's origin */
      {
        guint i = rng_below (&ct->rng, G_N_ELEMENTS (chrome_posted_from));

        p = put_lit (p, "{\"task\":{\"posted_from\":{\"file_name\":\"");
        p = put_str (p, chrome_posted_from[i][0]);
        p = put_lit (p, "\",\"function_name\":\"");
        p = put_str (p, chrome_posted_from[i][1]);
        return put_lit (p, "\"}}}");
      }
    case 4: /* numbers of every kind, null, escapes, an array of numbers */
      p = put_lit (p, "{\"delta\":-");
      p = put_uint (p, rng_below (&ct->rng, 1000));
      p = put_lit (p, ",\"path\":\"C:\\\\Program Files\\\\Example\\\\caf\\u00e9 \\\"v2\\\"\",\"ratio\":0.");
      p = put_uint_pad (p, rng_below (&ct->rng, 1000000), 6, '0');
      p = put_lit (p, ",\"scale\":1.5e-");
      p = put_uint (p, 1 + rng_below (&ct->rng, 9));
      p = put_lit (p, ",\"sizes\":[");
      p = put_uint (p, rng_below (&ct->rng, 4096));
      *p++ = ',';
      p = put_uint (p, rng_below (&ct->rng, 4096));
      *p++ = ',';
      p = put_uint (p, rng_below (&ct->rng, 4096));
      return put_lit (p, "],\"token\":null}");
    case 5:
    case 6: /* small, flat */
      p = put_lit (p, "{\"n\":");
      p = put_uint (p, rng_below (&ct->rng, 100));
      return put_lit (p, "}");
    default:
      return put_lit (p, "{}");
    }
}

/* '{"args":…,' (the caller puts what follows args, alphabetically). */
static inline char *
chrome_put_open (char *p)
{
  return put_lit (p, ",\n{");
}

/* '"cat":"…",' */
static inline char *
chrome_put_cat (char *p,
                guint cat)
{
  p = put_lit (p, "\"cat\":\"");
  p = put_str (p, chrome_categories[cat]);
  return put_lit (p, "\",");
}

static inline char *
chrome_put_name (char *p,
                 const ChromeTrace *ct,
                 guint name)
{
  p = put_lit (p, "\"name\":\"");
  p = put_mem (p, ct->names[name], ct->name_lens[name]);
  return put_lit (p, "\",");
}

/* '"ph":"B","pid":612,' */
static inline char *
chrome_put_ph_pid (char *p,
                   char ph,
                   const Thread *th)
{
  p = put_lit (p, "\"ph\":\"");
  *p++ = ph;
  p = put_lit (p, "\",\"pid\":");
  p = put_uint (p, (guint64) th->tgid);
  return put_lit (p, ",");
}

/* '"tid":…,"ts":…}' (no tts) */
static inline char *
chrome_put_tid_ts (char *p,
                   const Thread *th,
                   guint64 ts_us)
{
  p = put_lit (p, "\"tid\":");
  p = put_uint (p, (guint64) th->tid);
  p = put_lit (p, ",\"ts\":");
  p = put_uint (p, ts_us);
  *p++ = '}';
  return p;
}

static char *
chrome_put_end (char *p,
                const ChromeTrace *ct,
                const Thread *th,
                guint64 ts_us,
                guint8 slot)
{
  p = chrome_put_open (p);
  p = put_lit (p, "\"args\":{},");
  p = chrome_put_cat (p, slot >> 5);
  p = chrome_put_name (p, ct, slot & 31);
  p = chrome_put_ph_pid (p, 'E', th);
  return chrome_put_tid_ts (p, th, ts_us);
}

static inline gboolean
chrome_has_tts (int t)
{
  return t % 3 != 2;
}

static char *
chrome_slice (ChromeTrace *ct,
              char *p,
              Thread *th,
              gboolean want_begin)
{
  if (th->depth >= MAX_DEPTH)
    want_begin = FALSE;
  else if (th->depth == 0)
    want_begin = TRUE;

  if (want_begin)
    {
      guint name = rng_below (&ct->rng, N_SLICE_NAMES);
      guint cat = rng_below (&ct->rng, N_CHROME_CATEGORIES);
      guint8 slot = (guint8) (cat << 5 | name);

      th->stack[th->depth++] = slot;
      ct->open_slices++;
      p = chrome_put_open (p);
      p = chrome_put_args (ct, p);
      *p++ = ',';
      p = chrome_put_cat (p, cat);
      p = chrome_put_name (p, ct, name);
      p = chrome_put_ph_pid (p, 'B', th);
      return chrome_put_tid_ts (p, th, ct->ts_us);
    }
  th->depth--;
  ct->open_slices--;
  return chrome_put_end (p, ct, th, ct->ts_us, th->stack[th->depth]);
}

/* A complete leaf slice of 1 to 40 µs; with thread time on most threads,
 * and in one of four a v2 flow leaving or (when one is waiting) arriving.
 */
static char *
chrome_complete (ChromeTrace *ct,
                 char *p,
                 Thread *th)
{
  int t = (int) (th - ct->threads);
  guint dur = 1 + rng_below (&ct->rng, 40);
  guint flow = rng_below (&ct->rng, 8);
  guint64 bind = 0;
  gboolean out = FALSE;

  th->busy_until_us = ct->ts_us + dur + 1;
  if (flow == 0 && ct->n_v2_flows < CHROME_MAX_FLOWS)
    {
      bind = ++ct->next_flow_id;
      ct->v2_flows[ct->n_v2_flows++] = bind;
      out = TRUE;
    }
  else if (flow == 1 && ct->n_v2_flows > 0)
    {
      bind = ct->v2_flows[0];
      memmove (ct->v2_flows, ct->v2_flows + 1, --ct->n_v2_flows * sizeof ct->v2_flows[0]);
    }

  p = chrome_put_open (p);
  p = chrome_put_args (ct, p);
  *p++ = ',';
  if (bind)
    {
      p = put_lit (p, "\"bind_id\":");
      p = put_bind_id (p, bind);
      *p++ = ',';
    }
  p = chrome_put_cat (p, rng_below (&ct->rng, N_CHROME_CATEGORIES));
  p = put_lit (p, "\"dur\":");
  p = put_uint (p, dur);
  *p++ = ',';
  if (bind)
    p = out ? put_lit (p, "\"flow_out\":true,") : put_lit (p, "\"flow_in\":true,");
  p = chrome_put_name (p, ct, rng_below (&ct->rng, N_SLICE_NAMES));
  p = chrome_put_ph_pid (p, 'X', th);
  if (chrome_has_tts (t))
    {
      guint tdur = dur - rng_below (&ct->rng, dur);

      p = put_lit (p, "\"tdur\":");
      p = put_uint (p, tdur);
      p = put_lit (p, ",");
      p = chrome_put_tid_ts (p, th, ct->ts_us);
      p--; /* the '}' */
      p = put_lit (p, ",\"tts\":");
      p = put_uint (p, ct->tts_us[t]);
      *p++ = '}';
      ct->tts_us[t] += tdur + 1;
      return p;
    }
  return chrome_put_tid_ts (p, th, ct->ts_us);
}

static char *
chrome_counter (ChromeTrace *ct,
                char *p,
                const Thread *th)
{
  guint c = rng_below (&ct->rng, G_N_ELEMENTS (chrome_counters));

  p = chrome_put_open (p);
  if (c == 0)
    {
      p = put_lit (p, "\"args\":{\"jsHeapSizeTotal\":");
      p = put_uint (p, 8000000 + rng_below (&ct->rng, 8000000));
      p = put_lit (p, ",\"jsHeapSizeUsed\":");
      p = put_uint (p, 4000000 + rng_below (&ct->rng, 4000000));
      p = put_lit (p, "},");
    }
  else
    {
      p = put_lit (p, "\"args\":{\"value\":");
      p = put_uint (p, rng_below (&ct->rng, 100000));
      if (c == 2)
        {
          p = put_lit (p, ".");
          p = put_uint (p, rng_below (&ct->rng, 10));
        }
      p = put_lit (p, "},");
    }
  p = chrome_put_cat (p, c == 0 ? 6 : 0);
  p = put_lit (p, "\"name\":\"");
  p = put_str (p, chrome_counters[c]);
  p = put_lit (p, "\",");
  p = chrome_put_ph_pid (p, 'C', th);
  return chrome_put_tid_ts (p, th, ct->ts_us);
}

static char *
chrome_instant (ChromeTrace *ct,
                char *p,
                const Thread *th)
{
  p = chrome_put_open (p);
  p = chrome_put_args (ct, p);
  *p++ = ',';
  p = chrome_put_cat (p, rng_below (&ct->rng, N_CHROME_CATEGORIES));
  p = chrome_put_name (p, ct, rng_below (&ct->rng, N_SLICE_NAMES));
  p = chrome_put_ph_pid (p, 'I', th);
  p = put_lit (p, "\"s\":\"t\",");
  return chrome_put_tid_ts (p, th, ct->ts_us);
}

/* A v1 flow event ('s' or 'f'): bound to the slice open on @th. */
static char *
chrome_put_flow_v1 (char *p,
                    const Thread *th,
                    char ph,
                    guint64 id,
                    guint64 ts_us)
{
  p = chrome_put_open (p);
  p = put_lit (p, "\"args\":{},");
  if (ph == 'f')
    p = put_lit (p, "\"bp\":\"e\",");
  p = put_lit (p, "\"cat\":\"disabled-by-default-toplevel.flow\",\"id\":");
  p = put_flow_id (p, id);
  p = put_lit (p, ",\"name\":\"ThreadPool_PostTask\",");
  p = chrome_put_ph_pid (p, ph, th);
  return chrome_put_tid_ts (p, th, ts_us);
}

/* Starts a v1 flow, or ends the oldest; only inside an open slice, which
 * is what binds it (a B/E otherwise).
 */
static char *
chrome_flow (ChromeTrace *ct,
             char *p,
             Thread *th,
             gboolean want_start)
{
  guint64 id;

  if (th->depth == 0)
    return chrome_slice (ct, p, th, TRUE);
  if (ct->n_v1_flows == 0 || (want_start && ct->n_v1_flows < CHROME_MAX_FLOWS))
    {
      id = ++ct->next_flow_id;
      ct->v1_flows[ct->n_v1_flows++] = id;
      return chrome_put_flow_v1 (p, th, 's', id, ct->ts_us);
    }
  id = ct->v1_flows[0];
  memmove (ct->v1_flows, ct->v1_flows + 1, --ct->n_v1_flows * sizeof ct->v1_flows[0]);
  return chrome_put_flow_v1 (p, th, 'f', id, ct->ts_us);
}

/* One event: 40 % B/E, 30 % X, 12 % C, 8 % I, 10 % v1 flow steps; a
 * thread inside an X slice gets a counter instead.
 */
static char *
chrome_event (ChromeTrace *ct,
              char *p)
{
  guint r;
  Thread *th;

  ct->ts_us += 1 + rng_below (&ct->rng, 12);
  r = rng_below (&ct->rng, 100);
  th = &ct->threads[rng_below (&ct->rng, N_THREADS)];
  ct->events++;
  if (th->busy_until_us > ct->ts_us)
    r = 75;
  if (r < 40)
    return chrome_slice (ct, p, th, r < 20);
  if (r < 70)
    return chrome_complete (ct, p, th);
  if (r < 82)
    return chrome_counter (ct, p, th);
  if (r < 90)
    return chrome_instant (ct, p, th);
  return chrome_flow (ct, p, th, r < 95);
}

static char *
chrome_put_metadata (char *p,
                     const Thread *th,
                     const char *what,
                     const char *arg,
                     const char *str_value,
                     int int_value)
{
  p = put_lit (p, "{\"args\":{\"");
  p = put_str (p, arg);
  p = put_lit (p, "\":");
  if (str_value)
    {
      *p++ = '"';
      p = put_str (p, str_value);
      *p++ = '"';
    }
  else
    {
      if (int_value < 0)
        *p++ = '-';
      p = put_uint (p, (guint64) ABS (int_value));
    }
  p = put_lit (p, "},\"cat\":\"__metadata\",\"name\":\"");
  p = put_str (p, what);
  p = put_lit (p, "\",");
  p = chrome_put_ph_pid (p, 'M', th);
  return chrome_put_tid_ts (p, th, 0);
}

static void
chrome_write_metadata (ChromeTrace *ct,
                       Output *out)
{
  char *p = output_line_begin (out);

  output_line_end (out, put_lit (p, "{\"traceEvents\":["));
  for (int t = 0; t < N_THREADS; t++)
    {
      const Thread *th = &ct->threads[t];

      p = output_line_begin (out);
      *p++ = '\n';
      if (th->tid == th->tgid)
        {
          p = chrome_put_metadata (p, th, "process_name", "name", th->comm, 0);
          p = put_lit (p, ",\n");
          p = chrome_put_metadata (p, th, "process_sort_index", "sort_index", NULL, t / THREADS_PER_PROCESS - 2);
          p = put_lit (p, ",\n");
          ct->events += 2;
        }
      p = chrome_put_metadata (p, th, "thread_name", "name", th->comm, 0);
      p = put_lit (p, ",\n");
      p = chrome_put_metadata (p, th, "thread_sort_index", "sort_index", NULL, t % THREADS_PER_PROCESS);
      ct->events += 2;
      if (t + 1 < N_THREADS)
        *p++ = ',';
      output_line_end (out, p);
    }
}

static const char chrome_tail[] =
    "\n],\n\"metadata\":{\"command_line\":\"/opt/google/chrome/chrome --enable-tracing\","
    "\"cpu-brand\":\"AMD EPYC\",\"num-cpus\":8,\"os-name\":\"Linux\","
    "\"product-version\":\"Chrome/120.0.6099.109\",\"trace-config\":\"\","
    "\"trace-capture-datetime\":\"2026-11-25 12:00:00\"}}\n";

static void
chrome_close_all (ChromeTrace *ct,
                  Output *out)
{
  char *p;

  /* Past the end of any X slice still running. */
  ct->ts_us += 100;
  /* The v1 flows still open end in whatever slice is open. */
  for (int t = 0; t < N_THREADS && ct->n_v1_flows > 0; t++)
    {
      Thread *th = &ct->threads[t];

      while (th->depth > 0 && ct->n_v1_flows > 0)
        {
          p = output_line_begin (out);
          ct->ts_us++;
          ct->events++;
          p = chrome_put_flow_v1 (p, th, 'f', ct->v1_flows[--ct->n_v1_flows], ct->ts_us);
          output_line_end (out, p);
        }
    }
  for (int t = 0; t < N_THREADS; t++)
    {
      Thread *th = &ct->threads[t];

      while (th->depth > 0)
        {
          p = output_line_begin (out);
          ct->ts_us++;
          th->depth--;
          ct->events++;
          p = chrome_put_end (p, ct, th, ct->ts_us, th->stack[th->depth]);
          output_line_end (out, p);
        }
    }
  p = output_line_begin (out);
  output_line_end (out, put_lit (p, chrome_tail));
}

/* Returns the number of events written. */
static guint64
gen_chrome (Output *out,
            guint64 target,
            guint64 seed)
{
  g_autofree ChromeTrace *ct = g_new0 (ChromeTrace, 1);
  char *p;

  G_STATIC_ASSERT (N_SLICE_NAMES <= 32 && N_CHROME_CATEGORIES <= 8);
  rng_init (&ct->rng, seed);
  threads_init (ct->threads);
  for (guint i = 0; i < N_SLICE_NAMES; i++)
    {
      ct->names[i] = json_escape (slice_names[i]);
      ct->name_lens[i] = strlen (ct->names[i]);
    }
  for (int t = 0; t < N_THREADS; t++)
    ct->tts_us[t] = 1000 + (guint64) t * 12345;
  ct->ts_us = CHROME_START_US;

  chrome_write_metadata (ct, out);
  /* Room for the events that close what is open, and the tail. */
  while (out->total + (ct->open_slices + ct->n_v1_flows) * CHROME_CLOSE_LINE_MAX + LINE_MAX_BYTES + sizeof chrome_tail < target && !out->error)
    {
      p = output_line_begin (out);
      output_line_end (out, chrome_event (ct, p));
    }
  chrome_close_all (ct, out);
  for (guint i = 0; i < N_SLICE_NAMES; i++)
    g_free (ct->names[i]);
  return ct->events;
}

/* ------------------------------------------------------------------ main */

static double opt_mb = 200;
static gint64 opt_seed = 1;
static gboolean opt_waking;
static gboolean opt_version;

static const GOptionEntry entries[] = {
  { "mb", 0, 0, G_OPTION_ARG_DOUBLE, &opt_mb, "Output size in MiB (default 200)", "N" },
  { "seed", 0, 0, G_OPTION_ARG_INT64, &opt_seed, "PRNG seed (default 1)", "S" },
  { "waking", 0, 0, G_OPTION_ARG_NONE, &opt_waking, "systrace: sched_waking instead of sched_wakeup", NULL },
  { "version", 0, 0, G_OPTION_ARG_NONE, &opt_version, "Print the output format version and exit", NULL },
  G_OPTION_ENTRY_NULL
};

static gboolean
parse_args (int *argc,
            char ***argv,
            GError **error)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new ("systrace|json|chrome OUT");

  g_option_context_set_summary (ctx, "Writes a deterministic synthetic trace for the tracepipe benchmark.");
  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, argc, argv, error))
    return FALSE;
  if (opt_version)
    return TRUE;
  if (*argc != 3 || (strcmp ((*argv)[1], "systrace") != 0 && strcmp ((*argv)[1], "json") != 0 && strcmp ((*argv)[1], "chrome") != 0))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                   "expected \"systrace OUT\", \"json OUT\" or \"chrome OUT\"");
      return FALSE;
    }
  if (!(opt_mb > 0 && opt_mb <= 1024 * 1024))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--mb must be in (0, 1048576], not %g", opt_mb);
      return FALSE;
    }
  return TRUE;
}

int
main (int argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  Output out = { 0 };
  guint64 target, events;

  if (!parse_args (&argc, &argv, &error))
    {
      g_printerr ("gen-synth: %s\n", error->message);
      return 2;
    }
  if (opt_version)
    {
      g_print ("gen-synth %d\n", GEN_SYNTH_FORMAT_VERSION);
      return 0;
    }

  target = (guint64) (opt_mb * 1024 * 1024 + 0.5);
  if (!output_open (&out, argv[2], &error))
    {
      g_printerr ("gen-synth: %s\n", error->message);
      return 1;
    }
  if (strcmp (argv[1], "systrace") == 0)
    events = gen_systrace (&out, target, (guint64) opt_seed, opt_waking);
  else if (strcmp (argv[1], "json") == 0)
    events = gen_json (&out, target, (guint64) opt_seed);
  else
    events = gen_chrome (&out, target, (guint64) opt_seed);
  if (!output_close (&out, &error))
    {
      g_printerr ("gen-synth: %s\n", error->message);
      return 1;
    }
  g_printerr ("%s: %" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT " bytes\n",
              argv[2], events, out.total);
  return 0;
}
