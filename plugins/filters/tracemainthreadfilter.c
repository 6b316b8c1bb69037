/* tracepipe - main-thread-filter: keeps main threads only
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "filters-private.h"

#define DEFAULT_PID FILTER_PID_ANY
#define DEFAULT_PROCESS_NAME NULL
#define DEFAULT_KEEP_UNKNOWN FALSE

/* As in `filter`: the conditions apply from the next batch on. */
#define MUTABLE (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | TRACE_PARAM_MUTABLE_PLAYING)

/**
 * TraceMainThreadFilter:
 *
 * Keeps only the events of main threads (tid equal to pid): the same
 * result as `filter tid=main`, with `pid` or `process-name` to keep the
 * main thread of one app only. RheaTrace's main-thread-only mode, for any
 * source.
 *
 * ```
 * trace-launch ftrace-src location=trace.html ! main-thread-filter process-name='com.example.*' ! \
 *     perfetto-sink location=main.pftrace
 * ```
 *
 * Its properties may change while the pipeline plays: they apply from the
 * next batch on, and a slice already begun keeps the decision its begin
 * got.
 */
struct _TraceMainThreadFilter
{
  TraceBaseTransform parent_instance;

  GMutex lock;           /* opts and opts_changed: set_property may come
                          * from another thread than the streaming one */
  FilterOptions opts;    /* the properties; tid is always main */
  gboolean opts_changed; /* since the engine last took them */
  Filter *filter;
};

enum
{
  PROP_0,
  PROP_PID,
  PROP_PROCESS_NAME,
  PROP_KEEP_UNKNOWN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TraceMainThreadFilter, trace_main_thread_filter, TRACE_TYPE_BASE_TRANSFORM)

static gboolean
trace_main_thread_filter_start (TraceBaseTransform *trans,
                                GError **error)
{
  TraceMainThreadFilter *self = TRACE_MAIN_THREAD_FILTER (trans);
  g_autofree char *conditions = NULL;
  Filter *f;

  g_mutex_lock (&self->lock);
  f = filter_new_with_options (trace_base_transform_get_string_pool (trans), &self->opts, error);
  self->opts_changed = FALSE;
  g_mutex_unlock (&self->lock);
  if (f == NULL)
    return FALSE;
  g_clear_pointer (&self->filter, filter_free);
  self->filter = f;
  conditions = filter_describe (f);
  g_debug ("%s: %s", trace_element_get_name (TRACE_ELEMENT (self)), conditions);
  return TRUE;
}

static gboolean
trace_main_thread_filter_stop (TraceBaseTransform *trans,
                               GError **error)
{
  g_clear_pointer (&TRACE_MAIN_THREAD_FILTER (trans)->filter, filter_free);
  return TRUE;
}

/* A property changed while playing: the engine takes the new conditions
 * before this batch. */
static void
take_changed_options (TraceMainThreadFilter *self)
{
  g_autofree char *conditions = NULL;

  g_mutex_lock (&self->lock);
  if (self->opts_changed)
    {
      filter_set_conditions (self->filter, &self->opts);
      self->opts_changed = FALSE;
      conditions = filter_describe (self->filter);
    }
  g_mutex_unlock (&self->lock);
  if (conditions)
    g_debug ("%s: conditions changed while playing: %s", trace_element_get_name (TRACE_ELEMENT (self)),
             conditions);
}

static TraceFlowReturn
trace_main_thread_filter_transform_ip (TraceBaseTransform *trans,
                                       TraceBatch *batch)
{
  TraceMainThreadFilter *self = TRACE_MAIN_THREAD_FILTER (trans);

  take_changed_options (self);
  filter_process (self->filter, batch);
  return TRACE_FLOW_OK;
}

static TraceBatch *
trace_main_thread_filter_drain (TraceBaseTransform *trans)
{
  TraceMainThreadFilter *self = TRACE_MAIN_THREAD_FILTER (trans);
  gboolean keep_unknown;

  g_mutex_lock (&self->lock);
  keep_unknown = self->opts.keep_unknown;
  g_mutex_unlock (&self->lock);
  filter_warn_undecidable (TRACE_ELEMENT (trans), self->filter, keep_unknown);
  return filter_drain (self->filter);
}

