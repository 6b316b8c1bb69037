/* tracepipe - Perfetto protobuf reader: records, packets, sequences
 *
 * A trace is read record by record (`Trace.packet`, a tag and a length),
 * each packet unpacked by protobuf-c into an arena that is reset after the
 * packet, so memory does not depend on the file's length. Interning tables
 * and defaults are kept per packet sequence and cleared when the sequence
 * says so; packets that need a sequence's state before it was ever
 * cleared are skipped and counted, as trace_processor does.
 *
 * A last record cut short by the end of the file is a warning (the file
 * was cut while being written), counted in the stats; anything that is
 * not a protobuf record is an error naming its byte offset.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-reader-private.h"

#include <string.h>
#include <zlib.h>

#define PERFETTO_READ_CHUNK (256 * 1024)
#define PERFETTO_ARENA_MIN (64 * 1024)
#define PERFETTO_ARENA_MAX (64 * 1024 * 1024)
/* Flow ids waiting for their end; past this the set starts over. */
#define PERFETTO_MAX_ACTIVE_FLOWS (1 << 20)
/* Packets one `compressed_packets` field may hold. Perfetto's service
 * compresses batches of about 128 KiB of output, a few hundred thousand
 * small packets at most; an empty packet is 2 bytes, so without a count
 * 40 KB of zlib would be 20 M packets to unpack. */
#define PERFETTO_MAX_COMPRESSED_PACKETS (1u << 20)

/* ---- protobuf-c's allocations in the reader's arena ---- */

static void *
arena_alloc (void *data,
             size_t size)
{
  return trace_arena_alloc (data, size);
}

static void
arena_free (void *data,
            void *ptr)
{
  /* everything goes at once, in trace_arena_reset() */
}

/* ---- helpers shared by the reader's files ---- */

gint64 *
perfetto_int64_dup (gint64 v)
{
  gint64 *p = g_new (gint64, 1);

  *p = v;
  return p;
}

guint32
perfetto_reader_intern (PerfettoReader *r,
                        const char *str)
{
  return str ? trace_string_pool_intern (r->pool, str) : 0;
}

/**
 * perfetto_reader_skip:
 * @r: a #PerfettoReader
 * @counter: the counter of the reason in @r's stats
 * @n: how many things are skipped
 * @what: the reason, for the debug message
 *
 * Counts @n skipped things of one reason. The first of each reason is
 * logged with the byte offset of its packet; the rest are only counted,
 * as a trace may hold millions.
 */
void
perfetto_reader_skip (PerfettoReader *r,
                      guint64 *counter,
                      guint64 n,
                      const char *what)
{
  if (*counter == 0 && n > 0)
    g_debug ("%s: byte offset %" G_GUINT64_FORMAT ": first %s (the rest are counted)", r->location,
             r->packet_offset, what);
  *counter += n;
  if (counter == &r->stats.unsupported_events && n > 0)
    {
      guint64 *count = g_hash_table_lookup (r->unsupported, what);

      if (count == NULL)
        g_hash_table_insert (r->unsupported, (gpointer) what, count = g_new0 (guint64, 1));
      *count += n;
    }
}

