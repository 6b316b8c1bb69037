/* tracepipe - fakesrc: a synthetic event stream
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "tracecoreelements.h"

#define DEFAULT_NUM_EVENTS 100000
#define DEFAULT_BATCH_SIZE TRACE_BATCH_DEFAULT_SIZE
#define DEFAULT_PROCESSES 2
#define DEFAULT_THREADS 4
#define DEFAULT_KINDS \
  (TRACE_EVENT_GROUP_SLICES | TRACE_EVENT_GROUP_COUNTERS | TRACE_EVENT_GROUP_SCHED | TRACE_EVENT_GROUP_METADATA)
#define MAX_DEPTH 4

/**
 * TraceFakeSrc:
 *
 * Generates a deterministic event stream: process and thread names
 * first, then, thread after thread, properly nested slices, counters and
 * scheduling records, 1 µs apart. For tests, samples and benchmarks.
 */
struct _TraceFakeSrc
{
  TraceBaseSrc parent_instance;

  gint64 num_events;
  guint batch_size;
  guint processes;
  guint threads;
  guint kinds;

  /* generation state */
  gint64 produced;
  gint64 ts;
  guint cursor;
  guint8 *depth; /* per thread */
  guint32 names[8];
  guint32 counter_name;
  gboolean sent_metadata;
};

enum
{
  PROP_0,
  PROP_NUM_EVENTS,
  PROP_BATCH_SIZE,
  PROP_PROCESSES,
  PROP_THREADS,
  PROP_KINDS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TraceFakeSrc, trace_fake_src, TRACE_TYPE_BASE_SRC)

static gint64
pid_of (TraceFakeSrc *self,
        guint thread)
{
  return 1000 + (thread / self->threads) * 100;
}

static gint64
tid_of (TraceFakeSrc *self,
        guint thread)
{
  return pid_of (self, thread) + thread % self->threads;
}

static void
add_metadata (TraceFakeSrc *self,
              TraceBatch *batch)
{
  TraceStringPool *pool = batch->pool;

  for (guint t = 0; t < self->processes * self->threads; t++)
    {
      char name[64];
      TraceEvent *ev;

      if (t % self->threads == 0)
        {
          ev = trace_batch_append (batch, TRACE_EVENT_PROCESS_NAME, 0);
          ev->pid = pid_of (self, t);
          g_snprintf (name, sizeof name, "process-%u", t / self->threads);
          ev->name = trace_string_pool_intern (pool, name);
        }
      ev = trace_batch_append (batch, TRACE_EVENT_THREAD_NAME, 0);
      ev->pid = pid_of (self, t);
      ev->tid = tid_of (self, t);
      g_snprintf (name, sizeof name, "thread-%u", t);
      ev->name = trace_string_pool_intern (pool, name);
    }
}

/* One event for thread @t, chosen by the kinds asked for. */
static void
add_event (TraceFakeSrc *self,
           TraceBatch *batch,
           guint t)
{
  guint step = (guint) (self->produced % 8);
  TraceEvent *ev;

  if ((self->kinds & TRACE_EVENT_GROUP_SCHED) && step == 7)
    {
      ev = trace_batch_append (batch, TRACE_EVENT_SCHED_SWITCH, self->ts);
      ev->cpu = t % 4;
      ev->tid = tid_of (self, t);
      ev->pid = pid_of (self, t);
      ev->u.sched_switch.prev_tid = ev->tid;
      ev->u.sched_switch.next_tid = tid_of (self, (t + 1) % (self->processes * self->threads));
      ev->u.sched_switch.prev_state = TRACE_TASK_STATE_INTERRUPTIBLE;
      ev->u.sched_switch.prev_prio = ev->u.sched_switch.next_prio = 120;
    }
  else if ((self->kinds & TRACE_EVENT_GROUP_COUNTERS) && step == 6)
    {
      ev = trace_batch_append (batch, TRACE_EVENT_COUNTER, self->ts);
      ev->pid = pid_of (self, t);
      ev->name = self->counter_name;
      ev->flags = TRACE_EVENT_FLAG_COUNTER_INT;
      ev->u.counter.value = (double) (self->produced % 1000);
    }
  else
    {
      gboolean begin = self->depth[t] == 0 || (self->depth[t] < MAX_DEPTH && (self->produced / 3) % 2 == 0);

      ev = trace_batch_append (batch, begin ? TRACE_EVENT_SLICE_BEGIN : TRACE_EVENT_SLICE_END, self->ts);
      ev->pid = pid_of (self, t);
      ev->tid = tid_of (self, t);
      if (begin)
        ev->name = self->names[(self->produced + self->depth[t]) % G_N_ELEMENTS (self->names)];
      self->depth[t] += begin ? 1 : -1;
    }
}

static void
close_open_slices (TraceFakeSrc *self,
                   TraceBatch *batch)
{
  for (guint t = 0; t < self->processes * self->threads; t++)
    while (self->depth[t] > 0)
      {
        TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_SLICE_END, self->ts);
        ev->pid = pid_of (self, t);
        ev->tid = tid_of (self, t);
        self->depth[t]--;
      }
}

