/* tracepipe - ftrace parser: what it could not use, in words
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "ftrace-text-private.h"

/* Each problem once: its key in `--stats` and the STATS message (for
 * scripts) and its words in the WARNING (plural noun phrases, as in
 * "3 unparsable lines"). */
static const struct
{
  const char *key;
  const char *text;
} problems[FTRACE_PROBLEM_N] = {
  [FTRACE_PROBLEM_UNPARSABLE_LINE] = { "skipped-unparsable-lines", "unparsable lines" },
  [FTRACE_PROBLEM_LINE_TOO_LONG] = { "skipped-lines-longer-than-65536-bytes", "lines longer than 65536 bytes" },
  [FTRACE_PROBLEM_UNKNOWN_MARKER] = { "skipped-unknown-tracing-mark-write-payloads",
                                      "unknown tracing_mark_write payloads" },
  [FTRACE_PROBLEM_MALFORMED_MARKER] = { "skipped-malformed-atrace-markers", "malformed atrace markers" },
  [FTRACE_PROBLEM_INCOMPLETE_EVENT] = { "skipped-kernel-events-missing-fields",
                                        "kernel events missing fields (kept raw)" },
  [FTRACE_PROBLEM_NAME_TRUNCATED] = { "skipped-names-cut-to-1024-bytes", "names cut to 1024 bytes" },
  [FTRACE_PROBLEM_INVALID_UTF8] = { "skipped-names-with-invalid-utf-8", "names with invalid UTF-8 (replaced)" },
  [FTRACE_PROBLEM_LOST_EVENTS] = { "skipped-lost-events-lines", "LOST EVENTS lines" },
  [FTRACE_PROBLEM_BUFFER_WRAPPED] = { "skipped-cpu-buffer-wraps",
                                      "CPU buffer wraps (earlier events of that CPU are incomplete)" },
  [FTRACE_PROBLEM_SKIPPED_BLOCK] = { "skipped-data-blocks-not-read", "JSON data blocks not read (ftrace-src reads them when built with the json and clocksync plugins)" },
  [FTRACE_PROBLEM_RHEA_CUT_OFF] = { "skipped-rheatrace-captures-cut-off",
                                    "RheaTrace captures cut off (no TRACE_END)" },
  [FTRACE_PROBLEM_TOO_MANY_THREADS] = { "skipped-threads-past-the-4194304-thread-table",
                                        "threads past the 4194304-thread table" },
};

/**
 * ftrace_problem_to_string:
 *
 * Returns: the problem in words, a plural noun phrase ("unparsable lines")
 */
const char *
ftrace_problem_to_string (FtraceProblem problem)
{
  g_return_val_if_fail (problem < FTRACE_PROBLEM_N, "problems");
  return problems[problem].text;
}

/**
 * ftrace_problem_get_key:
 *
 * Returns: the problem's key in `--stats` and the STATS message
 *   (`skipped-unparsable-lines`)
 */
const char *
ftrace_problem_get_key (FtraceProblem problem)
{
  g_return_val_if_fail (problem < FTRACE_PROBLEM_N, "skipped-problems");
  return problems[problem].key;
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
