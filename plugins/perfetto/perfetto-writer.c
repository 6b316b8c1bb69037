/* tracepipe - Perfetto protobuf writer: output, interning, packets
 *
 * The file is written packet by packet: every TracePacket is packed as a
 * one-packet Trace message, which is exactly one `Trace.packet` record
 * (tag, length, packet); TrackEvent and ftrace bundle packets straight to
 * wire format (perfetto-writer-wire.c), the others by protobuf-c. Records are appended to an
 * output buffer that goes to the stream in large writes, so a file cut at
 * any record boundary is a valid trace.
 *
 * Interning follows the Perfetto SDK: one trusted packet sequence; its
 * first packet clears the incremental state; names, categories, arg names
 * and string values are sent once in `interned_data` and referred to by
 * iid. The iid of a string is its id in the pipeline's string pool, so the
 * writer only has to remember which ids it already sent (one bit each).
 * When a generation has sent `max_interned` strings, the state is cleared
 * and interning starts over, which bounds what a reader must keep.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-private.h"

#include <string.h>
#include <zlib.h>

#define PERFETTO_DEFAULT_SEQUENCE_ID 1
#define PERFETTO_DEFAULT_MAX_INTERNED 100000
/* Write to the stream once this much output is buffered. */
#define PERFETTO_FLUSH_THRESHOLD (1024 * 1024)
/* With compress=true, deflate runs of this much: Perfetto wants each
 * compressed_packets packet under 512 KiB, and deflate never grows a run
 * by more than a few bytes per 16 KiB. */
#define PERFETTO_COMPRESS_THRESHOLD (256 * 1024)

/* ---- small containers ---- */

void
perfetto_vec_init (PerfettoVec *v,
                   gsize elt_size)
{
  memset (v, 0, sizeof *v);
  v->elt_size = elt_size;
}

void
perfetto_vec_clear (PerfettoVec *v)
{
  g_free (v->data);
  g_free (v->ptrs);
  perfetto_vec_init (v, v->elt_size);
}

/* Makes room for more slots: perfetto_vec_push()'s rare path. */
void
perfetto_vec_grow (PerfettoVec *v)
{
  v->cap = MAX (16, v->cap * 2);
  v->data = g_realloc_n (v->data, v->cap, v->elt_size);
}

/* Returns: pointers to the structs of @v, as repeated message fields
 * want them */
gpointer *
perfetto_vec_ptrs (PerfettoVec *v)
{
  if (v->ptrs_cap < v->len)
    {
      v->ptrs_cap = MAX (v->len, v->ptrs_cap * 2);
      v->ptrs = g_renew (gpointer, v->ptrs, v->ptrs_cap);
    }
  for (guint i = 0; i < v->len; i++)
    v->ptrs[i] = v->data + i * v->elt_size;
  return v->ptrs;
}

/* Returns: whether @id was in @set; adds it */
static gboolean
perfetto_id_set_test_and_add (PerfettoIdSet *set,
                              guint32 id)
{
  gsize byte = id / 8;
  guint8 bit = 1u << (id % 8);
  gboolean had;

  if (G_UNLIKELY (byte >= set->n_bytes))
    {
      gsize n = MAX (byte + 1, MAX (1024, set->n_bytes * 2));

      set->bits = g_realloc (set->bits, n);
      memset (set->bits + set->n_bytes, 0, n - set->n_bytes);
      set->n_bytes = n;
    }
  had = (set->bits[byte] & bit) != 0;
  set->bits[byte] |= bit;
  return had;
}

static void
perfetto_id_set_reset (PerfettoIdSet *set)
{
  if (set->bits)
    memset (set->bits, 0, set->n_bytes);
}

static void
perfetto_id_set_free (PerfettoIdSet *set)
{
  g_clear_pointer (&set->bits, g_free);
  set->n_bytes = 0;
}

/* ---- strings and interning ---- */

const char *
perfetto_str (PerfettoWriter *w,
              guint32 id)
{
  return trace_string_pool_get (w->pool, id);
}

gboolean
perfetto_intern_enabled (PerfettoWriter *w)
{
  return w->opts.intern;
}

static void
perfetto_note_interned (PerfettoWriter *w)
{
  w->interned_in_generation++;
  w->packet_has_interned = TRUE;
}

/**
 * perfetto_iid:
 * @w: a #PerfettoWriter
 * @id: a string of the pool
 *
 * The interning id of a string: given in the order the writer first uses
 * strings (from 1), never the pool's id. Which id the pool gives a string
 * depends on which thread interned it first (a source, a queue's other
 * side, the writer's own thread), so iids that were pool ids made the
 * bytes of one conversion differ from run to run; these depend on the
 * events alone. One iid a string for all its tables (an iid need only be
 * unique within one), kept across generations (a string interned again
 * after a reset gets the same iid, which Perfetto allows).
 *
 * Returns: the iid of @id
 */
