/* tracepipe - tracefs-src: a reader thread per cpu
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each cpu's ring buffer is read by a thread of its own, so the pipeline's
 * thread never waits in read(2). A thread wakes when its buffer is part
 * full (the buffer's buffer_percent, through poll) or every
 * POLL_INTERVAL_MS, reads every page there is without blocking, and queues
 * the pages for the source. Before each pass it reads the cpu's `stats`:
 * their `now ts` is the buffer's clock, so once the pass has read to the
 * end, every event of that cpu up to then is queued. That is the cpu's
 * watermark, which lets the source merge the cpus in time order without
 * waiting for a cpu that records nothing.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "tracefs-private.h"

/* How long a reader sleeps when its cpu records little: the longest an
 * event waits before the source sees it, and a stop is answered within. */
#define POLL_INTERVAL_MS 100

/* How long a reader whose queue is full waits before it looks again */
#define FULL_QUEUE_WAIT_MS 10

/* An event reserved just before a pass can be committed after it; it is
 * never older than this (the ring buffer writes with preemption off). */
#define WATERMARK_SLACK_NS 1000000

/* The pages queued for the source, at most: a source slower than the
 * kernel then leaves them in the ring buffer, where overruns are counted. */
#define MAX_QUEUED_BYTES (16 * 1024 * 1024)

typedef struct
{
  CaptureReaders *owner;
  guint cpu;
  int fd;
  struct tracefs_cpu *tcpu;
  char *stats_file;
  GThread *thread;
  guint8 *page; /* the read buffer */

  /* under owner->lock */
  GQueue pages;
  gsize queued;
  guint64 watermark;
  gboolean have_stats;
  CaptureCpuStats first, last;
} CaptureCpu;

struct _CaptureReaders
{
  CaptureCpu *cpus;
  guint n_cpus;
  int subbuf_size;
  gsize max_queued; /* per cpu */
  gboolean counter_clock;
  GMutex lock;
  GCancellable *stop;
  GMainContext *context;
  gint news;
};

/**
 * capture_parse_cpu_stats:
 * @text: a `per_cpu/cpuN/stats` file
 * @stats: (out): its counters
 *
 * Returns: whether @text had them
 */
gboolean
capture_parse_cpu_stats (const char *text,
                         CaptureCpuStats *stats)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint found = 0;

  memset (stats, 0, sizeof *stats);
  for (guint i = 0; lines[i]; i++)
    {
      char *colon = strchr (lines[i], ':');
      const char *value;
      char *dot;

      if (colon == NULL)
        continue;
      *colon = '\0';
      value = g_strchug (colon + 1);
      if (strcmp (lines[i], "overrun") == 0)
        stats->overrun = g_ascii_strtoull (value, NULL, 10), found++;
      else if (strcmp (lines[i], "dropped events") == 0)
        stats->dropped = g_ascii_strtoull (value, NULL, 10);
      else if (strcmp (lines[i], "commit overrun") == 0)
        stats->commit_overrun = g_ascii_strtoull (value, NULL, 10);
      else if (strcmp (lines[i], "now ts") == 0)
        {
          /* `seconds.micros` for the clocks in ns, a count for the others */
          stats->now = g_ascii_strtoull (value, &dot, 10);
          if (*dot == '.')
            stats->now = stats->now * G_GUINT64_CONSTANT (1000000000) + g_ascii_strtoull (dot + 1, NULL, 10) * 1000;
          found++;
        }
    }
  return found == 2;
}

static gboolean
read_stats (CaptureCpu *c,
            CaptureCpuStats *stats)
{
  g_autofree char *text = NULL;

  return g_file_get_contents (c->stats_file, &text, NULL, NULL) && capture_parse_cpu_stats (text, stats);
}

static void
queue_page (CaptureCpu *c,
            int size)
{
  CaptureReaders *r = c->owner;
  CapturePage *page = g_malloc (sizeof (CapturePage) + r->subbuf_size);

  page->size = r->subbuf_size;
  memcpy (page->data, c->page, size);
  memset (page->data + size, 0, r->subbuf_size - size);
  g_mutex_lock (&r->lock);
  g_queue_push_tail (&c->pages, page);
  c->queued += r->subbuf_size;
  g_mutex_unlock (&r->lock);
}

/* Reads every page there is; FALSE when it stopped early, the queue full.
 * The last pass reads to the end whatever the queue holds: tracing is off,
 * so the ring buffer bounds it. */
static gboolean
read_all (CaptureCpu *c,
          gboolean last)
{
  CaptureReaders *r = c->owner;

  for (;;)
    {
      gsize queued;
      int n;

      g_mutex_lock (&r->lock);
      queued = c->queued;
      g_mutex_unlock (&r->lock);
      if (queued >= r->max_queued && !last)
        return FALSE;
      n = tracefs_cpu_read (c->tcpu, c->page, true);
      if (n <= 0)
        return TRUE; /* no more (or the cpu went offline) */
      queue_page (c, MIN (n, r->subbuf_size));
    }
}