static gint
compare_reasons (gconstpointer a,
                 gconstpointer b,
                 gpointer table)
{
  guint64 na = *(guint64 *) g_hash_table_lookup (table, *(gconstpointer *) a);
  guint64 nb = *(guint64 *) g_hash_table_lookup (table, *(gconstpointer *) b);

  return na != nb ? (na < nb ? 1 : -1) : g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/**
 * perfetto_reader_describe_unsupported:
 * @r: a #PerfettoReader
 *
 * Returns: (transfer full) (nullable): what the events counted in
 *   `unsupported_events` were, with how many of each, most first
 *   (`4 process_stats field the reader does not read`), or %NULL for none
 */
char *
perfetto_reader_describe_unsupported (PerfettoReader *r)
{
  g_autoptr (GPtrArray) reasons = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer reason;
  GString *text;

  g_hash_table_iter_init (&iter, r->unsupported);
  while (g_hash_table_iter_next (&iter, &reason, NULL))
    g_ptr_array_add (reasons, reason);
  if (reasons->len == 0)
    return NULL;
  g_ptr_array_sort_with_data (reasons, compare_reasons, r->unsupported);
  text = g_string_new (NULL);
  for (guint i = 0; i < reasons->len; i++)
    g_string_append_printf (text, "%s%" G_GUINT64_FORMAT " %s", i ? ", " : "",
                            *(guint64 *) g_hash_table_lookup (r->unsupported, reasons->pdata[i]),
                            (const char *) reasons->pdata[i]);
  return g_string_free (text, FALSE);
}

/**
 * perfetto_reader_lookup_string:
 * @r: a #PerfettoReader
 * @table: (nullable): an interning table of a sequence, %NULL while empty
 * @iid: an interned id
 *
 * Returns: the string id, 0 (and counted) when @iid is not in @table
 */
guint32
perfetto_reader_lookup_string (PerfettoReader *r,
                               GHashTable *table,
                               guint64 iid)
{
  gpointer id;

  if (table != NULL && g_hash_table_lookup_extended (table, &iid, NULL, &id))
    return GPOINTER_TO_UINT (id);
  perfetto_reader_skip (r, &r->stats.unknown_iid, 1, "interned id not in its table");
  return 0;
}

TraceEvent *
perfetto_reader_emit (PerfettoReader *r,
                      TraceEventKind kind,
                      gint64 ts)
{
  r->stats.events++;
  return trace_batch_append (r->batch, kind, ts);
}

void
perfetto_reader_set_assoc (PerfettoReader *r,
                           gint64 tid,
                           gint64 pid)
{
  g_hash_table_replace (r->tid_to_pid, perfetto_int64_dup (tid), perfetto_int64_dup (pid));
}

gint64
perfetto_reader_pid_of (PerfettoReader *r,
                        gint64 tid)
{
  const gint64 *pid = g_hash_table_lookup (r->tid_to_pid, &tid);

  return pid ? *pid : TRACE_ID_UNKNOWN;
}

/* ---- sequences ---- */

/* Drops what @seq holds: its tables, arrays and defaults. */
static void
seq_clear (PerfettoSeq *seq)
{
  GHashTable **tables[] = { &seq->names, &seq->categories, &seq->ann_names, &seq->str_values,
                            &seq->ksyms, &seq->functions, &seq->map_paths, &seq->mappings,
                            &seq->frames, &seq->callstacks };

  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    g_clear_pointer (tables[i], g_hash_table_unref);
  seq->default_clock = 0;
  seq->default_track = 0;
  seq->perf_timebase = 0;
  seq->has_thread = FALSE;
  g_clear_pointer (&seq->extra_counter_tracks, g_array_unref);
  g_clear_pointer (&seq->extra_double_counter_tracks, g_array_unref);
}

static void
seq_free (gpointer data)
{
  PerfettoSeq *seq = data;

  seq_clear (seq);
  g_free (seq);
}

/* Whether @seq holds anything a later packet of its sequence reads. */
static gboolean
seq_has_state (const PerfettoSeq *seq)
{
  const GHashTable *tables[] = { seq->names, seq->categories, seq->ann_names, seq->str_values,
                                 seq->ksyms, seq->functions, seq->map_paths, seq->mappings,
                                 seq->frames, seq->callstacks };

  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    if (tables[i] != NULL)
      return TRUE;
  return seq->valid || seq->default_clock != 0 || seq->default_track != 0 || seq->perf_timebase != 0 || seq->has_thread ||
         seq->time_us != 0 || seq->thread_time_us != 0 || seq->instructions != 0 ||
         seq->extra_counter_tracks != NULL || seq->extra_double_counter_tracks != NULL;
}

/* The state of sequence @id: the kept one, else the scratch state, empty,
 * for this packet (seq_keep() keeps it if the packet gave it state). A
 * file may name millions of sequences; only those with state cost. */
static PerfettoSeq *
seq_get (PerfettoReader *r,
         guint32 id)
{
  PerfettoSeq *seq = g_hash_table_lookup (r->sequences, GUINT_TO_POINTER (id));

  if (seq != NULL)
    {
      if (r->seq_lru.tail != &seq->lru)
        {
          g_queue_unlink (&r->seq_lru, &seq->lru);
          g_queue_push_tail_link (&r->seq_lru, &seq->lru);
        }
      return seq;
    }
  r->scratch.id = id;
  return &r->scratch;
}

/* Makes the scratch state @seq a kept one if the packet gave it state;
 * past %PERFETTO_READER_MAX_SEQUENCES, the state of the sequence least
 * recently used is dropped (its later packets that need interned data
 * are skipped, as those of a sequence never cleared). Returns: the state
 * to go on with. */
static PerfettoSeq *
seq_keep (PerfettoReader *r,
          PerfettoSeq *seq)
{
  PerfettoSeq *kept;

  if (seq != &r->scratch || !seq_has_state (seq))
    return seq;
  if (g_hash_table_size (r->sequences) >= PERFETTO_READER_MAX_SEQUENCES)
    {
      PerfettoSeq *oldest = r->seq_lru.head->data;

      perfetto_reader_skip (r, &r->stats.dropped_sequences, 1, "sequence state dropped past the limit of sequences");
      g_queue_unlink (&r->seq_lru, &oldest->lru);
      g_hash_table_remove (r->sequences, GUINT_TO_POINTER (oldest->id));
    }
  g_debug ("%s: byte offset %" G_GUINT64_FORMAT ": sequence %u has state", r->location, r->packet_offset, seq->id);
  kept = g_memdup2 (seq, sizeof *seq);
  memset (seq, 0, sizeof *seq);
  kept->lru = (GList){ kept, NULL, NULL };
  g_queue_push_tail_link (&r->seq_lru, &kept->lru);
  g_hash_table_insert (r->sequences, GUINT_TO_POINTER (kept->id), kept);
  return kept;
}

static void
intern_strings (PerfettoReader *r,
                GHashTable **table,
                gsize n,
                Perfetto__Protos__InternedString **strings)
{
  for (gsize i = 0; i < n; i++)
    {
      const Perfetto__Protos__InternedString *s = strings[i];
      guint32 id = trace_string_pool_intern_len (r->pool, (const char *) s->str.data, s->str.len);

      g_hash_table_replace (perfetto_seq_table (table, NULL), perfetto_int64_dup ((gint64) s->iid),
                            GUINT_TO_POINTER (id));
    }
}

/* EventName, EventCategory and DebugAnnotationName: iid then name. */
#define INTERN_NAMED(table, n, items)                                                                       \
  for (gsize i = 0; i < (n); i++)                                                                           \
  g_hash_table_replace (perfetto_seq_table (&(table), NULL), perfetto_int64_dup ((gint64) (items)[i]->iid), \
                        GUINT_TO_POINTER (perfetto_reader_intern (r, (items)[i]->name)))

static void
seq_intern (PerfettoReader *r,
            PerfettoSeq *seq,
            const PerfettoInternedData *d)
{
  INTERN_NAMED (seq->names, d->n_event_names, d->event_names);
  INTERN_NAMED (seq->categories, d->n_event_categories, d->event_categories);
  INTERN_NAMED (seq->ann_names, d->n_debug_annotation_names, d->debug_annotation_names);
  intern_strings (r, &seq->str_values, d->n_debug_annotation_string_values,
                  d->debug_annotation_string_values);
  intern_strings (r, &seq->ksyms, d->n_kernel_symbols, d->kernel_symbols);
  intern_strings (r, &seq->functions, d->n_function_names, d->function_names);
  intern_strings (r, &seq->map_paths, d->n_mapping_paths, d->mapping_paths);
  perfetto_reader_intern_profiling (r, seq, d);
}

/* ---- clocks ---- */

/* Whether a snapshot's clock goes on as a clock marker: a builtin clock
 * of a domain other than the stream's, read exactly (a coarse clock's
 * value would be taken for the exact one's), and in a header not one
 * reading the same as the stream's: that is perfetto-sink's own
 * one-to-one tie of its kernel events' or samples' clock to the stream's,
 * which it writes again. */
static gboolean
snapshot_clock_is_marker (PerfettoReader *r,
                          const Perfetto__Protos__ClockSnapshot *snap,
                          const Perfetto__Protos__ClockSnapshot__Clock *clock,
                          const Perfetto__Protos__ClockSnapshot__Clock *mine)
{
  TraceClockDomain domain = perfetto_builtin_to_clock_domain (clock->clock_id);

  if (clock == mine || domain == TRACE_CLOCK_UNKNOWN || domain == perfetto_builtin_to_clock_domain (r->stream_clock))
    return FALSE;
  if (clock->clock_id != perfetto_clock_domain_to_builtin (domain))
    return FALSE;
  return !(snap->has_primary_trace_clock && clock->timestamp == mine->timestamp);
}

/* A snapshot ties the clocks it holds to the stream's (for the packets
 * timestamped on them: perfetto-reader-clocks.c), and goes on as clock
 * markers: a pair of the stream's clock and each other builtin clock it
 * holds, which clock-sync and perfetto-sink use (perfetto-sink writes
 * them back as snapshots, so that trace_processor converts what is
 * timestamped on them: an Android log's REALTIME). One that states the
 * trace's clock (`primary_trace_clock`, in every snapshot traced writes)
 * sets the stream's clock first. */
static void
handle_clock_snapshot (PerfettoReader *r,
                       PerfettoSeq *seq,
                       const Perfetto__Protos__ClockSnapshot *snap)
{
  const Perfetto__Protos__ClockSnapshot__Clock *mine = NULL;
  guint domains_paired = 0, tied;

  if (snap->has_primary_trace_clock)
    {
      r->stream_clock = snap->primary_trace_clock;
      r->clock_stated = TRUE;
    }
  tied = perfetto_reader_clock_snapshot (r, snap, seq->id);
  for (gsize i = 0; i < snap->n_clocks && mine == NULL; i++)
    if (snap->clocks[i]->clock_id == r->stream_clock)
      mine = snap->clocks[i];
  for (gsize i = 0; mine != NULL && i < snap->n_clocks; i++)
    {
      TraceClockDomain domain = perfetto_builtin_to_clock_domain (snap->clocks[i]->clock_id);
      TraceEvent *ev;

      if (!snapshot_clock_is_marker (r, snap, snap->clocks[i], mine) || (domains_paired & (1u << domain)))
        continue;
      domains_paired |= 1u << domain;
      ev = perfetto_reader_emit (r, TRACE_EVENT_CLOCK_MARKER, (gint64) mine->timestamp);
      ev->u.clock.marker = TRACE_CLOCK_MARKER_PAIR;
      ev->u.clock.domain = domain;
      ev->u.clock.other_ts = (gint64) snap->clocks[i]->timestamp;
    }
  if (tied == 0 && !snap->has_primary_trace_clock)
    perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "clock snapshot without the stream's clock");
}

