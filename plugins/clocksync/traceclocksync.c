/* tracepipe - clock-sync: several clocks, one timeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "clocksync-private.h"

/**
 * TraceClockSync:
 *
 * Merges streams recorded on different clocks (ftrace on boot time, an
 * ArkTS profile on CLOCK_MONOTONIC, a Chrome trace on its own ticks) into
 * one stream on the #TraceClockSync:target clock. Each input's offset
 * comes from, in order of trust: the clock its stream-start declares,
 * sync ids marked in two inputs, explicit clock pairs (`parent_ts`,
 * `realtime_ts`, RheaTrace's `monotonic_time`), the pad properties
 * `offset` and `domain`, and a guess from the first timestamps. Markers
 * count when they come within the first #TraceClockSync:lookahead batches
 * of their input; later ones are reported, not applied backwards. Every
 * decision is posted as an ELEMENT message named `clock-sync` and written
 * into the output's stream-start. See docs/clocks.md.
 *
 * ```
 * trace-launch clock-sync name=m ! perfetto-sink location=out.pftrace \
 *     ftrace-src location=kernel.txt ! m.  json-src location=app.json ! m.
 * ```
 *
 * Its properties are read when the element starts and cannot change while
 * it plays; its pads' `offset` and `domain` are read when the clocks are
 * decided.
 */

#define DEFAULT_TARGET TRACE_CLOCK_BOOTTIME
#define DEFAULT_LOOKAHEAD 16
#define DEFAULT_GUESS_WINDOW (G_GINT64_CONSTANT (600) * 1000000000)
#define MAX_LATE_WARNINGS 10

