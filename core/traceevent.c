/* tracepipe - the event model: names of kinds and clocks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"

static const struct
{
  const char *name;
  TraceEventGroup group;
} kind_info[TRACE_EVENT_N_KINDS] = {
  [TRACE_EVENT_NONE] = { "none", 0 },
  [TRACE_EVENT_SLICE_BEGIN] = { "slice-begin", TRACE_EVENT_GROUP_SLICES },
  [TRACE_EVENT_SLICE_END] = { "slice-end", TRACE_EVENT_GROUP_SLICES },
  [TRACE_EVENT_SLICE_COMPLETE] = { "slice-complete", TRACE_EVENT_GROUP_SLICES },
  [TRACE_EVENT_INSTANT] = { "instant", TRACE_EVENT_GROUP_SLICES },
  [TRACE_EVENT_ASYNC_BEGIN] = { "async-begin", TRACE_EVENT_GROUP_ASYNC },
  [TRACE_EVENT_ASYNC_STEP] = { "async-step", TRACE_EVENT_GROUP_ASYNC },
  [TRACE_EVENT_ASYNC_END] = { "async-end", TRACE_EVENT_GROUP_ASYNC },
  [TRACE_EVENT_ASYNC_INSTANT] = { "async-instant", TRACE_EVENT_GROUP_ASYNC },
  [TRACE_EVENT_FLOW_START] = { "flow-start", TRACE_EVENT_GROUP_FLOWS },
  [TRACE_EVENT_FLOW_STEP] = { "flow-step", TRACE_EVENT_GROUP_FLOWS },
  [TRACE_EVENT_FLOW_END] = { "flow-end", TRACE_EVENT_GROUP_FLOWS },
  [TRACE_EVENT_COUNTER] = { "counter", TRACE_EVENT_GROUP_COUNTERS },
  [TRACE_EVENT_PROCESS_NAME] = { "process-name", TRACE_EVENT_GROUP_METADATA },
  [TRACE_EVENT_THREAD_NAME] = { "thread-name", TRACE_EVENT_GROUP_METADATA },
  [TRACE_EVENT_PROCESS_SORT_INDEX] = { "process-sort-index", TRACE_EVENT_GROUP_METADATA },
  [TRACE_EVENT_THREAD_SORT_INDEX] = { "thread-sort-index", TRACE_EVENT_GROUP_METADATA },
  [TRACE_EVENT_PROCESS_LABEL] = { "process-label", TRACE_EVENT_GROUP_METADATA },
  [TRACE_EVENT_SCHED_SWITCH] = { "sched-switch", TRACE_EVENT_GROUP_SCHED },
  [TRACE_EVENT_SCHED_WAKEUP] = { "sched-wakeup", TRACE_EVENT_GROUP_SCHED },
  [TRACE_EVENT_SCHED_WAKING] = { "sched-waking", TRACE_EVENT_GROUP_SCHED },
  [TRACE_EVENT_SCHED_WAKEUP_NEW] = { "sched-wakeup-new", TRACE_EVENT_GROUP_SCHED },
  [TRACE_EVENT_SCHED_PROCESS_EXIT] = { "sched-process-exit", TRACE_EVENT_GROUP_SCHED },
  [TRACE_EVENT_SCHED_PROCESS_FREE] = { "sched-process-free", TRACE_EVENT_GROUP_SCHED },
  [TRACE_EVENT_TASK_NEWTASK] = { "task-newtask", TRACE_EVENT_GROUP_SCHED },
  [TRACE_EVENT_TASK_RENAME] = { "task-rename", TRACE_EVENT_GROUP_SCHED },
  [TRACE_EVENT_CPU_FREQUENCY] = { "cpu-frequency", TRACE_EVENT_GROUP_CPU },
  [TRACE_EVENT_CPU_IDLE] = { "cpu-idle", TRACE_EVENT_GROUP_CPU },
  [TRACE_EVENT_FTRACE] = { "ftrace", TRACE_EVENT_GROUP_FTRACE },
  [TRACE_EVENT_STACK_NODE] = { "stack-node", TRACE_EVENT_GROUP_SAMPLES },
  [TRACE_EVENT_SAMPLE] = { "sample", TRACE_EVENT_GROUP_SAMPLES },
  [TRACE_EVENT_CLOCK_MARKER] = { "clock-marker", TRACE_EVENT_GROUP_CLOCK },
  [TRACE_EVENT_RECORD] = { "record", TRACE_EVENT_GROUP_RECORDS },
  [TRACE_EVENT_THREAD_STATE] = { "thread-state", TRACE_EVENT_GROUP_SCHED },
  [TRACE_EVENT_CHROME_PHASE] = { "chrome-phase", TRACE_EVENT_GROUP_RECORDS },
};

/**
 * trace_event_kind_to_string:
 * @kind: a #TraceEventKind
 *
 * Returns: a short lowercase name such as `slice-begin`
 */
const char *
trace_event_kind_to_string (TraceEventKind kind)
{
  if ((guint) kind >= TRACE_EVENT_N_KINDS)
    return "invalid";
  return kind_info[kind].name;
}

/**
 * trace_event_kind_get_group:
 * @kind: a #TraceEventKind
 *
 * Returns: the group @kind belongs to
 */
TraceEventGroup
trace_event_kind_get_group (TraceEventKind kind)
{
  if ((guint) kind >= TRACE_EVENT_N_KINDS)
    return 0;
  return kind_info[kind].group;
}

