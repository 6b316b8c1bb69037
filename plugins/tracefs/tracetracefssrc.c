/* tracepipe - tracefs-src: live capture from the kernel's tracefs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "kernel-engine.h"
#include "tracefs-private.h"

/**
 * TraceTracefsSrc:
 *
 * Captures kernel events live from tracefs: enables #TraceTracefsSrc:events
 * in the buffer, reads every cpu's raw ring buffer on threads of its own,
 * merges the cpus in time order and parses each record with
 * libtraceevent. It runs for #TraceTracefsSrc:duration, or until EOS (the
 * first Ctrl-C of `trace-launch`), then puts back what it changed in the
 * buffer (events enabled, tracing_on, clock, size). Events the ring
 * buffer lost are counted and reported in a WARNING.
 *
 * ```
 * trace-launch tracefs-src events=sched,ftrace/print duration=10s ! perfetto-sink location=out.pftrace
 * ```
 */
struct _TraceTracefsSrc
{
  TraceBaseSrc parent_instance;

  /* properties */
  char *events;
  gint64 duration;
  CaptureSettings settings;

  /* the capture */
  GPtrArray *event_list; /* CaptureEvent */
  char *location;
  struct tep_handle *tep;
  CaptureState *state;
  CaptureReaders *readers;
  CaptureMerge *merge;
  FtraceParser *parser;
  KernelEngine *engine; /* the records into events */
  GHashTable *wanted;   /* event id -> 1: asked for, 2: not */
  gboolean recording;
  gint64 started_us;
  gint eos_asked;
  TraceBatch *batch; /* being filled by the records */

  /* counters */
  guint64 records;
  guint64 unwanted;
  guint64 lost;
};

enum
{
  PROP_0,
  PROP_EVENTS,
  PROP_DURATION,
  PROP_BUFFER_SIZE,
  PROP_INSTANCE,
  PROP_CLOCK,
  N_PROPS
};

#define DEFAULT_EVENTS                                                                                              \
  "sched/sched_switch,sched/sched_waking,sched/sched_wakeup_new,sched/sched_process_exit,sched/sched_process_free," \
  "task/task_newtask,task/task_rename,ftrace/print"
#define DEFAULT_DURATION 0
#define DEFAULT_BUFFER_SIZE 0
#define DEFAULT_INSTANCE NULL
#define DEFAULT_CLOCK "boot"

/* How long create waits for records before it lets the main loop run */
#define WAIT_MS 100

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TraceTracefsSrc, trace_tracefs_src, TRACE_TYPE_BASE_SRC)

/* Whether the events= list asks for the records of @id: decided once per
 * id (a hash lookup a record instead of comparing names). */
static gboolean
wanted (TraceTracefsSrc *self,
        int id)
{
  gpointer known = g_hash_table_lookup (self->wanted, GINT_TO_POINTER (id));
  struct tep_event *event;
  gboolean want;

  if (known)
    return GPOINTER_TO_INT (known) == 1;
  event = tep_find_event (self->tep, id);
  /* an id without a format goes to the engine, which counts it */
  want = event == NULL || capture_events_want (self->event_list, event->system, event->name);
  g_hash_table_insert (self->wanted, GINT_TO_POINTER (id), GINT_TO_POINTER (want ? 1 : 2));
  return want;
}

/* One record, in time order: the events it holds go into self->batch. */
static void
add_record (struct tep_record *record,
            gpointer user_data)
{
  TraceTracefsSrc *self = user_data;

  self->records++;
  if (!wanted (self, tep_data_type (self->tep, record)))
    {
      /* enabled by someone else in the buffer, or a marker not asked for */
      self->unwanted++;
      return;
    }
  kernel_engine_add_record (self->engine, record, record->cpu, self->batch);
}

/* Moves the readers' pages to the merge, for each cpu whose pages the
 * merge has read: memory stays bounded by the readers' queues while the
 * pipeline is slower than the kernel (the ring buffer then overruns, and
 * the loss is counted). A cpu's watermark comes with its pages. */