/* ---- packets ---- */

static gboolean handle_compressed_records (PerfettoReader *r,
                                           const guint8 *data,
                                           gsize len,
                                           guint64 offset,
                                           GError **error);

static gboolean
handle_compressed (PerfettoReader *r,
                   const ProtobufCBinaryData *data,
                   guint64 offset,
                   GError **error)
{
  z_stream zs = { 0 };
  guint8 chunk[64 * 1024];
  int rc = Z_OK;

  g_byte_array_set_size (r->inflated, 0);
  if (inflateInit (&zs) != Z_OK)
    goto fail;
  zs.next_in = data->data;
  zs.avail_in = (uInt) data->len;
  while (rc != Z_STREAM_END)
    {
      zs.next_out = chunk;
      zs.avail_out = sizeof chunk;
      rc = inflate (&zs, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END)
        break;
      g_byte_array_append (r->inflated, chunk, sizeof chunk - zs.avail_out);
      if (r->inflated->len > PERFETTO_MAX_PACKET_SIZE || (rc == Z_OK && zs.avail_in == 0 && zs.avail_out != 0))
        break;
    }
  inflateEnd (&zs);
  if (rc != Z_STREAM_END)
    goto fail;
  /* The outer packet (in the arena, reset per inner packet) is not
   * needed any more: everything is in r->inflated now. */
  return handle_compressed_records (r, r->inflated->data, r->inflated->len, offset, error);
fail:
  g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_DECODE,
               "%s: byte offset %" G_GUINT64_FORMAT ": compressed packets do not inflate",
               r->location, offset);
  return FALSE;
}

/* A sequence's default counter tracks: @uuids, NULL for none. */
static void
set_tracks (GArray **tracks,
            const guint64 *uuids,
            gsize n)
{
  g_clear_pointer (tracks, g_array_unref);
  if (n > 0)
    *tracks = g_array_append_vals (g_array_sized_new (FALSE, FALSE, sizeof (guint64), n), uuids, n);
}

static void
track_event_defaults (PerfettoSeq *seq,
                      const Perfetto__Protos__TrackEventDefaults *d)
{
  if (d->has_track_uuid)
    seq->default_track = d->track_uuid;
  set_tracks (&seq->extra_counter_tracks, d->extra_counter_track_uuids, d->n_extra_counter_track_uuids);
  set_tracks (&seq->extra_double_counter_tracks, d->extra_double_counter_track_uuids,
              d->n_extra_double_counter_track_uuids);
}

static void
packet_sequence_state (PerfettoReader *r,
                       PerfettoSeq *seq,
                       const PerfettoPacket *pkt)
{
  if ((pkt->has_sequence_flags && (pkt->sequence_flags & PERFETTO_SEQ_CLEARED)) || (pkt->has_incremental_state_cleared && pkt->incremental_state_cleared))
    {
      /* once per sequence, and per reset of its interning: never per event */
      g_debug ("%s: byte offset %" G_GUINT64_FORMAT ": sequence %u clears its interned data", r->location,
               r->packet_offset, seq->id);
      seq_clear (seq);
      seq->valid = TRUE;
    }
  if (pkt->trace_packet_defaults)
    {
      const Perfetto__Protos__TracePacketDefaults *d = pkt->trace_packet_defaults;

      if (d->has_timestamp_clock_id)
        {
          seq->default_clock = d->timestamp_clock_id;
          /* Without a header snapshot, the first builtin clock stated
           * is the stream's (a sequence's own clock, 64 and up, is put
           * on it through snapshots). */
          if (!r->clock_stated && d->timestamp_clock_id < 64)
            {
              r->stream_clock = d->timestamp_clock_id;
              r->clock_stated = TRUE;
            }
        }
      if (d->track_event_defaults)
        track_event_defaults (seq, d->track_event_defaults);
      if (d->perf_sample_defaults && d->perf_sample_defaults->timebase)
        {
          g_autoptr (GString) name = g_string_new (NULL);

          perfetto_timebase_name (d->perf_sample_defaults->timebase, name);
          seq->perf_timebase = perfetto_reader_intern (r, name->str);
        }
    }
  if (pkt->interned_data)
    seq_intern (r, seq, pkt->interned_data);
}

