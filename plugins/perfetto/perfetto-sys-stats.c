/* tracepipe - Perfetto reader and writer: sys_stats packets
 *
 * traced_probes polls /proc and writes what it read as a `sys_stats`
 * packet. trace_processor (system_probes_parser.cc) makes each total a
 * counter on a global track named after the field (`num_forks`,
 * `num_irq_total`, `num_softirq_total`). The event model has counters:
 * each total becomes a global COUNTER of that name and of category
 * `sys_stats` (a per-irq count: `num_irq (id: 3)`, trace_processor's
 * name), which the writer turns back into a `sys_stats` packet, so
 * trace_processor files it on the same kind of track as in the original
 * (a TrackEvent counter track of that name would read the same values,
 * but as a track event counter). The per-key tables (meminfo, vmstat, cpu
 * times, ...) are not read: they go on as a record of a sys_stats packet
 * of their own, which perfetto-sink writes back as it was.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-reader-private.h"
#include "perfetto-writer-private.h"

#include <math.h>
#include <string.h>

#define SYS_STATS_CATEGORY "sys_stats"

typedef Perfetto__Protos__SysStats PerfettoSysStats;
typedef Perfetto__Protos__SysStats__InterruptCount PerfettoIrqCount;

/* trace_processor's names of the per-irq counter tracks */
#define NUM_IRQ_FORMAT "num_irq (id: %u)"
#define NUM_SOFTIRQ_FORMAT "num_softirq (id: %u)"

/* The totals, by field: their counter names are the field names. */
static const struct
{
  const char *name;
  gsize has_offset;
  gsize value_offset;
} sys_stats_totals[] = {
  { "num_forks", G_STRUCT_OFFSET (PerfettoSysStats, has_num_forks), G_STRUCT_OFFSET (PerfettoSysStats, num_forks) },
  { "num_irq_total", G_STRUCT_OFFSET (PerfettoSysStats, has_num_irq_total), G_STRUCT_OFFSET (PerfettoSysStats, num_irq_total) },
  { "num_softirq_total", G_STRUCT_OFFSET (PerfettoSysStats, has_num_softirq_total), G_STRUCT_OFFSET (PerfettoSysStats, num_softirq_total) },
};

static void
read_counter (PerfettoReader *r,
              gint64 ts,
              guint32 category,
              const char *name,
              guint64 value)
{
  TraceEvent *ev = perfetto_reader_emit (r, TRACE_EVENT_COUNTER, ts);

  ev->name = perfetto_reader_intern (r, name);
  ev->category = category;
  ev->flags |= TRACE_EVENT_FLAG_COUNTER_INT;
  ev->u.counter.value = (double) value;
}

static void
read_irq_counts (PerfettoReader *r,
                 gint64 ts,
                 guint32 category,
                 const char *format,
                 PerfettoIrqCount *const *counts,
                 gsize n)
{
  char name[64];

  for (gsize i = 0; i < n; i++)
    {
      /* as trace_processor prints it: unsigned */
      g_snprintf (name, sizeof name, format, (guint32) counts[i]->irq);
      read_counter (r, ts, category, name, counts[i]->count);
    }
}

/**
 * perfetto_reader_sys_stats:
 * @r: a #PerfettoReader
 * @stats: a sys_stats packet's payload
 * @ts: the packet's timestamp
 *
 * Each total and per-irq count of @stats becomes a global integer counter
 * of category `sys_stats`; the other members go on as a record.
 */
void
perfetto_reader_sys_stats (PerfettoReader *r,
                           const PerfettoSysStats *stats,
                           gint64 ts)
{
  guint32 category = perfetto_reader_intern (r, SYS_STATS_CATEGORY);

  for (guint i = 0; i < G_N_ELEMENTS (sys_stats_totals); i++)
    if (G_STRUCT_MEMBER (protobuf_c_boolean, stats, sys_stats_totals[i].has_offset))
      read_counter (r, ts, category, sys_stats_totals[i].name,
                    G_STRUCT_MEMBER (guint64, stats, sys_stats_totals[i].value_offset));
  read_irq_counts (r, ts, category, NUM_IRQ_FORMAT, stats->num_irq, stats->n_num_irq);
  read_irq_counts (r, ts, category, NUM_SOFTIRQ_FORMAT, stats->num_softirq, stats->n_num_softirq);
  perfetto_reader_carry_unread_members (r, PERFETTO__PROTOS__TRACE_PACKET__DATA_SYS_STATS, &stats->base, ts);
}

/* `num_irq (id: 3)`: the irq number of a per-irq count's name.
 * Returns: whether @name is one, the whole name */
static gboolean
parse_irq_name (const char *name,
                const char *prefix,
                gint32 *irq)
{
  gsize len = strlen (prefix);
  char *end;
  gint64 v;

  if (strncmp (name, prefix, len) != 0 || !g_ascii_isdigit (name[len]))
    return FALSE;
  v = g_ascii_strtoll (name + len, &end, 10);
  if (strcmp (end, ")") != 0 || v > G_MAXUINT32)
    return FALSE;
  *irq = (gint32) (guint32) v;
  return TRUE;
}

static void
emit (PerfettoWriter *w,
      const TraceEvent *ev,
      PerfettoSysStats *stats)
{
  w->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_SYS_STATS;
  w->pkt.sys_stats = stats;
  perfetto_packet_emit (w, ev->ts, TRUE, FALSE);
}

/**
 * perfetto_write_sys_stats:
 * @w: a #PerfettoWriter
 * @ev: a counter
 *
 * Writes @ev as a `sys_stats` packet when it is one of the totals
 * perfetto_reader_sys_stats() gives: category `sys_stats`, no process,
 * the name of a total or a per-irq count, a whole value that is not
 * negative.
 *
 * Returns: whether @ev was written so (%FALSE: write it as any counter)
 */
gboolean
perfetto_write_sys_stats (PerfettoWriter *w,
                          const TraceEvent *ev)
{
  PerfettoSysStats stats = PERFETTO__PROTOS__SYS_STATS__INIT;
  PerfettoIrqCount count = PERFETTO__PROTOS__SYS_STATS__INTERRUPT_COUNT__INIT;
  PerfettoIrqCount *counts[] = { &count };
  double v = ev->u.counter.value;
  const char *name;

  if (ev->category == 0 || ev->pid != TRACE_ID_UNKNOWN || !(v >= 0 && v < 1.8e19 && v == floor (v)) ||
      strcmp (perfetto_str (w, ev->category), SYS_STATS_CATEGORY) != 0)
    return FALSE;
  name = perfetto_str (w, ev->name);
  for (guint i = 0; i < G_N_ELEMENTS (sys_stats_totals); i++)
    {
      if (strcmp (name, sys_stats_totals[i].name) != 0)
        continue;
      G_STRUCT_MEMBER (protobuf_c_boolean, &stats, sys_stats_totals[i].has_offset) = TRUE;
      G_STRUCT_MEMBER (guint64, &stats, sys_stats_totals[i].value_offset) = (guint64) v;
      emit (w, ev, &stats);
      return TRUE;
    }
  count.has_irq = count.has_count = TRUE;
  count.count = (guint64) v;
  if (parse_irq_name (name, "num_irq (id: ", &count.irq))
    stats.n_num_irq = 1, stats.num_irq = counts;
  else if (parse_irq_name (name, "num_softirq (id: ", &count.irq))
    stats.n_num_softirq = 1, stats.num_softirq = counts;
  else
    return FALSE;
  emit (w, ev, &stats);
  return TRUE;
}
