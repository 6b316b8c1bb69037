/* tracepipe - htrace: the ArkTS plugin's data through the ArkTS engine
 *
 * Each `arkts-plugin` record holds one DevTools message (ArkTSResult's
 * `result`: `{"method":"HeapProfiler.addHeapSnapshotChunk",…}`,
 * `{"id":3,"result":{"profile":…}}`): together, in order, they are the
 * message stream arkts-src reads when it stands alone. They are written,
 * one a line, to an unlinked temporary file (a snapshot can be hundreds of
 * MB: memory stays bounded by the engine's own limits), and at the end of
 * the capture the ArkTS engine (plugins/arkts-engine) reads that file with
 * the options `arkts-plugin_config` gives, exactly as arkts-src would. Its
 * events are on CLOCK_MONOTONIC (the engine's clock for message streams);
 * they are moved to the stream's clock through the header's readings.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "htrace-private.h"

struct _HtraceArkts
{
  TraceStringPool *pool;
  ArktsReaderOptions opts;
  GFileIOStream *spill; /* unlinked: gone with the stream */
  guint64 messages;
  ArktsReader *reader;
  char *location;
};

HtraceArkts *
htrace_arkts_new (TraceStringPool *pool,
                  const char *location)
{
  HtraceArkts *a = g_new0 (HtraceArkts, 1);

  a->pool = pool;
  a->location = g_strdup_printf ("%s (arkts-plugin)", location);
  arkts_reader_options_init (&a->opts);
  return a;
}

void
htrace_arkts_free (HtraceArkts *a)
{
  if (a == NULL)
    return;
  g_clear_pointer (&a->reader, arkts_reader_free);
  g_clear_object (&a->spill);
  g_free (a->location);
  g_free (a);
}

/* ArkTSConfig: the process, what the `{"id":N}` markers mean (0 snapshot,
 * 1 timeline), the snapshot interval (s) and the CPU profiler's sampling
 * interval (us), as arkts-src's properties take them. */
void
htrace_arkts_configure (HtraceArkts *a,
                        HtraceContext *ctx,
                        const ProtobufCBinaryData *data)
{
  Htrace__ArktsConfig *cfg = htrace__arkts_config__unpack (ctx->allocator, data->len, data->data);

  if (cfg == NULL)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
      return;
    }
  if (cfg->pid > 0)
    a->opts.pid = cfg->pid;
  a->opts.mode = cfg->type == 0 ? ARKTS_MODE_SNAPSHOT : cfg->type == 1 ? ARKTS_MODE_TIMELINE
                                                                       : ARKTS_MODE_AUTO;
  if (cfg->interval > 0)
    a->opts.snapshot_interval = (gint64) cfg->interval * G_TIME_SPAN_SECOND * 1000;
  a->opts.cpu_profiler_interval = (gint64) cfg->cpu_profiler_interval * 1000;
}

static gboolean
open_spill (HtraceArkts *a,
            HtraceContext *ctx)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = g_file_new_tmp ("tracepipe-htrace-arkts-XXXXXX", &a->spill, &error);

  if (file == NULL)
    {
      g_warning ("%s: no temporary file for the ArkTS messages: %s", a->location, error->message);
      return FALSE;
    }
  g_file_delete (file, NULL, NULL); /* the open stream keeps it */
  return TRUE;
}

/* The first message's record time, on the engine's clock, is where heap
 * data starts (arkts-src's start-time). */
void
htrace_arkts_add (HtraceArkts *a,
                  HtraceContext *ctx,
                  gint64 record_ts,
                  const ProtobufCBinaryData *data)
{
  Htrace__ArktsResult *res = htrace__arkts_result__unpack (ctx->allocator, data->len, data->data);
  GOutputStream *out;
  gint64 start = record_ts;

  if (res == NULL)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
      return;
    }
  if (a->spill == NULL && (a->messages > 0 || !open_spill (a, ctx)))
    {
      htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
      return;
    }
  if (a->messages++ == 0 && htrace_header_convert (ctx->header, ctx->domain, TRACE_CLOCK_MONOTONIC, &start))
    a->opts.start_time = start;
  ctx->stats->arkts_messages++;
  out = g_io_stream_get_output_stream (G_IO_STREAM (a->spill));
  if (!g_output_stream_write_all (out, res->result.data, res->result.len, NULL, NULL, NULL) ||
      !g_output_stream_write_all (out, "\n", 1, NULL, NULL, NULL))
    htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
}

/* Moves the engine's events to the stream's clock; those that cannot be
 * moved are counted and removed. */
static void
move_to_stream_clock (HtraceArkts *a,
                      HtraceContext *ctx,
                      TraceBatch *batch)
{
  TraceClockDomain from = arkts_reader_get_clock_domain (a->reader);
  guint64 dropped = 0;

  for (guint i = 0; i < batch->n_events; i++)
    if (!htrace_header_convert (ctx->header, from, ctx->domain, &batch->events[i].ts))
      {
        batch->events[i].kind = TRACE_EVENT_NONE;
        dropped++;
      }
  if (dropped > 0)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_UNKNOWN_CLOCK, dropped);
      trace_batch_remove_none (batch);
    }
}

/**
 * htrace_arkts_read_batch:
 * @a: the decoder
 * @ctx: the context (its batch is not used)
 * @out: (out): the engine's next batch on the stream's clock, %NULL at
 *   its end (or when there were no messages)
 * @error: the engine's error
 *
 * Called once every record was read.
 */
gboolean
htrace_arkts_read_batch (HtraceArkts *a,
                         HtraceContext *ctx,
                         TraceBatch **out,
                         GError **error)
{
  *out = NULL;
  if (a->spill == NULL)
    return TRUE;
  if (a->reader == NULL)
    {
      if (!g_output_stream_flush (g_io_stream_get_output_stream (G_IO_STREAM (a->spill)), NULL, error) ||
          !g_seekable_seek (G_SEEKABLE (a->spill), 0, G_SEEK_SET, NULL, error))
        return FALSE;
      a->reader = arkts_reader_new (g_io_stream_get_input_stream (G_IO_STREAM (a->spill)), a->location, a->pool,
                                    &a->opts);
    }
  if (!arkts_reader_read_batch (a->reader, out, error))
    return FALSE;
  if (*out != NULL)
    move_to_stream_clock (a, ctx, *out);
  return TRUE;
}

/* Returns: (nullable): what the engine could not use */
char *
htrace_arkts_get_summary (HtraceArkts *a)
{
  return a->reader ? arkts_reader_get_warning_summary (a->reader) : NULL;
}