static void
publish (CaptureCpu *c,
         const CaptureCpuStats *stats,
         gboolean read_to_end)
{
  CaptureReaders *r = c->owner;
  guint64 slack = r->counter_clock ? 0 : WATERMARK_SLACK_NS;

  g_mutex_lock (&r->lock);
  if (!c->have_stats)
    c->first = *stats;
  c->have_stats = TRUE;
  c->last = *stats;
  if (read_to_end && stats->now > slack)
    c->watermark = MAX (c->watermark, stats->now - slack);
  g_mutex_unlock (&r->lock);
  g_atomic_int_set (&r->news, 1);
  g_main_context_wakeup (r->context);
}

static gpointer
read_cpu (gpointer data)
{
  CaptureCpu *c = data;
  CaptureReaders *r = c->owner;
  GPollFD fds[2] = { { c->fd, G_IO_IN, 0 } };
  guint n_fds = g_cancellable_make_pollfd (r->stop, &fds[1]) ? 2 : 1;

  for (;;)
    {
      /* tracing is off once the stop is asked: this pass is the last */
      gboolean last = g_cancellable_is_cancelled (r->stop);
      CaptureCpuStats stats;
      gboolean have = read_stats (c, &stats);
      gboolean to_end = read_all (c, last);

      if (have)
        publish (c, &stats, to_end);
      if (last)
        break;
      if (to_end)
        g_poll (fds, n_fds, POLL_INTERVAL_MS);
      else /* the queue is full and the buffer ready: wait for the source, not for the buffer */
        g_poll (fds + 1, n_fds - 1, FULL_QUEUE_WAIT_MS);
    }
  if (n_fds == 2)
    g_cancellable_release_fd (r->stop);
  return NULL;
}

static int
subbuf_size (struct tracefs_instance *instance)
{
  long long kb = 0;

  /* kernels that let the sub-buffer size be set say it here */
  if (tracefs_instance_file_read_number (instance, "buffer_subbuf_size_kb", &kb) == 0 && kb > 0)
    return (int) (kb * 1024);
  return getpagesize ();
}

static gboolean
open_cpu (CaptureReaders *r,
          struct tracefs_instance *instance,
          guint cpu,
          GError **error)
{
  CaptureCpu *c = &r->cpus[cpu];
  g_autofree char *pipe = g_strdup_printf ("per_cpu/cpu%u/trace_pipe_raw", cpu);
  g_autofree char *stats = g_strdup_printf ("per_cpu/cpu%u/stats", cpu);
  char *path = tracefs_instance_get_file (instance, stats);

  c->owner = r;
  c->cpu = cpu;
  c->stats_file = g_strdup (path);
  tracefs_put_tracing_file (path);
  if (!g_file_test (c->stats_file, G_FILE_TEST_EXISTS))
    {
      /* a cpu the kernel has no buffer for records nothing */
      c->watermark = G_MAXUINT64;
      return TRUE;
    }
  c->fd = tracefs_instance_file_open (instance, pipe, O_RDONLY | O_NONBLOCK);
  if (c->fd < 0)
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_OPEN_READ, "%s: %s", pipe,
                   g_strerror (errno));
      return FALSE;
    }
  c->tcpu = tracefs_cpu_alloc_fd (c->fd, r->subbuf_size, true);
  c->page = g_malloc (r->subbuf_size);
  return c->tcpu != NULL;
}

/**
 * capture_readers_new:
 * @instance: (nullable): the buffer, %NULL for the top-level one
 * @context: the context to wake when pages are queued
 * @error: which cpu's buffer could not be opened
 *
 * Opens every cpu's raw buffer; no thread runs yet.
 *
 * Returns: (transfer full) (nullable): the readers
 */
CaptureReaders *
capture_readers_new (struct tracefs_instance *instance,
                     GMainContext *context,
                     GError **error)
{
  g_autoptr (CaptureReaders) r = g_new0 (CaptureReaders, 1);
  char *clock = tracefs_get_clock (instance); /* malloc'd by libtracefs */

  r->n_cpus = (guint) MAX (1, sysconf (_SC_NPROCESSORS_CONF));
  r->cpus = g_new0 (CaptureCpu, r->n_cpus);
  for (guint i = 0; i < r->n_cpus; i++)
    r->cpus[i].fd = -1;
  r->subbuf_size = subbuf_size (instance);
  r->max_queued = MAX (MAX_QUEUED_BYTES / r->n_cpus, 1024 * 1024);
  r->counter_clock = clock && (strcmp (clock, "counter") == 0 || strcmp (clock, "x86-tsc") == 0);
  free (clock);
  g_mutex_init (&r->lock);
  r->stop = g_cancellable_new ();
  r->context = g_main_context_ref (context);
  for (guint cpu = 0; cpu < r->n_cpus; cpu++)
    if (!open_cpu (r, instance, cpu, error))
      return NULL;
  return g_steal_pointer (&r);
}