static gint64
packet_timestamp (PerfettoReader *r,
                  PerfettoSeq *seq,
                  const PerfettoPacket *pkt)
{
  guint32 clock;

  if (!pkt->has_timestamp)
    return r->last_ts;
  clock = pkt->has_timestamp_clock_id ? pkt->timestamp_clock_id : seq->default_clock;
  /* a snapshot's own time is read as it is, as trace_processor reads it */
  if (clock == 0 || clock == r->stream_clock || pkt->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT)
    r->last_ts = (gint64) MIN (pkt->timestamp, (guint64) G_MAXINT64);
  else if (!perfetto_reader_convert_time (r, clock, seq->id, pkt->timestamp, &r->last_ts))
    perfetto_reader_skip (r, &r->stats.other_clock, 1,
                          "packet timestamped on a clock no snapshot ties to the stream's (kept as is)");
  return r->last_ts;
}

/* Logs the first packet of each kind (the field of TracePacket's data). */
static void
note_packet_kind (PerfettoReader *r,
                  const PerfettoPacket *pkt)
{
  const ProtobufCFieldDescriptor *field;
  guint kind = pkt->data_case;

  if (kind >= 8 * sizeof r->kinds_seen || (r->kinds_seen[kind / 8] & (1u << (kind % 8))))
    return;
  r->kinds_seen[kind / 8] |= 1u << (kind % 8);
  field = protobuf_c_message_descriptor_get_field (&perfetto__protos__trace_packet__descriptor, kind);
  g_debug ("%s: byte offset %" G_GUINT64_FORMAT ": first %s packet", r->location, r->packet_offset,
           field ? field->name : "data-less");
}

static gboolean
dispatch_packet (PerfettoReader *r,
                 PerfettoSeq *seq,
                 PerfettoPacket *pkt,
                 gboolean inside_compressed,
                 guint64 offset,
                 GError **error)
{
  gint64 ts = packet_timestamp (r, seq, pkt);

  note_packet_kind (r, pkt);
  switch (pkt->data_case)
    {
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR:
      perfetto_reader_track_descriptor (r, pkt->track_descriptor, ts);
      /* A thread's descriptor is also its sequence's thread (for the
       * events that name no track), once the sequence's state is valid. */
      if (pkt->track_descriptor->thread && pkt->track_descriptor->thread->has_pid &&
          pkt->track_descriptor->thread->has_tid && seq->valid)
        perfetto_reader_thread_descriptor (seq, pkt->track_descriptor->thread);
      break;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT:
      perfetto_reader_track_event (r, seq, pkt->track_event, ts);
      break;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS:
      perfetto_reader_ftrace_bundle (r, seq, pkt->ftrace_events);
      break;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_TREE:
      perfetto_reader_process_tree (r, pkt->process_tree, ts);
      break;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT:
      handle_clock_snapshot (r, seq, pkt->clock_snapshot);
      break;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_PERF_SAMPLE:
      perfetto_reader_perf_sample (r, seq, pkt->perf_sample, ts);
      break;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_THREAD_DESCRIPTOR:
      perfetto_reader_thread_descriptor (seq, pkt->thread_descriptor);
      break;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_STREAMING_PROFILE_PACKET:
      perfetto_reader_streaming_profile (r, seq, pkt->streaming_profile_packet);
      break;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_CHROME_EVENTS:
      perfetto_reader_chrome_events (r, pkt->chrome_events);
      break;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_SYS_STATS:
      perfetto_reader_sys_stats (r, pkt->sys_stats, ts);
      break;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_SYSTEM_INFO:
      perfetto_reader_system_info (r, pkt->system_info, ts);
      break;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_STATS:
      perfetto_reader_process_stats (r, pkt->process_stats, ts);
      break;
    case PERFETTO__PROTOS__TRACE_PACKET__DATA_COMPRESSED_PACKETS:
      /* Perfetto never nests them; allowing it would recurse once per
       * level (a stack overflow in a few KB of input) and hold one
       * inflated buffer per level. */
      if (inside_compressed)
        {
          g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT,
                       "%s: byte offset %" G_GUINT64_FORMAT ": compressed packets inside compressed packets",
                       r->location, offset);
          return FALSE;
        }
      return handle_compressed (r, &pkt->compressed_packets, offset, error);
    default:
      /* A packet of a kind this reader does not know (or only interned
       * data and sequence state, which is not unknown). */
      if (pkt->base.n_unknown_fields > 0)
        perfetto_reader_unknown_packet (r, pkt, ts);
      break;
    }
  return TRUE;
}

static gboolean
handle_packet (PerfettoReader *r,
               const guint8 *data,
               gsize len,
               gboolean inside_compressed,
               guint64 offset,
               GError **error)
{
  PerfettoPacket *pkt = perfetto__protos__trace_packet__unpack (&r->allocator, len, data);
  PerfettoSeq *seq;

  if (pkt == NULL)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT,
                   "%s: byte offset %" G_GUINT64_FORMAT ": the packet does not decode as a TracePacket",
                   r->location, offset);
      return FALSE;
    }
  r->stats.packets++;
  seq = seq_get (r, pkt->has_trusted_packet_sequence_id ? pkt->trusted_packet_sequence_id : 0);
  packet_sequence_state (r, seq, pkt);
  /* kept before the packet is read: compressed packets read others */
  seq = seq_keep (r, seq);
  if (pkt->has_sequence_flags && (pkt->sequence_flags & PERFETTO_SEQ_NEEDS) && !seq->valid)
    {
      perfetto_reader_skip (r, &r->stats.no_incremental_state, 1, "packet that needs the interned data of a sequence never cleared");
      return TRUE;
    }
  perfetto_reader_count_unread_payload (r, pkt);
  if (!dispatch_packet (r, seq, pkt, inside_compressed, offset, error))
    return FALSE;
  seq_keep (r, seq);
  return TRUE;
}

/* ---- records ---- */

/* Returns: bytes used by the varint at @p, 0 if @avail ends first, -1 if
 * it is longer than any varint */
static int
read_varint (const guint8 *p,
             gsize avail,
             guint64 *out)
{
  guint64 v = 0;

  for (guint i = 0; i < 10; i++)
    {
      if (i >= avail)
        return 0;
      v |= (guint64) (p[i] & 0x7f) << (7 * i);
      if (!(p[i] & 0x80))
        {
          *out = v;
          return (int) i + 1;
        }
    }
  return -1;
}

