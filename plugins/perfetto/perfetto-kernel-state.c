/* tracepipe - Perfetto: a sched_switch's prev_state across kernel versions
 *
 * The kernel reports a thread's state in sched_switch as bits whose
 * meaning changed with its version: before 4.8 they are the scheduler's
 * own (TASK_DEAD 0x40 … TASK_NOLOAD 0x400, preemption 0x800); from 4.8
 * preemption moved to 0x1000; from 4.14 the bits above TASK_ZOMBIE were
 * renumbered for reporting (parked 0x40, idle 0x80, preemption 0x100).
 * trace_processor decodes them by the release a trace's `system_info`
 * names, and as 4.4 when it names none. The event model keeps the 4.4
 * layout (TraceTaskState), so perfetto-src converts from the trace's
 * layout and perfetto-sink converts back to the layout its output
 * declares: an Android trace's idle workers stay `I`, not `K`, in JSON
 * and in filters.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-common.h"

#include <stdlib.h>
#include <string.h>

#define VERSION(major, minor) (((guint32) (major) << 16) | (guint32) (minor))

/* The bits every version shares: running, S, D, T, t, X, Z. */
#define COMMON_BITS 0x3f

/* 4.8 to 4.13: TASK_NEW 0x800, preemption 0x1000 */
#define RAW_4_8_NEW 0x800
#define RAW_4_8_PREEMPTED 0x1000
/* 4.14 and later: the reporting bits */
#define RAW_4_14_PARKED 0x40
#define RAW_4_14_IDLE 0x80
#define RAW_4_14_PREEMPTED 0x100
#define RAW_4_14_INVALID 0xfe00

/**
 * perfetto_kernel_version:
 * @sysname: (nullable): uname's sysname
 * @release: (nullable): uname's release, such as `5.10.43-android12`
 *
 * Reads the version as trace_processor does: only for `Linux`, the
 * numbers before the first and second dots.
 *
 * Returns: the major version in the high 16 bits and the minor in the
 *   low ones, or 0 when it names none (the 4.4 layout then applies)
 */
guint32
perfetto_kernel_version (const char *sysname,
                         const char *release)
{
  const char *dot;
  char *end;
  guint64 major, minor;

  if (g_strcmp0 (sysname, "Linux") != 0 || release == NULL || (dot = strchr (release, '.')) == NULL)
    return 0;
  if (!g_ascii_isdigit (release[0]) || !g_ascii_isdigit (dot[1]))
    return 0;
  major = g_ascii_strtoull (release, &end, 10);
  if (end != dot)
    return 0;
  minor = g_ascii_strtoull (dot + 1, &end, 10);
  if (*end != '\0' && *end != '.')
    return 0;
  if (major > 0xffff || minor > 0xffff)
    return 0;
  return VERSION (major, minor);
}

/**
 * perfetto_task_state_from_raw:
 * @raw: a prev_state as the trace holds it
 * @version: the kernel version (perfetto_kernel_version()), 0 for none
 *
 * Returns: the state in the event model's layout (#TraceTaskState), -1
 *   for one trace_processor reads as invalid
 */
gint64
perfetto_task_state_from_raw (gint64 raw,
                              guint32 version)
{
  gint64 state;

  if (raw < 0 || version < VERSION (4, 8))
    return raw;
  /* trace_processor reads only the low 16 bits */
  raw &= 0xffff;
  if (version < VERSION (4, 14))
    {
      state = raw & ~(gint64) (RAW_4_8_NEW | RAW_4_8_PREEMPTED);
      if (raw & RAW_4_8_PREEMPTED)
        state |= TRACE_TASK_STATE_PREEMPTED;
      return state;
    }
  if (raw & RAW_4_14_INVALID)
    return -1;
  state = raw & COMMON_BITS;
  if (raw & RAW_4_14_PARKED)
    state |= TRACE_TASK_STATE_PARKED;
  if (raw & RAW_4_14_IDLE)
    state |= TRACE_TASK_STATE_IDLE;
  if (raw & RAW_4_14_PREEMPTED)
    state |= TRACE_TASK_STATE_PREEMPTED;
  return state;
}

/**
 * perfetto_task_state_to_raw:
 * @state: a state in the event model's layout
 * @version: the kernel version the output declares, 0 for none
 *
 * The inverse of perfetto_task_state_from_raw() for every state that
 * function makes. Bits a version cannot report (wakekill, waking, dead
 * or noload alone on 4.14 and later) are left out.
 *
 * Returns: the prev_state to write
 */
gint64
perfetto_task_state_to_raw (gint64 state,
                            guint32 version)
{
  gint64 raw;

  if (state < 0 || version < VERSION (4, 8))
    return state;
  if (version < VERSION (4, 14))
    {
      raw = state & ~(gint64) (TRACE_TASK_STATE_PREEMPTED | RAW_4_8_NEW | RAW_4_8_PREEMPTED);
      if (state & TRACE_TASK_STATE_PREEMPTED)
        raw |= RAW_4_8_PREEMPTED;
      return raw;
    }
  raw = state & COMMON_BITS;
  if (state & TRACE_TASK_STATE_PARKED)
    raw |= RAW_4_14_PARKED;
  if ((state & TRACE_TASK_STATE_IDLE) == TRACE_TASK_STATE_IDLE)
    raw = (raw & ~(gint64) TRACE_TASK_STATE_UNINTERRUPTIBLE) | RAW_4_14_IDLE;
  if (state & TRACE_TASK_STATE_PREEMPTED)
    raw |= RAW_4_14_PREEMPTED;
  return raw;
}

/**
 * perfetto_system_info_version:
 * @info: a SystemInfo
 *
 * Returns: the kernel version it names, 0 for none
 */
guint32
perfetto_system_info_version (const Perfetto__Protos__SystemInfo *info)
{
  if (info == NULL || info->utsname == NULL)
    return 0;
  return perfetto_kernel_version (info->utsname->sysname, info->utsname->release);
}