static gboolean
take_pages (TraceTracefsSrc *self)
{
  GQueue pages = G_QUEUE_INIT;
  gboolean more = FALSE; /* pages taken, or left for later */

  for (guint cpu = 0; cpu < capture_readers_get_n_cpus (self->readers); cpu++)
    {
      guint64 watermark = 0;

      if (capture_merge_get_n_pending (self->merge, cpu) > 0)
        {
          more = TRUE;
          continue;
        }
      if (capture_readers_take (self->readers, cpu, &pages, &watermark))
        more = TRUE;
      capture_merge_add_pages (self->merge, cpu, &pages, watermark);
    }
  return more;
}

/* At most a batch's size of records into @batch, those no cpu can bring
 * older ones than or, @to_the_end, all; returns how many records were
 * read (some make no event). */
static guint
collect (TraceTracefsSrc *self,
         gboolean to_the_end,
         TraceBatch **batch)
{
  guint n;

  *batch = self->batch = trace_base_src_new_batch (TRACE_BASE_SRC (self));
  n = capture_merge_run (self->merge, to_the_end, TRACE_BATCH_DEFAULT_SIZE, add_record, self);
  self->batch = NULL;
  return n;
}

static gboolean
on_timeout (gpointer woken)
{
  *(gboolean *) woken = TRUE;
  return G_SOURCE_REMOVE;
}

/* Lets the main loop run (Ctrl-C, the bus) until a reader has news, EOS
 * is asked, or @ms pass; waits in the context as a blocked read of
 * standard input does (core/base/tracewaitstream.c). */
static void
wait_for_news (TraceTracefsSrc *self,
               guint ms)
{
  GMainContext *context = trace_element_get_main_context (TRACE_ELEMENT (self));
  gint64 until = g_get_monotonic_time () + ms * 1000;
  gboolean woken = FALSE;
  GSource *timeout;

  if (!g_main_context_acquire (context))
    {
      while (!capture_readers_has_news (self->readers) && !g_atomic_int_get (&self->eos_asked) &&
             g_get_monotonic_time () < until)
        g_usleep (10000);
      return;
    }
  timeout = g_timeout_source_new (ms);
  g_source_set_callback (timeout, on_timeout, &woken, NULL);
  g_source_attach (timeout, context);
  while (!woken && !capture_readers_has_news (self->readers) && !g_atomic_int_get (&self->eos_asked))
    g_main_context_iteration (context, TRUE);
  g_source_destroy (timeout);
  g_source_unref (timeout);
  g_main_context_release (context);
}

static gboolean
begin_recording (TraceTracefsSrc *self,
                 GError **error)
{
  if (!capture_readers_start (self->readers, error) || !capture_state_start (self->state, error))
    return FALSE;
  self->recording = TRUE;
  self->started_us = g_get_monotonic_time ();
  g_debug ("%s: recording", self->location);
  return TRUE;
}

/* The time left of duration=, in ms; G_MAXUINT when there is no end. */
static guint
ms_left (TraceTracefsSrc *self)
{
  gint64 left_us;

  if (self->duration <= 0)
    return G_MAXUINT;
  left_us = self->started_us + self->duration / 1000 - g_get_monotonic_time ();
  return left_us <= 0 ? 0 : (guint) MIN (left_us / 1000 + 1, G_MAXUINT - 1);
}

static TraceFlowReturn
trace_tracefs_src_create (TraceBaseSrc *src,
                          TraceBatch **out,
                          GError **error)
{
  TraceTracefsSrc *self = TRACE_TRACEFS_SRC (src);

  if (!self->recording && !begin_recording (self, error))
    return TRACE_FLOW_ERROR;
  if (ms_left (self) == 0)
    return TRACE_FLOW_EOS; /* finish reads the rest */
  take_pages (self);
  if (collect (self, FALSE, out) == 0 && !g_atomic_int_get (&self->eos_asked))
    {
      g_clear_pointer (out, trace_batch_unref);
      wait_for_news (self, MIN (WAIT_MS, ms_left (self)));
      take_pages (self);
      collect (self, FALSE, out);
    }
  return TRACE_FLOW_OK;
}

