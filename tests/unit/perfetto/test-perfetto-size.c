/* Unit test: output size of a systrace-like event stream, against the
 * size of the same events as systrace text (each event formatted here as
 * the ftrace line it would come from). Interning and the compact sched
 * form are what keep the file small. */
#include "perfetto-test-util.h"

#include <string.h>

#define N_EVENTS 200000
#define N_CPUS 4
#define N_THREADS 40
#define N_NAMES 300

typedef struct
{
  GRand *rand;
  TraceStringPool *pool;
  guint64 text_bytes;
  gint64 ts;
  gint32 running[N_CPUS];
  gint depth[N_THREADS + 1];
  char comm[N_THREADS + 1][16];
  guint32 comm_id[N_THREADS + 1];
  guint32 names[N_NAMES];
  guint32 counter_name;
} Gen;

static gint32
tgid_of (gint32 tid)
{
  return tid == 0 ? 0 : 1000 + (tid - 1) / 8 * 8 + 1;
}

/* The text line prefix: task-tid (tgid) [cpu] flags ts: */
static void
count_line (Gen *g,
            gint32 tid,
            gint32 cpu,
            const char *payload)
{
  char line[512];
  gint n = g_snprintf (line, sizeof line, "%16s-%-5d (%5d) [%03d] d..2 %" G_GINT64_FORMAT ".%06" G_GINT64_FORMAT ": %s\n",
                       g->comm[tid], tid, tgid_of (tid), cpu, g->ts / 1000000000, g->ts / 1000 % 1000000, payload);

  g->text_bytes += (guint64) n;
}

static TraceEvent *
add (Gen *g,
     TraceBatch *b,
     TraceEventKind kind,
     gint32 cpu)
{
  gint32 tid = g->running[cpu];
  TraceEvent *ev = trace_batch_append (b, kind, g->ts);

  ev->cpu = cpu;
  ev->tid = tid;
  ev->pid = tgid_of (tid);
  return ev;
}

static void
gen_switch (Gen *g,
            TraceBatch *b,
            gint32 cpu)
{
  static const char *states[] = { "R", "S", "D" };
  gint32 next = g_rand_int_range (g->rand, 0, N_THREADS + 1);
  gint state = g_rand_int_range (g->rand, 0, 3);
  TraceEvent *ev = add (g, b, TRACE_EVENT_SCHED_SWITCH, cpu);
  g_autofree char *text = NULL;

  ev->u.sched_switch.prev_tid = g->running[cpu];
  ev->u.sched_switch.prev_prio = 120;
  ev->u.sched_switch.prev_state = state;
  ev->u.sched_switch.prev_comm = g->comm_id[g->running[cpu]];
  ev->u.sched_switch.next_tid = next;
  ev->u.sched_switch.next_prio = 120;
  ev->u.sched_switch.next_comm = g->comm_id[next];
  text = g_strdup_printf ("sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> "
                          "next_comm=%s next_pid=%d next_prio=120",
                          g->comm[g->running[cpu]], g->running[cpu], states[state], g->comm[next], next);
  count_line (g, g->running[cpu], cpu, text);
  g->running[cpu] = next;
}

static void
gen_waking (Gen *g,
            TraceBatch *b,
            gint32 cpu)
{
  gint32 wakee = g_rand_int_range (g->rand, 1, N_THREADS + 1);
  TraceEvent *ev = add (g, b, TRACE_EVENT_SCHED_WAKING, cpu);
  g_autofree char *text = NULL;

  ev->u.wakeup.tid = wakee;
  ev->u.wakeup.prio = 120;
  ev->u.wakeup.target_cpu = wakee % N_CPUS;
  ev->u.wakeup.comm = g->comm_id[wakee];
  text = g_strdup_printf ("sched_waking: comm=%s pid=%d prio=120 target_cpu=%03d", g->comm[wakee], wakee,
                          wakee % N_CPUS);
  count_line (g, g->running[cpu], cpu, text);
}

typedef enum
{
  MARK_BEGIN,
  MARK_END,
  MARK_COUNTER,
} Mark;

/* An atrace marker of the running thread (an end only if a slice is
 * open, else a begin). */
static void
gen_marker (Gen *g,
            TraceBatch *b,
            gint32 cpu,
            Mark mark)
{
  gint32 tid = g->running[cpu];
  g_autofree char *text = NULL;
  TraceEvent *ev;

  if (tid == 0)
    return;
  if (mark == MARK_END && g->depth[tid] == 0)
    mark = MARK_BEGIN;
  switch (mark)
    {
    case MARK_BEGIN:
      ev = add (g, b, TRACE_EVENT_SLICE_BEGIN, cpu);
      ev->name = g->names[g_rand_int_range (g->rand, 0, N_NAMES)];
      g->depth[tid]++;
      text = g_strdup_printf ("tracing_mark_write: B|%d|%s", tgid_of (tid), trace_string_pool_get (g->pool, ev->name));
      break;
    case MARK_END:
      add (g, b, TRACE_EVENT_SLICE_END, cpu);
      g->depth[tid]--;
      text = g_strdup_printf ("tracing_mark_write: E|%d", tgid_of (tid));
      break;
    default:
      ev = add (g, b, TRACE_EVENT_COUNTER, cpu);
      ev->name = g->counter_name;
      ev->flags = TRACE_EVENT_FLAG_COUNTER_INT;
      ev->u.counter.value = g_rand_int_range (g->rand, 0, 100000);
      text = g_strdup_printf ("tracing_mark_write: C|%d|aq:pending:queue|%d", tgid_of (tid),
                              (gint) ev->u.counter.value);
      break;
    }
  count_line (g, tid, cpu, text);
}

