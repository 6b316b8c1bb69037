/* tracepipe - filter: keeps the events that match every condition
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "tracefilterelements.h"
#include "traceeventfilter.h"

#define TID_ANY (-1)
#define TID_MAIN (-2)

/**
 * TraceFilter:
 *
 * Keeps the events that match every condition set and drops the rest,
 * counted by reason in its STATS. Process and thread names always pass,
 * a slice is kept or dropped whole, and a time window cuts slices at its
 * edges (see docs/filters.md).
 *
 * ```
 * trace-launch ftrace-src location=trace.html ! filter tid=main ! perfetto-sink location=out.pftrace
 * ```
 */
struct _TraceFilter
{
  TraceBaseTransform parent_instance;

  gint64 tid;
  gint64 pid;
  char *process_name;
  char *thread_name;
  char *name;
  char *category;
  guint kinds;
  char *start; /* a time, or +offset from the first event */
  char *end;
  gboolean invert;
  gboolean keep_unknown;
  TraceEventFilter *filter;
};

enum
{
  PROP_0,
  PROP_TID,
  PROP_PID,
  PROP_PROCESS_NAME,
  PROP_THREAD_NAME,
  PROP_NAME,
  PROP_CATEGORY,
  PROP_KIND,
  PROP_START,
  PROP_END,
  PROP_INVERT,
  PROP_KEEP_UNKNOWN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TraceFilter, trace_filter, TRACE_TYPE_BASE_TRANSFORM)

static gboolean
trace_filter_start (TraceBaseTransform *trans,
                    GError **error)
{
  TraceFilter *self = TRACE_FILTER (trans);
  TraceEventFilter *f = trace_event_filter_new (trace_base_transform_get_string_pool (trans));

  if (self->tid == TID_MAIN)
    trace_event_filter_set_tid_main (f);
  else if (self->tid >= 0)
    trace_event_filter_set_tid (f, self->tid);
  if (self->pid >= 0)
    trace_event_filter_set_pid (f, self->pid);
  trace_event_filter_set_process_name (f, self->process_name);
  trace_event_filter_set_thread_name (f, self->thread_name);
  trace_event_filter_set_name (f, self->name);
  trace_event_filter_set_category (f, self->category);
  if (self->kinds)
    trace_event_filter_set_kinds (f, self->kinds);
  /* Strings, not int64 times: "+1.5s" must stay distinct from "1.5s". */
  if (!trace_event_filter_set_window_from_string (f, self->start, self->end, error))
    {
      trace_event_filter_free (f);
      return FALSE;
    }
  trace_event_filter_set_invert (f, self->invert);
  trace_event_filter_set_keep_unknown (f, self->keep_unknown);
  g_clear_pointer (&self->filter, trace_event_filter_free);
  self->filter = f;
  return TRUE;
}

static gboolean
trace_filter_stop (TraceBaseTransform *trans,
                   GError **error)
{
  g_clear_pointer (&TRACE_FILTER (trans)->filter, trace_event_filter_free);
  return TRUE;
}

static TraceFlowReturn
trace_filter_transform_ip (TraceBaseTransform *trans,
                           TraceBatch *batch)
{
  trace_event_filter_process (TRACE_FILTER (trans)->filter, batch);
  return TRACE_FLOW_OK;
}

/* At EOS, both elements say what they could not decide, and a window
 * that missed the trace says where the trace was. */
void
_trace_filter_warn_undecidable (TraceElement *element,
                                TraceEventFilter *filter,
                                gboolean keep_unknown)
{
  TraceEventFilterStats stats;
  g_autofree char *empty = trace_event_filter_explain_empty_window (filter);

  if (empty)
    trace_element_post_warning (element, NULL, "%s", empty);
  trace_event_filter_get_stats (filter, &stats);
  if (stats.undecidable > 0)
    trace_element_post_warning (element, NULL,
                                "%" G_GUINT64_FORMAT " events of threads whose process could not be "
                                "told were %s (set keep-unknown to change that)",
                                stats.undecidable, keep_unknown ? "kept" : "dropped");
}

static TraceBatch *
trace_filter_drain (TraceBaseTransform *trans)
{
  TraceFilter *self = TRACE_FILTER (trans);

  _trace_filter_warn_undecidable (TRACE_ELEMENT (trans), self->filter, self->keep_unknown);
  return trace_event_filter_drain (self->filter);
}

void
_trace_filter_collect_stats (TraceEventFilter *filter,
                             GVariantDict *dict)
{
  TraceEventFilterStats stats;

  if (filter == NULL)
    return;
  trace_event_filter_get_stats (filter, &stats);
  g_variant_dict_insert (dict, "kept", "t", stats.kept);
  g_variant_dict_insert (dict, "undecidable", "t", stats.undecidable);
  g_variant_dict_insert (dict, "synthesized", "t", stats.synthesized);
  g_variant_dict_insert (dict, "clipped", "t", stats.clipped);
  for (guint i = 0; i < TRACE_FILTER_N_DROP_REASONS; i++)
    if (stats.dropped[i] > 0)
      {
        g_autofree char *key = g_strdup_printf ("dropped-%s", trace_filter_drop_reason_to_string (i));
        g_variant_dict_insert (dict, key, "t", stats.dropped[i]);
      }
}

static void
trace_filter_collect_stats (TraceElement *element,
                            GVariantDict *dict)
{
  TRACE_ELEMENT_CLASS (trace_filter_parent_class)->collect_stats (element, dict);
  _trace_filter_collect_stats (TRACE_FILTER (element)->filter, dict);
}