static void
report_lost (TraceTracefsSrc *self)
{
  g_autoptr (GString) per_cpu = g_string_new (NULL);

  self->lost = 0;
  for (guint cpu = 0; cpu < capture_readers_get_n_cpus (self->readers); cpu++)
    {
      guint64 lost = capture_readers_get_lost (self->readers, cpu);

      if (lost > 0)
        g_string_append_printf (per_cpu, "%scpu%u %" G_GUINT64_FORMAT, per_cpu->len ? ", " : "", cpu, lost);
      self->lost += lost;
    }
  if (self->lost > 0)
    trace_element_post_warning (TRACE_ELEMENT (self), self->location,
                                "the ring buffer lost %" G_GUINT64_FORMAT
                                " events (%s) before they were read: raise buffer-size= (%" G_GUINT64_FORMAT
                                " KiB a cpu), or capture fewer events",
                                self->lost, per_cpu->str, capture_state_get_buffer_size_kb (self->state));
}

/* What the markers' parser still holds at the end. */
static void
push_parser_end (TraceTracefsSrc *self)
{
  TraceBatch *batch = trace_base_src_new_batch (TRACE_BASE_SRC (self));

  ftrace_parser_finish (self->parser, batch);
  if (batch->n_events == 0)
    trace_batch_unref (batch);
  else
    trace_base_src_push_batch (TRACE_BASE_SRC (self), batch);
}

/* What the engine and the markers' parser could not use, one WARNING. */
static void
report_unused (TraceTracefsSrc *self)
{
  g_autofree char *engine = kernel_engine_stats_to_summary (kernel_engine_get_stats (self->engine));
  const FtraceStats *stats = ftrace_parser_get_stats (self->parser);
  g_autoptr (GString) text = g_string_new (engine);

  for (guint i = 0; i < FTRACE_PROBLEM_N; i++)
    if (stats->problems[i] > 0)
      g_string_append_printf (text, "%s%" G_GUINT64_FORMAT " %s", text->len ? ", " : "", stats->problems[i],
                              ftrace_problem_to_string (i));
  if (text->len > 0)
    trace_element_post_warning (TRACE_ELEMENT (self), self->location, "records not used: %s", text->str);
}

/* Stops recording, reads what the buffer still holds and pushes it. */
static void
trace_tracefs_src_finish (TraceBaseSrc *src)
{
  TraceTracefsSrc *self = TRACE_TRACEFS_SRC (src);
  g_autoptr (GError) error = NULL;

  if (self->state == NULL)
    return;
  capture_state_stop_recording (self->state);
  if (self->readers)
    {
      capture_readers_stop (self->readers);
      for (;;)
        {
          gboolean more = take_pages (self);
          TraceBatch *batch = NULL;
          guint n = collect (self, TRUE, &batch);

          if (batch->n_events == 0)
            trace_batch_unref (batch);
          else if (trace_base_src_push_batch (src, batch) != TRACE_FLOW_OK)
            break;
          if (n == 0 && !more)
            break;
        }
      push_parser_end (self);
      report_lost (self);
      report_unused (self);
    }
  if (!capture_state_restore (self->state, &error))
    trace_element_post_warning (TRACE_ELEMENT (self), self->location, "%s", error->message);
}

static void
release_capture (TraceTracefsSrc *self)
{
  g_autoptr (GError) error = NULL;

  if (self->state)
    {
      capture_state_stop_recording (self->state);
      if (self->readers)
        capture_readers_stop (self->readers);
      if (!capture_state_restore (self->state, &error))
        g_warning ("%s", error->message);
    }
  g_clear_pointer (&self->merge, capture_merge_free);
  g_clear_pointer (&self->engine, kernel_engine_free);
  g_clear_pointer (&self->wanted, g_hash_table_unref);
  g_clear_pointer (&self->parser, ftrace_parser_free);
  g_clear_pointer (&self->readers, capture_readers_free);
  g_clear_pointer (&self->state, capture_state_free);
  g_clear_pointer (&self->tep, tep_free);
  g_clear_pointer (&self->event_list, g_ptr_array_unref);
  g_clear_pointer (&self->location, g_free);
  self->recording = FALSE;
}

