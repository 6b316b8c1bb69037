/* examples/plugin: min-duration, a filter that drops short slices
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "slicetext.h"

/**
 * SlicetextMinDuration:
 *
 * Drops complete slices (and instants, whose duration is 0) shorter than
 * #SlicetextMinDuration:min-dur; every other event goes through.
 *
 *     trace-launch slicetext-src location=app.slices ! min-duration min-dur=1ms ! fakesink dump=true
 *
 * A #TraceBaseTransform only has to change a batch in place: the base
 * class owns the pads, makes the batch writable, removes the events marked
 * %TRACE_EVENT_NONE, counts them as `dropped` in its STATS, and forwards
 * stream-start and EOS.
 */

#define DEFAULT_MIN_DUR 0

struct _SlicetextMinDuration
{
  TraceBaseTransform parent_instance;

  gint64 min_dur; /* property, nanoseconds */
};

enum
{
  PROP_0,
  PROP_MIN_DUR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SlicetextMinDuration, slicetext_min_duration, TRACE_TYPE_BASE_TRANSFORM)

/* NULL -> READY. With nothing to drop, ask the base to pass batches on
 * untouched: no copy, no loop. */
static gboolean
slicetext_min_duration_start (TraceBaseTransform *trans,
                              GError **error)
{
  trace_base_transform_set_passthrough (trans, SLICETEXT_MIN_DURATION (trans)->min_dur <= 0);
  return TRUE;
}

static TraceFlowReturn
slicetext_min_duration_transform_ip (TraceBaseTransform *trans,
                                     TraceBatch *batch)
{
  gint64 min_dur = SLICETEXT_MIN_DURATION (trans)->min_dur;

  for (guint i = 0; i < batch->n_events; i++)
    {
      TraceEvent *ev = &batch->events[i];

      /* u.slice is the member in use for these two kinds. */
      if ((ev->kind == TRACE_EVENT_SLICE_COMPLETE || ev->kind == TRACE_EVENT_INSTANT) &&
          ev->u.slice.dur < min_dur)
        ev->kind = TRACE_EVENT_NONE; /* the base removes it after we return */
    }
  return TRACE_FLOW_OK;
}

static void
slicetext_min_duration_set_property (GObject *object,
                                     guint prop_id,
                                     const GValue *value,
                                     GParamSpec *pspec)
{
  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_MIN_DUR:
      SLICETEXT_MIN_DURATION (object)->min_dur = g_value_get_int64 (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
slicetext_min_duration_get_property (GObject *object,
                                     guint prop_id,
                                     GValue *value,
                                     GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_MIN_DUR:
      g_value_set_int64 (value, SLICETEXT_MIN_DURATION (object)->min_dur);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
slicetext_min_duration_class_init (SlicetextMinDurationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceBaseTransformClass *trans_class = TRACE_BASE_TRANSFORM_CLASS (klass);

  object_class->set_property = slicetext_min_duration_set_property;
  object_class->get_property = slicetext_min_duration_get_property;
  trans_class->start = slicetext_min_duration_start;
  trans_class->transform_ip = slicetext_min_duration_transform_ip;

  /* A time in nanoseconds: trace_param_spec_set_time() makes launch
   * strings accept `5ms`, `1.5s` as well. */
  properties[PROP_MIN_DUR] =
      g_param_spec_int64 ("min-dur", "Minimum duration",
                          "Drop complete slices shorter than this, in nanoseconds (0 keeps all)",
                          0, G_MAXINT64, DEFAULT_MIN_DUR, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  trace_param_spec_set_time (properties[PROP_MIN_DUR]);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Minimum duration", "Filter/Trace",
                                    "Drops complete slices shorter than min-dur (an example)",
                                    "examples/plugin");
}

static void
slicetext_min_duration_init (SlicetextMinDuration *self)
{
  self->min_dur = DEFAULT_MIN_DUR;
}

TRACE_ELEMENT_REGISTER_DEFINE (min_duration, "min-duration", TRACE_RANK_NONE, SLICETEXT_TYPE_MIN_DURATION)
