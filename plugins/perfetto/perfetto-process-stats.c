/* tracepipe - Perfetto reader: process_stats packets
 *
 * traced_probes polls each process's memory from /proc and writes it as a
 * `process_stats` packet. trace_processor (system_probes_parser.cc) makes
 * each value a counter of the process, named `mem.<key>` (`mem.rss`,
 * `mem.rss.anon`, ...) in bytes (the packet says KiB), and
 * `oom_score_adj` as it is. Here each becomes a COUNTER of the process
 * with that name, category `process_stats`: perfetto-sink writes it on a
 * counter track of the process of that name, which trace_processor reads
 * as the same counter values. Fields not read (per-thread stats, open
 * files, smaps rollups, Chrome's) are counted in unsupported_events.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-private.h"

#define PROCESS_STATS_CATEGORY "process_stats"

typedef Perfetto__Protos__ProcessStats__Process PerfettoProcStats;

/* The memory fields, by field: trace_processor's key of each. */
static const struct
{
  const char *name;
  gsize has_offset;
  gsize value_offset;
} process_memory[] = {
#define MEM(name, field)                                                                                      \
  {                                                                                                           \
    "mem." name, G_STRUCT_OFFSET (PerfettoProcStats, has_##field), G_STRUCT_OFFSET (PerfettoProcStats, field) \
  }
  MEM ("virt", vm_size_kb),
  MEM ("rss", vm_rss_kb),
  MEM ("rss.anon", rss_anon_kb),
  MEM ("rss.file", rss_file_kb),
  MEM ("rss.shmem", rss_shmem_kb),
  MEM ("swap", vm_swap_kb),
  MEM ("locked", vm_locked_kb),
  MEM ("rss.watermark", vm_hwm_kb),
  MEM ("dmabuf_rss", dmabuf_rss_kb),
#undef MEM
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
      for (guint k = 0; k < G_N_ELEMENTS (process_memory); k++)
        if (G_STRUCT_MEMBER (protobuf_c_boolean, p, process_memory[k].has_offset))
          process_counter (r, ts, p->pid, process_memory[k].name,
                           (double) G_STRUCT_MEMBER (guint64, p, process_memory[k].value_offset) * 1024);
      if (p->has_oom_score_adj)
        process_counter (r, ts, p->pid, "oom_score_adj", (double) p->oom_score_adj);
      if (p->base.n_unknown_fields > 0)
        perfetto_reader_skip (r, &r->stats.unsupported_events, p->base.n_unknown_fields,
                              "process_stats field the reader does not read");
    }
}
