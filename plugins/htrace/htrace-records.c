/* tracepipe - htrace: lines for the ftrace text engine
 *
 * FFRT markers and the ftrace plugin's kernel events become the lines
 * hitrace text would hold and go through one ftrace text parser (the
 * internal library plugins/ftrace-text), so that they are the same
 * events as from text, and the parser's knowledge of threads (names,
 * processes) is shared by both. Lines are numbered in the order they are
 * made: that number is what the parser's problems name.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "htrace-private.h"

struct _HtraceText
{
  FtraceParser *parser;
  GString *line;
  guint64 lines;
};

HtraceText *
htrace_text_new (TraceStringPool *pool)
{
  HtraceText *t = g_new0 (HtraceText, 1);

  t->parser = ftrace_parser_new (pool);
  t->line = g_string_sized_new (256);
  return t;
}

void
htrace_text_free (HtraceText *t)
{
  if (t == NULL)
    return;
  ftrace_parser_free (t->parser);
  g_string_free (t->line, TRUE);
  g_free (t);
}

/**
 * htrace_text_begin:
 * @t: the lines
 * @comm: (nullable): the task's name, `<...>` when unknown
 * @tid: the thread
 * @pid: its process, 0 or less when unknown (`(-----)`, as ftrace prints it)
 * @cpu: the cpu
 * @ts: the time, on the stream's clock, not negative
 *
 * Starts a line with ftrace's prefix (`comm-tid (pid) [cpu] ..... s.ns: `)
 * and returns it for the caller to append the event to.
 *
 * Returns: (transfer none): the line
 */
GString *
htrace_text_begin (HtraceText *t,
                   const char *comm,
                   gint64 tid,
                   gint64 pid,
                   guint cpu,
                   gint64 ts)
{
  g_string_printf (t->line, "%s-%" G_GINT64_FORMAT " ", comm && *comm ? comm : "<...>", tid);
  if (pid > 0)
    g_string_append_printf (t->line, "(%" G_GINT64_FORMAT ")", pid);
  else
    g_string_append (t->line, "(-----)");
  g_string_append_printf (t->line, " [%03u] ..... %" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT ": ", MIN (cpu, 999u),
                          ts / 1000000000, ts % 1000000000);
  return t->line;
}

/* Parses the line htrace_text_begin() started into @batch. */
void
htrace_text_end (HtraceText *t,
                 TraceBatch *batch)
{
  ftrace_parser_set_line_number (t->parser, ++t->lines);
  ftrace_parser_parse_line (t->parser, t->line->str, t->line->len, batch);
}

/* Slices still open at the end are the engine's to close or count. */
void
htrace_text_finish (HtraceText *t,
                    TraceBatch *batch)
{
  if (t->lines > 0)
    ftrace_parser_finish (t->parser, batch);
}

const FtraceStats *
htrace_text_get_stats (HtraceText *t)
{
  return ftrace_parser_get_stats (t->parser);
}

guint64
htrace_text_get_lines (HtraceText *t)
{
  return t->lines;
}
