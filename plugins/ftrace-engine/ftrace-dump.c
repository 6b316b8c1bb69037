/* tracepipe - ftrace parser: preambles, headers and process dumps
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "ftrace-text-private.h"

#define MAX_TOKENS 16

typedef struct
{
  const char *s;
  gsize len;
} Token;

/* Whitespace-separated tokens; returns how many (at most @max). */
static guint
tokenize (const char *s,
          gsize len,
          Token *tokens,
          guint max)
{
  const char *end = s + len;
  guint n = 0;

  while (n < max)
    {
      const char *t;

      while (s < end && ftrace_is_space (*s))
        s++;
      if (s == end)
        break;
      t = s;
      while (s < end && !ftrace_is_space (*s))
        s++;
      tokens[n].s = t;
      tokens[n].len = s - t;
      n++;
    }
  return n;
}

static gint
find_token (const Token *tokens,
            guint n,
            const char *word)
{
  gsize len = strlen (word);

  for (guint i = 0; i < n; i++)
    if (ftrace_equal (tokens[i].s, tokens[i].len, word, len))
      return (gint) i;
  return -1;
}

/* `USER PID PPID VSZ RSS WCHAN PC S NAME COMM` (systrace PROCESS DUMP),
 * `USER PID PPID VSIZE RSS WCHAN PC NAME` (toolbox ps: the state letter
 * has no header) or `USER PID TID CMD` (threads). */
static gboolean
parse_ps_header (FtraceParser *p,
                 const char *s,
                 gsize len)
{
  Token t[MAX_TOKENS];
  guint n;
  gint pid, tid, name;

  if (!FTRACE_HAS_PREFIX (s, len, "USER") || len < 5 || !ftrace_is_space (s[4]))
    return FALSE;
  n = tokenize (s, len, t, MAX_TOKENS);
  pid = find_token (t, n, "PID");
  if (pid < 0)
    return FALSE;
  tid = find_token (t, n, "TID");
  if (tid >= 0)
    {
      name = find_token (t, n, "CMD");
      if (name < 0)
        name = find_token (t, n, "NAME");
      p->ps = (FtracePsLayout){ pid, tid, name >= 0 ? name : (gint) n - 1, TRUE };
    }
  else
    {
      name = find_token (t, n, "NAME");
      if (name < 0)
        return FALSE;
      if (find_token (t, n, "S") < 0)
        name++;
      p->ps = (FtracePsLayout){ pid, -1, name, find_token (t, n, "COMM") < 0 };
    }
  p->section = FTRACE_SECTION_PS;
  p->seen |= FTRACE_SEEN_DUMP;
  return TRUE;
}

/* One row of the ps table being read; FALSE ends the table. */
gboolean
ftrace_parse_ps_row (FtraceParser *p,
                     TraceBatch *batch,
                     const char *s,
                     gsize len)
{
  Token t[MAX_TOKENS];
  guint n = tokenize (s, len, t, MAX_TOKENS);
  const char *name;
  gsize name_len;
  gint64 pid, tid;

  if ((guint) p->ps.name_col >= n || (guint) p->ps.pid_col >= n ||
      !ftrace_parse_int (t[p->ps.pid_col].s, t[p->ps.pid_col].len, &pid))
    return FALSE;
  if (p->ps.tid_col >= 0 && !ftrace_parse_int (t[p->ps.tid_col].s, t[p->ps.tid_col].len, &tid))
    return FALSE;
  name = t[p->ps.name_col].s;
  name_len = p->ps.name_to_end ? (gsize) (s + len - name) : t[p->ps.name_col].len;
  ftrace_trim (&name, &name_len);
  p->stats.metadata_lines++;
  if (p->ps.tid_col >= 0)
    ftrace_learn_thread (p, batch, p->last_ts, tid, pid, name, name_len, TRUE);
  else
    {
      ftrace_learn_process (p, batch, pid, name, name_len);
      /* a process's main thread has tid == pid */
      ftrace_learn_thread (p, batch, p->last_ts, pid, pid, NULL, 0, FALSE);
    }
  return TRUE;
}