guint
capture_readers_get_n_cpus (CaptureReaders *readers)
{
  return readers->n_cpus;
}

/**
 * capture_readers_start:
 * @readers: the readers
 * @error: why a thread could not start
 *
 * Starts a thread per cpu. Call it before tracing is turned on: the
 * events lost are counted from the ring buffer's counters read here.
 *
 * Returns: whether every cpu is being read
 */
gboolean
capture_readers_start (CaptureReaders *readers,
                       GError **error)
{
  for (guint cpu = 0; cpu < readers->n_cpus; cpu++)
    {
      g_autofree char *name = g_strdup_printf ("tracefs-cpu%u", cpu);
      CaptureCpu *c = &readers->cpus[cpu];

      if (c->fd < 0)
        continue;
      /* The counters the losses are counted from, read before tracing is
       * on: a thread's first pass may come after the buffer has already
       * overrun, and those losses would go uncounted. */
      c->have_stats = read_stats (c, &c->first);
      c->last = c->first;
      readers->cpus[cpu].thread = g_thread_try_new (name, read_cpu, &readers->cpus[cpu], error);
      if (readers->cpus[cpu].thread == NULL)
        return FALSE;
    }
  return TRUE;
}

/**
 * capture_readers_stop:
 * @readers: the readers
 *
 * Each thread makes one last pass and ends; waits for them. Turn tracing
 * off first, so that the last pass reads to the end of the buffer.
 */
void
capture_readers_stop (CaptureReaders *readers)
{
  g_cancellable_cancel (readers->stop);
  for (guint cpu = 0; cpu < readers->n_cpus; cpu++)
    if (readers->cpus[cpu].thread)
      g_clear_pointer (&readers->cpus[cpu].thread, g_thread_join);
}

/**
 * capture_readers_take:
 * @readers: the readers
 * @cpu: which cpu
 * @pages: (element-type CapturePage): receives the pages queued, in order
 * @watermark: (out): every event of @cpu up to this time is in the pages
 *   taken so far
 *
 * Returns: whether any page was taken
 */
gboolean
capture_readers_take (CaptureReaders *readers,
                      guint cpu,
                      GQueue *pages,
                      guint64 *watermark)
{
  CaptureCpu *c = &readers->cpus[cpu];
  gboolean any;

  g_mutex_lock (&readers->lock);
  any = c->pages.length > 0;
  while (c->pages.length > 0)
    g_queue_push_tail (pages, g_queue_pop_head (&c->pages));
  c->queued = 0;
  *watermark = c->watermark;
  g_mutex_unlock (&readers->lock);
  return any;
}

/**
 * capture_readers_has_news:
 * @readers: the readers
 *
 * Returns: whether a reader queued pages or moved its watermark since
 *   the last call
 */
gboolean
capture_readers_has_news (CaptureReaders *readers)
{
  return g_atomic_int_exchange (&readers->news, 0) != 0;
}

/**
 * capture_readers_get_lost:
 * @readers: the readers
 * @cpu: which cpu
 *
 * Returns: the events @cpu's ring buffer lost (overwritten, dropped or
 *   lost in a nested write) since the readers started
 */
guint64
capture_readers_get_lost (CaptureReaders *readers,
                          guint cpu)
{
  CaptureCpu *c = &readers->cpus[cpu];
  guint64 lost;

  g_mutex_lock (&readers->lock);
  lost = (c->last.overrun - c->first.overrun) + (c->last.dropped - c->first.dropped) +
         (c->last.commit_overrun - c->first.commit_overrun);
  g_mutex_unlock (&readers->lock);
  return lost;
}

void
capture_readers_free (CaptureReaders *readers)
{
  if (readers == NULL)
    return;
  capture_readers_stop (readers);
  for (guint cpu = 0; cpu < readers->n_cpus; cpu++)
    {
      CaptureCpu *c = &readers->cpus[cpu];

      g_queue_clear_full (&c->pages, g_free);
      if (c->tcpu)
        tracefs_cpu_free_fd (c->tcpu);
      if (c->fd >= 0)
        close (c->fd);
      g_free (c->stats_file);
      g_free (c->page);
    }
  g_free (readers->cpus);
  g_mutex_clear (&readers->lock);
  g_clear_object (&readers->stop);
  if (readers->context)
    g_main_context_unref (readers->context);
  g_free (readers);
}