static void
trace_main_thread_filter_collect_stats (TraceElement *element,
                                        GVariantDict *dict)
{
  TRACE_ELEMENT_CLASS (trace_main_thread_filter_parent_class)->collect_stats (element, dict);
  filter_collect_stats (TRACE_MAIN_THREAD_FILTER (element)->filter, dict);
}

static void
trace_main_thread_filter_set_property (GObject *object,
                                       guint prop_id,
                                       const GValue *value,
                                       GParamSpec *pspec)
{
  TraceMainThreadFilter *self = TRACE_MAIN_THREAD_FILTER (object);

  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  g_mutex_lock (&self->lock);
  switch (prop_id)
    {
    case PROP_PID:
      self->opts.pid = g_value_get_int64 (value);
      break;
    case PROP_PROCESS_NAME:
      g_free (self->opts.process_name);
      self->opts.process_name = g_value_dup_string (value);
      break;
    case PROP_KEEP_UNKNOWN:
      self->opts.keep_unknown = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
  self->opts_changed = TRUE;
  g_mutex_unlock (&self->lock);
}

static void
trace_main_thread_filter_get_property (GObject *object,
                                       guint prop_id,
                                       GValue *value,
                                       GParamSpec *pspec)
{
  TraceMainThreadFilter *self = TRACE_MAIN_THREAD_FILTER (object);

  g_mutex_lock (&self->lock);
  switch (prop_id)
    {
    case PROP_PID:
      g_value_set_int64 (value, self->opts.pid);
      break;
    case PROP_PROCESS_NAME:
      g_value_set_string (value, self->opts.process_name);
      break;
    case PROP_KEEP_UNKNOWN:
      g_value_set_boolean (value, self->opts.keep_unknown);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
  g_mutex_unlock (&self->lock);
}

static void
trace_main_thread_filter_finalize (GObject *object)
{
  TraceMainThreadFilter *self = TRACE_MAIN_THREAD_FILTER (object);

  g_clear_pointer (&self->filter, filter_free);
  filter_options_clear (&self->opts);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (trace_main_thread_filter_parent_class)->finalize (object);
}

static void
trace_main_thread_filter_class_init (TraceMainThreadFilterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceBaseTransformClass *trans_class = TRACE_BASE_TRANSFORM_CLASS (klass);

  object_class->set_property = trace_main_thread_filter_set_property;
  object_class->get_property = trace_main_thread_filter_get_property;
  object_class->finalize = trace_main_thread_filter_finalize;
  trans_class->start = trace_main_thread_filter_start;
  trans_class->stop = trace_main_thread_filter_stop;
  trans_class->transform_ip = trace_main_thread_filter_transform_ip;
  trans_class->drain = trace_main_thread_filter_drain;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_main_thread_filter_collect_stats;

  properties[PROP_PID] = g_param_spec_int64 ("pid", "Process id", "Keep the main thread of this process only; -1 for every process",
                                             FILTER_PID_ANY, G_MAXINT64, DEFAULT_PID, MUTABLE);
  properties[PROP_PROCESS_NAME] = g_param_spec_string ("process-name", "Process name",
                                                       "Keep the main thread of processes whose name matches this glob",
                                                       DEFAULT_PROCESS_NAME, MUTABLE);
  properties[PROP_KEEP_UNKNOWN] = g_param_spec_boolean ("keep-unknown", "Keep unknown",
                                                        "Keep events whose process cannot be told", DEFAULT_KEEP_UNKNOWN, MUTABLE);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Main thread filter", "Filter/Trace",
                                    "Keeps the events of main threads (tid equal to pid)", "tracepipe");
}

static void
trace_main_thread_filter_init (TraceMainThreadFilter *self)
{
  g_mutex_init (&self->lock);
  self->opts.tid = FILTER_TID_MAIN;
  self->opts.pid = DEFAULT_PID;
  self->opts.process_name = g_strdup (DEFAULT_PROCESS_NAME);
  self->opts.keep_unknown = DEFAULT_KEEP_UNKNOWN;
}

TRACE_ELEMENT_REGISTER_DEFINE (main_thread_filter, "main-thread-filter", TRACE_RANK_NONE, TRACE_TYPE_MAIN_THREAD_FILTER)
