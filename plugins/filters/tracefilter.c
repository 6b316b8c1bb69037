/* tracepipe - filter: keeps the events that match every condition
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "filters-private.h"

#define DEFAULT_TID FILTER_TID_ANY
#define DEFAULT_PID FILTER_PID_ANY
#define DEFAULT_PROCESS_NAME NULL
#define DEFAULT_THREAD_NAME NULL
#define DEFAULT_EVENT_NAME NULL
#define DEFAULT_CATEGORY NULL
#define DEFAULT_KIND 0
#define DEFAULT_START NULL
#define DEFAULT_END NULL
#define DEFAULT_INVERT FALSE
#define DEFAULT_KEEP_UNKNOWN FALSE

/* The conditions can change while playing: the engine takes them between
 * two batches and slices already open keep their decision.  The window
 * cannot: the stream may already be past it. */
#define MUTABLE (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | TRACE_PARAM_MUTABLE_PLAYING)
#define FIXED (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS)

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
 *
 * Every condition may change while the pipeline plays: it applies from
 * the next batch on, and a slice already begun keeps the decision its
 * begin got.  `start` and `end` are read when the element starts.
 */
struct _TraceFilter
{
  FilterElement parent_instance; /* keeps the options and runs the engine */
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

G_DEFINE_FINAL_TYPE (TraceFilter, trace_filter, FILTER_TYPE_ELEMENT)

static char **
string_field (FilterOptions *opts,
              guint prop_id)
{
  switch (prop_id)
    {
    case PROP_PROCESS_NAME:
      return &opts->process_name;
    case PROP_THREAD_NAME:
      return &opts->thread_name;
    case PROP_NAME:
      return &opts->name;
    case PROP_CATEGORY:
      return &opts->category;
    case PROP_START:
      return &opts->start;
    case PROP_END:
      return &opts->end;
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
  FilterOptions *opts;
  char **field;

  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  opts = filter_element_lock_options (FILTER_ELEMENT (object));
  field = string_field (opts, prop_id);
  if (field)
    {
      g_free (*field);
      *field = g_value_dup_string (value);
    }
  switch (prop_id)
    {
    case PROP_TID:
      opts->tid = g_value_get_int64 (value);
      break;
    case PROP_PID:
      opts->pid = g_value_get_int64 (value);
      break;
    case PROP_KIND:
      opts->kinds = g_value_get_flags (value);
      break;
    case PROP_INVERT:
      opts->invert = g_value_get_boolean (value);
      break;
    case PROP_KEEP_UNKNOWN:
      opts->keep_unknown = g_value_get_boolean (value);
      break;
    default:
      if (field == NULL)
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
  filter_element_unlock_options (FILTER_ELEMENT (object), TRUE);
}

static void
trace_filter_get_property (GObject *object,
                           guint prop_id,
                           GValue *value,
                           GParamSpec *pspec)
{
  FilterOptions *opts = filter_element_lock_options (FILTER_ELEMENT (object));
  char **field = string_field (opts, prop_id);

  if (field)
    g_value_set_string (value, *field);
  switch (prop_id)
    {
    case PROP_TID:
      g_value_set_int64 (value, opts->tid);
      break;
    case PROP_PID:
      g_value_set_int64 (value, opts->pid);
      break;
    case PROP_KIND:
      g_value_set_flags (value, opts->kinds);
      break;
    case PROP_INVERT:
      g_value_set_boolean (value, opts->invert);
      break;
    case PROP_KEEP_UNKNOWN:
      g_value_set_boolean (value, opts->keep_unknown);
      break;
    default:
      if (field == NULL)
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
  filter_element_unlock_options (FILTER_ELEMENT (object), FALSE);
}

static void
install_properties (GObjectClass *object_class)
{
  properties[PROP_TID] = g_param_spec_int64 ("tid", "Thread id", "Keep this thread only: a thread id, or main "
                                                                 "(the main thread of every process); -1 for any",
                                             FILTER_TID_MAIN, G_MAXINT64, DEFAULT_TID, MUTABLE);
  trace_param_spec_add_keyword (properties[PROP_TID], "main", FILTER_TID_MAIN);
  properties[PROP_PID] = g_param_spec_int64 ("pid", "Process id", "Keep this process only; -1 for any",
                                             FILTER_PID_ANY, G_MAXINT64, DEFAULT_PID, MUTABLE);
  properties[PROP_PROCESS_NAME] = g_param_spec_string ("process-name", "Process name",
                                                       "Keep processes whose name matches this glob",
                                                       DEFAULT_PROCESS_NAME, MUTABLE);
  properties[PROP_THREAD_NAME] = g_param_spec_string ("thread-name", "Thread name",
                                                      "Keep threads whose name matches this glob",
                                                      DEFAULT_THREAD_NAME, MUTABLE);
  /* Not "name": every element's "name" is its own name in the pipeline
   * (`filter name=f`), as in GStreamer; see docs/filters.md. */
  properties[PROP_NAME] = g_param_spec_string ("event-name", "Event name",
                                               "Keep events whose name matches this glob",
                                               DEFAULT_EVENT_NAME, MUTABLE);
  properties[PROP_CATEGORY] = g_param_spec_string ("category", "Category",
                                                   "Keep events of this category (a glob)",
                                                   DEFAULT_CATEGORY, MUTABLE);
  properties[PROP_KIND] = g_param_spec_flags ("kind", "Kind", "Keep these kinds of events (empty: all)",
                                              TRACE_TYPE_EVENT_GROUP, DEFAULT_KIND, MUTABLE);
  properties[PROP_START] = g_param_spec_string ("start", "Start",
                                                "Keep what happens from this time on: in the trace's clock "
                                                "(1212.5s, 200ms, ns) or after the first event (+1.5s)",
                                                DEFAULT_START, FIXED);
  properties[PROP_END] = g_param_spec_string ("end", "End",
                                              "Keep what happens until this time: in the trace's clock "
                                              "(1213s) or after the first event (+3s)",
                                              DEFAULT_END, FIXED);
  properties[PROP_INVERT] = g_param_spec_boolean ("invert", "Invert", "Drop what matches, keep the rest",
                                                  DEFAULT_INVERT, MUTABLE);
  properties[PROP_KEEP_UNKNOWN] = g_param_spec_boolean ("keep-unknown", "Keep unknown",
                                                        "Keep events whose process cannot be told", DEFAULT_KEEP_UNKNOWN, MUTABLE);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
trace_filter_class_init (TraceFilterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = trace_filter_set_property;
  object_class->get_property = trace_filter_get_property;
  install_properties (object_class);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Event filter", "Filter/Trace",
                                    "Keeps events by thread, process, name, category, kind and time",
                                    "tracepipe");
}

static void
trace_filter_init (TraceFilter *self)
{
  FilterOptions *opts = filter_element_lock_options (FILTER_ELEMENT (self));

  opts->tid = DEFAULT_TID;
  opts->pid = DEFAULT_PID;
  opts->process_name = g_strdup (DEFAULT_PROCESS_NAME);
  opts->thread_name = g_strdup (DEFAULT_THREAD_NAME);
  opts->name = g_strdup (DEFAULT_EVENT_NAME);
  opts->category = g_strdup (DEFAULT_CATEGORY);
  opts->kinds = DEFAULT_KIND;
  opts->start = g_strdup (DEFAULT_START);
  opts->end = g_strdup (DEFAULT_END);
  opts->invert = DEFAULT_INVERT;
  opts->keep_unknown = DEFAULT_KEEP_UNKNOWN;
  filter_element_unlock_options (FILTER_ELEMENT (self), FALSE);
}

TRACE_ELEMENT_REGISTER_DEFINE (filter, "filter", TRACE_RANK_NONE, TRACE_TYPE_FILTER)
