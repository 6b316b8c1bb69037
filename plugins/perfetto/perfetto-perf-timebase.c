/* tracepipe - Perfetto: the timebase of traced_perf's samples, by name
 *
 * A PerfSample counts events of its sequence's timebase
 * (`perf_sample_defaults`), and trace_processor shows those counts in a
 * counter track per cpu named after it, as the perf tool names events:
 * the timebase's own name if it has one, else its counter
 * (`cpu-cycles`), tracepoint (`sched:sched_switch`) or raw event, then
 * `:` and its modifiers (`u`, `k`, `h`). A sequence without defaults
 * samples on `cpu-clock`. perfetto-src carries that name on each sample
 * and perfetto-sink gives it back to a sequence's defaults.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-private.h"

typedef Perfetto__Protos__PerfEvents__Timebase PerfettoTimebase;

static const struct
{
  Perfetto__Protos__PerfEvents__Counter counter;
  const char *name;
} counters[] = {
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__SW_CPU_CLOCK, "cpu-clock" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__SW_PAGE_FAULTS, "page-faults" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__SW_TASK_CLOCK, "task-clock" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__SW_CONTEXT_SWITCHES, "context-switches" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__SW_CPU_MIGRATIONS, "cpu-migrations" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__SW_PAGE_FAULTS_MIN, "minor-faults" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__SW_PAGE_FAULTS_MAJ, "major-faults" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__SW_ALIGNMENT_FAULTS, "alignment-faults" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__SW_EMULATION_FAULTS, "emulation-faults" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__SW_DUMMY, "dummy" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__HW_CPU_CYCLES, "cpu-cycles" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__HW_INSTRUCTIONS, "instructions" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__HW_CACHE_REFERENCES, "cache-references" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__HW_CACHE_MISSES, "cache-misses" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__HW_BRANCH_INSTRUCTIONS, "branch-instructions" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__HW_BRANCH_MISSES, "branch-misses" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__HW_BUS_CYCLES, "bus-cycles" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__HW_STALLED_CYCLES_FRONTEND, "stalled-cycles-frontend" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__HW_STALLED_CYCLES_BACKEND, "stalled-cycles-backend" },
  { PERFETTO__PROTOS__PERF_EVENTS__COUNTER__HW_REF_CPU_CYCLES, "ref-cycles" },
};

static const char *
counter_name (Perfetto__Protos__PerfEvents__Counter counter)
{
  for (guint i = 0; i < G_N_ELEMENTS (counters); i++)
    if (counters[i].counter == counter)
      return counters[i].name;
  return "unknown";
}

/**
 * perfetto_timebase_name:
 * @timebase: a sequence's `perf_sample_defaults.timebase`
 * @out: where the name is written (emptied first)
 *
 * Writes the name trace_processor gives @timebase's counter tracks.
 */
void
perfetto_timebase_name (const PerfettoTimebase *timebase,
                        GString *out)
{
  static const char modifier_letters[] = { [1] = 'u', [2] = 'k', [3] = 'h' };
  gsize base_len;

  g_string_truncate (out, 0);
  if (timebase->name && *timebase->name)
    g_string_append (out, timebase->name);
  else if (timebase->event_case == PERFETTO__PROTOS__PERF_EVENTS__TIMEBASE__EVENT_COUNTER)
    g_string_append (out, counter_name (timebase->counter));
  else if (timebase->event_case == PERFETTO__PROTOS__PERF_EVENTS__TIMEBASE__EVENT_TRACEPOINT &&
           timebase->tracepoint->name)
    g_string_append (out, timebase->tracepoint->name);
  else if (timebase->event_case == PERFETTO__PROTOS__PERF_EVENTS__TIMEBASE__EVENT_RAW_EVENT)
    g_string_append_printf (out, "raw.0x%" G_GINT32_MODIFIER "x.0x%" G_GINT64_MODIFIER "x.0x%" G_GINT64_MODIFIER "x.0x%" G_GINT64_MODIFIER "x",
                            timebase->raw_event->type, timebase->raw_event->config, timebase->raw_event->config1,
                            timebase->raw_event->config2);
  else
    g_string_append (out, "unknown");
  base_len = out->len;
  for (gsize i = 0; i < timebase->n_modifiers; i++)
    if (timebase->modifiers[i] > 0 && timebase->modifiers[i] < (int) G_N_ELEMENTS (modifier_letters))
      g_string_append_c (out, modifier_letters[timebase->modifiers[i]]);
  if (out->len > base_len)
    g_string_insert_c (out, base_len, ':');
}

/**
 * perfetto_timebase_init_named:
 * @timebase: a timebase to fill
 * @tracepoint: room for its tracepoint
 * @name: the name of its counter tracks (perfetto_timebase_name())
 *
 * Fills @timebase so that trace_processor names its counter tracks
 * @name: by its `name`, which comes first. A counter's name (with or
 * without modifiers) also states that counter, and a tracepoint's
 * (`group:event`) that tracepoint, so that the profiling session gets
 * the unit trace_processor gives it (`ns` for the clocks, a count for
 * a tracepoint). @name must outlive @timebase.
 */
void
perfetto_timebase_init_named (PerfettoTimebase *timebase,
                              Perfetto__Protos__PerfEvents__Tracepoint *tracepoint,
                              const char *name)
{
  const char *colon = strrchr (name, ':');
  gsize base_len = colon && colon[1] && strspn (colon + 1, "ukh") == strlen (colon + 1) ? (gsize) (colon - name) : strlen (name);

  perfetto__protos__perf_events__timebase__init (timebase);
  perfetto__protos__perf_events__tracepoint__init (tracepoint);
  timebase->name = (char *) name;
  for (guint i = 0; i < G_N_ELEMENTS (counters); i++)
    if (strlen (counters[i].name) == base_len && strncmp (counters[i].name, name, base_len) == 0)
      {
        timebase->event_case = PERFETTO__PROTOS__PERF_EVENTS__TIMEBASE__EVENT_COUNTER;
        timebase->counter = counters[i].counter;
        return;
      }
  if (strchr (name, ':') != NULL && !g_str_has_prefix (name, "raw."))
    {
      tracepoint->name = (char *) name;
      timebase->event_case = PERFETTO__PROTOS__PERF_EVENTS__TIMEBASE__EVENT_TRACEPOINT;
      timebase->tracepoint = tracepoint;
    }
}
