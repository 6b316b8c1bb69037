/* tracepipe - htrace: the system monitor's plugins as counters and names
 *
 * Every sample is stamped with its record's time (the plugins' own
 * timestamps are on other clocks: cpu-plugin's on boottime seconds,
 * network-plugin's on realtime), as TraceStreamer stamps them.
 *
 *   cpu-plugin      cpu.total_load, cpu.user_load, cpu.sys_load (%),
 *                   cpu.process_num; per core its frequency
 *                   (cpu_frequency, kHz) and cpu.usage (%, from the
 *                   core's busy and boot times since the last sample)
 *   memory-plugin   mem.<meminfo key> (bytes; keys 0-1023); per process
 *                   mem.rss, mem.rss_anon, mem.rss_file, mem.rss_shmem,
 *                   mem.vm_size, mem.swap (bytes) and its name
 *   diskio-plugin   disk.read, disk.written (bytes since boot),
 *                   disk.read_rate, disk.write_rate (bytes/s, all devices)
 *   network-plugin  net.rx, net.tx (bytes), net.rx_packets, net.tx_packets
 *   process-plugin  each process's name, when it is new or changed
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "htrace-private.h"

/* Processes whose last name is remembered (to state a name once). */
#define MAX_PROCESSES 65536
/* meminfo keys: OpenHarmony's are below 40; a key past this is damage */
#define MAX_MEMINFO_KEY 1024

struct _HtraceSysmon
{
  TraceStringPool *pool;
  guint32 unit_bytes, unit_percent, unit_count, unit_rate;
  GHashTable *names;   /* "counter name" → interned id, filled once */
  GHashTable *proc;    /* pid → interned name last given */
  GHashTable *meminfo; /* key → interned `mem.<key>` */
};

static const char *const plugins[] = {
  "cpu-plugin", "memory-plugin", "diskio-plugin", "network-plugin", "process-plugin", NULL
};

gboolean
htrace_sysmon_handles (const char *plugin)
{
  return g_strv_contains (plugins, plugin);
}

HtraceSysmon *
htrace_sysmon_new (TraceStringPool *pool)
{
  HtraceSysmon *s = g_new0 (HtraceSysmon, 1);

  s->pool = pool;
  s->unit_bytes = trace_string_pool_intern (pool, "bytes");
  s->unit_percent = trace_string_pool_intern (pool, "%");
  s->unit_count = trace_string_pool_intern (pool, "count");
  s->unit_rate = trace_string_pool_intern (pool, "bytes/s");
  s->names = g_hash_table_new (g_str_hash, g_str_equal);
  s->proc = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  s->meminfo = g_hash_table_new (g_direct_hash, g_direct_equal);
  return s;
}

void
htrace_sysmon_free (HtraceSysmon *s)
{
  if (s == NULL)
    return;
  g_hash_table_unref (s->names);
  g_hash_table_unref (s->proc);
  g_hash_table_unref (s->meminfo);
  g_free (s);
}

/* Counter names are few and fixed: interned once, looked up by the
 * static string's address. */
static guint32
name_id (HtraceSysmon *s,
         const char *name)
{
  gpointer id = g_hash_table_lookup (s->names, name);

  if (id == NULL)
    {
      id = GUINT_TO_POINTER (trace_string_pool_intern (s->pool, name));
      g_hash_table_insert (s->names, (gpointer) name, id);
    }
  return GPOINTER_TO_UINT (id);
}

static void
counter (HtraceSysmon *s,
         HtraceContext *ctx,
         gint64 ts,
         gint64 pid,
         guint32 name,
         guint32 unit,
         double value)
{
  TraceEvent *ev = trace_batch_append (ctx->batch, TRACE_EVENT_COUNTER, ts);

  ev->pid = pid;
  ev->name = name;
  ev->u.counter.value = value;
  ev->u.counter.unit = unit;
}

static void
global (HtraceSysmon *s,
        HtraceContext *ctx,
        gint64 ts,
        const char *name,
        guint32 unit,
        double value)
{
  counter (s, ctx, ts, TRACE_ID_UNKNOWN, name_id (s, name), unit, value);
}