guint64
perfetto_iid (PerfettoWriter *w,
              guint32 id)
{
  guint32 *slot;

  if (G_UNLIKELY (id >= w->iids->len))
    g_array_set_size (w->iids, MAX ((guint) id + 1, w->iids->len * 2));
  slot = &g_array_index (w->iids, guint32, id);
  if (*slot == 0)
    *slot = ++w->last_iid;
  return *slot;
}

static guint64
perfetto_intern_string_into (PerfettoWriter *w,
                             PerfettoIdSet *seen,
                             PerfettoVec *vec,
                             guint32 id)
{
  Perfetto__Protos__InternedString *s;
  guint64 iid = perfetto_iid (w, id);

  if (perfetto_id_set_test_and_add (seen, id))
    return iid;
  s = perfetto_vec_push_uninit (vec);
  perfetto__protos__interned_string__init (s);
  s->has_iid = TRUE;
  s->iid = iid;
  s->has_str = TRUE;
  s->str.data = (guint8 *) perfetto_str (w, id);
  s->str.len = trace_string_pool_get_length (w->pool, id);
  perfetto_note_interned (w);
  return iid;
}

/* EventName, EventCategory and DebugAnnotationName are the same shape:
 * iid then name. */
#define PERFETTO_DEFINE_INTERN_NAMED(fn, Type, type_init, seen_field, vec_field) \
  guint64 fn (PerfettoWriter *w, guint32 id)                                     \
  {                                                                              \
    Type *e;                                                                     \
    guint64 iid = perfetto_iid (w, id);                                          \
    if (perfetto_id_set_test_and_add (&w->seen_field, id))                       \
      return iid;                                                                \
    e = perfetto_vec_push_uninit (&w->vec_field);                                \
    type_init (e);                                                               \
    e->has_iid = TRUE;                                                           \
    e->iid = iid;                                                                \
    e->name = (char *) perfetto_str (w, id);                                     \
    perfetto_note_interned (w);                                                  \
    return iid;                                                                  \
  }

PERFETTO_DEFINE_INTERN_NAMED (perfetto_intern_name, Perfetto__Protos__EventName, perfetto__protos__event_name__init, seen_names, new_names)
PERFETTO_DEFINE_INTERN_NAMED (perfetto_intern_category, Perfetto__Protos__EventCategory, perfetto__protos__event_category__init, seen_categories, new_categories)
PERFETTO_DEFINE_INTERN_NAMED (perfetto_intern_ann_name, Perfetto__Protos__DebugAnnotationName, perfetto__protos__debug_annotation_name__init, seen_ann_names, new_ann_names)

guint64
perfetto_intern_ksym (PerfettoWriter *w,
                      guint32 id)
{
  return perfetto_intern_string_into (w, &w->seen_ksyms, &w->new_ksyms, id);
}

guint64
perfetto_intern_function (PerfettoWriter *w,
                          guint32 id)
{
  return perfetto_intern_string_into (w, &w->seen_functions, &w->new_functions, id);
}

guint64
perfetto_intern_map_path (PerfettoWriter *w,
                          guint32 id)
{
  return perfetto_intern_string_into (w, &w->seen_map_paths, &w->new_map_paths, id);
}

guint64
perfetto_intern_str_value (PerfettoWriter *w,
                           guint32 id)
{
  return perfetto_intern_string_into (w, &w->seen_str_values, &w->new_str_values, id);
}

/* Starts interning over: the next packet clears the sequence's state. */
static void
perfetto_state_reset (PerfettoWriter *w)
{
  perfetto_id_set_reset (&w->seen_names);
  perfetto_id_set_reset (&w->seen_categories);
  perfetto_id_set_reset (&w->seen_ann_names);
  perfetto_id_set_reset (&w->seen_str_values);
  perfetto_id_set_reset (&w->seen_ksyms);
  perfetto_id_set_reset (&w->seen_functions);
  perfetto_id_set_reset (&w->seen_map_paths);
  /* Frames, callstacks and mappings compare their generation stamp. */
  w->generation++;
  w->interned_in_generation = 0;
  w->need_clear = TRUE;
  w->stats.state_resets++;
  /* once per max_interned strings, not per event */
  g_debug ("writer: interned data cleared after %u strings (reset %" G_GUINT64_FORMAT ")", w->opts.max_interned,
           w->stats.state_resets);
}

/**
 * perfetto_packet_begin:
 * @w: a #PerfettoWriter
 *
 * Called before building a packet that may intern: clears the state when
 * the generation is full, so the packet's interned data belong to the new
 * generation and the packet itself carries the CLEARED flag.
 */
void
perfetto_packet_begin (PerfettoWriter *w)
{
  if (w->interned_in_generation >= w->opts.max_interned)
    perfetto_state_reset (w);
}

/**
 * perfetto_writer_drop:
 * @w: a #PerfettoWriter
 * @counter: the counter of the reason in @w's stats
 * @n: how many events (or args) it concerns
 * @ts: the timestamp of the event
 * @what: the reason, for the debug message
 *
 * Counts @n events dropped, or changed to be written, for one reason.
 * The first of each reason is logged with its timestamp; the rest are
 * only counted (the sink reports the totals).
 */