typedef enum
{
  PERFETTO_FIELD_OK,
  PERFETTO_FIELD_INCOMPLETE, /* the bytes end inside its tag, length or varint value */
  PERFETTO_FIELD_BAD,        /* no field: an overlong varint, a group, field number 0 */
} PerfettoFieldStatus;

/* A field of a message, as read_field() finds it. */
typedef struct
{
  guint32 number;
  guint wire;
  gsize head;  /* bytes before its value: the tag, and a length-delimited field's length */
  guint64 len; /* bytes of its value: a varint's own bytes, a fixed size, or a length */
} PerfettoField;

/* Reads the field at @p (its value's bytes are not checked against
 * @avail): the one walker of protobuf fields, for the file's records
 * and for the scans ahead of them. */
static PerfettoFieldStatus
read_field (const guint8 *p,
            gsize avail,
            PerfettoField *f)
{
  guint64 tag, len;
  int n = read_varint (p, avail, &tag), m;

  f->number = 0;
  if (n <= 0)
    return n < 0 ? PERFETTO_FIELD_BAD : PERFETTO_FIELD_INCOMPLETE;
  f->number = (guint32) (tag >> 3);
  f->wire = tag & 7;
  f->head = (gsize) n;
  f->len = 0;
  switch (f->wire)
    {
    case 0:
      if ((m = read_varint (p + n, avail - n, &len)) < 0)
        return PERFETTO_FIELD_BAD;
      f->len = (guint64) m; /* 0: cut inside it */
      break;
    case 1:
      f->len = 8;
      break;
    case 5:
      f->len = 4;
      break;
    case 2:
      /* cut inside the length: incomplete, whatever the field number */
      if ((m = read_varint (p + n, avail - n, &len)) == 0)
        return PERFETTO_FIELD_INCOMPLETE;
      if (m < 0)
        return PERFETTO_FIELD_BAD;
      f->head += (gsize) m;
      f->len = len;
      break;
    default:
      return PERFETTO_FIELD_BAD;
    }
  if (f->number == 0)
    return PERFETTO_FIELD_BAD;
  return f->wire == 0 && f->len == 0 ? PERFETTO_FIELD_INCOMPLETE : PERFETTO_FIELD_OK;
}

typedef enum
{
  PERFETTO_RECORD_PACKET,
  PERFETTO_RECORD_SKIP,
  PERFETTO_RECORD_INCOMPLETE,
  PERFETTO_RECORD_BAD,
} PerfettoRecordKind;

/* Parses the header of the record at @p: a Trace.packet (field 1, length
 * delimited), another field to skip (a varint is all header), not enough
 * bytes, or no record. */
static PerfettoRecordKind
parse_record_header (const guint8 *p,
                     gsize avail,
                     gsize *header_len,
                     guint64 *body_len)
{
  PerfettoField f;

  switch (read_field (p, avail, &f))
    {
    case PERFETTO_FIELD_BAD:
      return PERFETTO_RECORD_BAD;
    case PERFETTO_FIELD_INCOMPLETE:
      return PERFETTO_RECORD_INCOMPLETE;
    default:
      break;
    }
  *header_len = f.head + (f.wire == 0 ? f.len : 0);
  *body_len = f.wire == 0 ? 0 : f.len;
  return f.number == 1 && f.wire == 2 ? PERFETTO_RECORD_PACKET : PERFETTO_RECORD_SKIP;
}

/* The packets of one `compressed_packets` field. Each one is unpacked
 * into the arena and the arena is reset after it, as for a record of the
 * file: memory is one packet's, not the field's (20 M empty packets took
 * 3.7 GB when the arena was reset only per outer packet). */
static gboolean
handle_compressed_records (PerfettoReader *r,
                           const guint8 *data,
                           gsize len,
                           guint64 offset,
                           GError **error)
{
  gsize pos = 0;
  guint n_packets = 0;

  while (pos < len)
    {
      gsize hlen;
      guint64 blen;
      PerfettoRecordKind kind = parse_record_header (data + pos, len - pos, &hlen, &blen);

      if (kind == PERFETTO_RECORD_BAD || kind == PERFETTO_RECORD_INCOMPLETE || blen > len - pos - hlen)
        {
          g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT,
                       "%s: byte offset %" G_GUINT64_FORMAT ": corrupt compressed packets",
                       r->location, offset);
          return FALSE;
        }
      if (kind == PERFETTO_RECORD_PACKET && ++n_packets > PERFETTO_MAX_COMPRESSED_PACKETS)
        {
          g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_TOO_LARGE,
                       "%s: byte offset %" G_GUINT64_FORMAT ": compressed packets hold more than %u packets",
                       r->location, offset, PERFETTO_MAX_COMPRESSED_PACKETS);
          return FALSE;
        }
      r->inflated_rest = data + pos + hlen + blen;
      r->inflated_rest_len = len - pos - hlen - blen;
      if (kind == PERFETTO_RECORD_PACKET && !handle_packet (r, data + pos + hlen, blen, TRUE, offset, error))
        return r->inflated_rest = NULL, FALSE;
      r->inflated_rest = NULL;
      trace_arena_reset (r->arena);
      pos += hlen + blen;
    }
  return TRUE;
}

/* Makes @need bytes available at buf + pos, reading as needed.
 * Returns: %FALSE on a read error; fewer bytes are available at EOF */
static gboolean
fill (PerfettoReader *r,
      gsize need,
      GError **error)
{
  while (r->len - r->pos < need && !r->eof)
    {
      g_autoptr (GError) local = NULL;
      gssize n;

      if (r->pos > 0)
        {
          memmove (r->buf, r->buf + r->pos, r->len - r->pos);
          r->offset += r->pos;
          r->len -= r->pos;
          r->pos = 0;
        }
      /* The buffer grows with the bytes that arrive, doubling up to what
       * is needed, not to a packet's length at once: a cut trace, or a
       * damaged length under the limit, costs the memory of what is there.
       * It grows by a read chunk at least: the look-ahead asks for a few
       * more bytes at every record, and growing by those would copy the
       * buffer (and read a few bytes) once a record. */
      if (r->cap < PERFETTO_READ_CHUNK || r->len == r->cap)
        {
          r->cap = MAX (PERFETTO_READ_CHUNK, MIN (r->cap * 2, MAX (need, r->cap + PERFETTO_READ_CHUNK)));
          r->buf = g_realloc (r->buf, r->cap);
        }
      n = g_input_stream_read (r->in, r->buf + r->len, r->cap - r->len, NULL, &local);
      if (n < 0)
        {
          g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_READ,
                       "%s: %s", r->location, local->message);
          return FALSE;
        }
      if (n == 0)
        r->eof = TRUE;
      r->len += (gsize) n;
      r->stats.bytes += (guint64) n;
    }
  return TRUE;
}

