/* tracepipe - json plugin: a sys_stats packet's tables as C events
 *
 * perfetto-src reads a sys_stats packet's totals as counters and carries
 * its per-key tables as a record. trace_processor makes a counter track
 * of each key of the meminfo, cpu time and cpuidle tables; a Chrome JSON
 * `C` event without pid is a global counter track of each of its args,
 * named "<name> <arg>". So each value becomes a `C` event of its own,
 * on one track per key as in the original, named after it: "meminfo
 * MemFree" (bytes, as trace_processor converts the kB of /proc/meminfo),
 * "cpu2.times idle_ns", "cpuidle2 C1" (us). The entries of the other
 * tables (vmstat, frequencies, disk, pressure, thermal, buddy and slab
 * info) are counted, not written.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "json-common.h"
#include "json-writer-graphics.h"

#include <string.h>

/* /proc/meminfo's field names, by Perfetto's MeminfoCounters number */
static const char *const meminfo_names[] = {
  NULL,
  "MemTotal",
  "MemFree",
  "MemAvailable",
  "Buffers",
  "Cached",
  "SwapCached",
  "Active",
  "Inactive",
  "Active(anon)",
  "Inactive(anon)",
  "Active(file)",
  "Inactive(file)",
  "Unevictable",
  "Mlocked",
  "SwapTotal",
  "SwapFree",
  "Dirty",
  "Writeback",
  "AnonPages",
  "Mapped",
  "Shmem",
  "Slab",
  "SReclaimable",
  "SUnreclaim",
  "KernelStack",
  "PageTables",
  "CommitLimit",
  "Committed_AS",
  "VmallocTotal",
  "VmallocUsed",
  "VmallocChunk",
  "CmaTotal",
  "CmaFree",
  "Gpu",
  "Zram",
  "Misc",
  "ION_heap",
  "ION_heap_pool",
};

static void
put_counter (ChromeWriter *w,
             const char *name,
             const char *key,
             gint64 ts,
             double value)
{
  chrome_writer_counter_text (w, name, strlen (name), 0, key, strlen (key), ts, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN,
                              value, TRUE);
}

static void
write_meminfo (ChromeWriter *w,
               const Tracepipe__Json__SysStatsPacket *s,
               gint64 ts)
{
  for (gsize i = 0; i < s->n_meminfo; i++)
    {
      const Tracepipe__Json__SysStatsPacket__MeminfoValue *m = s->meminfo[i];

      /* trace_processor skips a key it has no name for (meminfo_unknown_keys) */
      if (m->key <= 0 || (gsize) m->key >= G_N_ELEMENTS (meminfo_names))
        {
          chrome_writer_count_drop (w, &w->stats.dropped_sys_stats, "sys_stats meminfo value of an unknown key dropped");
          continue;
        }
      put_counter (w, "meminfo", meminfo_names[m->key], ts, (double) m->value * 1024);
    }
}

static void
write_cpu_times (ChromeWriter *w,
                 const Tracepipe__Json__SysStatsPacket *s,
                 gint64 ts)
{
  for (gsize i = 0; i < s->n_cpu_stat; i++)
    {
      const Tracepipe__Json__SysStatsPacket__CpuTimes *c = s->cpu_stat[i];
      char name[32];

      /* trace_processor refuses a cpu's times without its cpu (invalid_cpu_times) */
      if (!c->has_cpu_id)
        {
          chrome_writer_count_drop (w, &w->stats.dropped_sys_stats, "sys_stats cpu times of no cpu dropped");
          continue;
        }
      g_snprintf (name, sizeof name, "cpu%u.times", c->cpu_id);
      put_counter (w, name, "user_ns", ts, (double) c->user_ns);
      put_counter (w, name, "user_nice_ns", ts, (double) c->user_nice_ns);
      put_counter (w, name, "system_mode_ns", ts, (double) c->system_mode_ns);
      put_counter (w, name, "idle_ns", ts, (double) c->idle_ns);
      put_counter (w, name, "io_wait_ns", ts, (double) c->io_wait_ns);
      put_counter (w, name, "irq_ns", ts, (double) c->irq_ns);
      put_counter (w, name, "softirq_ns", ts, (double) c->softirq_ns);
      put_counter (w, name, "steal_ns", ts, (double) c->steal_ns);
    }
}

static void
write_cpuidle (ChromeWriter *w,
               const Tracepipe__Json__SysStatsPacket *s,
               gint64 ts)
{
  for (gsize i = 0; i < s->n_cpuidle_state; i++)
    {
      const Tracepipe__Json__SysStatsPacket__CpuIdleState *c = s->cpuidle_state[i];
      char name[32];

      g_snprintf (name, sizeof name, "cpuidle%u", c->cpu_id);
      for (gsize k = 0; k < c->n_cpuidle_state_entry; k++)
        {
          const Tracepipe__Json__SysStatsPacket__CpuIdleStateEntry *e = c->cpuidle_state_entry[k];

          put_counter (w, name, e->state != NULL ? e->state : "", ts, (double) e->duration_us);
        }
    }
}

/**
 * chrome_writer_sys_stats:
 * @w: a writer
 * @s: the carried part of a sys_stats packet
 * @ts: the packet's time
 *
 * Writes the meminfo, cpu time and cpuidle values of @s as C events; the
 * tables with no such form are counted.
 */
void
chrome_writer_sys_stats (ChromeWriter *w,
                         const Tracepipe__Json__SysStatsPacket *s,
                         gint64 ts)
{
  write_meminfo (w, s, ts);
  write_cpu_times (w, s, ts);
  write_cpuidle (w, s, ts);
  /* each entry of a table not declared is an unknown field */
  if (s->base.n_unknown_fields > 0)
    {
      chrome_writer_count_drop (w, &w->stats.dropped_sys_stats, "sys_stats entry with no JSON form dropped");
      w->stats.dropped_sys_stats += s->base.n_unknown_fields - 1;
    }
}