void
perfetto_writer_drop (PerfettoWriter *w,
                      guint64 *counter,
                      guint64 n,
                      gint64 ts,
                      const char *what)
{
  if (*counter == 0 && n > 0)
    g_debug ("writer: at %" G_GINT64_FORMAT " ns: first %s (the rest are counted)", ts, what);
  *counter += n;
}

/* ---- packets and output ---- */

guint64
perfetto_timestamp (PerfettoWriter *w,
                    gint64 ts)
{
  if (G_UNLIKELY (ts < 0))
    {
      perfetto_writer_drop (w, &w->stats.clamped_timestamps, 1, ts, "negative timestamp written as 0");
      return 0;
    }
  return (guint64) ts;
}

static void
perfetto_attach_interned (PerfettoWriter *w)
{
  PerfettoInternedData *d = &w->idata;
  Perfetto__Protos__Callstack *cs;
  Perfetto__Protos__Mapping *m;
  gsize at = 0;

  perfetto__protos__interned_data__init (d);
#define PERFETTO_ATTACH(field, vec) \
  d->n_##field = w->vec.len;        \
  d->field = (gpointer) perfetto_vec_ptrs (&w->vec)
  PERFETTO_ATTACH (event_names, new_names);
  PERFETTO_ATTACH (event_categories, new_categories);
  PERFETTO_ATTACH (debug_annotation_names, new_ann_names);
  PERFETTO_ATTACH (debug_annotation_string_values, new_str_values);
  PERFETTO_ATTACH (kernel_symbols, new_ksyms);
  PERFETTO_ATTACH (function_names, new_functions);
  PERFETTO_ATTACH (mapping_paths, new_map_paths);
  PERFETTO_ATTACH (mappings, new_mappings);
  PERFETTO_ATTACH (frames, new_frames);
  PERFETTO_ATTACH (callstacks, new_callstacks);
#undef PERFETTO_ATTACH
  /* Repeated scalars point into shared arrays: fix them up now that the
   * arrays no longer grow. The structs hold their offsets meanwhile. */
  for (guint i = 0; i < w->new_callstacks.len; i++)
    {
      cs = perfetto_vec_at (&w->new_callstacks, Perfetto__Protos__Callstack, i);
      cs->frame_ids = &g_array_index (w->callstack_frames, guint64, at);
      at += cs->n_frame_ids;
    }
  at = 0;
  for (guint i = 0; i < w->new_mappings.len; i++)
    {
      m = perfetto_vec_at (&w->new_mappings, Perfetto__Protos__Mapping, i);
      m->path_string_ids = &g_array_index (w->mapping_paths, guint64, at);
      at += m->n_path_string_ids;
    }
  w->pkt.interned_data = d;
}

static void
perfetto_packet_reset (PerfettoWriter *w)
{
  perfetto__protos__trace_packet__init (&w->pkt);
  w->ann_wire.len = 0;
  w->packet_has_interned = FALSE;
  w->new_names.len = w->new_categories.len = w->new_ann_names.len = 0;
  w->new_str_values.len = w->new_ksyms.len = w->new_functions.len = 0;
  w->new_map_paths.len = w->new_mappings.len = 0;
  w->new_frames.len = w->new_callstacks.len = 0;
  /* Empty but in sample packets: skip the calls (once per packet). */
  if (w->callstack_frames->len)
    g_array_set_size (w->callstack_frames, 0);
  if (w->mapping_paths->len)
    g_array_set_size (w->mapping_paths, 0);
}

/**
 * perfetto_packet_emit:
 * @w: a #PerfettoWriter
 * @ts: the packet's timestamp
 * @has_ts: whether to write @ts
 * @needs_state: whether the packet refers to interned data
 *
 * Completes the packet in `w->pkt` (whose payload the caller set) with
 * the sequence fields and the interned data gathered since
 * perfetto_packet_begin(), appends it to the output and resets it.
 */