static void
note_truncated (PerfettoReader *r)
{
  r->stats.truncated_offset = r->offset + r->pos;
  r->stats.truncated_bytes = r->len - r->pos;
  g_debug ("%s: byte offset %" G_GUINT64_FORMAT ": the last record is cut off (%" G_GUINT64_FORMAT
           " bytes skipped)",
           r->location, r->stats.truncated_offset, r->stats.truncated_bytes);
  r->pos = r->len;
}

static gboolean
record_error (PerfettoReader *r,
              GError **error)
{
  guint64 at = r->offset + r->pos;

  if (at == 0)
    g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_WRONG_TYPE,
                 "%s: byte offset 0: not a Perfetto protobuf trace", r->location);
  else
    g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT,
                 "%s: byte offset %" G_GUINT64_FORMAT ": no protobuf record starts here",
                 r->location, at);
  return FALSE;
}

/* Reads and handles one record. Returns: %FALSE on error; sets r->done
 * at the end of the input */
static gboolean
next_record (PerfettoReader *r,
             GError **error)
{
  gsize hlen;
  guint64 blen, at;
  PerfettoRecordKind kind;

  if (!fill (r, 20, error))
    return FALSE;
  if (r->pos == r->len && r->stats.bytes == 0)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_EMPTY,
                   "%s: the file is empty", r->location);
      return FALSE;
    }
  if (r->pos == r->len)
    return r->done = TRUE, TRUE;
  kind = parse_record_header (r->buf + r->pos, r->len - r->pos, &hlen, &blen);
  /* Every Perfetto trace begins with a packet: anything else there is
   * another kind of file, even if it happens to parse as protobuf. */
  if (kind == PERFETTO_RECORD_BAD || (r->offset + r->pos == 0 && kind == PERFETTO_RECORD_SKIP))
    return record_error (r, error);
  if (kind == PERFETTO_RECORD_INCOMPLETE)
    return note_truncated (r), r->done = TRUE, TRUE;
  at = r->packet_offset = r->offset + r->pos;
  if (blen > PERFETTO_MAX_PACKET_SIZE)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_TOO_LARGE,
                   "%s: byte offset %" G_GUINT64_FORMAT ": a record of %" G_GUINT64_FORMAT
                   " bytes is larger than the limit of %u MiB",
                   r->location, at, blen, PERFETTO_MAX_PACKET_SIZE / (1024 * 1024));
      return FALSE;
    }
  if (!fill (r, hlen + blen, error))
    return FALSE;
  if (r->len - r->pos < hlen + blen)
    return note_truncated (r), r->done = TRUE, TRUE;
  r->record_end = at + hlen + blen;
  if (kind == PERFETTO_RECORD_SKIP)
    perfetto_reader_skip (r, &r->stats.unknown_fields, 1, "top-level record other than Trace.packet");
  else if (!handle_packet (r, r->buf + r->pos + hlen, blen, FALSE, at, error))
    return FALSE;
  trace_arena_reset (r->arena);
  r->pos += hlen + blen;
  return TRUE;
}

/* ---- track descriptors ahead of their place ---- */

/* How far past the record being read the reader looks for the descriptor
 * of a track used before it. */
#define PERFETTO_LOOKAHEAD (4u * 1024 * 1024)

/* TracePacket.track_descriptor and TrackDescriptor.uuid */
#define TRACK_DESCRIPTOR_FIELD 60u
#define UUID_FIELD 1u

/* Walks the fields of the message @p[0..len): returns the next one's
 * field number and wire type, its value's bytes in @value (a varint's
 * own bytes, a length-delimited one's body), 0 at the end or on damage.
 * A field cut inside its length or varint value, which can only be the
 * last, reads as an empty one. */
static guint32
next_field (const guint8 **p,
            const guint8 *end,
            guint *wire,
            const guint8 **value,
            guint64 *value_len)
{
  PerfettoField f;

  switch (read_field (*p, (gsize) (end - *p), &f))
    {
    case PERFETTO_FIELD_BAD:
      return 0;
    case PERFETTO_FIELD_INCOMPLETE:
      if (f.number == 0)
        return 0;
      *wire = f.wire;
      *value = *p + f.head;
      *value_len = 0;
      *p = end;
      return f.number;
    default:
      break;
    }
  if (f.len > (guint64) (end - *p) - f.head)
    return 0;
  *wire = f.wire;
  *value = *p + f.head;
  *value_len = f.len;
  *p += f.head + f.len;
  return f.number;
}

/* Declares the track of a descriptor found ahead, if no descriptor
 * declared its uuid yet (one declared already may be declared again
 * later on purpose). */
static void
declare_ahead_descriptor (PerfettoReader *r,
                          const guint8 *body,
                          guint64 len,
                          gint64 ts)
{
  const guint8 *p = body, *value;
  guint64 value_len, uuid = 0;
  guint wire;
  guint32 field;
  PerfettoTrackDescriptor *desc;

  while ((field = next_field (&p, body + len, &wire, &value, &value_len)) != 0)
    if (field == UUID_FIELD && wire == 0)
      read_varint (value, value_len, &uuid);
  if (uuid == 0 || g_hash_table_contains (r->tracks, &uuid))
    return;
  desc = perfetto__protos__track_descriptor__unpack (&r->allocator, len, body);
  if (desc != NULL)
    perfetto_reader_track_descriptor (r, desc, ts);
}

/* The body of the next record at file offset *@at, as long as it ends
 * before @limit; *@at moves past it. Returns: %NULL at the end of what
 * may be scanned (the input, @limit, a damaged record) */
static const guint8 *
next_record_ahead (PerfettoReader *r,
                   guint64 *at,
                   guint64 limit,
                   guint64 *len,
                   gboolean *is_packet)
{
  gsize hlen;
  guint64 blen;
  PerfettoRecordKind kind;
  const guint8 *body;

  /* the record being read stays at r->pos whatever fill() moves */
  if (*at >= limit || !fill (r, (gsize) (*at - (r->offset + r->pos)) + 20, NULL) || *at >= r->offset + r->len)
    return NULL;
  kind = parse_record_header (r->buf + (*at - r->offset), r->offset + r->len - *at, &hlen, &blen);
  if (kind == PERFETTO_RECORD_BAD || kind == PERFETTO_RECORD_INCOMPLETE || blen > PERFETTO_LOOKAHEAD ||
      !fill (r, (gsize) (*at - (r->offset + r->pos) + hlen + blen), NULL) || *at + hlen + blen > r->offset + r->len)
    return NULL;
  body = r->buf + (*at - r->offset) + hlen;
  *at += hlen + blen;
  *len = blen;
  *is_packet = kind == PERFETTO_RECORD_PACKET;
  return body;
}