static void
decode_core (HtraceSysmon *s,
             HtraceContext *ctx,
             gint64 ts,
             const Htrace__CpuCoreUsage *core)
{
  gint64 busy = (gint64) ((guint64) core->system_cpu_time_ms - (guint64) core->prev_system_cpu_time_ms);
  gint64 span = (gint64) ((guint64) core->system_boot_time_ms - (guint64) core->prev_system_boot_time_ms);

  if (core->cpu_core < 0 || core->cpu_core >= HTRACE_MAX_CPUS)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
      return;
    }
  if (core->frequency && core->frequency->has_cur_frequency_khz)
    {
      TraceEvent *ev = trace_batch_append (ctx->batch, TRACE_EVENT_CPU_FREQUENCY, ts);

      ev->cpu = ev->u.cpu.cpu_id = core->cpu_core;
      ev->u.cpu.state = core->frequency->cur_frequency_khz;
    }
  /* the first sample has no previous one (span 0): no load to state */
  if (span > 0 && busy >= 0)
    {
      TraceEvent *ev = trace_batch_append (ctx->batch, TRACE_EVENT_COUNTER, ts);

      ev->cpu = core->cpu_core;
      ev->name = name_id (s, "cpu.usage");
      ev->u.counter.id = (guint64) core->cpu_core + 1; /* one track per core: `cpu.usage id: N+1` */
      ev->u.counter.value = 100.0 * (double) busy / (double) span;
      ev->u.counter.unit = s->unit_percent;
    }
}

static void
decode_cpu (HtraceSysmon *s,
            HtraceContext *ctx,
            gint64 ts,
            const ProtobufCBinaryData *data)
{
  Htrace__CpuData *cpu = htrace__cpu_data__unpack (ctx->allocator, data->len, data->data);

  if (cpu == NULL)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
      return;
    }
  global (s, ctx, ts, "cpu.total_load", s->unit_percent, cpu->total_load);
  global (s, ctx, ts, "cpu.user_load", s->unit_percent, cpu->user_load);
  global (s, ctx, ts, "cpu.sys_load", s->unit_percent, cpu->sys_load);
  global (s, ctx, ts, "cpu.process_num", s->unit_count, (double) cpu->process_num);
  for (gsize i = 0; cpu->cpu_usage_info && i < cpu->cpu_usage_info->n_cores; i++)
    decode_core (s, ctx, ts, cpu->cpu_usage_info->cores[i]);
}

static void
decode_disk (HtraceSysmon *s,
             HtraceContext *ctx,
             gint64 ts,
             const ProtobufCBinaryData *data)
{
  Htrace__DiskioData *disk = htrace__diskio_data__unpack (ctx->allocator, data->len, data->data);
  double rd = 0, wr = 0;

  if (disk == NULL)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
      return;
    }
  for (gsize i = 0; disk->statsdata && i < disk->statsdata->n_statsinfo; i++)
    {
      rd += disk->statsdata->statsinfo[i]->rd_per_sec;
      wr += disk->statsdata->statsinfo[i]->wr_per_sec;
    }
  global (s, ctx, ts, "disk.read", s->unit_bytes, disk->rd_sectors_kb * 1024.0);
  global (s, ctx, ts, "disk.written", s->unit_bytes, disk->wr_sectors_kb * 1024.0);
  global (s, ctx, ts, "disk.read_rate", s->unit_rate, rd * 1024.0);
  global (s, ctx, ts, "disk.write_rate", s->unit_rate, wr * 1024.0);
}

static void
decode_network (HtraceSysmon *s,
                HtraceContext *ctx,
                gint64 ts,
                const ProtobufCBinaryData *data)
{
  Htrace__NetworkDatas *net = htrace__network_datas__unpack (ctx->allocator, data->len, data->data);
  const Htrace__NetworkSystemData *sys;

  if (net == NULL)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
      return;
    }
  /* per-process figures (networkinfo) need a network-plugin pid list,
   * which system-wide captures do not have: only the system's are read */
  if ((sys = net->network_system_info) == NULL)
    return;
  global (s, ctx, ts, "net.rx", s->unit_bytes, (double) sys->rx_bytes);
  global (s, ctx, ts, "net.tx", s->unit_bytes, (double) sys->tx_bytes);
  global (s, ctx, ts, "net.rx_packets", s->unit_count, (double) sys->rx_packets);
  global (s, ctx, ts, "net.tx_packets", s->unit_count, (double) sys->tx_packets);
}

/* A process's name, once per change: the list is resent every sample. */
static void
process_name (HtraceSysmon *s,
              HtraceContext *ctx,
              gint64 ts,
              gint32 pid,
              const char *name)
{
  guint32 id;
  gint64 *key;
  TraceEvent *ev;

  if (name == NULL || *name == '\0' || pid <= 0)
    return;
  id = trace_string_pool_intern (s->pool, name);
  if (GPOINTER_TO_UINT (g_hash_table_lookup (s->proc, &(gint64){ pid })) == id)
    return;
  /* past the limit a name is stated every time it comes: more events,
   * not more memory */
  if (g_hash_table_size (s->proc) < MAX_PROCESSES || g_hash_table_contains (s->proc, &(gint64){ pid }))
    {
      key = g_new (gint64, 1);
      *key = pid;
      g_hash_table_replace (s->proc, key, GUINT_TO_POINTER (id));
    }
  ev = trace_batch_append (ctx->batch, TRACE_EVENT_PROCESS_NAME, ts);
  ev->pid = pid;
  ev->name = id;
}

