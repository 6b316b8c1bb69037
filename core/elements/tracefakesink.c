/* tracepipe - fakesink: counts and discards
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdio.h>

#include "trace/trace.h"
#include "tracecoreelements.h"

#define DEFAULT_DUMP FALSE

/**
 * TraceFakeSink:
 *
 * Discards what it receives and counts it. With `dump=true` it prints one
 * line per event on standard output: a quick way to see what a source
 * makes of a file.
 */
struct _TraceFakeSink
{
  TraceBaseSink parent_instance;

  guint64 events;
  guint64 batches;
  gboolean dump;
};

enum
{
  PROP_0,
  PROP_EVENTS,
  PROP_BATCHES,
  PROP_DUMP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TraceFakeSink, trace_fake_sink, TRACE_TYPE_BASE_SINK)

static void
dump_event (TraceBatch *batch,
            const TraceEvent *ev)
{
  const TraceArg *args = trace_batch_get_args (batch, ev);

  printf ("%" G_GINT64_FORMAT " %s pid=%" G_GINT64_FORMAT " tid=%" G_GINT64_FORMAT " cpu=%d name=\"%s\"",
          ev->ts, trace_event_kind_to_string (ev->kind), ev->pid, ev->tid, ev->cpu,
          trace_batch_get_string (batch, ev->name));
  if (ev->kind == TRACE_EVENT_COUNTER)
    printf (" value=%.17g", ev->u.counter.value);
  else if (ev->kind == TRACE_EVENT_SLICE_COMPLETE)
    printf (" dur=%" G_GINT64_FORMAT, ev->u.slice.dur);
  for (guint i = 0; i < ev->n_args; i++)
    {
      const TraceArg *a = &args[i];
      const char *key = trace_batch_get_string (batch, a->key);

      switch (a->type)
        {
        case TRACE_ARG_INT:
          printf (" %s=%" G_GINT64_FORMAT, key, a->v.i);
          break;
        case TRACE_ARG_UINT:
        case TRACE_ARG_POINTER:
          printf (" %s=%" G_GUINT64_FORMAT, key, a->v.u);
          break;
        case TRACE_ARG_DOUBLE:
          printf (" %s=%.17g", key, a->v.d);
          break;
        case TRACE_ARG_STRING:
          printf (" %s=\"%s\"", key, trace_batch_get_string (batch, a->v.s));
          break;
        case TRACE_ARG_BOOL:
          printf (" %s=%s", key, a->v.b ? "true" : "false");
          break;
        }
    }
  putchar ('\n');
}

static TraceFlowReturn
trace_fake_sink_render (TraceBaseSink *sink,
                        TraceBatch *batch,
                        GError **error)
{
  TraceFakeSink *self = TRACE_FAKE_SINK (sink);

  self->events += batch->n_events;
  self->batches++;
  if (self->dump)
    for (guint i = 0; i < batch->n_events; i++)
      dump_event (batch, &batch->events[i]);
  return TRACE_FLOW_OK;
}

static gboolean
trace_fake_sink_start (TraceBaseSink *sink,
                       GError **error)
{
  TRACE_FAKE_SINK (sink)->events = TRACE_FAKE_SINK (sink)->batches = 0;
  return TRUE;
}

static gboolean
trace_fake_sink_finish (TraceBaseSink *sink,
                        GError **error)
{
  if (TRACE_FAKE_SINK (sink)->dump)
    fflush (stdout);
  return TRUE;
}

static void
trace_fake_sink_collect_stats (TraceElement *element,
                               GVariantDict *stats)
{
  TRACE_ELEMENT_CLASS (trace_fake_sink_parent_class)->collect_stats (element, stats);
  g_variant_dict_insert (stats, "events-received", "t", TRACE_FAKE_SINK (element)->events);
}

static void
trace_fake_sink_set_property (GObject *object,
                              guint prop_id,
                              const GValue *value,
                              GParamSpec *pspec)
{
  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_DUMP:
      TRACE_FAKE_SINK (object)->dump = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_fake_sink_get_property (GObject *object,
                              guint prop_id,
                              GValue *value,
                              GParamSpec *pspec)
{
  TraceFakeSink *self = TRACE_FAKE_SINK (object);

  switch (prop_id)
    {
    case PROP_EVENTS:
      g_value_set_uint64 (value, self->events);
      break;
    case PROP_BATCHES:
      g_value_set_uint64 (value, self->batches);
      break;
    case PROP_DUMP:
      g_value_set_boolean (value, self->dump);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_fake_sink_class_init (TraceFakeSinkClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceBaseSinkClass *sink_class = TRACE_BASE_SINK_CLASS (klass);

  object_class->set_property = trace_fake_sink_set_property;
  object_class->get_property = trace_fake_sink_get_property;
  sink_class->start = trace_fake_sink_start;
  sink_class->render = trace_fake_sink_render;
  sink_class->finish = trace_fake_sink_finish;
  TRACE_ELEMENT_CLASS (klass)->collect_stats = trace_fake_sink_collect_stats;

  properties[PROP_EVENTS] =
      g_param_spec_uint64 ("events", "Events", "Events received", 0, G_MAXUINT64, 0,
                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_BATCHES] =
      g_param_spec_uint64 ("batches", "Batches", "Batches received", 0, G_MAXUINT64, 0,
                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_DUMP] =
      g_param_spec_boolean ("dump", "Dump", "Print every event on standard output", DEFAULT_DUMP,
                            /* read at each batch */
                            G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | TRACE_PARAM_MUTABLE_PLAYING);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Fake sink", "Sink/Trace",
                                    "Counts and discards events (dump=true prints them)", "tracepipe");
}

static void
trace_fake_sink_init (TraceFakeSink *self)
{
  self->dump = DEFAULT_DUMP;
}