void
perfetto_packet_emit (PerfettoWriter *w,
                      gint64 ts,
                      gboolean has_ts,
                      gboolean needs_state)
{
  Perfetto__Protos__TracePacketDefaults defaults; /* set where the state is cleared */
  PerfettoPacket *pkt = &w->pkt;
  guint32 flags = needs_state ? PERFETTO_SEQ_NEEDS : 0;
  gsize len;

  /* A packet of a sample sequence comes with its id and flags set. */
  if (pkt->has_trusted_packet_sequence_id)
    flags |= pkt->sequence_flags;
  pkt->has_trusted_packet_sequence_id = TRUE;
  if (pkt->trusted_packet_sequence_id == 0)
    pkt->trusted_packet_sequence_id = w->opts.sequence_id;
  if (w->need_clear && pkt->trusted_packet_sequence_id == w->opts.sequence_id)
    {
      /* Defaults are incremental state too: restate the clock with them,
       * and on this packet itself, whose timestamp a reader may convert
       * before it applies the defaults. */
      flags |= PERFETTO_SEQ_CLEARED;
      perfetto__protos__trace_packet_defaults__init (&defaults);
      defaults.has_timestamp_clock_id = TRUE;
      defaults.timestamp_clock_id = w->builtin_clock;
      pkt->trace_packet_defaults = &defaults;
      pkt->has_timestamp_clock_id = TRUE;
      pkt->timestamp_clock_id = w->builtin_clock;
      pkt->has_first_packet_on_sequence = w->stats.packets == 0;
      pkt->first_packet_on_sequence = w->stats.packets == 0;
      w->need_clear = FALSE;
    }
  if (flags)
    {
      pkt->has_sequence_flags = TRUE;
      pkt->sequence_flags = flags;
    }
  if (has_ts)
    {
      pkt->has_timestamp = TRUE;
      pkt->timestamp = perfetto_timestamp (w, ts);
      w->last_ts = ts;
    }
  if (w->packet_has_interned)
    perfetto_attach_interned (w);

  /* The hot packets are streamed, the rest packed by protobuf-c: the
   * same bytes as a one-packet Trace (perfetto-writer-wire.c). */
  len = w->obuf.len;
  perfetto_wire_append_record (&w->obuf, pkt, &w->ann_wire);
  w->stats.packets++;
  w->stats.bytes += w->obuf.len - len;
  perfetto_packet_reset (w);
}

/* compress=true: the records buffered, a run of Trace.packet records,
 * become one TracePacket whose compressed_packets is their deflated
 * (zlib) form; the reader inflates it back to the same records. */
static gboolean
perfetto_compress_output (PerfettoWriter *w)
{
  Perfetto__Protos__Trace trace = PERFETTO__PROTOS__TRACE__INIT;
  PerfettoPacket outer = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  PerfettoPacket *outer_ptr = &outer;
  uLongf zlen = compressBound (w->obuf.len);

  g_byte_array_set_size (w->zbuf, zlen);
  if (compress2 (w->zbuf->data, &zlen, w->obuf.data, w->obuf.len, Z_DEFAULT_COMPRESSION) != Z_OK)
    return FALSE;
  outer.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_COMPRESSED_PACKETS;
  outer.compressed_packets.data = w->zbuf->data;
  outer.compressed_packets.len = zlen;
  trace.n_packet = 1;
  trace.packet = &outer_ptr;
  g_byte_array_set_size (w->zpacket, perfetto__protos__trace__get_packed_size (&trace));
  perfetto__protos__trace__pack (&trace, w->zpacket->data);
  /* bytes-written is what reaches the file */
  w->stats.bytes = w->stats.bytes - w->obuf.len + w->zpacket->len;
  return TRUE;
}

gboolean
perfetto_writer_flush_output (PerfettoWriter *w,
                              GError **error)
{
  g_autoptr (GError) local = NULL;
  const guint8 *data = w->obuf.data;
  gsize len = w->obuf.len;

  if (w->obuf.len == 0)
    return TRUE;
  if (w->opts.compress)
    {
      if (!perfetto_compress_output (w))
        {
          w->failed = TRUE;
          g_set_error_literal (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_FAILED,
                               "Could not write the Perfetto trace: deflate failed");
          return FALSE;
        }
      data = w->zpacket->data, len = w->zpacket->len;
    }
  if (!g_output_stream_write_all (w->out, data, len, NULL, NULL, &local))
    {
      gboolean full = g_error_matches (local, G_IO_ERROR, G_IO_ERROR_NO_SPACE);

      w->failed = TRUE;
      g_set_error (error, TRACE_RESOURCE_ERROR,
                   full ? TRACE_RESOURCE_ERROR_NO_SPACE_LEFT : TRACE_RESOURCE_ERROR_WRITE,
                   "Could not write the Perfetto trace: %s", local->message);
      return FALSE;
    }
  w->obuf.len = 0;
  return TRUE;
}

/* A pair of BOOTTIME and the stream's clock among the first events
 * (clock-sync puts one there for every input it moved): the header must
 * state that relation, not a second, contradicting one. */
static const TraceEvent *
find_boottime_pair (TraceBatch *batch)
{
  for (guint i = 0; batch && i < batch->n_events; i++)
    {
      const TraceEvent *ev = &batch->events[i];

      if (ev->kind == TRACE_EVENT_CLOCK_MARKER && ev->u.clock.marker == TRACE_CLOCK_MARKER_PAIR &&
          ev->u.clock.domain == TRACE_CLOCK_BOOTTIME)
        return ev;
    }
  return NULL;
}

/* The first packet of a stream not on BOOTTIME is a clock snapshot that
 * makes its clock the trace's clock. Kernel events are written as
 * BOOTTIME (the only clock ftrace bundles can state for a stream of
 * any domain), so the snapshot also ties BOOTTIME to the stream's clock:
 * by the pair the stream gives when it has one, else one to one, so both
 * land on the same timeline. */