static gboolean
prepare_capture (TraceTracefsSrc *self,
                 const char *tracing_dir,
                 GError **error)
{
  g_autofree char *events_dir = NULL;
  g_auto (GStrv) systems = NULL;

  self->state = capture_state_new (tracing_dir, &self->settings, error);
  if (self->state == NULL)
    return FALSE;
  self->location = g_strdup (capture_state_get_where (self->state));
  events_dir = g_build_filename (self->location, "events", NULL);
  if (!capture_resolve_events (self->event_list, events_dir, error) ||
      !capture_state_check_idle (self->state, error))
    return FALSE;
  systems = capture_events_systems (self->event_list);
  self->tep = capture_load_formats (tracing_dir, systems, error);
  if (self->tep == NULL)
    return FALSE;
  return capture_state_apply (self->state, self->event_list, error);
}

static gboolean
trace_tracefs_src_start (TraceBaseSrc *src,
                         GError **error)
{
  TraceTracefsSrc *self = TRACE_TRACEFS_SRC (src);
  g_autofree char *tracing_dir = NULL;
  GMainContext *context = trace_element_get_main_context (TRACE_ELEMENT (self));
  const char *clock;

  self->records = self->unwanted = self->lost = 0;
  g_atomic_int_set (&self->eos_asked, 0);
  self->event_list = capture_parse_events (self->events, error);
  if (self->event_list == NULL || (tracing_dir = capture_find_tracefs (error)) == NULL)
    goto failed;
  if (!prepare_capture (self, tracing_dir, error))
    goto failed;
  self->readers = capture_readers_new (capture_state_get_instance (self->state), context, error);
  if (self->readers == NULL)
    goto failed;
  self->merge = capture_merge_new (self->tep, capture_readers_get_n_cpus (self->readers));
  self->parser = ftrace_parser_new (trace_element_get_string_pool (TRACE_ELEMENT (self)));
  self->engine = kernel_engine_new (self->tep, self->parser);
  self->wanted = g_hash_table_new (NULL, NULL);
  clock = capture_state_get_clock (self->state);
  trace_base_src_set_stream_info (src, "tracefs", self->location,
                                  clock ? ftrace_clock_from_name (clock, strlen (clock)) : TRACE_CLOCK_UNKNOWN,
                                  "trace_clock");
  return TRUE;
failed:
  release_capture (self);
  return FALSE;
}

static gboolean
trace_tracefs_src_stop (TraceBaseSrc *src,
                        GError **error)
{
  release_capture (TRACE_TRACEFS_SRC (src));
  return TRUE;
}

static void
trace_tracefs_src_send_eos (TraceElement *element)
{
  g_atomic_int_set (&TRACE_TRACEFS_SRC (element)->eos_asked, 1);
  TRACE_ELEMENT_CLASS (trace_tracefs_src_parent_class)->send_eos (element);
}

static void
trace_tracefs_src_collect_stats (TraceElement *element,
                                 GVariantDict *stats)
{
  TraceTracefsSrc *self = TRACE_TRACEFS_SRC (element);

  TRACE_ELEMENT_CLASS (trace_tracefs_src_parent_class)->collect_stats (element, stats);
  g_variant_dict_insert (stats, "records", "t", self->records);
  g_variant_dict_insert (stats, "lost-events", "t", self->lost);
  if (self->unwanted > 0)
    g_variant_dict_insert (stats, "skipped-not-asked", "t", self->unwanted);
  if (self->parser)
    {
      const FtraceStats *ps = ftrace_parser_get_stats (self->parser);

      for (guint i = 0; i < FTRACE_PROBLEM_N; i++)
        if (ps->problems[i] > 0)
          g_variant_dict_insert (stats, ftrace_problem_get_key (i), "t", ps->problems[i]);
    }
}