static char **
string_field (TraceFilter *self,
              guint prop_id)
{
  switch (prop_id)
    {
    case PROP_PROCESS_NAME:
      return &self->process_name;
    case PROP_THREAD_NAME:
      return &self->thread_name;
    case PROP_NAME:
      return &self->name;
    case PROP_CATEGORY:
      return &self->category;
    case PROP_START:
      return &self->start;
    case PROP_END:
      return &self->end;
    default:
      return NULL;
    }
}

static void
trace_filter_set_property (GObject *object,
                           guint prop_id,
                           const GValue *value,
                           GParamSpec *pspec)
{
  TraceFilter *self = TRACE_FILTER (object);
  char **field = string_field (self, prop_id);

  if (field)
    {
      g_free (*field);
      *field = g_value_dup_string (value);
      return;
    }
  switch (prop_id)
    {
    case PROP_TID:
      self->tid = g_value_get_int64 (value);
      break;
    case PROP_PID:
      self->pid = g_value_get_int64 (value);
      break;
    case PROP_KIND:
      self->kinds = g_value_get_flags (value);
      break;
    case PROP_INVERT:
      self->invert = g_value_get_boolean (value);
      break;
    case PROP_KEEP_UNKNOWN:
      self->keep_unknown = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_filter_get_property (GObject *object,
                           guint prop_id,
                           GValue *value,
                           GParamSpec *pspec)
{
  TraceFilter *self = TRACE_FILTER (object);
  char **field = string_field (self, prop_id);

  if (field)
    {
      g_value_set_string (value, *field);
      return;
    }
  switch (prop_id)
    {
    case PROP_TID:
      g_value_set_int64 (value, self->tid);
      break;
    case PROP_PID:
      g_value_set_int64 (value, self->pid);
      break;
    case PROP_KIND:
      g_value_set_flags (value, self->kinds);
      break;
    case PROP_INVERT:
      g_value_set_boolean (value, self->invert);
      break;
    case PROP_KEEP_UNKNOWN:
      g_value_set_boolean (value, self->keep_unknown);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_filter_finalize (GObject *object)
{
  TraceFilter *self = TRACE_FILTER (object);

  g_clear_pointer (&self->filter, trace_event_filter_free);
  g_free (self->process_name);
  g_free (self->thread_name);
  g_free (self->name);
  g_free (self->category);
  g_free (self->start);
  g_free (self->end);
  G_OBJECT_CLASS (trace_filter_parent_class)->finalize (object);
}

static void
install_properties (GObjectClass *object_class)
{
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  properties[PROP_TID] = g_param_spec_int64 ("tid", "Thread id", "Keep this thread only: a thread id, or main "
                                                                 "(the main thread of every process); -1 for any",
                                             TID_MAIN, G_MAXINT64, TID_ANY, rw);
  trace_param_spec_add_keyword (properties[PROP_TID], "main", TID_MAIN);
  properties[PROP_PID] = g_param_spec_int64 ("pid", "Process id", "Keep this process only; -1 for any",
                                             -1, G_MAXINT64, -1, rw);
  properties[PROP_PROCESS_NAME] = g_param_spec_string ("process-name", "Process name",
                                                       "Keep processes whose name matches this glob", NULL, rw);
  properties[PROP_THREAD_NAME] = g_param_spec_string ("thread-name", "Thread name",
                                                      "Keep threads whose name matches this glob", NULL, rw);
  /* Not "name": every element's "name" is its own name in the pipeline
   * (`filter name=f`), as in GStreamer; see docs/filters.md. */
  properties[PROP_NAME] = g_param_spec_string ("event-name", "Event name",
                                               "Keep events whose name matches this glob", NULL, rw);
  properties[PROP_CATEGORY] = g_param_spec_string ("category", "Category",
                                                   "Keep events of this category (a glob)", NULL, rw);
  properties[PROP_KIND] = g_param_spec_flags ("kind", "Kind", "Keep these kinds of events (empty: all)",
                                              TRACE_TYPE_EVENT_GROUP, 0, rw);
  properties[PROP_START] = g_param_spec_string ("start", "Start",
                                                "Keep what happens from this time on: in the trace's clock "
                                                "(1212.5s, 200ms, ns) or after the first event (+1.5s)",
                                                NULL, rw);
  properties[PROP_END] = g_param_spec_string ("end", "End",
                                              "Keep what happens until this time: in the trace's clock "
                                              "(1213s) or after the first event (+3s)",
                                              NULL, rw);
  properties[PROP_INVERT] = g_param_spec_boolean ("invert", "Invert", "Drop what matches, keep the rest",
                                                  FALSE, rw);
  properties[PROP_KEEP_UNKNOWN] = g_param_spec_boolean ("keep-unknown", "Keep unknown",
                                                        "Keep events whose process cannot be told", FALSE, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
trace_filter_class_init (TraceFilterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceBaseTransformClass *trans_class = TRACE_BASE_TRANSFORM_CLASS (klass);

  object_class->set_property = trace_filter_set_property;
  object_class->get_property = trace_filter_get_property;
  object_class->finalize = trace_filter_finalize;
  trans_class->start = trace_filter_start;
  trans_class->stop = trace_filter_stop;
  trans_class->transform_ip = trace_filter_transform_ip;
  trans_class->drain = trace_filter_drain;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_filter_collect_stats;
  install_properties (object_class);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Event filter", "Filter/Trace",
                                    "Keeps events by thread, process, name, category, kind and time",
                                    "tracepipe");
}

static void
trace_filter_init (TraceFilter *self)
{
  self->tid = TID_ANY;
  self->pid = -1;
}

TRACE_ELEMENT_REGISTER_DEFINE (filter, "filter", TRACE_RANK_NONE, TRACE_TYPE_FILTER)