/**
 * perfetto_reader_declare_ahead:
 * @r: a #PerfettoReader
 * @uuid: a track a TrackEvent uses that no descriptor declared yet
 * @ts: the event's time
 *
 * Producers may write a track's descriptor after the first event that
 * uses it (Chrome does for its async tracks: the descriptor is the next
 * packet). trace_processor reads descriptors as it tokenizes and events
 * after sorting, so it places such an event on its track. So does the
 * reader: it scans the records after the one being read, up to
 * %PERFETTO_LOOKAHEAD bytes, and declares the tracks of the descriptors
 * it finds there whose uuids are not declared yet; each byte is scanned
 * once. Records inside compressed packets are not scanned.
 *
 * Returns: whether @uuid is declared now
 */
gboolean
perfetto_reader_declare_ahead (PerfettoReader *r,
                               guint64 uuid,
                               gint64 ts)
{
  guint64 at = MAX (r->record_end, r->ahead_scanned);
  guint64 limit = r->record_end + PERFETTO_LOOKAHEAD, len, value_len;
  const guint8 *p, *value;
  gboolean is_packet;
  guint wire;
  guint32 field;

  while (!g_hash_table_contains (r->tracks, &uuid) && (p = next_record_ahead (r, &at, limit, &len, &is_packet)) != NULL)
    {
      const guint8 *end = p + len;

      while (is_packet && (field = next_field (&p, end, &wire, &value, &value_len)) != 0)
        if (field == TRACK_DESCRIPTOR_FIELD && wire == 2)
          declare_ahead_descriptor (r, value, value_len, ts);
      r->ahead_scanned = at;
    }
  return g_hash_table_contains (r->tracks, &uuid);
}

/* Trace.packet; TracePacket.ftrace_events; FtraceEventBundle.cpu, .event,
 * .compact_sched */
#define TRACE_PACKET_FIELD 1u
#define FTRACE_EVENTS_FIELD 1u
#define BUNDLE_CPU_FIELD 1u
#define BUNDLE_EVENT_FIELD 2u
#define BUNDLE_COMPACT_FIELD 4u

static void
expect_bundle_cpu (PerfettoReader *r,
                   const guint8 *body,
                   guint64 len)
{
  const guint8 *p = body, *value;
  guint64 value_len, cpu = G_MAXUINT64;
  gboolean has_events = FALSE;
  guint wire;
  guint32 field;

  while ((field = next_field (&p, body + len, &wire, &value, &value_len)) != 0)
    {
      if (field == BUNDLE_CPU_FIELD && wire == 0)
        read_varint (value, value_len, &cpu);
      has_events |= wire == 2 && (field == BUNDLE_EVENT_FIELD || field == BUNDLE_COMPACT_FIELD);
    }
  if (has_events && cpu < PERFETTO_READER_MAX_CPUS)
    {
      if (cpu >= r->cpus->len)
        g_array_set_size (r->cpus, (guint) cpu + 1);
      g_array_index (r->cpus, PerfettoRCpu, cpu).expected = TRUE;
    }
}

/**
 * perfetto_reader_expect_cpus:
 * @r: a #PerfettoReader
 *
 * Notes the cpus whose ftrace bundles with events come in the records
 * after the one being read, up to %PERFETTO_LOOKAHEAD bytes (and in the
 * rest of the compressed packets being read, if any): print events
 * wait for their bundles too (perfetto_reader_release_prints()), since a
 * cpu's first bundle may come late. Done once, at the first bundle.
 */
static void
expect_cpus_in (PerfettoReader *r,
                const guint8 *records,
                gsize len)
{
  const guint8 *p = records, *value;
  guint64 value_len;
  guint wire;
  guint32 field;

  while ((field = next_field (&p, records + len, &wire, &value, &value_len)) != 0)
    if (field == TRACE_PACKET_FIELD && wire == 2)
      {
        const guint8 *q = value, *body;
        guint64 body_len;

        while ((field = next_field (&q, value + value_len, &wire, &body, &body_len)) != 0)
          if (field == FTRACE_EVENTS_FIELD && wire == 2)
            expect_bundle_cpu (r, body, body_len);
      }
}

void
perfetto_reader_expect_cpus (PerfettoReader *r)
{
  guint64 at = r->record_end, limit = r->record_end + PERFETTO_LOOKAHEAD, len, value_len;
  const guint8 *p, *value;
  gboolean is_packet;
  guint wire;
  guint32 field;

  /* the rest of the compressed packets being read, then the file's */
  if (r->inflated_rest != NULL)
    expect_cpus_in (r, r->inflated_rest, r->inflated_rest_len);
  while ((p = next_record_ahead (r, &at, limit, &len, &is_packet)) != NULL)
    {
      const guint8 *end = p + len;

      while (is_packet && (field = next_field (&p, end, &wire, &value, &value_len)) != 0)
        if (field == FTRACE_EVENTS_FIELD && wire == 2)
          expect_bundle_cpu (r, value, value_len);
    }
}

/* ---- public API ---- */

/**
 * perfetto_reader_new:
 * @in: the stream to read a Perfetto trace from
 * @location: the name of the input, for messages
 * @pool: the string pool of the events produced
 *
 * Returns: (transfer full): a reader; free with perfetto_reader_free()
 */
