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
 * Keeps only the events of main threads: the same result as `filter
 * tid=main`, with `pid` or `process-name` to keep the main thread of one
 * app only. RheaTrace's main-thread-only mode, for any source.  A main
 * thread is the thread whose tid is the pid, or in Chrome's traces the
 * one named `CrBrowserMain`, `CrRendererMain`… (docs/filters.md).
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
  FilterElement parent_instance; /* keeps the options (tid always main) and runs the engine */
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

G_DEFINE_FINAL_TYPE (TraceMainThreadFilter, trace_main_thread_filter, FILTER_TYPE_ELEMENT)

static void
trace_main_thread_filter_set_property (GObject *object,
                                       guint prop_id,
                                       const GValue *value,
                                       GParamSpec *pspec)
{
  FilterOptions *opts;

  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  opts = filter_element_lock_options (FILTER_ELEMENT (object));
  switch (prop_id)
    {
    case PROP_PID:
      opts->pid = g_value_get_int64 (value);
      break;
    case PROP_PROCESS_NAME:
      g_free (opts->process_name);
      opts->process_name = g_value_dup_string (value);
      break;
    case PROP_KEEP_UNKNOWN:
      opts->keep_unknown = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
  filter_element_unlock_options (FILTER_ELEMENT (object), TRUE);
}

static void
trace_main_thread_filter_get_property (GObject *object,
                                       guint prop_id,
                                       GValue *value,
                                       GParamSpec *pspec)
{
  FilterOptions *opts = filter_element_lock_options (FILTER_ELEMENT (object));

  switch (prop_id)
    {
    case PROP_PID:
      g_value_set_int64 (value, opts->pid);
      break;
    case PROP_PROCESS_NAME:
      g_value_set_string (value, opts->process_name);
      break;
    case PROP_KEEP_UNKNOWN:
      g_value_set_boolean (value, opts->keep_unknown);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
  filter_element_unlock_options (FILTER_ELEMENT (object), FALSE);
}

static void
trace_main_thread_filter_class_init (TraceMainThreadFilterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = trace_main_thread_filter_set_property;
  object_class->get_property = trace_main_thread_filter_get_property;

  properties[PROP_PID] = g_param_spec_int64 ("pid", "Process id", "Keep the main thread of this process only; -1 for every process",
                                             FILTER_PID_ANY, G_MAXINT64, DEFAULT_PID, MUTABLE);
  properties[PROP_PROCESS_NAME] = g_param_spec_string ("process-name", "Process name",
                                                       "Keep the main thread of processes whose name matches this glob",
                                                       DEFAULT_PROCESS_NAME, MUTABLE);
  properties[PROP_KEEP_UNKNOWN] = g_param_spec_boolean ("keep-unknown", "Keep unknown",
                                                        "Keep events whose process cannot be told", DEFAULT_KEEP_UNKNOWN, MUTABLE);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Main thread filter", "Filter/Trace",
                                    "Keeps the events of main threads (tid equal to pid, or named as one)", "tracepipe");
}

static void
trace_main_thread_filter_init (TraceMainThreadFilter *self)
{
  FilterOptions *opts = filter_element_lock_options (FILTER_ELEMENT (self));

  opts->tid = FILTER_TID_MAIN;
  opts->pid = DEFAULT_PID;
  opts->process_name = g_strdup (DEFAULT_PROCESS_NAME);
  opts->keep_unknown = DEFAULT_KEEP_UNKNOWN;
  filter_element_unlock_options (FILTER_ELEMENT (self), FALSE);
}

TRACE_ELEMENT_REGISTER_DEFINE (main_thread_filter, "main-thread-filter", TRACE_RANK_NONE, TRACE_TYPE_MAIN_THREAD_FILTER)