static const char *const clock_names[] = {
  [TRACE_CLOCK_UNKNOWN] = "unknown",
  [TRACE_CLOCK_BOOTTIME] = "boottime",
  [TRACE_CLOCK_MONOTONIC] = "monotonic",
  [TRACE_CLOCK_MONOTONIC_RAW] = "monotonic-raw",
  [TRACE_CLOCK_REALTIME] = "realtime",
  [TRACE_CLOCK_FTRACE_LOCAL] = "ftrace-local",
  [TRACE_CLOCK_COUNTER] = "counter",
  [TRACE_CLOCK_PROCESS] = "process",
};

/**
 * trace_clock_domain_to_string:
 * @domain: a #TraceClockDomain
 *
 * Returns: the domain's name, as accepted by trace_clock_domain_from_string()
 */
const char *
trace_clock_domain_to_string (TraceClockDomain domain)
{
  if ((guint) domain >= G_N_ELEMENTS (clock_names))
    return "unknown";
  return clock_names[domain];
}

/**
 * trace_clock_domain_from_string:
 * @name: (nullable): a domain name (`boottime`, `monotonic`, …) or one of the names
 *   other tools write (`boot`, `mono`, `LINUX_CLOCK_MONOTONIC`, `local`, …)
 *
 * Returns: the domain, %TRACE_CLOCK_UNKNOWN for a name it does not know
 *   or %NULL (a reader passes what the input named, perhaps nothing)
 */
TraceClockDomain
trace_clock_domain_from_string (const char *name)
{
  static const struct
  {
    const char *alias;
    TraceClockDomain domain;
  } aliases[] = {
    { "boot", TRACE_CLOCK_BOOTTIME },
    { "mono", TRACE_CLOCK_MONOTONIC },
    { "LINUX_CLOCK_MONOTONIC", TRACE_CLOCK_MONOTONIC },
    { "MONOTONIC", TRACE_CLOCK_MONOTONIC },
    { "BOOTTIME", TRACE_CLOCK_BOOTTIME },
    { "REALTIME", TRACE_CLOCK_REALTIME },
    { "local", TRACE_CLOCK_FTRACE_LOCAL },
    { "global", TRACE_CLOCK_FTRACE_LOCAL },
    { "perf", TRACE_CLOCK_MONOTONIC },
    { "x86-tsc", TRACE_CLOCK_COUNTER },
  };

  if (name == NULL)
    return TRACE_CLOCK_UNKNOWN;
  for (guint i = 0; i < G_N_ELEMENTS (clock_names); i++)
    if (g_ascii_strcasecmp (name, clock_names[i]) == 0)
      return i;
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (g_ascii_strcasecmp (name, aliases[i].alias) == 0)
      return aliases[i].domain;
  return TRACE_CLOCK_UNKNOWN;
}

GType
trace_event_group_get_type (void)
{
  static gsize type;
  static const GFlagsValue values[] = {
    { TRACE_EVENT_GROUP_SLICES, "TRACE_EVENT_GROUP_SLICES", "slices" },
    { TRACE_EVENT_GROUP_ASYNC, "TRACE_EVENT_GROUP_ASYNC", "async" },
    { TRACE_EVENT_GROUP_FLOWS, "TRACE_EVENT_GROUP_FLOWS", "flows" },
    { TRACE_EVENT_GROUP_COUNTERS, "TRACE_EVENT_GROUP_COUNTERS", "counters" },
    { TRACE_EVENT_GROUP_METADATA, "TRACE_EVENT_GROUP_METADATA", "metadata" },
    { TRACE_EVENT_GROUP_SCHED, "TRACE_EVENT_GROUP_SCHED", "sched" },
    { TRACE_EVENT_GROUP_CPU, "TRACE_EVENT_GROUP_CPU", "cpu" },
    { TRACE_EVENT_GROUP_FTRACE, "TRACE_EVENT_GROUP_FTRACE", "ftrace" },
    { TRACE_EVENT_GROUP_SAMPLES, "TRACE_EVENT_GROUP_SAMPLES", "samples" },
    { TRACE_EVENT_GROUP_CLOCK, "TRACE_EVENT_GROUP_CLOCK", "clock" },
    { TRACE_EVENT_GROUP_RECORDS, "TRACE_EVENT_GROUP_RECORDS", "records" },
    { 0, NULL, NULL },
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_flags_register_static ("TraceEventGroup", values));
  return type;
}

GType
trace_clock_domain_get_type (void)
{
  static gsize type;
  static const GEnumValue values[] = {
    { TRACE_CLOCK_UNKNOWN, "TRACE_CLOCK_UNKNOWN", "unknown" },
    { TRACE_CLOCK_BOOTTIME, "TRACE_CLOCK_BOOTTIME", "boottime" },
    { TRACE_CLOCK_MONOTONIC, "TRACE_CLOCK_MONOTONIC", "monotonic" },
    { TRACE_CLOCK_MONOTONIC_RAW, "TRACE_CLOCK_MONOTONIC_RAW", "monotonic-raw" },
    { TRACE_CLOCK_REALTIME, "TRACE_CLOCK_REALTIME", "realtime" },
    { TRACE_CLOCK_FTRACE_LOCAL, "TRACE_CLOCK_FTRACE_LOCAL", "ftrace-local" },
    { TRACE_CLOCK_COUNTER, "TRACE_CLOCK_COUNTER", "counter" },
    { TRACE_CLOCK_PROCESS, "TRACE_CLOCK_PROCESS", "process" },
    { 0, NULL, NULL },
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("TraceClockDomain", values));
  return type;
}
