/* tracepipe - ftrace parser: RheaTrace / btrace raw lines
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 *   512|TRACE_START|1059724457403076|13923|2147483647|2|18316
 *   5108949.232580: B|28045|B:TestCrash:a         (main thread only)
 *   360.554760 12086: B|11992|T:Apk:find          (all threads)
 *   27438.977315541 28095: B|28069|open           (btrace 2: 9 decimals)
 *   ...|TRACE_END|...
 */
#include "ftrace-text-private.h"

static void
name_rhea_process (FtraceParser *p,
                   TraceBatch *batch)
{
  if (p->rhea_process_named || p->rhea_pid == TRACE_ID_UNKNOWN || p->rhea_process_name == NULL)
    return;
  p->rhea_process_named = TRUE;
  ftrace_learn_process (p, batch, p->rhea_pid, p->rhea_process_name, strlen (p->rhea_process_name));
}

/* `id|TYPE|ts|tid|callid|matchid|extra`: the profilo entries around the
 * atrace text. TRACE_START's tid is the thread that started tracing, the
 * app's main thread, so its pid. */
static gboolean
parse_entry (FtraceParser *p,
             TraceBatch *batch,
             const char *s,
             gsize len)
{
  const char *end = s + len, *f[5];
  gsize flen[5];
  guint n = 0;

  while (n < 5 && s <= end)
    {
      const char *bar = memchr (s, '|', end - s);

      f[n] = s;
      flen[n] = (bar ? bar : end) - s;
      n++;
      if (bar == NULL)
        break;
      s = bar + 1;
    }
  if (n < 2 || flen[1] == 0)
    return FALSE;
  for (gsize i = 0; i < flen[0]; i++)
    if (!ftrace_is_digit (f[0][i]))
      return FALSE;
  for (gsize i = 0; i < flen[1]; i++)
    if (!g_ascii_isupper (f[1][i]) && f[1][i] != '_')
      return FALSE;
  p->seen |= FTRACE_SEEN_RHEA_EVENT;
  p->stats.metadata_lines++;
  if (FTRACE_EQUAL (f[1], flen[1], "TRACE_START"))
    {
      gint64 pid;

      p->rhea_started = TRUE;
      if (n >= 4 && ftrace_parse_int (f[3], flen[3], &pid) && pid > 0)
        p->rhea_pid = pid;
      name_rhea_process (p, batch);
    }
  else if (FTRACE_EQUAL (f[1], flen[1], "TRACE_END"))
    p->rhea_ended = TRUE;
  return TRUE;
}

/* The pid of `X|pid|...`, or TRACE_ID_UNKNOWN. */
static gint64
payload_pid (const char *s,
             gsize len)
{
  const char *end = s + len, *bar;
  gint64 pid;

  if (len < 3 || s[1] != '|')
    return TRACE_ID_UNKNOWN;
  s += 2;
  bar = memchr (s, '|', end - s);
  if (!ftrace_parse_int (s, (bar ? bar : end) - s, &pid))
    return TRACE_ID_UNKNOWN;
  return pid;
}

gboolean
ftrace_parse_rhea_line (FtraceParser *p,
                        TraceBatch *batch,
                        const char *s,
                        gsize len)
{
  const char *end = s + len, *r = s, *dot = NULL, *payload;
  FtraceLine l = { 0 };

  while (r < end && (ftrace_is_digit (*r) || (*r == '.' && dot == NULL)))
    {
      if (*r == '.')
        dot = r;
      r++;
    }
  if (r < end && *r == '|')
    return parse_entry (p, batch, s, len);
  if (dot == NULL || dot + 1 == r || !ftrace_parse_seconds (s, r - s, &l.ts))
    return FALSE;
  l.tid = TRACE_ID_UNKNOWN;
  if (r < end && *r == ' ')
    {
      const char *t;

      while (r < end && *r == ' ')
        r++;
      t = r;
      while (r < end && ftrace_is_digit (*r))
        r++;
      if (t == r || !ftrace_parse_int (t, r - t, &l.tid))
        return FALSE;
    }
  if (r >= end || *r != ':')
    return FALSE;
  payload = r + 1;
  while (payload < end && *payload == ' ')
    payload++;
  if (l.tid == TRACE_ID_UNKNOWN)
    {
      /* main-thread-only capture: the app's pid is its main thread's tid;
       * btrace 2 writes that tid in the B| field */
      l.tid = p->rhea_pid != TRACE_ID_UNKNOWN ? p->rhea_pid : payload_pid (payload, end - payload);
    }
  l.tgid = TRACE_ID_UNKNOWN;
  l.cpu = TRACE_ID_UNKNOWN;
  p->seen |= FTRACE_SEEN_RHEA_EVENT;
  p->stats.trace_lines++;
  name_rhea_process (p, batch);
  p->last_ts = l.ts;
  ftrace_parse_marker (p, batch, &l, payload, end - payload, TRUE);
  return TRUE;
}

void
ftrace_rhea_finish (FtraceParser *p,
                    TraceBatch *batch)
{
  if (p->rhea_started && !p->rhea_ended)
    ftrace_parser_add_problem (p, FTRACE_PROBLEM_RHEA_CUT_OFF);
}