static void
perfetto_write_header (PerfettoWriter *w,
                       TraceBatch *batch)
{
  Perfetto__Protos__ClockSnapshot snap = PERFETTO__PROTOS__CLOCK_SNAPSHOT__INIT;
  Perfetto__Protos__ClockSnapshot__Clock clocks[2];
  Perfetto__Protos__ClockSnapshot__Clock *clock_ptrs[2] = { &clocks[0], &clocks[1] };
  guint32 ids[2] = { w->builtin_clock, PERFETTO_CLOCK_BOOTTIME };
  const TraceEvent *pair = find_boottime_pair (batch);
  gint64 ts = batch && batch->n_events ? batch->events[0].ts : 0;
  gint64 values[2] = { ts, ts };

  w->started = TRUE;
  if (w->builtin_clock == PERFETTO_CLOCK_BOOTTIME)
    return;
  if (pair)
    {
      values[0] = ts = pair->ts;
      values[1] = pair->u.clock.other_ts;
      w->header_has_pair = TRUE;
      w->header_pair_ts = pair->ts;
      w->header_pair_other = pair->u.clock.other_ts;
    }
  for (guint i = 0; i < 2; i++)
    {
      perfetto__protos__clock_snapshot__clock__init (&clocks[i]);
      clocks[i].has_clock_id = clocks[i].has_timestamp = TRUE;
      clocks[i].clock_id = ids[i];
      clocks[i].timestamp = perfetto_timestamp (w, values[i]);
    }
  snap.n_clocks = 2;
  snap.clocks = clock_ptrs;
  snap.has_primary_trace_clock = TRUE;
  snap.primary_trace_clock = w->builtin_clock;
  w->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT;
  w->pkt.clock_snapshot = &snap;
  perfetto_packet_emit (w, ts, TRUE, FALSE);
}

/* ---- clock markers ---- */

static guint32
strict_builtin_clock (TraceClockDomain domain)
{
  switch (domain)
    {
    case TRACE_CLOCK_BOOTTIME:
    case TRACE_CLOCK_MONOTONIC:
    case TRACE_CLOCK_MONOTONIC_RAW:
    case TRACE_CLOCK_REALTIME:
      return perfetto_clock_domain_to_builtin (domain);
    default:
      return 0;
    }
}

/**
 * perfetto_write_clock_pair:
 * @w: a #PerfettoWriter
 * @ev: a clock marker of an exact pair of readings
 *
 * An exact pair of clock readings is what a ClockSnapshot is.
 */
void
perfetto_write_clock_pair (PerfettoWriter *w,
                           const TraceEvent *ev)
{
  Perfetto__Protos__ClockSnapshot snap = PERFETTO__PROTOS__CLOCK_SNAPSHOT__INIT;
  Perfetto__Protos__ClockSnapshot__Clock clocks[2];
  Perfetto__Protos__ClockSnapshot__Clock *ptrs[2] = { &clocks[0], &clocks[1] };
  guint32 other = strict_builtin_clock (ev->u.clock.domain);
  gint64 values[2] = { ev->ts, ev->u.clock.other_ts };
  guint32 ids[2] = { w->builtin_clock, other };

  if (other == 0 || other == w->builtin_clock)
    {
      perfetto_writer_drop (w, &w->stats.dropped_clock_marker, 1, ev->ts, "clock pair with no second builtin clock dropped");
      return;
    }
  /* the header holds it already (a reader takes it from there) */
  if (w->header_has_pair && ev->u.clock.domain == TRACE_CLOCK_BOOTTIME && ev->ts == w->header_pair_ts &&
      ev->u.clock.other_ts == w->header_pair_other)
    {
      w->header_has_pair = FALSE;
      return;
    }
  for (guint i = 0; i < 2; i++)
    {
      perfetto__protos__clock_snapshot__clock__init (&clocks[i]);
      clocks[i].has_clock_id = clocks[i].has_timestamp = TRUE;
      clocks[i].clock_id = ids[i];
      clocks[i].timestamp = perfetto_timestamp (w, values[i]);
    }
  snap.n_clocks = 2;
  snap.clocks = ptrs;
  w->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT;
  w->pkt.clock_snapshot = &snap;
  perfetto_packet_emit (w, ev->ts, TRUE, FALSE);
}

