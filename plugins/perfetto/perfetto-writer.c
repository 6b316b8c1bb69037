/* tracepipe - Perfetto writer: the writer, which hands each event to its writer
 *
 * A batch's events go one by one to the writer of their kind: slices,
 * instants, async slices, flows and counters to the TrackEvent writers
 * (through the ordering of perfetto-writer-order.c), names and sort
 * indexes to perfetto-writer-names.c, kernel events to ftrace bundles,
 * stack nodes and samples to the CPU-profile writer, clock markers to
 * perfetto-writer-clock.c, records to the opaque writer. What a batch
 * leaves pending (process tree entries, ftrace bundles, samples) is
 * written at its end. perfetto-writer-private.h lists the layers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-writer-private.h"

#include <string.h>

#define PERFETTO_DEFAULT_SEQUENCE_ID 1
#define PERFETTO_DEFAULT_MAX_INTERNED 100000

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
  w->record_payload = g_array_new (FALSE, FALSE, 1);
  perfetto_intern_init (w);
  perfetto_output_init (w);
  perfetto_vec_init (&w->owed_ends, sizeof (PerfettoOpenSlice));
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

  perfetto_samples_free (w);
  perfetto_ftrace_free (w);
  perfetto_order_clear (w);
  perfetto_vec_clear (&w->order_heap);
  perfetto_vec_clear (&w->order_run);
  perfetto_vec_clear (&w->order_batches);
  g_array_unref (w->order_remap);
  perfetto_tracks_free (w);
  perfetto_vec_clear (&w->owed_ends);
  perfetto_args_free (w);
  perfetto_intern_free (w);
  perfetto_output_free (w);
  g_free (w->metadata);
  g_array_unref (w->record_payload);
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
    case TRACE_EVENT_CHROME_PHASE:
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
      perfetto_write_names (w, batch, ev);
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
    case TRACE_EVENT_THREAD_STATE:
      /* trace_processor derives a Perfetto trace's thread states from
       * its scheduling events, which cannot say every state a JSON `T`
       * can (a sleep turning into another without running between) */
      perfetto_writer_drop (w, &w->stats.dropped_other, 1, ev->ts, "thread state (a JSON T event) dropped: a Perfetto trace has thread states only as the kernel's scheduling events");
      /* its thread is one of the trace's, described as trace_processor
       * registers the thread of a JSON `T` */
      if (ev->tid != TRACE_ID_UNKNOWN)
        perfetto_thread_get (w, ev->pid, ev->tid, ev->ts);
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