enum
{
  PROP_0,
  PROP_TARGET,
  PROP_LOOKAHEAD,
  PROP_GUESS_WINDOW,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const TraceStaticPadTemplate sink_template =
    TRACE_STATIC_PAD_TEMPLATE ("sink_%u", TRACE_PAD_SINK, TRACE_PAD_REQUEST, TRACE_MEDIA_TYPE_EVENTS);

G_DEFINE_FINAL_TYPE (TraceClockSync, trace_clock_sync, TRACE_TYPE_AGGREGATOR)

/* ---- shifting ---- */

static TraceFlowReturn
push_shifted (TraceClockSync *self,
              TraceClockSyncPad *pad,
              TraceBatch *batch)
{
  if (pad->rewrite)
    {
      batch = trace_batch_make_writable (batch);
      clocksync_shift_batch (batch, pad->applied_offset, pad->applied_domain, self->opts.target);
    }
  trace_input_spans_add_batch (self->spans, TRACE_PAD (pad), batch);
  return trace_aggregator_finish_batch (TRACE_AGGREGATOR (self), batch);
}

/* ---- the look-ahead ---- */

static guint
pad_input (TraceClockSync *self,
           TraceClockSyncPad *pad)
{
  if (pad->input < 0)
    pad->input = (gint) clocksync_solver_add_input (self->solver, trace_pad_get_name (TRACE_PAD (pad)),
                                                    TRACE_CLOCK_UNKNOWN);
  return (guint) pad->input;
}

static void
scan_batch (TraceClockSync *self,
            TraceClockSyncPad *pad,
            TraceBatch *batch)
{
  guint input = pad_input (self, pad);

  for (guint i = 0; i < batch->n_events; i++)
    {
      const TraceEvent *ev = &batch->events[i];

      if (ev->kind == TRACE_EVENT_CLOCK_MARKER)
        {
          if (clocksync_solver_add_marker (self->solver, input, ev) == CLOCKSYNC_MARKER_USED)
            self->markers_used++;
          else if (self->markers_unusable++ == 0)
            g_debug ("%s: first clock marker not usable as evidence, at ts=%" G_GINT64_FORMAT,
                     trace_pad_get_name (TRACE_PAD (pad)), ev->ts);
        }
      if (ev->kind != TRACE_EVENT_NONE && !clocksync_kind_is_untimed (ev->kind) &&
          (!pad->has_first_ts || ev->ts < pad->first_ts))
        {
          pad->first_ts = ev->ts;
          pad->has_first_ts = TRUE;
        }
    }
  pad->events_seen += batch->n_events;
  if (pad->has_first_ts)
    clocksync_solver_note_ts (self->solver, input, pad->first_ts);
}

/* Takes one batch from every input still looking. Returns whether every
 * input is done: its look-ahead is full, or it ended. */
static gboolean
look_ahead (TraceClockSync *self)
{
  g_autoptr (GList) pads = trace_aggregator_get_sink_pads (TRACE_AGGREGATOR (self));
  gboolean done = TRUE;

  for (GList *l = pads; l; l = l->next)
    {
      TraceClockSyncPad *pad = l->data;
      TraceAggregatorPad *apad = l->data;

      if (g_queue_get_length (&pad->held) < self->opts.lookahead)
        {
          TraceBatch *batch = trace_aggregator_pad_pop_batch (apad);

          if (batch)
            {
              scan_batch (self, pad, batch);
              g_queue_push_tail (&pad->held, batch);
            }
        }
      if (g_queue_get_length (&pad->held) < self->opts.lookahead &&
          !(trace_aggregator_pad_is_eos (apad) && trace_aggregator_pad_get_queued (apad) == 0))
        done = FALSE;
    }
  return done;
}

/* The input whose next batch starts earliest on the target clock, from
 * the look-ahead (@held) or from the queues. */
static TraceClockSyncPad *
earliest_pad (TraceClockSync *self,
              gboolean held)
{
  g_autoptr (GList) pads = trace_aggregator_get_sink_pads (TRACE_AGGREGATOR (self));
  TraceClockSyncPad *best = NULL;
  gint64 best_ts = G_MAXINT64;

  for (GList *l = pads; l; l = l->next)
    {
      TraceClockSyncPad *pad = l->data;
      TraceBatch *head = held ? g_queue_peek_head (&pad->held)
                              : trace_aggregator_pad_peek_batch (TRACE_AGGREGATOR_PAD (pad));
      gint64 ts;

      if (head == NULL)
        continue;
      ts = trace_time_add_saturated (clocksync_batch_start (head), pad->applied_offset);
      if (best == NULL || ts < best_ts)
        best = pad, best_ts = ts;
    }
  return best;
}

static TraceFlowReturn
decide_and_flush (TraceClockSync *self)
{
  g_autoptr (GList) pads = NULL;
  TraceClockSyncPad *pad;
  TraceFlowReturn ret = TRACE_FLOW_OK;

  clocksync_decide (self);
  while (ret == TRACE_FLOW_OK && (pad = earliest_pad (self, TRUE)) != NULL)
    ret = push_shifted (self, pad, g_queue_pop_head (&pad->held));
  /* Downstream refused: what is still held will never be wanted. */
  pads = trace_aggregator_get_sink_pads (TRACE_AGGREGATOR (self));
  for (GList *l = pads; l; l = l->next)
    g_queue_clear_full (&TRACE_CLOCK_SYNC_PAD (l->data)->held, (GDestroyNotify) trace_batch_unref);
  return ret;
}

/* ---- after the decision ---- */

static void
check_late_markers (TraceClockSync *self,
                    TraceClockSyncPad *pad,
                    TraceBatch *batch)
{
  TraceElement *element = TRACE_ELEMENT (self);

  for (guint i = 0; i < batch->n_events; i++)
    {
      g_autofree char *text = NULL;

      if (G_LIKELY (batch->events[i].kind != TRACE_EVENT_CLOCK_MARKER) || pad->input < 0)
        continue;
      if (self->markers_late++ == 0)
        g_debug ("%s: first clock marker after the look-ahead, at ts=%" G_GINT64_FORMAT,
                 trace_pad_get_name (TRACE_PAD (pad)), batch->events[i].ts);
      text = clocksync_solver_check_late_marker (self->solver, (guint) pad->input, &batch->events[i]);
      if (text == NULL)
        continue;
      if (pad->late_warnings++ < MAX_LATE_WARNINGS)
        trace_element_post_warning (element, NULL, "%s", text);
      else if (pad->late_warnings == MAX_LATE_WARNINGS + 1)
        trace_element_post_warning (element, NULL, "%s: more clock markers after the look-ahead; "
                                                   "they are counted in the stats, not reported",
                                    trace_pad_get_name (TRACE_PAD (pad)));
    }
}

/* A pad requested once the clocks were decided has no evidence weighed:
 * it passes through, which is said once. */
static void
decide_late_pad (TraceClockSync *self,
                 TraceClockSyncPad *pad)
{
  pad->decided = TRUE;
  pad->applied_offset = 0;
  pad->rewrite = FALSE;
  trace_element_post_warning (TRACE_ELEMENT (self), NULL,
                              "%s joined after the clocks were decided: passed through unshifted",
                              trace_pad_get_name (TRACE_PAD (pad)));
}

static TraceFlowReturn
push_next (TraceClockSync *self)
{
  TraceClockSyncPad *pad = earliest_pad (self, FALSE);
  TraceBatch *batch;

  if (pad == NULL)
    return TRACE_FLOW_OK;
  batch = trace_aggregator_pad_pop_batch (TRACE_AGGREGATOR_PAD (pad));
  if (!pad->decided)
    decide_late_pad (self, pad);
  check_late_markers (self, pad, batch);
  return push_shifted (self, pad, batch);
}

static TraceFlowReturn
trace_clock_sync_aggregate (TraceAggregator *agg,
                            gboolean all_at_eos)
{
  TraceClockSync *self = TRACE_CLOCK_SYNC (agg);

  if (self->decided)
    return push_next (self);
  if (!look_ahead (self))
    return TRACE_FLOW_OK;
  return decide_and_flush (self);
}

/* Every input ended (perhaps inside its look-ahead). Inputs that never
 * meet on the output's timeline are said once, here, where their spans
 * are known. */
static TraceBatch *
trace_clock_sync_drain (TraceAggregator *agg)
{
  TraceClockSync *self = TRACE_CLOCK_SYNC (agg);
  g_autofree char *gaps = NULL;

  if (!self->decided)
    decide_and_flush (self);
  gaps = trace_input_spans_describe_gaps (self->spans);
  if (gaps)
    trace_element_post_warning (TRACE_ELEMENT (self), NULL,
                                "%s (captures of different times, or clocks nothing tied: see each input's "
                                "clock above; a pad's offset or domain property places an input)",
                                gaps);
  return NULL;
}

/* The output's stream-start waits for the decision (it says what was
 * decided). A stream-start that comes again after it cannot change what
 * already left. */
static TraceStreamEvent *
trace_clock_sync_sink_stream_start (TraceAggregator *agg,
                                    TraceAggregatorPad *apad,
                                    TraceStreamEvent *event)
{
  TraceClockSyncPad *pad = TRACE_CLOCK_SYNC_PAD (apad);

  if (pad->decided && pad->domain == TRACE_CLOCK_UNKNOWN && event->info.clock_domain != pad->applied_domain)
    {
      g_autofree char *offset = clocksync_format_duration (pad->applied_offset, TRUE);

      trace_element_post_warning (TRACE_ELEMENT (agg), NULL,
                                  "%s announced its clock (%s) after the clocks were decided: it keeps "
                                  "the offset decided for %s (%s)",
                                  trace_pad_get_name (TRACE_PAD (pad)),
                                  trace_clock_domain_to_string (event->info.clock_domain),
                                  trace_clock_domain_to_string (pad->applied_domain), offset);
    }
  return NULL;
}

/* ---- states ---- */

static gboolean
trace_clock_sync_start (TraceAggregator *agg,
                        GError **error)
{
  TraceClockSync *self = TRACE_CLOCK_SYNC (agg);
  g_autoptr (GList) pads = trace_aggregator_get_sink_pads (agg);

  if (!clocksync_domain_is_shared (self->opts.target))
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                   "target must be a clock every input can share: boottime, monotonic, monotonic-raw "
                   "or realtime, not %s",
                   trace_clock_domain_to_string (self->opts.target));
      return FALSE;
    }
  g_clear_pointer (&self->solver, clocksync_solver_free);
  self->solver = clocksync_solver_new_with_options (trace_element_get_string_pool (TRACE_ELEMENT (self)), &self->opts);
  self->decided = FALSE;
  self->markers_used = self->markers_unusable = self->markers_late = self->conflicts = 0;
  trace_input_spans_clear (self->spans);
  for (GList *l = pads; l; l = l->next)
    clocksync_pad_reset (l->data);
  return TRUE;
}