/* Returns: the atrace text of a clock-sync marker, or %NULL */
char *
perfetto_clock_marker_text (PerfettoWriter *w,
                            const TraceEvent *ev)
{
  char num[G_ASCII_DTOSTR_BUF_SIZE];

  switch (ev->u.clock.marker)
    {
    case TRACE_CLOCK_MARKER_PARENT_TS:
      g_ascii_formatd (num, sizeof num, ev->u.clock.other_ts % 1000 == 0 ? "%.6f" : "%.9f",
                       ev->u.clock.other_ts / 1e9);
      return g_strdup_printf (PERFETTO_CLOCK_SYNC_PREFIX "parent_ts=%s", num);
    case TRACE_CLOCK_MARKER_REALTIME_TS:
      return g_strdup_printf (PERFETTO_CLOCK_SYNC_PREFIX "realtime_ts=%" G_GINT64_FORMAT,
                              ev->u.clock.other_ts / 1000000);
    case TRACE_CLOCK_MARKER_SYNC_ID:
      return g_strdup_printf (PERFETTO_CLOCK_SYNC_PREFIX "name=%s", perfetto_str (w, ev->u.clock.sync_id));
    default:
      return NULL;
    }
}

/* ---- lifecycle ---- */

/**
 * perfetto_writer_options_init:
 * @opts: options to fill with the defaults
 *
 * Defaults: ftrace bundles on, interning on, compact sched on, BOOTTIME,
 * no compression.
 */
void
perfetto_writer_options_init (PerfettoWriterOptions *opts)
{
  memset (opts, 0, sizeof *opts);
  opts->emit_ftrace = DEFAULT_FTRACE;
  opts->intern = DEFAULT_INTERN;
  opts->compact_sched = DEFAULT_COMPACT_SCHED;
  opts->thread_time = DEFAULT_THREAD_TIME;
  opts->compress = DEFAULT_COMPRESS;
  opts->clock = TRACE_CLOCK_BOOTTIME;
  opts->sequence_id = PERFETTO_DEFAULT_SEQUENCE_ID;
  opts->max_interned = PERFETTO_DEFAULT_MAX_INTERNED;
  opts->max_threads = DEFAULT_MAX_THREADS;
}

static void
perfetto_init_vecs (PerfettoWriter *w)
{
  perfetto_vec_init (&w->new_names, sizeof (Perfetto__Protos__EventName));
  perfetto_vec_init (&w->new_categories, sizeof (Perfetto__Protos__EventCategory));
  perfetto_vec_init (&w->new_ann_names, sizeof (Perfetto__Protos__DebugAnnotationName));
  perfetto_vec_init (&w->new_str_values, sizeof (Perfetto__Protos__InternedString));
  perfetto_vec_init (&w->new_ksyms, sizeof (Perfetto__Protos__InternedString));
  perfetto_vec_init (&w->new_functions, sizeof (Perfetto__Protos__InternedString));
  perfetto_vec_init (&w->new_map_paths, sizeof (Perfetto__Protos__InternedString));
  perfetto_vec_init (&w->new_mappings, sizeof (Perfetto__Protos__Mapping));
  perfetto_vec_init (&w->new_frames, sizeof (Perfetto__Protos__Frame));
  perfetto_vec_init (&w->new_callstacks, sizeof (Perfetto__Protos__Callstack));
  perfetto_vec_init (&w->owed_ends, sizeof (PerfettoOpenSlice));
  w->callstack_frames = g_array_new (FALSE, FALSE, sizeof (guint64));
  w->mapping_paths = g_array_new (FALSE, FALSE, sizeof (guint64));
}

/**
 * perfetto_writer_new:
 * @out: the stream to write the trace to
 * @opts: (nullable): options, %NULL for the defaults
 *
 * Returns: (transfer full): a writer; free with perfetto_writer_free()
 */
PerfettoWriter *
perfetto_writer_new (GOutputStream *out,
                     const PerfettoWriterOptions *opts)
{
  PerfettoWriter *w;

  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), NULL);

  w = g_new0 (PerfettoWriter, 1);
  w->out = g_object_ref (out);
  if (opts)
    w->opts = *opts;
  else
    perfetto_writer_options_init (&w->opts);
  if (w->opts.sequence_id == 0)
    w->opts.sequence_id = PERFETTO_DEFAULT_SEQUENCE_ID;
  if (w->opts.max_interned == 0)
    w->opts.max_interned = PERFETTO_DEFAULT_MAX_INTERNED;
  if (w->opts.max_threads == 0)
    w->opts.max_threads = DEFAULT_MAX_THREADS;
  w->builtin_clock = perfetto_clock_domain_to_builtin (w->opts.clock);
  w->need_clear = TRUE;
  w->generation = 1;
  w->obuf.cap = 2 * PERFETTO_FLUSH_THRESHOLD;
  w->obuf.data = g_malloc (w->obuf.cap);
  w->flush_at = w->opts.compress ? PERFETTO_COMPRESS_THRESHOLD : PERFETTO_FLUSH_THRESHOLD;
  w->zbuf = g_byte_array_new ();
  w->zpacket = g_byte_array_new ();
  w->record_payload = g_array_new (FALSE, FALSE, 1);
  w->iids = g_array_new (FALSE, TRUE, sizeof (guint32));
  perfetto_init_vecs (w);
  perfetto_packet_reset (w);
  perfetto_tracks_init (w);
  perfetto_order_init (w);
  w->order_remap = g_array_new (FALSE, FALSE, sizeof (guint32));
  w->order_sort_min_ts = G_MAXINT64;
  perfetto_ftrace_init (w);
  perfetto_samples_init (w);
  g_debug ("writer: opened: clock %u, sequence %u, ftrace %d, intern %d, compact sched %d, thread time %d, "
           "compress %d, JSON order %d, max threads %u",
           w->builtin_clock, w->opts.sequence_id, w->opts.emit_ftrace, w->opts.intern, w->opts.compact_sched,
           w->opts.thread_time, w->opts.compress, w->opts.json_order, w->opts.max_threads);
  return w;
}

