/* tracepipe - htrace-src's reader: records in, batches of events out
 *
 * After the header, each record is a little-endian uint32 length and a
 * ProfilerPluginData; the reader reads one record at a time into one
 * buffer, unpacks it with protobuf-c into an arena reset per record, and
 * hands the plugin's result to the decoder of that plugin.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "htrace-private.h"

#define ARENA_SIZE (256 * 1024)
#define OTHER_PLUGINS "(other plugins)"

struct _HtraceReader
{
  GInputStream *in;
  char *location;
  guint64 size; /* of the file, 0 when unknown */
  TraceStringPool *pool;
  gboolean started, records_done, done;

  HtraceHeader header;
  TraceClockDomain domain;
  GByteArray *record;
  TraceArena *arena; /* what a record unpacks to */
  ProtobufCAllocator allocator;

  HtraceReaderStats stats;
  GHashTable *skipped_plugins; /* name → count (guint64 *) */

  HtraceSysmon *sysmon;
  HtraceFfrt *ffrt;
  HtraceHook *hook;
  HtraceArkts *arkts;
  HtraceFtrace *ftrace;
  HtraceRecords *records;
  char *arkts_error; /* why the ArkTS engine stopped, for the summary */
};

static const struct
{
  const char *key, *words;
} skip_reasons[HTRACE_SKIP_N] = {
  [HTRACE_SKIP_UNKNOWN_PLUGIN] = { "skipped-plugin-records", "records of plugins htrace-src does not read" },
  [HTRACE_SKIP_BAD_RESULT] = { "skipped-bad-records", "records whose protobuf does not parse" },
  [HTRACE_SKIP_UNKNOWN_CLOCK] = { "skipped-unknown-clock", "events on a clock the header gives no reading of" },
  [HTRACE_SKIP_FFRT_RAW] = { "skipped-ffrt-raw", "raw FFRT records" },
  [HTRACE_SKIP_HOOK_OTHER] = { "skipped-hook-other", "native-hook records other than (m)alloc, free, mmap, munmap" },
  [HTRACE_SKIP_HOOK_UNMATCHED_FREE] = { "skipped-hook-unmatched-frees", "frees of allocations not seen" },
  [HTRACE_SKIP_FTRACE_OTHER] = { "skipped-ftrace-other", "kernel events of kinds the protobuf subset does not declare" },
  [HTRACE_SKIP_FTRACE_FIELD] = { "skipped-ftrace-fields", "kernel event fields a text line cannot carry (the events are kept)" },
  [HTRACE_SKIP_TRUNCATED] = { "truncated-bytes", "bytes of a record cut off at the end" },
};

const char *
htrace_skip_get_key (HtraceSkip skip)
{
  return skip_reasons[skip].key;
}

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

/* ---- the context the decoders get ---- */

void
htrace_context_skip (HtraceContext *ctx,
                     HtraceSkip skip,
                     guint64 n)
{
  if (n == 0)
    return;
  if (ctx->stats->skipped[skip] == 0)
    {
      ctx->stats->first_offset[skip] = ctx->offset;
      g_debug ("byte %" G_GUINT64_FORMAT ": first of the %s", ctx->offset, skip_reasons[skip].words);
    }
  ctx->stats->skipped[skip] += n;
}

/**
 * htrace_context_time:
 * @ctx: the context
 * @clock: the clock of @sec and @nsec
 * @sec: seconds
 * @nsec: nanoseconds
 * @ts: (out): the time on the stream's clock
 *
 * Returns: %FALSE (counted) when the time cannot be put on the stream's
 *   clock
 */
gboolean
htrace_context_time (HtraceContext *ctx,
                     TraceClockDomain clock,
                     guint64 sec,
                     guint64 nsec,
                     gint64 *ts)
{
  if (sec > (guint64) (G_MAXINT64 / 1000000000 - 1) || nsec >= 1000000000)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
      return FALSE;
    }
  *ts = (gint64) (sec * 1000000000 + nsec);
  if (!htrace_header_convert (ctx->header, clock, ctx->domain, ts))
    {
      htrace_context_skip (ctx, HTRACE_SKIP_UNKNOWN_CLOCK, 1);
      return FALSE;
    }
  return TRUE;
}