/* `/proc/1079/task/1080` (systrace's listing to fix `(-----)` tgids) */
static gboolean
parse_proc_listing (FtraceParser *p,
                    TraceBatch *batch,
                    const char *s,
                    gsize len)
{
  const char *end = s + len, *a, *b;
  gint64 pid, tid;

  if (FTRACE_HAS_PREFIX (s, len, "/proc/"))
    s += 6;
  else if (FTRACE_HAS_PREFIX (s, len, "proc/"))
    s += 5;
  else
    return FALSE;
  a = s;
  while (s < end && ftrace_is_digit (*s))
    s++;
  if (!ftrace_parse_int (a, s - a, &pid) || end - s < 7 || memcmp (s, "/task/", 6) != 0)
    return FALSE;
  b = s + 6;
  if (!ftrace_parse_int (b, end - b, &tid))
    return FALSE;
  p->seen |= FTRACE_SEEN_DUMP;
  ftrace_learn_thread (p, batch, p->last_ts, tid, pid, NULL, 0, FALSE);
  return TRUE;
}

/* `CPU:3 [LOST 1234 EVENTS]` */
static gboolean
parse_lost_events (FtraceParser *p,
                   const char *s,
                   gsize len)
{
  const char *lost;
  gint64 n;

  if (!FTRACE_HAS_PREFIX (s, len, "CPU:"))
    return FALSE;
  lost = memmem (s, len, "[LOST ", 6);
  if (lost == NULL)
    return FALSE;
  if (ftrace_parse_int_prefix (lost + 6, s + len - lost - 6, &n) && n > 0)
    p->stats.lost_events += (guint64) n;
  ftrace_parser_add_problem (p, FTRACE_PROBLEM_LOST_EVENTS);
  return TRUE;
}

static gboolean
is_preamble (const char *s,
             gsize len)
{
  /* atrace: `capturing trace... done`, `TRACE:`; trace-cmd: `version = 6`,
   * `cpus=6`, `CPU 3 is empty` */
  if (FTRACE_EQUAL (s, len, "TRACE:") || FTRACE_HAS_PREFIX (s, len, "capturing trace") ||
      FTRACE_HAS_PREFIX (s, len, "version = ") || FTRACE_HAS_PREFIX (s, len, "cpus=") ||
      FTRACE_EQUAL (s, len, "done") || FTRACE_HAS_PREFIX (s, len, "done. TRACE:"))
    return TRUE;
  return FTRACE_HAS_PREFIX (s, len, "CPU ") && len > 13 && memcmp (s + len - 9, " is empty", 9) == 0;
}

/* Lines that are no event but say something: preambles, headers, dump
 * tables and their titles. @s starts with a non-space. */
gboolean
ftrace_parse_metadata_line (FtraceParser *p,
                            TraceBatch *batch,
                            const char *s,
                            gsize len)
{
  if (is_preamble (s, len))
    {
      p->seen |= FTRACE_SEEN_HEADER;
      p->stats.metadata_lines++;
      return TRUE;
    }
  if (parse_lost_events (p, s, len))
    {
      p->stats.metadata_lines++;
      return TRUE;
    }
  if (FTRACE_EQUAL (s, len, "PROCESS DUMP") || FTRACE_EQUAL (s, len, "CGROUP DUMP"))
    {
      p->seen |= FTRACE_SEEN_DUMP;
      p->section = s[0] == 'C' ? FTRACE_SECTION_CGROUP : FTRACE_SECTION_TEXT;
      p->stats.metadata_lines++;
      return TRUE;
    }
  if (parse_ps_header (p, s, len) || parse_proc_listing (p, batch, s, len))
    {
      p->stats.metadata_lines++;
      return TRUE;
    }
  return FALSE;
}
