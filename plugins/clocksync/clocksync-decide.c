/* tracepipe - clock-sync: taking the decision and saying it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Once every input's look-ahead is full (or it ended), the evidence goes
 * to the solver, each input gets its offset, and what was decided is
 * said three ways: an ELEMENT message per input on the bus (for
 * programs), an INFO or WARNING per input (for people), and in the
 * stream itself: the output's stream-start names the target clock and
 * sums the decisions up, and one clock-pair marker per input whose clock
 * is a shared one ties it to the target (Perfetto writes those as clock
 * snapshots, Chrome JSON as metadata).
 */
#include "config.h"

#include "clocksync-private.h"

static const char *
pad_name (TraceClockSyncPad *pad)
{
  return trace_pad_get_name (TRACE_PAD (pad));
}

static const TraceStreamInfo *
pad_info (TraceClockSyncPad *pad)
{
  return trace_aggregator_pad_get_stream_info (TRACE_AGGREGATOR_PAD (pad));
}

static void
feed_solver (TraceClockSync *self,
             GList *pads)
{
  for (GList *l = pads; l; l = l->next)
    {
      TraceClockSyncPad *pad = l->data;
      const TraceStreamInfo *info = pad_info (pad);
      guint input;

      if (pad->input < 0)
        pad->input = (gint) clocksync_solver_add_input (self->solver, pad_name (pad), TRACE_CLOCK_UNKNOWN);
      input = (guint) pad->input;
      clocksync_solver_set_declared_domain (self->solver, input, info ? info->clock_domain : TRACE_CLOCK_UNKNOWN);
      if (pad->domain != TRACE_CLOCK_UNKNOWN)
        clocksync_solver_set_domain_property (self->solver, input, pad->domain);
      if (pad->offset_set)
        clocksync_solver_set_offset_property (self->solver, input, pad->offset);
    }
}

static GVariant *
decision_details (TraceClockSync *self,
                  TraceClockSyncPad *pad,
                  const ClocksyncDecision *d)
{
  const TraceStreamInfo *info = pad_info (pad);
  GVariantBuilder b;

  g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&b, "{sv}", "name", g_variant_new_string ("clock-sync"));
  g_variant_builder_add (&b, "{sv}", "pad", g_variant_new_string (pad_name (pad)));
  if (info && info->format)
    g_variant_builder_add (&b, "{sv}", "format", g_variant_new_string (info->format));
  if (info && info->location)
    g_variant_builder_add (&b, "{sv}", "location", g_variant_new_string (info->location));
  g_variant_builder_add (&b, "{sv}", "domain", g_variant_new_string (trace_clock_domain_to_string (d->domain)));
  g_variant_builder_add (&b, "{sv}", "target", g_variant_new_string (trace_clock_domain_to_string (self->opts.target)));
  g_variant_builder_add (&b, "{sv}", "offset", g_variant_new_int64 (d->offset));
  g_variant_builder_add (&b, "{sv}", "precision", g_variant_new_int64 (d->precision));
  g_variant_builder_add (&b, "{sv}", "source", g_variant_new_string (clocksync_source_to_string (d->source)));
  g_variant_builder_add (&b, "{sv}", "synced", g_variant_new_boolean (d->on_target));
  g_variant_builder_add (&b, "{sv}", "guess", g_variant_new_boolean (d->guess));
  g_variant_builder_add (&b, "{sv}", "via", g_variant_new_string (d->via));
  return g_variant_builder_end (&b);
}

/* "sink_1 (chrome-json, monotonic)" */
static char *
describe_pad (TraceClockSyncPad *pad,
              const ClocksyncDecision *d)
{
  const TraceStreamInfo *info = pad_info (pad);

  return g_strdup_printf ("%s (%s, clock %s)", pad_name (pad), info && info->format ? info->format : "no stream-start",
                          trace_clock_domain_to_string (d->domain));
}

static void
say_decision (TraceClockSync *self,
              TraceClockSyncPad *pad,
              const ClocksyncDecision *d)
{
  TraceElement *element = TRACE_ELEMENT (self);
  g_autofree char *who = describe_pad (pad, d);
  g_autofree char *offset = clocksync_format_duration (d->offset, TRUE);
  g_autofree char *precision = clocksync_format_duration (d->precision, FALSE);
  const char *target = trace_clock_domain_to_string (self->opts.target);

  if (!d->on_target)
    {
      /* An input that ended empty has nothing to misplace. */
      if (pad->events_seen == 0 && self->opts.lookahead > 0)
        return;
      if (d->offset == 0)
        trace_element_post_warning (element, NULL,
                                    "%s: %s; passed through unshifted (give its pad an offset or domain "
                                    "property to place it)",
                                    who, d->via);
      else
        trace_element_post_warning (element, NULL,
                                    "%s: %s; shifted by %s only to stay with it (give its pad an offset or "
                                    "domain property to place it)",
                                    who, d->via, offset);
    }
  else if (d->guess)
    trace_element_post_warning (element, NULL,
                                "%s: shifted by %s onto the %s clock on a guess, precision %s: %s; set the "
                                "pad's offset or domain property if that is wrong",
                                who, offset, target, precision, d->via);
  else if (d->offset == 0)
    trace_element_post_info (element, "%s: not shifted: on the %s clock from %s, precision %s: %s", who, target,
                             clocksync_source_to_string (d->source), precision, d->via);
  else
    trace_element_post_info (element, "%s: shifted by %s onto the %s clock, from %s, precision %s: %s", who,
                             offset, target, clocksync_source_to_string (d->source), precision, d->via);
}