static void
gen_event (Gen *g,
           TraceBatch *b)
{
  gint32 cpu = g_rand_int_range (g->rand, 0, N_CPUS);
  guint r = (guint) g_rand_int_range (g->rand, 0, 100);

  g->ts += g_rand_int_range (g->rand, 1, 50) * 1000;
  if (r < 30)
    gen_switch (g, b, cpu);
  else if (r < 45)
    gen_waking (g, b, cpu);
  else if (r < 98)
    gen_marker (g, b, cpu, r < 70 ? MARK_BEGIN : r < 95 ? MARK_END
                                                        : MARK_COUNTER);
  else
    {
      TraceEvent *ev = add (g, b, TRACE_EVENT_CPU_FREQUENCY, cpu);
      g_autofree char *text = NULL;

      ev->u.cpu.cpu_id = cpu;
      ev->u.cpu.state = 300000 + 100000 * g_rand_int_range (g->rand, 0, 20);
      text = g_strdup_printf ("cpu_frequency: state=%" G_GINT64_FORMAT " cpu_id=%d", ev->u.cpu.state, cpu);
      count_line (g, g->running[cpu], cpu, text);
    }
}

static void
gen_init (Gen *g,
          TraceStringPool *pool)
{
  static const char *words[] = { "Choreographer#doFrame", "traversal", "measure", "layout", "draw",
                                 "RV OnBindView", "inflate", "binder transaction", "Lock contention on",
                                 "queueBuffer", "dequeueBuffer", "HIDL::IComposer::executeCommands" };

  memset (g, 0, sizeof *g);
  g->rand = g_rand_new_with_seed (42);
  g->pool = pool;
  g->ts = G_GINT64_CONSTANT (683201000000000);
  g_strlcpy (g->comm[0], "<idle>", sizeof g->comm[0]);
  for (gint t = 1; t <= N_THREADS; t++)
    g_snprintf (g->comm[t], sizeof g->comm[t], t % 8 == 1 ? "ndroid.systemui" : "RenderThread-%d", t);
  for (gint t = 0; t <= N_THREADS; t++)
    g->comm_id[t] = trace_string_pool_intern (pool, g->comm[t]);
  for (gint i = 0; i < N_NAMES; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s %d", words[i % G_N_ELEMENTS (words)], i);

      g->names[i] = trace_string_pool_intern (pool, name);
    }
  g->counter_name = trace_string_pool_intern (pool, "aq:pending:queue");
}

static void
test_systrace_like (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GPtrArray) batches = g_ptr_array_new_with_free_func ((GDestroyNotify) trace_batch_unref);
  g_autoptr (GBytes) bytes = NULL;
  PerfettoWriterStats ws;
  guint64 events = 0;
  Gen g;
  double per_event, ratio;

  gen_init (&g, pool);
  while (events < N_EVENTS)
    {
      TraceBatch *b = trace_batch_new (pool, 0);

      while (b->n_events < TRACE_BATCH_DEFAULT_SIZE)
        gen_event (&g, b);
      events += b->n_events;
      g_ptr_array_add (batches, b);
    }
  g_rand_free (g.rand);
  bytes = pt_write ((TraceBatch **) batches->pdata, batches->len, NULL, &ws);
  per_event = (double) g_bytes_get_size (bytes) / (double) events;
  ratio = (double) g_bytes_get_size (bytes) / (double) g.text_bytes;
  g_test_message ("%" G_GUINT64_FORMAT " events: %" G_GSIZE_FORMAT " bytes, %.1f bytes/event; "
                  "as systrace text %" G_GUINT64_FORMAT " bytes (%.1f bytes/line): %.1f %% of the text; "
                  "%" G_GUINT64_FORMAT " compact sched events",
                  events, g_bytes_get_size (bytes), per_event, g.text_bytes,
                  (double) g.text_bytes / (double) events, 100 * ratio, ws.compact_sched);
  g_assert_cmpuint (ws.events_in, ==, events);
  /* The issue's bar: well under a quarter of the text. */
  g_assert_cmpfloat (ratio, <, 0.25);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perfetto/size/systrace-like", test_systrace_like);
  return g_test_run ();
}
