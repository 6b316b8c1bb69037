/* tracepipe - htrace: records for the ftrace engine
 *
 * The ftrace plugin's kernel events and FFRT's markers go into one
 * parser of the ftrace engine (the internal library plugins/ftrace-engine)
 * as typed records (ftrace-kernel-events.c), so that they are the events
 * ftrace-src makes of the same events as hitrace text, and the parser's
 * knowledge of threads (names, processes) is shared by both. Records are
 * numbered in the order they come, as the lines of a text: that number is
 * what the parser's problems name.
 *
 * Names are given as hitrace text holds them: a record is one line there,
 * so line ends in a field's value are spaces, and the blanks the text's
 * layout cannot hold are dropped (around the task's name in the line
 * prefix, after a field's value).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "htrace-private.h"

struct _HtraceRecords
{
  FtraceParser *parser;
  GString *names[HTRACE_RECORD_NAMES]; /* names that needed a copy */
};

HtraceRecords *
htrace_records_new (TraceStringPool *pool)
{
  HtraceRecords *t = g_new0 (HtraceRecords, 1);

  t->parser = ftrace_parser_new (pool);
  for (guint i = 0; i < HTRACE_RECORD_NAMES; i++)
    t->names[i] = g_string_sized_new (64);
  return t;
}

void
htrace_records_free (HtraceRecords *t)
{
  if (t == NULL)
    return;
  ftrace_parser_free (t->parser);
  for (guint i = 0; i < HTRACE_RECORD_NAMES; i++)
    g_string_free (t->names[i], TRUE);
  g_free (t);
}

FtraceParser *
htrace_records_get_parser (HtraceRecords *t)
{
  return t->parser;
}

/**
 * htrace_records_name:
 * @t: the records
 * @slot: which of the HTRACE_RECORD_NAMES copies to use when one is needed
 * @s: (nullable): a name as the record holds it
 * @trim: the blanks hitrace text cannot hold around it
 *
 * Returns: an #FtraceName for the bytes hitrace text holds for @s (an
 *   empty name for %NULL), valid until @slot is used again
 */
FtraceName
htrace_records_name (HtraceRecords *t,
                     guint slot,
                     const char *s,
                     HtraceTrim trim)
{
  gsize len;

  if (s == NULL)
    return (FtraceName){ "", 0, 0 };
  len = strlen (s);
  if (strpbrk (s, "\r\n") != NULL)
    {
      GString *copy = t->names[slot];

      g_string_assign (copy, s);
      for (gsize i = 0; i < copy->len; i++)
        if (copy->str[i] == '\r' || copy->str[i] == '\n')
          copy->str[i] = ' ';
      s = copy->str;
    }
  if (trim != HTRACE_TRIM_NONE)
    while (len > 0 && (s[len - 1] == ' ' || (trim == HTRACE_TRIM_TRAILING_BLANKS && s[len - 1] == '\t')))
      len--;
  return (FtraceName){ s, len, 0 };
}

/**
 * htrace_record:
 * @comm: (nullable): the task's name
 * @tid: the thread
 * @pid: its process, 0 or less when unknown
 * @cpu: the cpu
 * @ts: the time, on the stream's clock, not negative
 *
 * Returns: the record's head, its comm @comm's
 */
FtraceRecord
htrace_record (const char *comm,
               gint64 tid,
               gint64 pid,
               guint cpu,
               gint64 ts)
{
  gsize start = 0, len = comm ? strlen (comm) : 0;

  /* the task column keeps line ends (the parser reads a record's line
   * whole), not the blanks around it */
  while (start < len && (comm[start] == ' ' || comm[start] == '\t'))
    start++;
  while (len > start && (comm[len - 1] == ' ' || comm[len - 1] == '\t'))
    len--;

  /* the text's cpu column holds three digits */
  return (FtraceRecord){ .ts = ts,
                         .cpu = (gint32) MIN (cpu, 999u),
                         .tid = tid,
                         .tgid = pid > 0 ? pid : TRACE_ID_UNKNOWN,
                         .comm = comm ? comm + start : NULL,
                         .comm_len = len - start,
                         .threads = FTRACE_THREADS_LEARN };
}

/* Slices still open at the end are the engine's to close or count. */
void
htrace_records_finish (HtraceRecords *t,
                       TraceBatch *batch)
{
  if (htrace_records_get_count (t) > 0)
    ftrace_parser_finish (t->parser, batch);
}

const FtraceStats *
htrace_records_get_stats (HtraceRecords *t)
{
  return ftrace_parser_get_stats (t->parser);
}

guint64
htrace_records_get_count (HtraceRecords *t)
{
  return ftrace_parser_get_stats (t->parser)->lines;
}