/**
 * htrace_reader_new:
 * @in: the input (the reader takes a reference)
 * @location: the file, for messages
 * @size: the file's size, 0 when unknown
 * @pool: the pipeline's string pool
 *
 * Nothing is read until the first htrace_reader_read_batch().
 */
HtraceReader *
htrace_reader_new (GInputStream *in,
                   const char *location,
                   guint64 size,
                   TraceStringPool *pool)
{
  HtraceReader *r = g_new0 (HtraceReader, 1);

  r->in = g_object_ref (in);
  r->location = g_strdup (location);
  r->size = size;
  r->pool = pool;
  r->domain = TRACE_CLOCK_REALTIME;
  r->record = g_byte_array_new ();
  r->arena = trace_arena_new (ARENA_SIZE, ARENA_SIZE);
  r->allocator.alloc = arena_alloc;
  r->allocator.free = arena_free;
  r->allocator.allocator_data = r->arena;
  r->skipped_plugins = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  r->sysmon = htrace_sysmon_new (pool);
  r->ffrt = htrace_ffrt_new (pool);
  r->hook = htrace_hook_new (pool);
  r->arkts = htrace_arkts_new (pool, location);
  r->ftrace = htrace_ftrace_new (pool);
  r->records = htrace_records_new (pool);
  return r;
}

void
htrace_reader_free (HtraceReader *r)
{
  if (r == NULL)
    return;
  g_object_unref (r->in);
  g_free (r->location);
  g_byte_array_unref (r->record);
  trace_arena_free (r->arena);
  g_hash_table_unref (r->skipped_plugins);
  htrace_sysmon_free (r->sysmon);
  htrace_ffrt_free (r->ffrt);
  htrace_hook_free (r->hook);
  htrace_arkts_free (r->arkts);
  htrace_ftrace_free (r->ftrace);
  htrace_records_free (r->records);
  g_free (r->arkts_error);
  g_free (r);
}

/* Reads exactly @len bytes, or fewer at the end of the input. */
static gssize
read_full (HtraceReader *r,
           guint8 *buf,
           gsize len,
           GError **error)
{
  gsize got = 0;

  if (!g_input_stream_read_all (r->in, buf, len, &got, NULL, error))
    {
      g_prefix_error (error, "%s: ", r->location);
      return -1;
    }
  r->stats.bytes_read += got;
  return (gssize) got;
}

/* The stream is on boottime when the header has a boottime reading (the
 * kernel's clock, which every plugin's time converts to through the
 * header), else on realtime, hiprofiler's default record clock. */
static gboolean
read_header (HtraceReader *r,
             GError **error)
{
  guint8 head[HTRACE_HEADER_SIZE];
  gssize n = read_full (r, head, sizeof head, error);

  if (n < 0)
    return FALSE;
  if (n == 0)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_EMPTY, "%s: empty file", r->location);
      return FALSE;
    }
  if (!htrace_header_parse (&r->header, head, n, r->location, error))
    return FALSE;
  r->domain = r->header.clocks[TRACE_CLOCK_BOOTTIME] ? TRACE_CLOCK_BOOTTIME : TRACE_CLOCK_REALTIME;
  g_debug ("%s: htrace version %u.%u, %u segments, %" G_GUINT64_FORMAT " bytes by the header; stream on %s",
           r->location, r->header.version >> 16, r->header.version & 0xffff, r->header.segments, r->header.length,
           trace_clock_domain_to_string (r->domain));
  /* not a problem by itself: a cut file says so by its last record */
  if (r->size > 0 && r->header.length > 0 && r->header.length != r->size)
    g_debug ("%s: the header says %" G_GUINT64_FORMAT " bytes, the file has %" G_GUINT64_FORMAT, r->location,
             r->header.length, r->size);
  return TRUE;
}

/* The header's snapshot becomes a clock pair at its own time: what
 * perfetto-sink writes as a ClockSnapshot. */