static void
trace_tracefs_src_set_property (GObject *object,
                                guint prop_id,
                                const GValue *value,
                                GParamSpec *pspec)
{
  TraceTracefsSrc *self = TRACE_TRACEFS_SRC (object);

  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_EVENTS:
      g_free (self->events);
      self->events = g_value_dup_string (value);
      break;
    case PROP_DURATION:
      self->duration = g_value_get_int64 (value);
      break;
    case PROP_BUFFER_SIZE:
      self->settings.buffer_size_kb = g_value_get_uint64 (value);
      break;
    case PROP_INSTANCE:
      g_free (self->settings.instance);
      self->settings.instance = g_value_dup_string (value);
      break;
    case PROP_CLOCK:
      g_free (self->settings.clock);
      self->settings.clock = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_tracefs_src_get_property (GObject *object,
                                guint prop_id,
                                GValue *value,
                                GParamSpec *pspec)
{
  TraceTracefsSrc *self = TRACE_TRACEFS_SRC (object);

  switch (prop_id)
    {
    case PROP_EVENTS:
      g_value_set_string (value, self->events);
      break;
    case PROP_DURATION:
      g_value_set_int64 (value, self->duration);
      break;
    case PROP_BUFFER_SIZE:
      g_value_set_uint64 (value, self->settings.buffer_size_kb);
      break;
    case PROP_INSTANCE:
      g_value_set_string (value, self->settings.instance);
      break;
    case PROP_CLOCK:
      g_value_set_string (value, self->settings.clock);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_tracefs_src_finalize (GObject *object)
{
  TraceTracefsSrc *self = TRACE_TRACEFS_SRC (object);

  release_capture (self);
  g_free (self->events);
  g_free (self->settings.instance);
  g_free (self->settings.clock);
  G_OBJECT_CLASS (trace_tracefs_src_parent_class)->finalize (object);
}

static void
trace_tracefs_src_class_init (TraceTracefsSrcClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  TraceElementClass *element_class = TRACE_ELEMENT_CLASS (klass);
  TraceBaseSrcClass *src_class = TRACE_BASE_SRC_CLASS (klass);

  gobject_class->set_property = trace_tracefs_src_set_property;
  gobject_class->get_property = trace_tracefs_src_get_property;
  gobject_class->finalize = trace_tracefs_src_finalize;
  element_class->send_eos = trace_tracefs_src_send_eos;
  element_class->collect_stats = trace_tracefs_src_collect_stats;
  src_class->start = trace_tracefs_src_start;
  src_class->stop = trace_tracefs_src_stop;
  src_class->create = trace_tracefs_src_create;
  src_class->finish = trace_tracefs_src_finish;

  properties[PROP_EVENTS] = g_param_spec_string (
      "events", "Events",
      "The events to capture, comma-separated: a system (`sched`), `sched:sched_switch` or `sched/sched_switch`; "
      "`ftrace/print` keeps the markers",
      DEFAULT_EVENTS, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  properties[PROP_DURATION] =
      g_param_spec_int64 ("duration", "Duration", "How long to capture (ns, or a time such as 10s); 0: until EOS", 0,
                          G_MAXINT64, DEFAULT_DURATION, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUFFER_SIZE] = g_param_spec_uint64 (
      "buffer-size", "Buffer size", "Each cpu's ring buffer size in KiB (trace-cmd's -b); 0: leave it as it is", 0,
      G_MAXUINT64, DEFAULT_BUFFER_SIZE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  properties[PROP_INSTANCE] = g_param_spec_string (
      "instance", "Instance",
      "The tracing instance to capture in (instances/NAME, made beforehand); none: the top-level buffer, where "
      "applications' markers go",
      DEFAULT_INSTANCE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  properties[PROP_CLOCK] = g_param_spec_string (
      "clock", "Clock", "The trace clock to record with (one of the kernel's trace_clock); empty: leave it", DEFAULT_CLOCK,
      G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (gobject_class, N_PROPS, properties);
  trace_param_spec_set_time (properties[PROP_DURATION]);

  trace_element_class_set_metadata (element_class, "tracefs source", "Source/Trace",
                                    "Captures kernel events live from tracefs (libtracefs, libtraceevent)",
                                    "tracepipe");
}

static void
trace_tracefs_src_init (TraceTracefsSrc *self)
{
  self->events = g_strdup (DEFAULT_EVENTS);
  self->duration = DEFAULT_DURATION;
  self->settings.buffer_size_kb = DEFAULT_BUFFER_SIZE;
  self->settings.instance = g_strdup (DEFAULT_INSTANCE);
  self->settings.clock = g_strdup (DEFAULT_CLOCK);
}

TRACE_ELEMENT_REGISTER_DEFINE (tracefs_src, "tracefs-src", TRACE_RANK_PRIMARY, TRACE_TYPE_TRACEFS_SRC)
