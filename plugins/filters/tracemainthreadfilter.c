/* tracepipe - main-thread-filter: keeps main threads only
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "tracefilterelements.h"

/**
 * TraceMainThreadFilter:
 *
 * Keeps only the events of main threads (tid equal to pid): the same
 * result as `filter tid=main`, with `pid` or `process-name` to keep the
 * main thread of one app only. RheaTrace's main-thread-only mode, for any
 * source.
 */
struct _TraceMainThreadFilter
{
  TraceBaseTransform parent_instance;

  gint64 pid;
  char *process_name;
  gboolean keep_unknown;
  TraceEventFilter *filter;
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
  TraceEventFilter *f = trace_event_filter_new (trace_base_transform_get_string_pool (trans));

  trace_event_filter_set_tid_main (f);
  if (self->pid >= 0)
    trace_event_filter_set_pid (f, self->pid);
  trace_event_filter_set_process_name (f, self->process_name);
  trace_event_filter_set_keep_unknown (f, self->keep_unknown);
  g_clear_pointer (&self->filter, trace_event_filter_free);
  self->filter = f;
  return TRUE;
}

static gboolean
trace_main_thread_filter_stop (TraceBaseTransform *trans,
                               GError **error)
{
  g_clear_pointer (&TRACE_MAIN_THREAD_FILTER (trans)->filter, trace_event_filter_free);
  return TRUE;
}

static TraceFlowReturn
trace_main_thread_filter_transform_ip (TraceBaseTransform *trans,
                                       TraceBatch *batch)
{
  trace_event_filter_process (TRACE_MAIN_THREAD_FILTER (trans)->filter, batch);
  return TRACE_FLOW_OK;
}

static TraceBatch *
trace_main_thread_filter_drain (TraceBaseTransform *trans)
{
  TraceMainThreadFilter *self = TRACE_MAIN_THREAD_FILTER (trans);

  _trace_filter_warn_undecidable (TRACE_ELEMENT (trans), self->filter, self->keep_unknown);
  return trace_event_filter_drain (self->filter);
}

static void
trace_main_thread_filter_collect_stats (TraceElement *element,
                                        GVariantDict *dict)
{
  TRACE_ELEMENT_CLASS (trace_main_thread_filter_parent_class)->collect_stats (element, dict);
  _trace_filter_collect_stats (TRACE_MAIN_THREAD_FILTER (element)->filter, dict);
}

static void
trace_main_thread_filter_set_property (GObject *object,
                                       guint prop_id,
                                       const GValue *value,
                                       GParamSpec *pspec)
{
  TraceMainThreadFilter *self = TRACE_MAIN_THREAD_FILTER (object);

  switch (prop_id)
    {
    case PROP_PID:
      self->pid = g_value_get_int64 (value);
      break;
    case PROP_PROCESS_NAME:
      g_free (self->process_name);
      self->process_name = g_value_dup_string (value);
      break;
    case PROP_KEEP_UNKNOWN:
      self->keep_unknown = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_main_thread_filter_get_property (GObject *object,
                                       guint prop_id,
                                       GValue *value,
                                       GParamSpec *pspec)
{
  TraceMainThreadFilter *self = TRACE_MAIN_THREAD_FILTER (object);

  switch (prop_id)
    {
    case PROP_PID:
      g_value_set_int64 (value, self->pid);
      break;
    case PROP_PROCESS_NAME:
      g_value_set_string (value, self->process_name);
      break;
    case PROP_KEEP_UNKNOWN:
      g_value_set_boolean (value, self->keep_unknown);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_main_thread_filter_finalize (GObject *object)
{
  TraceMainThreadFilter *self = TRACE_MAIN_THREAD_FILTER (object);

  g_clear_pointer (&self->filter, trace_event_filter_free);
  g_free (self->process_name);
  G_OBJECT_CLASS (trace_main_thread_filter_parent_class)->finalize (object);
}

static void
trace_main_thread_filter_class_init (TraceMainThreadFilterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceBaseTransformClass *trans_class = TRACE_BASE_TRANSFORM_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  object_class->set_property = trace_main_thread_filter_set_property;
  object_class->get_property = trace_main_thread_filter_get_property;
  object_class->finalize = trace_main_thread_filter_finalize;
  trans_class->start = trace_main_thread_filter_start;
  trans_class->stop = trace_main_thread_filter_stop;
  trans_class->transform_ip = trace_main_thread_filter_transform_ip;
  trans_class->drain = trace_main_thread_filter_drain;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_main_thread_filter_collect_stats;

  properties[PROP_PID] = g_param_spec_int64 ("pid", "Process id", "Keep the main thread of this process only; -1 for every process",
                                             -1, G_MAXINT64, -1, rw);
  properties[PROP_PROCESS_NAME] = g_param_spec_string ("process-name", "Process name",
                                                       "Keep the main thread of processes whose name matches this glob",
                                                       NULL, rw);
  properties[PROP_KEEP_UNKNOWN] = g_param_spec_boolean ("keep-unknown", "Keep unknown",
                                                        "Keep events whose process cannot be told", FALSE, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Main thread filter", "Filter/Trace",
                                    "Keeps the events of main threads (tid equal to pid)", "tracepipe");
}

static void
trace_main_thread_filter_init (TraceMainThreadFilter *self)
{
  self->pid = -1;
}

TRACE_ELEMENT_REGISTER_DEFINE (main_thread_filter, "main-thread-filter", TRACE_RANK_NONE, TRACE_TYPE_MAIN_THREAD_FILTER)