static TraceFlowReturn
trace_fake_src_create (TraceBaseSrc *src,
                       TraceBatch **out,
                       GError **error)
{
  TraceFakeSrc *self = TRACE_FAKE_SRC (src);
  guint n_threads = self->processes * self->threads;
  TraceBatch *batch;

  if (self->num_events >= 0 && self->produced >= self->num_events)
    return TRACE_FLOW_EOS;
  batch = trace_batch_new (trace_element_get_string_pool (TRACE_ELEMENT (src)), self->batch_size + 64);
  if (!self->sent_metadata)
    {
      if (self->kinds & TRACE_EVENT_GROUP_METADATA)
        add_metadata (self, batch);
      self->sent_metadata = TRUE;
    }
  while (batch->n_events < self->batch_size &&
         (self->num_events < 0 || self->produced < self->num_events))
    {
      add_event (self, batch, self->cursor);
      self->cursor = (self->cursor + 1) % n_threads;
      self->produced++;
      self->ts += 1000;
    }
  if (self->num_events >= 0 && self->produced >= self->num_events)
    close_open_slices (self, batch);
  *out = batch;
  return TRACE_FLOW_OK;
}

static gboolean
trace_fake_src_start (TraceBaseSrc *src,
                      GError **error)
{
  TraceFakeSrc *self = TRACE_FAKE_SRC (src);
  TraceStringPool *pool = trace_element_get_string_pool (TRACE_ELEMENT (src));

  self->produced = 0;
  self->ts = 1000000;
  self->cursor = 0;
  self->sent_metadata = FALSE;
  g_free (self->depth);
  self->depth = g_new0 (guint8, self->processes * self->threads);
  for (guint i = 0; i < G_N_ELEMENTS (self->names); i++)
    {
      char name[32];
      g_snprintf (name, sizeof name, "slice-%u", i);
      self->names[i] = trace_string_pool_intern (pool, name);
    }
  self->counter_name = trace_string_pool_intern (pool, "fake-counter");
  trace_base_src_set_stream_info (src, "fake", NULL, TRACE_CLOCK_BOOTTIME, "default");
  return TRUE;
}

static void
trace_fake_src_set_property (GObject *object,
                             guint prop_id,
                             const GValue *value,
                             GParamSpec *pspec)
{
  TraceFakeSrc *self = TRACE_FAKE_SRC (object);

  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_NUM_EVENTS:
      self->num_events = g_value_get_int64 (value);
      break;
    case PROP_BATCH_SIZE:
      self->batch_size = g_value_get_uint (value);
      break;
    case PROP_PROCESSES:
      self->processes = g_value_get_uint (value);
      break;
    case PROP_THREADS:
      self->threads = g_value_get_uint (value);
      break;
    case PROP_KINDS:
      self->kinds = g_value_get_flags (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_fake_src_get_property (GObject *object,
                             guint prop_id,
                             GValue *value,
                             GParamSpec *pspec)
{
  TraceFakeSrc *self = TRACE_FAKE_SRC (object);

  switch (prop_id)
    {
    case PROP_NUM_EVENTS:
      g_value_set_int64 (value, self->num_events);
      break;
    case PROP_BATCH_SIZE:
      g_value_set_uint (value, self->batch_size);
      break;
    case PROP_PROCESSES:
      g_value_set_uint (value, self->processes);
      break;
    case PROP_THREADS:
      g_value_set_uint (value, self->threads);
      break;
    case PROP_KINDS:
      g_value_set_flags (value, self->kinds);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_fake_src_finalize (GObject *object)
{
  g_free (TRACE_FAKE_SRC (object)->depth);
  G_OBJECT_CLASS (trace_fake_src_parent_class)->finalize (object);
}

static void
trace_fake_src_class_init (TraceFakeSrcClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceBaseSrcClass *src_class = TRACE_BASE_SRC_CLASS (klass);

  object_class->set_property = trace_fake_src_set_property;
  object_class->get_property = trace_fake_src_get_property;
  object_class->finalize = trace_fake_src_finalize;
  src_class->start = trace_fake_src_start;
  src_class->create = trace_fake_src_create;

  /* Fixed once the element starts: processes and threads size the
   * generator's state, kinds decides its metadata.  num-events and
   * batch-size are read at each batch, but trace-inspect has always shown
   * them as fixed (tests/tools/test-inspect.c checks it), so they stay so. */
  properties[PROP_NUM_EVENTS] =
      g_param_spec_int64 ("num-events", "Number of events", "Events to generate (-1 for no end)",
                          -1, G_MAXINT64, DEFAULT_NUM_EVENTS,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  properties[PROP_BATCH_SIZE] =
      g_param_spec_uint ("batch-size", "Batch size", "Events per batch",
                         1, 1 << 20, DEFAULT_BATCH_SIZE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROCESSES] =
      g_param_spec_uint ("processes", "Processes", "How many processes the events belong to",
                         1, 1000, DEFAULT_PROCESSES, G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  properties[PROP_THREADS] =
      g_param_spec_uint ("threads", "Threads", "Threads per process (the first is the main thread)",
                         1, 99, DEFAULT_THREADS, G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  properties[PROP_KINDS] =
      g_param_spec_flags ("kinds", "Kinds", "Which kinds of events to generate",
                          TRACE_TYPE_EVENT_GROUP, DEFAULT_KINDS,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Fake source", "Source/Trace",
                                    "Generates a synthetic event stream", "tracepipe");
}

static void
trace_fake_src_init (TraceFakeSrc *self)
{
  /* G_PARAM_CONSTRUCT sets them again right after, with the same values */
  self->num_events = DEFAULT_NUM_EVENTS;
  self->batch_size = DEFAULT_BATCH_SIZE;
  self->processes = DEFAULT_PROCESSES;
  self->threads = DEFAULT_THREADS;
  self->kinds = DEFAULT_KINDS;
}
