/* tracepipe - ftrace parser: what it could not use, in words
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "ftrace-text-private.h"

/* Plural noun phrases, as in "3 unparsable lines". */
const char *
ftrace_problem_to_string (FtraceProblem problem)
{
  switch (problem)
    {
    case FTRACE_PROBLEM_UNPARSABLE_LINE:
      return "unparsable lines";
    case FTRACE_PROBLEM_LINE_TOO_LONG:
      return "lines longer than 65536 bytes";
    case FTRACE_PROBLEM_UNKNOWN_MARKER:
      return "unknown tracing_mark_write payloads";
    case FTRACE_PROBLEM_MALFORMED_MARKER:
      return "malformed atrace markers";
    case FTRACE_PROBLEM_INCOMPLETE_EVENT:
      return "kernel events missing fields (kept raw)";
    case FTRACE_PROBLEM_NAME_TRUNCATED:
      return "names cut to 1024 bytes";
    case FTRACE_PROBLEM_INVALID_UTF8:
      return "names with invalid UTF-8 (replaced)";
    case FTRACE_PROBLEM_LOST_EVENTS:
      return "LOST EVENTS lines";
    case FTRACE_PROBLEM_BUFFER_WRAPPED:
      return "CPU buffer wraps (earlier events of that CPU are incomplete)";
    case FTRACE_PROBLEM_SKIPPED_BLOCK:
      return "data blocks not read (JSON: use json-src)";
    case FTRACE_PROBLEM_RHEA_CUT_OFF:
      return "RheaTrace captures cut off (no TRACE_END)";
    case FTRACE_PROBLEM_TOO_MANY_THREADS:
      return "threads past the 4194304-thread table";
    case FTRACE_PROBLEM_N:
      break;
    }
  return "problems";
}

static void
append_problem (GString *out,
                const FtraceStats *stats,
                FtraceProblem problem)
{
  guint64 n = stats->problems[problem];

  if (out->len > 0)
    g_string_append (out, "; ");
  g_string_append_printf (out, "%" G_GUINT64_FORMAT " %s", n, ftrace_problem_to_string (problem));
  if (problem == FTRACE_PROBLEM_LOST_EVENTS)
    g_string_append_printf (out, " (%" G_GUINT64_FORMAT " events lost)", stats->lost_events);
  g_string_append (out, n == 1 ? " (line " : " (lines ");
  for (guint i = 0; i < MIN (n, FTRACE_STATS_FIRST_LINES); i++)
    g_string_append_printf (out, "%s%" G_GUINT64_FORMAT, i ? ", " : "", stats->first_lines[problem][i]);
  g_string_append (out, n > FTRACE_STATS_FIRST_LINES ? ", ...)" : ")");
}

/**
 * ftrace_stats_to_summary:
 *
 * Returns: (nullable): one line naming every problem with its count and
 *   first lines, for a WARNING; %NULL when there was none
 */
char *
ftrace_stats_to_summary (const FtraceStats *stats)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < FTRACE_PROBLEM_N; i++)
    if (stats->problems[i] > 0)
      append_problem (out, stats, i);
  if (out->len == 0)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  return g_string_free (out, FALSE);
}