static void
push_stream_start (TraceClockSync *self,
                   GList *pads)
{
  TracePad *src = trace_element_get_static_pad (TRACE_ELEMENT (self), "src");
  g_autoptr (GString) summary = g_string_new ("clock-sync:");
  const char *format = NULL, *location = NULL;
  gboolean same_format = TRUE;
  TraceStreamFlags any = TRACE_STREAM_FLAG_NONE, every = TRACE_STREAM_FLAGS_OF_ORIGIN;
  gboolean have_info = FALSE;
  TraceStreamEvent *start;

  for (GList *l = pads; l; l = l->next)
    {
      TraceClockSyncPad *pad = l->data;
      const TraceStreamInfo *info = pad_info (pad);
      const ClocksyncDecision *d = clocksync_solver_get_decision (self->solver, (guint) pad->input);
      g_autofree char *offset = clocksync_format_duration (d->offset, TRUE);

      if (info && info->format && format && g_strcmp0 (format, info->format) != 0)
        same_format = FALSE;
      if (info && info->format && !format)
        format = info->format;
      if (info && l == pads && l->next == NULL)
        location = info->location;
      if (info)
        {
          any |= info->flags;
          every &= info->flags;
          have_info = TRUE;
        }
      g_string_append_printf (summary, "%s %s %s %s (%s)", l == pads ? "" : ";", pad_name (pad),
                              trace_clock_domain_to_string (d->domain), offset,
                              clocksync_source_to_string (d->source));
    }
  start = trace_stream_event_new_stream_start (same_format ? format : "merged", location, self->opts.target,
                                               summary->str);
  /* What holds of one input's threads holds of them in the merged stream;
   * how the inputs were read holds of it only if it holds of each. */
  start->info.flags = (any & ~TRACE_STREAM_FLAGS_OF_ORIGIN) | (have_info ? every : 0);
  trace_pad_push_event (src, start);
}

/* One exact pair per input on a shared clock other than the target:
 * its first timestamp, before and after the shift. */
static TraceFlowReturn
push_clock_pairs (TraceClockSync *self,
                  GList *pads)
{
  TraceStringPool *pool = trace_element_get_string_pool (TRACE_ELEMENT (self));
  g_autoptr (TraceBatch) batch = trace_batch_new (pool, g_list_length (pads));

  for (GList *l = pads; l; l = l->next)
    {
      TraceClockSyncPad *pad = l->data;
      const ClocksyncDecision *d = clocksync_solver_get_decision (self->solver, (guint) pad->input);
      TraceEvent *ev;

      if (!d->on_target || !pad->has_first_ts || d->domain == self->opts.target ||
          !clocksync_domain_is_shared (d->domain))
        continue;
      ev = trace_batch_append (batch, TRACE_EVENT_CLOCK_MARKER, pad->first_ts + d->offset);
      ev->name = trace_string_pool_intern (pool, "clock-sync");
      ev->u.clock.marker = TRACE_CLOCK_MARKER_PAIR;
      ev->u.clock.domain = d->domain;
      ev->u.clock.other_ts = pad->first_ts;
      trace_batch_add_arg_string (batch, ev, "pad", pad_name (pad));
      trace_batch_add_arg_string (batch, ev, "source", clocksync_source_to_string (d->source));
      trace_batch_add_arg_int (batch, ev, "precision_ns", d->precision);
    }
  if (batch->n_events == 0)
    return TRACE_FLOW_OK;
  return trace_aggregator_finish_batch (TRACE_AGGREGATOR (self), g_steal_pointer (&batch));
}

static void
apply_decision (TraceClockSync *self,
                TraceClockSyncPad *pad,
                const ClocksyncDecision *d)
{
  pad->decided = TRUE;
  pad->applied_offset = d->offset;
  pad->applied_domain = d->domain;
  pad->rewrite = d->offset != 0 || (d->domain != self->opts.target && clocksync_domain_is_shared (d->domain));
}

/**
 * clocksync_decide:
 *
 * Decides every input's offset, says it on the bus and sends the output's
 * stream-start and clock pairs, before any batch goes out.
 */
void
clocksync_decide (TraceClockSync *self)
{
  g_autoptr (GList) pads = trace_aggregator_get_sink_pads (TRACE_AGGREGATOR (self));
  GPtrArray *conflicts;

  g_debug ("deciding the clocks of %u inputs onto %s (%" G_GUINT64_FORMAT " clock markers used, %" G_GUINT64_FORMAT
           " unusable)",
           g_list_length (pads), trace_clock_domain_to_string (self->opts.target), self->markers_used,
           self->markers_unusable);
  feed_solver (self, pads);
  clocksync_solver_solve (self->solver);
  self->decided = TRUE;
  for (GList *l = pads; l; l = l->next)
    {
      TraceClockSyncPad *pad = l->data;
      const ClocksyncDecision *d = clocksync_solver_get_decision (self->solver, (guint) pad->input);

      apply_decision (self, pad, d);
      g_debug ("%s: offset %" G_GINT64_FORMAT " ns from %s (precision %" G_GINT64_FORMAT " ns, %s%s): %s",
               pad_name (pad), d->offset, clocksync_source_to_string (d->source), d->precision,
               d->on_target ? "on target" : "not on target", d->guess ? ", a guess" : "", d->via);
      trace_element_post_message (TRACE_ELEMENT (self),
                                  trace_message_new_element (G_OBJECT (self), decision_details (self, pad, d)));
      say_decision (self, pad, d);
    }
  conflicts = clocksync_solver_get_conflicts (self->solver);
  for (guint i = 0; i < conflicts->len; i++)
    {
      const ClocksyncConflict *c = g_ptr_array_index (conflicts, i);

      self->conflicts++;
      trace_element_post_warning (TRACE_ELEMENT (self), NULL, "%s", c->text);
    }
  push_stream_start (self, pads);
  push_clock_pairs (self, pads);
}