static void
emit_clock_pairs (HtraceReader *r,
                  TraceBatch *batch)
{
  static const TraceClockDomain others[] = { TRACE_CLOCK_REALTIME, TRACE_CLOCK_MONOTONIC, TRACE_CLOCK_MONOTONIC_RAW };
  const gint64 *clocks = r->header.clocks;

  if (r->domain != TRACE_CLOCK_BOOTTIME)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    if (clocks[others[i]] != 0)
      {
        TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_CLOCK_MARKER, clocks[TRACE_CLOCK_BOOTTIME]);

        ev->u.clock.marker = TRACE_CLOCK_MARKER_PAIR;
        ev->u.clock.domain = others[i];
        ev->u.clock.other_ts = clocks[others[i]];
      }
}

static void
count_skipped_plugin (HtraceReader *r,
                      HtraceContext *ctx,
                      const char *name)
{
  guint64 *count = g_hash_table_lookup (r->skipped_plugins, name);

  if (count == NULL && g_hash_table_size (r->skipped_plugins) >= HTRACE_MAX_PLUGIN_NAMES)
    count = g_hash_table_lookup (r->skipped_plugins, OTHER_PLUGINS);
  if (count == NULL)
    {
      count = g_new0 (guint64, 1);
      g_hash_table_insert (r->skipped_plugins,
                           g_strdup (g_hash_table_size (r->skipped_plugins) >= HTRACE_MAX_PLUGIN_NAMES ? OTHER_PLUGINS
                                                                                                       : name),
                           count);
      g_debug ("%s@%" G_GUINT64_FORMAT ": records of plugin \"%s\" are not read", r->location, ctx->offset, name);
    }
  (*count)++;
  htrace_context_skip (ctx, HTRACE_SKIP_UNKNOWN_PLUGIN, 1);
}

/* `<plugin>_config` records configure the plugin of that name; the
 * configurations the decoders need are the clocks of FFRT and native
 * hook. */
static gboolean
dispatch_config (HtraceReader *r,
                 HtraceContext *ctx,
                 const char *name,
                 const ProtobufCBinaryData *data)
{
  if (!g_str_has_suffix (name, "_config"))
    return FALSE;
  r->stats.config_records++;
  if (g_str_equal (name, "ffrt-profiler_config"))
    htrace_ffrt_configure (r->ffrt, ctx, data);
  else if (g_str_equal (name, "nativehook_config") || g_str_equal (name, "hookdaemon_config"))
    htrace_hook_configure (r->hook, ctx, data);
  else if (g_str_equal (name, "arkts-plugin_config"))
    htrace_arkts_configure (r->arkts, ctx, data);
  return TRUE;
}

static void
dispatch (HtraceReader *r,
          HtraceContext *ctx,
          const Htrace__ProfilerPluginData *pd)
{
  const char *name = pd->name && *pd->name ? pd->name : "(unnamed)";
  gint64 ts;

  if (dispatch_config (r, ctx, name, &pd->data))
    return;
  if (htrace_sysmon_handles (name))
    {
      r->stats.sysmon_records++;
      if (htrace_context_time (ctx, htrace_clock_from_posix (pd->clock_id), pd->tv_sec, pd->tv_nsec, &ts))
        htrace_sysmon_decode (r->sysmon, ctx, name, ts, &pd->data);
    }
  else if (g_str_equal (name, "ffrt-profiler"))
    htrace_ffrt_decode (r->ffrt, ctx, &pd->data);
  else if (htrace_ftrace_handles (name))
    htrace_ftrace_decode (r->ftrace, ctx, &pd->data);
  else if (g_str_equal (name, "nativehook") || g_str_equal (name, "hookdaemon"))
    htrace_hook_decode (r->hook, ctx, &pd->data);
  else if (g_str_equal (name, "arkts-plugin"))
    {
      if (htrace_context_time (ctx, htrace_clock_from_posix (pd->clock_id), pd->tv_sec, pd->tv_nsec, &ts))
        htrace_arkts_add (r->arkts, ctx, ts, &pd->data);
    }
  else
    count_skipped_plugin (r, ctx, name);
}

/* The first read of a record: most are a few shared-memory pages. */
#define RECORD_READ_STEP (64 * 1024)

