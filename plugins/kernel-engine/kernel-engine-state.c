/* tracepipe - kernel record engine: sched_switch's prev_state letters
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The raw prev_state bits differ between kernel versions (4.14 renumbered
 * them: `P` moved from 0x200 to 0x40, `I` appeared at 0x80, the preempted
 * bit moved); the kernel's text prints them as letters through the
 * event's print format, `__print_flags(prev_state & ..., "|", { 0x01,
 * "S" }, ...)`, followed by `+` when the bit above the highest letter is
 * set. The format is in every trace.dat and tracefs, so the letters of
 * each bit are read from it once, and each letter read as the text
 * parser reads it (ftrace_task_state_parse()): the state is the one the
 * kernel's text of the same event gives, on any kernel.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel-engine-private.h"

static const struct tep_print_arg *find_flags (const struct tep_print_arg *arg);

static const struct tep_print_arg *
find_flags_in (const struct tep_print_arg *arg)
{
  switch (arg->type)
    {
    case TEP_PRINT_FLAGS:
      return arg;
    case TEP_PRINT_OP:
      {
        const struct tep_print_arg *left = arg->op.left ? find_flags (arg->op.left) : NULL;

        return left ? left : (arg->op.right ? find_flags (arg->op.right) : NULL);
      }
    case TEP_PRINT_TYPE:
      return arg->typecast.item ? find_flags (arg->typecast.item) : NULL;
    default:
      return NULL;
    }
}

/* The first __print_flags() of an argument list (sched_switch has one). */
static const struct tep_print_arg *
find_flags (const struct tep_print_arg *arg)
{
  for (; arg; arg = arg->next)
    {
      const struct tep_print_arg *found = find_flags_in (arg);

      if (found)
        return found;
    }
  return NULL;
}

/* The 4.14 and later layout, for a format without letters (a tracer
 * that prints prev_state as a number): S D T t X Z P I, `+` at 0x100. */
static void
default_map (KernelStateMap *map)
{
  static const char letters[] = "SDTtXZPI";

  for (guint i = 0; letters[i]; i++)
    {
      map->raw[i] = (guint64) 1 << i;
      map->state[i] = ftrace_task_state_parse (&letters[i], 1);
      map->known |= map->raw[i];
    }
  map->n = strlen (letters);
  map->preempted = 0x100;
}

/**
 * kernel_state_map_new:
 * @event: sched_switch's format
 *
 * Returns: (transfer full): the letters of its prev_state bits
 */
KernelStateMap *
kernel_state_map_new (struct tep_event *event)
{
  KernelStateMap *map = g_new0 (KernelStateMap, 1);
  const struct tep_print_arg *flags = find_flags (event->print_fmt.args);
  guint64 highest = 0;

  if (flags == NULL)
    {
      default_map (map);
      return map;
    }
  for (const struct tep_print_flag_sym *sym = flags->flags.flags; sym && map->n < KERNEL_MAX_STATE_BITS;
       sym = sym->next)
    {
      guint64 raw = g_ascii_strtoull (sym->value, NULL, 0);
      gint64 state = ftrace_task_state_parse (sym->str, strlen (sym->str));

      if (raw == 0 || state < 0)
        continue;
      map->raw[map->n] = raw;
      map->state[map->n++] = state;
      map->known |= raw;
      highest = MAX (highest, raw);
    }
  /* `+`: the bit above the highest letter (TASK_REPORT_MAX) */
  map->preempted = highest && highest < G_MAXUINT64 / 2 ? highest << 1 : 0;
  return map;
}

/**
 * kernel_state_map_read:
 * @map: the letters of prev_state's bits
 * @raw: a prev_state as recorded
 *
 * Returns: the #TraceTaskState bits the text's letters give, -1 when the
 *   text would print a number (a bit no letter names)
 */
gint64
kernel_state_map_read (const KernelStateMap *map,
                       guint64 raw)
{
  gint64 state = 0;
  guint64 letters = raw & (map->preempted ? map->preempted - 1 : ~(guint64) 0);

  if (letters & ~map->known)
    return -1;
  for (guint i = 0; i < map->n; i++)
    if (letters & map->raw[i])
      state |= map->state[i];
  if (map->preempted && (raw & map->preempted))
    state |= TRACE_TASK_STATE_PREEMPTED;
  return state;
}