/**
 * perfetto_writer_free:
 * @w: (transfer full): a #PerfettoWriter
 *
 * Frees the writer without finishing the file (see perfetto_writer_finish()).
 */
void
perfetto_writer_free (PerfettoWriter *w)
{
  if (w == NULL)
    return;

  PerfettoVec *vecs[] = { &w->new_names, &w->new_categories, &w->new_ann_names,
                          &w->new_str_values, &w->new_ksyms, &w->new_functions,
                          &w->new_map_paths, &w->new_mappings, &w->new_frames,
                          &w->new_callstacks };
  PerfettoIdSet *sets[] = { &w->seen_names, &w->seen_categories, &w->seen_ann_names,
                            &w->seen_str_values, &w->seen_ksyms, &w->seen_functions,
                            &w->seen_map_paths };

  perfetto_samples_free (w);
  perfetto_ftrace_free (w);
  perfetto_order_clear (w);
  perfetto_vec_clear (&w->order_heap);
  perfetto_vec_clear (&w->order_run);
  perfetto_vec_clear (&w->order_batches);
  g_array_unref (w->order_remap);
  perfetto_tracks_free (w);
  for (guint i = 0; i < G_N_ELEMENTS (vecs); i++)
    perfetto_vec_clear (vecs[i]);
  for (guint i = 0; i < G_N_ELEMENTS (sets); i++)
    perfetto_id_set_free (sets[i]);
  perfetto_vec_clear (&w->owed_ends);
  g_clear_pointer (&w->ann_wire.data, g_free);
  perfetto_args_free (w);
  g_array_unref (w->callstack_frames);
  g_array_unref (w->mapping_paths);
  g_free (w->obuf.data);
  g_free (w->metadata);
  g_byte_array_unref (w->zbuf);
  g_byte_array_unref (w->zpacket);
  g_array_unref (w->record_payload);
  g_array_unref (w->iids);
  g_clear_pointer (&w->pool, trace_string_pool_unref);
  g_object_unref (w->out);
  g_free (w);
}

/**
 * perfetto_writer_get_stats:
 * @w: a #PerfettoWriter
 * @stats: (out): what it did so far
 */
void
perfetto_writer_get_stats (PerfettoWriter *w,
                           PerfettoWriterStats *stats)
{
  g_return_if_fail (w != NULL);
  g_return_if_fail (stats != NULL);

  *stats = w->stats;
}

/* ---- the TrackEvent parts every event kind uses ---- */

static void
perfetto_write_event (PerfettoWriter *w,
                      TraceBatch *batch,
                      const TraceEvent *ev)
{
  switch ((TraceEventKind) ev->kind)
    {
    case TRACE_EVENT_NONE:
      break;
    case TRACE_EVENT_SLICE_BEGIN:
    case TRACE_EVENT_SLICE_END:
    case TRACE_EVENT_SLICE_COMPLETE:
    case TRACE_EVENT_INSTANT:
    case TRACE_EVENT_ASYNC_BEGIN:
    case TRACE_EVENT_ASYNC_STEP:
    case TRACE_EVENT_ASYNC_END:
    case TRACE_EVENT_ASYNC_INSTANT:
    case TRACE_EVENT_FLOW_START:
    case TRACE_EVENT_FLOW_STEP:
    case TRACE_EVENT_FLOW_END:
      perfetto_order_write (w, batch, ev);
      break;
    case TRACE_EVENT_COUNTER:
      if (!perfetto_write_sys_stats (w, ev) && !perfetto_write_process_stats (w, ev))
        perfetto_order_write (w, batch, ev);
      break;
    case TRACE_EVENT_PROCESS_NAME:
    case TRACE_EVENT_THREAD_NAME:
    case TRACE_EVENT_PROCESS_SORT_INDEX:
    case TRACE_EVENT_THREAD_SORT_INDEX:
    case TRACE_EVENT_PROCESS_LABEL:
      perfetto_write_metadata (w, batch, ev);
      break;
    case TRACE_EVENT_SCHED_SWITCH:
    case TRACE_EVENT_SCHED_WAKEUP:
    case TRACE_EVENT_SCHED_WAKING:
    case TRACE_EVENT_SCHED_WAKEUP_NEW:
    case TRACE_EVENT_SCHED_PROCESS_EXIT:
    case TRACE_EVENT_SCHED_PROCESS_FREE:
    case TRACE_EVENT_TASK_NEWTASK:
    case TRACE_EVENT_TASK_RENAME:
    case TRACE_EVENT_CPU_FREQUENCY:
    case TRACE_EVENT_CPU_IDLE:
    case TRACE_EVENT_FTRACE:
      perfetto_write_kernel_event (w, batch, ev);
      break;
    case TRACE_EVENT_STACK_NODE:
      perfetto_write_stack_node (w, batch, ev);
      break;
    case TRACE_EVENT_SAMPLE:
      perfetto_write_sample (w, batch, ev);
      break;
    case TRACE_EVENT_CLOCK_MARKER:
      perfetto_write_clock_marker (w, ev);
      break;
    case TRACE_EVENT_RECORD:
      perfetto_write_record (w, batch, ev);
      break;
    default:
      perfetto_writer_drop (w, &w->stats.dropped_other, 1, ev->ts, "event of a kind with no Perfetto form dropped");
      break;
    }
}