PerfettoReader *
perfetto_reader_new (GInputStream *in,
                     const char *location,
                     TraceStringPool *pool)
{
  PerfettoReader *r;

  g_return_val_if_fail (G_IS_INPUT_STREAM (in), NULL);

  r = g_new0 (PerfettoReader, 1);
  r->in = g_object_ref (in);
  r->location = g_strdup (location ? location : "<stream>");
  r->pool = trace_string_pool_ref (pool ? pool : trace_string_pool_get_default ());
  r->arena = trace_arena_new (PERFETTO_ARENA_MIN, PERFETTO_ARENA_MAX);
  r->allocator.alloc = arena_alloc;
  r->allocator.free = arena_free;
  r->allocator.allocator_data = r->arena;
  r->inflated = g_byte_array_new ();
  r->sequences = g_hash_table_new_full (NULL, NULL, NULL, seq_free);
  r->tracks = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  r->proc_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  r->proc_sort = g_hash_table_new_full (perfetto_key_hash, perfetto_key_equal, g_free, g_free);
  r->proc_labels = g_hash_table_new_full (perfetto_key_hash, perfetto_key_equal, g_free, NULL);
  r->thread_names = g_hash_table_new_full (perfetto_key_hash, perfetto_key_equal, g_free, NULL);
  r->thread_sort = g_hash_table_new_full (perfetto_key_hash, perfetto_key_equal, g_free, g_free);
  r->tid_to_pid = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  r->active_flows = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  r->stack_nodes = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  r->cpus = g_array_new (FALSE, TRUE, sizeof (PerfettoRCpu));
  r->prints = g_ptr_array_new_with_free_func (g_free);
  r->ftrace_names = g_hash_table_new (NULL, NULL);
  r->packet_kinds = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  r->unsupported = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  r->clocks = perfetto_clocks_new ();
  r->comm_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  r->markers = ftrace_parser_new (r->pool);
  r->stream_clock = PERFETTO_CLOCK_BOOTTIME;
  r->k_step = trace_string_pool_intern (r->pool, PERFETTO_STEP_ANNOTATION);
  r->k_url = trace_string_pool_intern (r->pool, "url");
  r->k_line = trace_string_pool_intern (r->pool, "line");
  for (guint i = 0; i < PERFETTO_PERF_N_ARGS; i++)
    r->k_perf_args[i] = trace_string_pool_intern (r->pool, perfetto_perf_arg_names[i]);
  r->k_perf_timebase = trace_string_pool_intern (r->pool, PERFETTO_PERF_TIMEBASE_ARG);
  r->k_global_track = trace_string_pool_intern (r->pool, PERFETTO_GLOBAL_TRACK_NAME);
  r->k_opaque_field = trace_string_pool_intern (r->pool, PERFETTO_OPAQUE_FIELD_ARG);
  r->k_opaque_bytes = trace_string_pool_intern (r->pool, PERFETTO_OPAQUE_BYTES_ARG);
  r->k_instruction_count = trace_string_pool_intern (r->pool, "thread_instruction_count");
  r->k_cpu_data_start = trace_string_pool_intern (r->pool, PERFETTO_CPU_DATA_START);
  return r;
}

/**
 * perfetto_reader_read_batch:
 * @r: a #PerfettoReader
 * @out: (out) (transfer full) (nullable): the next batch, %NULL at the end
 * @error: return location for a #GError
 *
 * Reads packets until a batch is full or the input ends.
 *
 * Returns: %FALSE on error (not a Perfetto trace, corrupt data, I/O)
 */
gboolean
perfetto_reader_read_batch (PerfettoReader *r,
                            TraceBatch **out,
                            GError **error)
{
  guint64 start;

  g_return_val_if_fail (r != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  *out = NULL;
  if (r->done)
    return TRUE;
  r->batch = trace_batch_new (r->pool, 0);
  start = r->stats.bytes;
  /* bounded by input too: packets that yield no event (padding, state
   * only) must not keep the caller's main loop from running */
  while (!r->done && r->batch->n_events < TRACE_BATCH_DEFAULT_SIZE &&
         r->stats.bytes < start + TRACE_BATCH_MAX_INPUT_BYTES)
    {
      if (!next_record (r, error))
        {
          g_clear_pointer (&r->batch, trace_batch_unref);
          r->done = TRUE;
          return FALSE;
        }
      if (g_hash_table_size (r->active_flows) > PERFETTO_MAX_ACTIVE_FLOWS)
        g_hash_table_remove_all (r->active_flows);
    }
  if (r->done)
    perfetto_reader_release_prints (r, G_MAXINT64);
  if (r->done)
    g_debug ("%s: read to the end: %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT " packets in %u sequences, %" G_GUINT64_FORMAT " events",
             r->location, r->stats.bytes, r->stats.packets, g_hash_table_size (r->sequences), r->stats.events);
  /* empty but not done: "call again" */
  if (r->batch->n_events > 0 || !r->done)
    *out = g_steal_pointer (&r->batch);
  else
    g_clear_pointer (&r->batch, trace_batch_unref);
  return TRUE;
}

/**
 * perfetto_reader_get_clock_domain:
 * @r: a #PerfettoReader
 *
 * Returns: the clock the events' timestamps are in, as far as read
 *   (BOOTTIME, Perfetto's default, until a packet says otherwise)
 */
TraceClockDomain
perfetto_reader_get_clock_domain (PerfettoReader *r)
{
  g_return_val_if_fail (r != NULL, TRACE_CLOCK_UNKNOWN);

  return perfetto_builtin_to_clock_domain (r->stream_clock);
}

/**
 * perfetto_reader_get_stats:
 * @r: a #PerfettoReader
 * @stats: (out): what it read and skipped so far
 */
void
perfetto_reader_get_stats (PerfettoReader *r,
                           PerfettoReaderStats *stats)
{
  g_return_if_fail (r != NULL);
  g_return_if_fail (stats != NULL);

  *stats = r->stats;
}

void
perfetto_reader_free (PerfettoReader *r)
{
  if (r == NULL)
    return;

  GHashTable *tables[] = { r->sequences, r->tracks, r->proc_names, r->proc_sort,
                           r->proc_labels, r->thread_names, r->thread_sort,
                           r->tid_to_pid, r->active_flows, r->stack_nodes,
                           r->ftrace_names };

  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    g_hash_table_unref (tables[i]);
  seq_clear (&r->scratch); /* when reading stopped at an error */
  g_hash_table_unref (r->packet_kinds);
  g_hash_table_unref (r->unsupported);
  g_hash_table_unref (r->clocks);
  g_array_unref (r->cpus);
  g_ptr_array_unref (r->prints);
  g_array_unref (r->comm_ids);
  ftrace_parser_free (r->markers);
  g_clear_pointer (&r->batch, trace_batch_unref);
  g_byte_array_unref (r->inflated);
  g_clear_pointer (&r->metadata, json_object_unref);
  trace_arena_free (r->arena);
  g_free (r->buf);
  g_free (r->location);
  trace_string_pool_unref (r->pool);
  g_object_unref (r->in);
  g_free (r);
}
