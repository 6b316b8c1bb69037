/* tracepipe - clock-sync's request pads and their properties
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A second GObject of the element, with its own class and properties:
 * it reads better in a file of its own than in the middle of the
 * element's.  Its properties are read when the clocks are decided, so a
 * change after that no longer applies; they are not refused, since a pad
 * is not an element (trace_element_may_set_property() takes an element).
 */
#include "config.h"

#include "clocksync-private.h"

#define DEFAULT_OFFSET 0
#define DEFAULT_DOMAIN TRACE_CLOCK_UNKNOWN

/**
 * TraceClockSyncPad:
 *
 * An input of `clock-sync`. Its properties say what its stream does not
 * (or say it better), from a launch line as `m.sink_1::offset=5ms` or
 * `clock-sync name=m sink_1::domain=monotonic`.
 */

enum
{
  PROP_0,
  PROP_OFFSET,
  PROP_DOMAIN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TraceClockSyncPad, trace_clock_sync_pad, TRACE_TYPE_AGGREGATOR_PAD)

/* Forgets what one run learnt (NULL→READY). */
void
clocksync_pad_reset (TraceClockSyncPad *pad)
{
  g_queue_clear_full (&pad->held, (GDestroyNotify) trace_batch_unref);
  pad->input = -1;
  pad->decided = FALSE;
  pad->rewrite = FALSE;
  pad->applied_offset = 0;
  pad->applied_domain = TRACE_CLOCK_UNKNOWN;
  pad->first_ts = 0;
  pad->has_first_ts = FALSE;
  pad->events_seen = 0;
  pad->late_warnings = 0;
}

static void
trace_clock_sync_pad_set_property (GObject *object,
                                   guint prop_id,
                                   const GValue *value,
                                   GParamSpec *pspec)
{
  TraceClockSyncPad *self = TRACE_CLOCK_SYNC_PAD (object);

  switch (prop_id)
    {
    case PROP_OFFSET:
      self->offset = g_value_get_int64 (value);
      /* Setting it, even to 0, says how this input relates to the target. */
      self->offset_set = TRUE;
      break;
    case PROP_DOMAIN:
      self->domain = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_clock_sync_pad_get_property (GObject *object,
                                   guint prop_id,
                                   GValue *value,
                                   GParamSpec *pspec)
{
  TraceClockSyncPad *self = TRACE_CLOCK_SYNC_PAD (object);

  switch (prop_id)
    {
    case PROP_OFFSET:
      g_value_set_int64 (value, self->offset);
      break;
    case PROP_DOMAIN:
      g_value_set_enum (value, self->domain);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_clock_sync_pad_finalize (GObject *object)
{
  g_queue_clear_full (&TRACE_CLOCK_SYNC_PAD (object)->held, (GDestroyNotify) trace_batch_unref);
  G_OBJECT_CLASS (trace_clock_sync_pad_parent_class)->finalize (object);
}

static void
trace_clock_sync_pad_class_init (TraceClockSyncPadClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = trace_clock_sync_pad_set_property;
  object_class->get_property = trace_clock_sync_pad_get_property;
  object_class->finalize = trace_clock_sync_pad_finalize;

  /**
   * TraceClockSyncPad:offset:
   *
   * Added to this input's timestamps: onto the target clock, or onto
   * #TraceClockSyncPad:domain when that is set. Replaces what the
   * stream-start says; clock markers still win over it.
   */
  properties[PROP_OFFSET] =
      g_param_spec_int64 ("offset", "Offset",
                          "Added to this input's timestamps (ns): onto the target clock, or onto 'domain' when set",
                          G_MININT64, G_MAXINT64, DEFAULT_OFFSET, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  trace_param_spec_set_time (properties[PROP_OFFSET]);
  /**
   * TraceClockSyncPad:domain:
   *
   * The clock of this input's timestamps, when its stream-start does not
   * say it or says it wrong; `unknown` keeps the stream-start's.
   */
  properties[PROP_DOMAIN] =
      g_param_spec_enum ("domain", "Domain",
                         "The clock of this input's timestamps, instead of its stream-start's (unknown: keep that)",
                         TRACE_TYPE_CLOCK_DOMAIN, DEFAULT_DOMAIN, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
trace_clock_sync_pad_init (TraceClockSyncPad *self)
{
  g_queue_init (&self->held);
  self->offset = DEFAULT_OFFSET;
  self->domain = DEFAULT_DOMAIN;
  self->input = -1;
}
