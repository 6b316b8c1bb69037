/* tracepipe fuzzing - shared set-up
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "fuzz-targets.h"

/* A reader reports bad input through GError, never through the log:
 * a warning or critical while fuzzing is a bug (a failed precondition,
 * a duplicate pad) and must stop the run like a crash. Anything less is
 * dropped so the fuzzer's output stays readable. */
static GLogWriterOutput
fuzz_log_writer (GLogLevelFlags level,
                 const GLogField *fields,
                 gsize n_fields,
                 gpointer user_data)
{
  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    {
      g_log_writer_standard_streams (level, fields, n_fields, user_data);
      abort ();
    }
  return G_LOG_WRITER_HANDLED;
}

void
fuzz_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      g_log_set_writer_func (fuzz_log_writer, NULL, NULL);
      g_once_init_leave (&done, 1);
    }
}

/* A new string pool per input costs more than most inputs take to parse
 * (half a MiB of page table, zeroed, mapped and unmapped under ASan), so
 * inputs share one, replaced every so often to keep memory flat. Which
 * ids the strings get does not change what a reader does. */
TraceStringPool *
fuzz_get_pool (void)
{
  static TraceStringPool *pool;
  static guint uses;

  if (pool == NULL || ++uses % 1024 == 0)
    {
      g_clear_pointer (&pool, trace_string_pool_unref);
      pool = trace_string_pool_new ();
    }
  return trace_string_pool_ref (pool);
}