/**
 * perfetto_writer_write_batch:
 * @w: a #PerfettoWriter
 * @batch: events to write; all batches must share one string pool
 * @error: return location for a #GError
 *
 * Writes the events of @batch. Kernel events and process-tree entries
 * collected from the batch are written at its end, so everything the
 * batch produced is in the output buffer when this returns, except, for
 * a JSON stream (`json_order`), the events that wait for their place in
 * trace_processor's order: for those the writer may keep a reference to
 * @batch, which must not change afterwards (as any batch shared).
 *
 * Returns: %FALSE if writing failed
 */
gboolean
perfetto_writer_write_batch (PerfettoWriter *w,
                             TraceBatch *batch,
                             GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);
  g_return_val_if_fail (batch != NULL, FALSE);
  g_return_val_if_fail (!w->finished, FALSE);

  if (w->failed)
    return g_set_error_literal (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_WRITE,
                                "The Perfetto writer already failed"),
           FALSE;
  if (batch->n_events == 0)
    return TRUE;
  if (w->pool == NULL)
    w->pool = trace_string_pool_ref (batch->pool);
  else if (w->pool != batch->pool)
    return g_set_error_literal (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_FAILED,
                                "Batches given to the Perfetto writer use different string pools"),
           FALSE;
  if (!w->started)
    perfetto_write_header (w, batch);

  perfetto_ranks_prescan (w, batch);
  perfetto_ftrace_prescan (w, batch);
  for (guint i = 0; i < batch->n_events; i++)
    {
      w->stats.events_in++;
      perfetto_order_follow (w, &batch->events[i]);
      perfetto_write_event (w, batch, &batch->events[i]);
      if (G_UNLIKELY (w->obuf.len >= w->flush_at) && !perfetto_writer_flush_output (w, error))
        return FALSE;
    }
  perfetto_tree_flush (w);
  perfetto_ftrace_flush (w);
  perfetto_samples_flush (w);
  if (w->obuf.len >= w->flush_at)
    return perfetto_writer_flush_output (w, error);
  return TRUE;
}

/**
 * perfetto_writer_finish:
 * @w: a #PerfettoWriter
 * @error: return location for a #GError
 *
 * Writes what is still held (ends of complete slices not yet due, kernel
 * events) and flushes everything to the stream. The stream is not closed.
 * A stream with no events at all gets one packet, so the file is a valid
 * (empty) trace.
 *
 * Returns: %FALSE if writing failed
 */
gboolean
perfetto_writer_finish (PerfettoWriter *w,
                        GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);
  g_return_val_if_fail (!w->finished, FALSE);

  if (w->failed)
    return g_set_error_literal (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_WRITE,
                                "The Perfetto writer already failed"),
           FALSE;
  w->finished = TRUE;
  if (!w->started)
    perfetto_write_header (w, NULL);
  if (!perfetto_order_drain (w, error))
    return FALSE;
  perfetto_close_open_slices (w);
  perfetto_write_trace_metadata (w);
  perfetto_tree_flush (w);
  perfetto_ftrace_flush (w);
  perfetto_samples_flush (w);
  if (w->stats.packets == 0)
    perfetto_packet_emit (w, 0, FALSE, FALSE);
  if (!perfetto_writer_flush_output (w, error))
    return FALSE;
  if (!g_output_stream_flush (w->out, NULL, error))
    return FALSE;
  g_debug ("writer: finished: %" G_GUINT64_FORMAT " events in, %" G_GUINT64_FORMAT " packets, %" G_GUINT64_FORMAT
           " bytes, %" G_GUINT64_FORMAT " track events, %" G_GUINT64_FORMAT " ftrace events, %" G_GUINT64_FORMAT
           " samples, %" G_GUINT64_FORMAT " descriptors, %" G_GUINT64_FORMAT " interning resets",
           w->stats.events_in, w->stats.packets, w->stats.bytes, w->stats.track_events, w->stats.ftrace_events,
           w->stats.samples, w->stats.descriptors, w->stats.state_resets);
  return TRUE;
}
