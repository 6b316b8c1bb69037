/* tracepipe - Perfetto reader and writer: process_stats packets
 *
 * traced_probes polls each process's memory from /proc and writes it as a
 * `process_stats` packet. trace_processor (system_probes_parser.cc) makes
 * each value a counter of the process, named `mem.<key>` (`mem.rss`,
 * `mem.rss.anon`, ..., `mem.smaps.pss` from smaps_rollup) in bytes (the
 * packet says KiB), the run times `runtime.user_ns` and
 * `runtime.kernel_ns`, and `oom_score_adj` as they are. Here each
 * becomes a COUNTER of the process with that name, category
 * `process_stats`, which perfetto-sink writes back as a process_stats
 * packet of that one field, so trace_processor files it on the track it
 * made of the original (perfetto_write_process_stats()). Fields not read
 * (per-thread stats, open files, Chrome's) are counted in
 * unsupported_events.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-reader-private.h"
#include "perfetto-writer-private.h"

#include <math.h>
#include <string.h>

#define PROCESS_STATS_CATEGORY "process_stats"

typedef Perfetto__Protos__ProcessStats__Process PerfettoProcStats;

/* The counter fields, by field: trace_processor's name of each, and the
 * factor to its unit (sizes in bytes: the packet says KiB; run times in
 * ns as they are). */
static const struct
{
  const char *name;
  gsize has_offset;
  gsize value_offset;
  double scale;
} process_counters[] = {
#define COUNTER(name, field, scale)                                                                     \
  {                                                                                                     \
    name, G_STRUCT_OFFSET (PerfettoProcStats, has_##field), G_STRUCT_OFFSET (PerfettoProcStats, field), \
        scale                                                                                           \
  }
  COUNTER ("mem.virt", vm_size_kb, 1024),
  COUNTER ("mem.rss", vm_rss_kb, 1024),
  COUNTER ("mem.rss.anon", rss_anon_kb, 1024),
  COUNTER ("mem.rss.file", rss_file_kb, 1024),
  COUNTER ("mem.rss.shmem", rss_shmem_kb, 1024),
  COUNTER ("mem.swap", vm_swap_kb, 1024),
  COUNTER ("mem.locked", vm_locked_kb, 1024),
  COUNTER ("mem.rss.watermark", vm_hwm_kb, 1024),
  COUNTER ("mem.dmabuf_rss", dmabuf_rss_kb, 1024),
  COUNTER ("mem.smaps.rss", smr_rss_kb, 1024),
  COUNTER ("mem.smaps.pss", smr_pss_kb, 1024),
  COUNTER ("mem.smaps.pss.anon", smr_pss_anon_kb, 1024),
  COUNTER ("mem.smaps.pss.file", smr_pss_file_kb, 1024),
  COUNTER ("mem.smaps.pss.smem", smr_pss_shmem_kb, 1024),
  COUNTER ("mem.smaps.swap.pss", smr_swap_pss_kb, 1024),
  COUNTER ("runtime.user_ns", runtime_user_mode, 1),
  COUNTER ("runtime.kernel_ns", runtime_kernel_mode, 1),
#undef COUNTER
};

static void
process_counter (PerfettoReader *r,
                 gint64 ts,
                 gint64 pid,
                 const char *name,
                 double value)
{
  TraceEvent *ev = perfetto_reader_emit (r, TRACE_EVENT_COUNTER, ts);

  ev->pid = pid;
  ev->name = perfetto_reader_intern (r, name);
  ev->category = perfetto_reader_intern (r, PROCESS_STATS_CATEGORY);
  ev->flags |= TRACE_EVENT_FLAG_COUNTER_INT;
  ev->u.counter.value = value;
}

/**
 * perfetto_reader_process_stats:
 * @r: a #PerfettoReader
 * @stats: a process_stats packet
 * @ts: its time
 */
void
perfetto_reader_process_stats (PerfettoReader *r,
                               const Perfetto__Protos__ProcessStats *stats,
                               gint64 ts)
{
  for (gsize i = 0; i < stats->n_processes; i++)
    {
      const PerfettoProcStats *p = stats->processes[i];

      if (!p->has_pid)
        {
          perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "process_stats entry without a pid");
          continue;
        }
      for (guint k = 0; k < G_N_ELEMENTS (process_counters); k++)
        if (G_STRUCT_MEMBER (protobuf_c_boolean, p, process_counters[k].has_offset))
          process_counter (r, ts, p->pid, process_counters[k].name,
                           (double) G_STRUCT_MEMBER (guint64, p, process_counters[k].value_offset) *
                               process_counters[k].scale);
      if (p->has_oom_score_adj)
        process_counter (r, ts, p->pid, "oom_score_adj", (double) p->oom_score_adj);
      if (p->base.n_unknown_fields > 0)
        perfetto_reader_skip (r, &r->stats.unsupported_events, p->base.n_unknown_fields,
                              "process_stats field the reader does not read");
    }
}

/* Fills @p's field for the counter @name of value @v. Returns: whether
 * @name is a counter of process_stats and @v one of its values */
static gboolean
set_process_field (PerfettoProcStats *p,
                   const char *name,
                   double v)
{
  if (strcmp (name, "oom_score_adj") == 0)
    {
      if (!(v >= -1e18 && v <= 1e18 && v == floor (v)))
        return FALSE;
      p->has_oom_score_adj = TRUE;
      p->oom_score_adj = (gint64) v;
      return TRUE;
    }
  for (guint k = 0; k < G_N_ELEMENTS (process_counters); k++)
    {
      double raw = v / process_counters[k].scale;

      if (strcmp (name, process_counters[k].name) != 0)
        continue;
      if (!(raw >= 0 && raw < 1.8e19 && raw == floor (raw)))
        return FALSE;
      G_STRUCT_MEMBER (protobuf_c_boolean, p, process_counters[k].has_offset) = TRUE;
      G_STRUCT_MEMBER (guint64, p, process_counters[k].value_offset) = (guint64) raw;
      return TRUE;
    }
  return FALSE;
}

/**
 * perfetto_write_process_stats:
 * @w: a #PerfettoWriter
 * @ev: a counter
 *
 * Writes @ev as a `process_stats` packet when it is one of the counters
 * perfetto_reader_process_stats() gives: category `process_stats`, a
 * process, the name and a value of one of its fields. trace_processor
 * then files it on the track it made in the original (a process memory
 * track; `oom_score_adj` the same track as the process's
 * `oom_score_adj_update` events), not on a TrackEvent counter track.
 *
 * Returns: whether @ev was written so (%FALSE: write it as any counter)
 */
gboolean
perfetto_write_process_stats (PerfettoWriter *w,
                              const TraceEvent *ev)
{
  Perfetto__Protos__ProcessStats stats = PERFETTO__PROTOS__PROCESS_STATS__INIT;
  PerfettoProcStats proc = PERFETTO__PROTOS__PROCESS_STATS__PROCESS__INIT;
  PerfettoProcStats *procs[] = { &proc };

  if (ev->category == 0 || ev->pid < 0 || ev->pid > G_MAXINT32 ||
      strcmp (perfetto_str (w, ev->category), PROCESS_STATS_CATEGORY) != 0 ||
      !set_process_field (&proc, perfetto_str (w, ev->name), ev->u.counter.value))
    return FALSE;
  proc.has_pid = TRUE;
  proc.pid = (gint32) ev->pid;
  stats.n_processes = 1;
  stats.processes = procs;
  w->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_STATS;
  w->pkt.process_stats = &stats;
  perfetto_packet_emit (w, ev->ts, TRUE, FALSE);
  return TRUE;
}