/* Reads one record into r->record; returns 0 at the end, -1 on error,
 * else 1 (an empty record is one: an empty message). A record cut off by
 * the end of the file is counted. */
static int
read_record (HtraceReader *r,
             guint64 *offset,
             GError **error)
{
  guint8 len_bytes[4];
  gssize n;
  guint32 len;

  *offset = r->stats.bytes_read;
  if ((n = read_full (r, len_bytes, 4, error)) < 0)
    return -1;
  if (n == 0)
    return 0;
  memcpy (&len, len_bytes, 4);
  len = GUINT32_FROM_LE (len);
  if (n == 4 && len > HTRACE_MAX_RECORD)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_TOO_LARGE,
                   "%s@%" G_GUINT64_FORMAT ": a record of %u bytes, more than the %d MiB limit: the file is damaged "
                   "here",
                   r->location, *offset, len, HTRACE_MAX_RECORD >> 20);
      return -1;
    }
  if (n == 4)
    {
      gsize got = 0;

      /* The buffer grows with the bytes that arrive, doubling, not to
       * what the length claims: a cut file, or a damaged length under the
       * limit, costs the memory of what is there. */
      while (got < len)
        {
          gsize want = MIN (len - got, MAX (got, RECORD_READ_STEP));

          g_byte_array_set_size (r->record, got + want);
          if ((n = read_full (r, r->record->data + got, want, error)) < 0)
            return -1;
          got += n;
          if ((gsize) n < want)
            break;
        }
      g_byte_array_set_size (r->record, got);
      if (got == len)
        return 1;
    }
  /* cut off in the length or in the record */
  r->stats.skipped[HTRACE_SKIP_TRUNCATED] += r->stats.bytes_read - *offset;
  r->stats.first_offset[HTRACE_SKIP_TRUNCATED] = *offset;
  return 0;
}

static gboolean
read_records (HtraceReader *r,
              TraceBatch *batch,
              GError **error)
{
  HtraceContext ctx = { batch, r->pool, &r->header, r->domain, &r->stats, 0, &r->allocator, r->records };
  guint64 start = r->stats.bytes_read;

  /* bounded by input too: records that yield no event must not keep
   * the caller's main loop from running (an empty batch: call again) */
  while (batch->n_events < TRACE_BATCH_DEFAULT_SIZE && r->stats.bytes_read < start + TRACE_BATCH_MAX_INPUT_BYTES)
    {
      Htrace__ProfilerPluginData *pd;
      int got = read_record (r, &ctx.offset, error);

      if (got < 0)
        return FALSE;
      if (got == 0)
        {
          r->records_done = TRUE;
          htrace_records_finish (r->records, batch);
          return TRUE;
        }
      r->stats.records++;
      pd = htrace__profiler_plugin_data__unpack (&r->allocator, r->record->len, r->record->data);
      if (pd == NULL)
        htrace_context_skip (&ctx, HTRACE_SKIP_BAD_RESULT, 1);
      else
        dispatch (r, &ctx, pd);
      trace_arena_reset (r->arena);
    }
  return TRUE;
}

/* After the records: the ArkTS engine's events, if there were messages.
 * What the engine refuses ends its part only: the rest of the capture
 * was read, and the summary says why. */
static gboolean
read_arkts (HtraceReader *r,
            TraceBatch **out)
{
  HtraceContext ctx = { NULL, r->pool, &r->header, r->domain, &r->stats, r->stats.bytes_read, &r->allocator, r->records };
  g_autoptr (GError) error = NULL;

  if (!htrace_arkts_read_batch (r->arkts, &ctx, out, &error))
    {
      g_debug ("%s: the ArkTS engine stopped: %s", r->location, error->message);
      r->arkts_error = g_strdup (error->message);
      *out = NULL;
    }
  if (*out == NULL)
    r->done = TRUE;
  return TRUE;
}

/**
 * htrace_reader_read_batch:
 * @r: a reader
 * @out: (out): the next batch, %NULL at the end
 * @error: a %TRACE_STREAM_ERROR or %TRACE_RESOURCE_ERROR
 *
 * Returns: %FALSE when the input cannot be read
 */