static void
decode_process (HtraceSysmon *s,
                HtraceContext *ctx,
                gint64 ts,
                const ProtobufCBinaryData *data)
{
  Htrace__ProcessData *pd = htrace__process_data__unpack (ctx->allocator, data->len, data->data);

  if (pd == NULL)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
      return;
    }
  for (gsize i = 0; i < pd->n_processesinfo; i++)
    process_name (s, ctx, ts, pd->processesinfo[i]->pid, pd->processesinfo[i]->name);
}

/* `mem.<key>`, lower case without the `PMEM_` prefix, from the enum's
 * own names (a key this subset does not know: `mem.key<N>`). */
static guint32
meminfo_name (HtraceSysmon *s,
              gint32 key)
{
  gpointer id = g_hash_table_lookup (s->meminfo, GINT_TO_POINTER (key));
  const ProtobufCEnumValue *v;
  g_autofree char *name = NULL;

  if (id != NULL)
    return GPOINTER_TO_UINT (id);
  if (key < 0 || key >= MAX_MEMINFO_KEY)
    return 0;
  v = protobuf_c_enum_descriptor_get_value (&htrace__sys_meminfo_type__descriptor, key);
  if (v != NULL && g_str_has_prefix (v->name, "PMEM_"))
    {
      g_autofree char *lower = g_ascii_strdown (v->name + 5, -1);

      name = g_strconcat ("mem.", lower, NULL);
    }
  else
    name = g_strdup_printf ("mem.key%d", key);
  id = GUINT_TO_POINTER (trace_string_pool_intern (s->pool, name));
  g_hash_table_insert (s->meminfo, GINT_TO_POINTER (key), id);
  return GPOINTER_TO_UINT (id);
}

static void
decode_process_memory (HtraceSysmon *s,
                       HtraceContext *ctx,
                       gint64 ts,
                       const Htrace__ProcessMemoryInfo *p)
{
  static const char *const names[] = { "mem.rss", "mem.rss_anon", "mem.rss_file",
                                       "mem.rss_shmem", "mem.vm_size", "mem.swap" };
  const guint64 kb[] = { p->vm_rss_kb, p->rss_anon_kb, p->rss_file_kb, p->rss_shmem_kb, p->vm_size_kb, p->vm_swap_kb };

  process_name (s, ctx, ts, p->pid, p->name);
  /* kernel threads have no memory of their own: no tracks of zeros */
  if (p->pid <= 0 || p->vm_size_kb == 0)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    counter (s, ctx, ts, p->pid, name_id (s, names[i]), s->unit_bytes, kb[i] * 1024.0);
}

static void
decode_memory (HtraceSysmon *s,
               HtraceContext *ctx,
               gint64 ts,
               const ProtobufCBinaryData *data)
{
  Htrace__MemoryData *mem = htrace__memory_data__unpack (ctx->allocator, data->len, data->data);

  if (mem == NULL)
    {
      htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
      return;
    }
  for (gsize i = 0; i < mem->n_meminfo; i++)
    {
      guint32 name = meminfo_name (s, mem->meminfo[i]->key);

      if (name == 0)
        htrace_context_skip (ctx, HTRACE_SKIP_BAD_RESULT, 1);
      else
        counter (s, ctx, ts, TRACE_ID_UNKNOWN, name, s->unit_bytes, mem->meminfo[i]->value * 1024.0);
    }
  for (gsize i = 0; i < mem->n_processesinfo; i++)
    decode_process_memory (s, ctx, ts, mem->processesinfo[i]);
}

/**
 * htrace_sysmon_decode:
 * @s: the decoder
 * @ctx: the record's context
 * @plugin: a name htrace_sysmon_handles() accepts
 * @ts: the record's time on the stream's clock
 * @data: the plugin's result
 */
void
htrace_sysmon_decode (HtraceSysmon *s,
                      HtraceContext *ctx,
                      const char *plugin,
                      gint64 ts,
                      const ProtobufCBinaryData *data)
{
  if (g_str_equal (plugin, "cpu-plugin"))
    decode_cpu (s, ctx, ts, data);
  else if (g_str_equal (plugin, "memory-plugin"))
    decode_memory (s, ctx, ts, data);
  else if (g_str_equal (plugin, "diskio-plugin"))
    decode_disk (s, ctx, ts, data);
  else if (g_str_equal (plugin, "network-plugin"))
    decode_network (s, ctx, ts, data);
  else
    decode_process (s, ctx, ts, data);
}
