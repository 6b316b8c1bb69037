/* tracepipe - identity: passes events through
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "tracecoreelements.h"

#define DEFAULT_PASSTHROUGH TRUE
#define DEFAULT_SLEEP_TIME 0

/**
 * TraceIdentity:
 *
 * Passes every batch through. With `passthrough=false` it takes each
 * batch writable and visits every event, which is what an in-place
 * filter costs: the benchmark uses it to measure the framework. With
 * `sleep-time` it waits that long before passing each batch on, which
 * makes any source a slow one (a live capture, for the tests).
 */
struct _TraceIdentity
{
  TraceBaseTransform parent_instance;

  guint64 checksum;
  guint sleep_time; /* µs */
};

enum
{
  PROP_0,
  PROP_PASSTHROUGH,
  PROP_SLEEP_TIME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TraceIdentity, trace_identity, TRACE_TYPE_BASE_TRANSFORM)

static TraceFlowReturn
trace_identity_transform_ip (TraceBaseTransform *trans,
                             TraceBatch *batch)
{
  TraceIdentity *self = TRACE_IDENTITY (trans);
  guint64 sum = 0;
  guint sleep_time = g_atomic_int_get (&self->sleep_time);

  if (sleep_time > 0)
    g_usleep (sleep_time);
  /* Touch every event so the cost of an in-place pass is real. */
  for (guint i = 0; i < batch->n_events; i++)
    sum += batch->events[i].ts;
  self->checksum += sum;
  return TRACE_FLOW_OK;
}

static void
trace_identity_set_property (GObject *object,
                             guint prop_id,
                             const GValue *value,
                             GParamSpec *pspec)
{
  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_PASSTHROUGH:
      trace_base_transform_set_passthrough (TRACE_BASE_TRANSFORM (object), g_value_get_boolean (value));
      break;
    case PROP_SLEEP_TIME:
      g_atomic_int_set (&TRACE_IDENTITY (object)->sleep_time, g_value_get_uint (value));
      /* the wait is in the pass over the events */
      if (g_value_get_uint (value) > 0)
        trace_base_transform_set_passthrough (TRACE_BASE_TRANSFORM (object), FALSE);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_identity_get_property (GObject *object,
                             guint prop_id,
                             GValue *value,
                             GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_PASSTHROUGH:
      g_value_set_boolean (value, trace_base_transform_is_passthrough (TRACE_BASE_TRANSFORM (object)));
      break;
    case PROP_SLEEP_TIME:
      g_value_set_uint (value, g_atomic_int_get (&TRACE_IDENTITY (object)->sleep_time));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_identity_class_init (TraceIdentityClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = trace_identity_set_property;
  object_class->get_property = trace_identity_get_property;
  TRACE_BASE_TRANSFORM_CLASS (klass)->transform_ip = trace_identity_transform_ip;

  /**
   * TraceIdentity:passthrough:
   *
   * Forward batches untouched (the default), or visit every event in a
   * writable batch.
   */
  properties[PROP_PASSTHROUGH] =
      g_param_spec_boolean ("passthrough", "Passthrough", "Forward batches untouched instead of visiting each event",
                            DEFAULT_PASSTHROUGH,
                            /* the base transform reads it at each batch */
                            G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS |
                                TRACE_PARAM_MUTABLE_PLAYING);
  /**
   * TraceIdentity:sleep-time:
   *
   * Microseconds to wait before passing each batch on, on the thread
   * that pushes it (0: none). A value above 0 sets `passthrough=false`,
   * as the wait is part of the pass over the events.
   */
  properties[PROP_SLEEP_TIME] =
      g_param_spec_uint ("sleep-time", "Sleep time", "Microseconds to wait before passing each batch on (0: none)", 0,
                         G_MAXUINT, DEFAULT_SLEEP_TIME,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | TRACE_PARAM_MUTABLE_PLAYING);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  trace_element_class_set_metadata (TRACE_ELEMENT_CLASS (klass), "Identity", "Filter/Generic",
                                    "Passes events through unchanged", "tracepipe");
}

static void
trace_identity_init (TraceIdentity *self)
{
  trace_base_transform_set_passthrough (TRACE_BASE_TRANSFORM (self), DEFAULT_PASSTHROUGH);
}