gboolean
htrace_reader_read_batch (HtraceReader *r,
                          TraceBatch **out,
                          GError **error)
{
  g_autoptr (TraceBatch) batch = NULL;

  *out = NULL;
  if (r->done)
    return TRUE;
  if (r->records_done)
    return read_arkts (r, out);
  batch = trace_batch_new (r->pool, TRACE_BATCH_DEFAULT_SIZE + 64);
  if (!r->started)
    {
      if (!read_header (r, error))
        return FALSE;
      r->started = TRUE;
      emit_clock_pairs (r, batch);
    }
  if (!read_records (r, batch, error))
    return FALSE;
  if (batch->n_events == 0 && r->records_done)
    return read_arkts (r, out);
  *out = g_steal_pointer (&batch);
  return TRUE;
}

/* Known after the header: the first read_batch reads it. */
TraceClockDomain
htrace_reader_get_clock_domain (HtraceReader *r)
{
  return r->domain;
}

void
htrace_reader_copy_stats (HtraceReader *r,
                          HtraceReaderStats *out)
{
  *out = r->stats;
  out->ftrace = *htrace_records_get_stats (r->records);
}

void
htrace_reader_foreach_skipped_plugin (HtraceReader *r,
                                      GHFunc func,
                                      gpointer user_data)
{
  g_hash_table_foreach (r->skipped_plugins, func, user_data);
}

static void
append_plugin (gpointer key,
               gpointer value,
               gpointer user_data)
{
  GString *s = user_data;

  g_string_append_printf (s, "%s%s %" G_GUINT64_FORMAT, s->len ? ", " : "", (const char *) key,
                          *(guint64 *) value);
}

/* The skipped plugins by name, sorted, for a message that reads the
 * same every run. */
static char *
skipped_plugins_text (HtraceReader *r)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autoptr (GList) names = g_list_sort (g_hash_table_get_keys (r->skipped_plugins), (GCompareFunc) strcmp);

  for (GList *l = names; l; l = l->next)
    append_plugin (l->data, g_hash_table_lookup (r->skipped_plugins, l->data), s);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/**
 * htrace_reader_get_summary:
 * @r: a reader
 *
 * Returns: (nullable): what could not be used, naming the file and the
 *   byte of the first record of each reason; %NULL when all was used
 */
char *
htrace_reader_get_summary (HtraceReader *r)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autofree char *ftrace = NULL;
  g_autofree char *arkts = htrace_arkts_get_summary (r->arkts);

  if (htrace_records_get_count (r->records) > 0)
    ftrace = ftrace_stats_to_summary (htrace_records_get_stats (r->records));
  for (guint i = 0; i < HTRACE_SKIP_N; i++)
    {
      if (r->stats.skipped[i] == 0)
        continue;
      g_string_append_printf (s, "%s%" G_GUINT64_FORMAT " %s (the first at byte %" G_GUINT64_FORMAT ")",
                              s->len ? "; " : "", r->stats.skipped[i], skip_reasons[i].words,
                              r->stats.first_offset[i]);
      if (i == HTRACE_SKIP_UNKNOWN_PLUGIN)
        {
          g_autofree char *names = skipped_plugins_text (r);

          g_string_append_printf (s, ": %s", names);
        }
      if (i == HTRACE_SKIP_FTRACE_OTHER)
        {
          g_autofree char *kinds = htrace_ftrace_undeclared_text (r->ftrace);

          if (kinds)
            g_string_append_printf (s, ": %s", kinds);
        }
    }
  if (ftrace && *ftrace)
    g_string_append_printf (s, "%sthe lines of FFRT markers and kernel events (numbered in the file): %s",
                            s->len ? "; " : "", ftrace);
  if (arkts && *arkts)
    g_string_append_printf (s, "%sArkTS messages: %s", s->len ? "; " : "", arkts);
  if (r->arkts_error)
    g_string_append_printf (s, "%sthe ArkTS messages were not read: %s", s->len ? "; " : "", r->arkts_error);
  if (s->len == 0)
    return NULL;
  return g_strdup_printf ("%s: %s", r->location, s->str);
}