static gboolean
trace_clock_sync_stop (TraceAggregator *agg,
                       GError **error)
{
  TraceClockSync *self = TRACE_CLOCK_SYNC (agg);
  g_autoptr (GList) pads = trace_aggregator_get_sink_pads (agg);

  for (GList *l = pads; l; l = l->next)
    clocksync_pad_reset (l->data);
  g_clear_pointer (&self->solver, clocksync_solver_free);
  return TRUE;
}

static void
trace_clock_sync_collect_stats (TraceElement *element,
                                GVariantDict *stats)
{
  TraceClockSync *self = TRACE_CLOCK_SYNC (element);

  TRACE_ELEMENT_CLASS (trace_clock_sync_parent_class)->collect_stats (element, stats);
  g_variant_dict_insert (stats, "clock-markers-used", "t", self->markers_used);
  g_variant_dict_insert (stats, "clock-markers-unusable", "t", self->markers_unusable);
  g_variant_dict_insert (stats, "clock-markers-late", "t", self->markers_late);
  g_variant_dict_insert (stats, "clock-conflicts", "t", self->conflicts);
}

/* ---- properties ---- */

static void
trace_clock_sync_set_property (GObject *object,
                               guint prop_id,
                               const GValue *value,
                               GParamSpec *pspec)
{
  TraceClockSync *self = TRACE_CLOCK_SYNC (object);

  if (!trace_element_may_set_property (TRACE_ELEMENT (object), pspec))
    return;
  switch (prop_id)
    {
    case PROP_TARGET:
      self->opts.target = g_value_get_enum (value);
      break;
    case PROP_LOOKAHEAD:
      self->opts.lookahead = g_value_get_uint (value);
      break;
    case PROP_GUESS_WINDOW:
      self->opts.guess_window = g_value_get_int64 (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_clock_sync_get_property (GObject *object,
                               guint prop_id,
                               GValue *value,
                               GParamSpec *pspec)
{
  TraceClockSync *self = TRACE_CLOCK_SYNC (object);

  switch (prop_id)
    {
    case PROP_TARGET:
      g_value_set_enum (value, self->opts.target);
      break;
    case PROP_LOOKAHEAD:
      g_value_set_uint (value, self->opts.lookahead);
      break;
    case PROP_GUESS_WINDOW:
      g_value_set_int64 (value, self->opts.guess_window);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
trace_clock_sync_finalize (GObject *object)
{
  g_clear_pointer (&TRACE_CLOCK_SYNC (object)->solver, clocksync_solver_free);
  g_clear_pointer (&TRACE_CLOCK_SYNC (object)->spans, trace_input_spans_free);
  G_OBJECT_CLASS (trace_clock_sync_parent_class)->finalize (object);
}

static void
install_properties (GObjectClass *object_class)
{
  /**
   * TraceClockSync:target:
   *
   * The clock of the output: every input is shifted onto it.
   */
  properties[PROP_TARGET] =
      g_param_spec_enum ("target", "Target", "The clock of the output (boottime, monotonic, monotonic-raw or realtime)",
                         TRACE_TYPE_CLOCK_DOMAIN, DEFAULT_TARGET, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /**
   * TraceClockSync:lookahead:
   *
   * Batches held per input while looking for clock markers before the
   * offsets are decided; markers in them apply to the whole input. What
   * it costs: up to this many batches per input in memory, on top of
   * #TraceAggregator:max-queued.
   */
  properties[PROP_LOOKAHEAD] =
      g_param_spec_uint ("lookahead", "Look-ahead",
                         "Batches per input held while looking for clock markers (0: decide from the stream-starts and pad properties alone)",
                         0, 1024, DEFAULT_LOOKAHEAD, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  /**
   * TraceClockSync:guess-window:
   *
   * How near an input's first timestamp must be to a known reading of a
   * clock for the input to be guessed to run on it; negative: never guess.
   */
  properties[PROP_GUESS_WINDOW] =
      g_param_spec_int64 ("guess-window", "Guess window",
                          "An input nothing ties to the target is guessed to share the clock whose known reading is nearest its first timestamp, if within this (ns); negative: never guess",
                          G_MININT64, G_MAXINT64, DEFAULT_GUESS_WINDOW, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  trace_param_spec_set_time (properties[PROP_GUESS_WINDOW]);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
trace_clock_sync_class_init (TraceClockSyncClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TraceElementClass *element_class = TRACE_ELEMENT_CLASS (klass);
  TraceAggregatorClass *agg_class = TRACE_AGGREGATOR_CLASS (klass);

  object_class->set_property = trace_clock_sync_set_property;
  object_class->get_property = trace_clock_sync_get_property;
  object_class->finalize = trace_clock_sync_finalize;
  element_class->collect_stats = trace_clock_sync_collect_stats;
  agg_class->start = trace_clock_sync_start;
  agg_class->stop = trace_clock_sync_stop;
  agg_class->aggregate = trace_clock_sync_aggregate;
  agg_class->drain = trace_clock_sync_drain;
  agg_class->sink_stream_start = trace_clock_sync_sink_stream_start;
  install_properties (object_class);
  trace_element_class_add_static_pad_template_with_type (element_class, &sink_template, TRACE_TYPE_CLOCK_SYNC_PAD);
  trace_element_class_set_metadata (element_class, "Clock sync", "Merger/Trace",
                                    "Puts streams recorded on different clocks on one timeline and merges them",
                                    "tracepipe");
}

static void
trace_clock_sync_init (TraceClockSync *self)
{
  self->opts.target = DEFAULT_TARGET;
  self->opts.lookahead = DEFAULT_LOOKAHEAD;
  self->opts.guess_window = DEFAULT_GUESS_WINDOW;
  self->spans = trace_input_spans_new ();
}

TRACE_ELEMENT_REGISTER_DEFINE (clock_sync, "clock-sync", TRACE_RANK_NONE, TRACE_TYPE_CLOCK_SYNC)
