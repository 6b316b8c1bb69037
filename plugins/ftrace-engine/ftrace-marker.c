/* tracepipe - ftrace parser: atrace payloads of tracing_mark_write
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * B|pid|name  E[|pid[|name]]  C|pid|name|value[|category]
 * S|pid|name|cookie  F|pid|name|cookie  I|pid|name  N|pid|track|name
 * G|pid|track|name|cookie  H|pid|track[|name]|cookie
 * trace_event_clock_sync: parent_ts=s | realtime_ts=ms | name=id
 */
#include "ftrace-text-private.h"

typedef struct
{
  char tag;
  gint64 pid;
  const char *name;
  gsize name_len;
  const char *track;
  gsize track_len;
  const char *category;
  gsize category_len;
  guint64 cookie;
  double value;
  gboolean value_is_int;
  gint64 int_value;
} FtraceMarker;

/* The text up to the next `|` (or the end); @s advances past the `|`. */
static gboolean
next_field (const char **s,
            const char *end,
            const char **field,
            gsize *field_len)
{
  const char *p = *s;

  if (p > end)
    return FALSE;
  /* fields are short: a plain loop beats memchr's set-up */
  while (p < end && *p != '|')
    p++;
  *field = *s;
  *field_len = p - *s;
  *s = p + 1;
  return TRUE;
}

static gboolean
parse_cookie (const char *s,
              gsize len,
              guint64 *cookie)
{
  gint64 v;

  ftrace_trim (&s, &len);
  if (!ftrace_parse_int (s, len, &v))
    return FALSE;
  *cookie = (guint64) v;
  return TRUE;
}

/* `name cookie`: OpenHarmony's hitrace before 4.0 wrote an async
 * marker's cookie after a space (`S|1322|H:ScreenLock:Trace 10021`). */
static gboolean
split_name_space_cookie (const char *s,
                         const char *end,
                         FtraceMarker *m)
{
  const char *sp = end;

  while (sp > s && sp[-1] == ' ')
    sp--;
  while (sp > s && sp[-1] != ' ')
    sp--;
  if (sp <= s + 1 || !parse_cookie (sp, end - sp, &m->cookie))
    return FALSE;
  m->name = s;
  m->name_len = sp - 1 - s;
  return TRUE;
}

/* `name|cookie` where the cookie is the last field (perfetto); if that is
 * not a number, the OpenHarmony/catapult order `name|cookie|more...`, or
 * OpenHarmony's older `name cookie`. */
static gboolean
split_name_cookie (const char *s,
                   const char *end,
                   FtraceMarker *m)
{
  const char *last = end, *bar;

  while (last > s && last[-1] != '|')
    last--;
  if (last > s && parse_cookie (last, end - last, &m->cookie))
    {
      m->name = s;
      m->name_len = last - 1 - s;
      return TRUE;
    }
  bar = s < end ? memchr (s, '|', end - s) : NULL;
  if (bar == NULL)
    return split_name_space_cookie (s, end, m);
  m->name = s;
  m->name_len = bar - s;
  s = bar + 1;
  bar = memchr (s, '|', end - s);
  return parse_cookie (s, (bar ? bar : end) - s, &m->cookie);
}

static gboolean
parse_counter_value (const char *s,
                     gsize len,
                     FtraceMarker *m)
{
  char buf[64];
  char *endp;

  ftrace_trim (&s, &len);
  if (ftrace_parse_int (s, len, &m->int_value))
    {
      m->value_is_int = TRUE;
      m->value = (double) m->int_value;
      return TRUE;
    }
  if (len == 0 || len >= sizeof buf)
    return FALSE;
  memcpy (buf, s, len);
  buf[len] = '\0';
  m->value = g_ascii_strtod (buf, &endp);
  return *endp == '\0' && endp != buf;
}

/* The fields after `X|pid|`, by tag. */
static gboolean
parse_marker_body (FtraceMarker *m,
                   const char *s,
                   const char *end)
{
  const char *f = NULL;
  gsize flen = 0;

  switch (m->tag)
    {
    case 'B':
    case 'E':
    case 'I':
      m->name = s <= end ? s : end;
      m->name_len = s <= end ? end - s : 0;
      return TRUE;
    case 'C':
      if (!next_field (&s, end, &m->name, &m->name_len) || s > end)
        return FALSE;
      next_field (&s, end, &f, &flen);
      if (!parse_counter_value (f, flen, m))
        return FALSE;
      if (s <= end)
        {
          m->category = s;
          m->category_len = end - s;
        }
      return TRUE;
    case 'S':
    case 'F':
      return s <= end && split_name_cookie (s, end, m);
    case 'N':
      if (!next_field (&s, end, &m->track, &m->track_len) || s > end)
        return FALSE;
      m->name = s;
      m->name_len = end - s;
      return TRUE;
    case 'G':
      if (!next_field (&s, end, &m->track, &m->track_len) || s > end)
        return FALSE;
      return split_name_cookie (s, end, m);
    case 'H':
      if (!next_field (&s, end, &m->track, &m->track_len) || s > end)
        return FALSE;
      if (memchr (s, '|', end - s) == NULL)
        return parse_cookie (s, end - s, &m->cookie);
      return split_name_cookie (s, end, m);
    default:
      return FALSE;
    }
}

/* Returns FALSE for text that is no atrace payload; sets *malformed for
 * a payload with a known tag whose fields do not parse. */
static gboolean
parse_marker_fields (const char *s,
                     gsize len,
                     FtraceMarker *m,
                     gboolean *malformed)
{
  const char *end = s + len, *f = NULL;
  gsize flen = 0;

  memset (m, 0, sizeof *m);
  m->pid = TRACE_ID_UNKNOWN;
  *malformed = FALSE;
  if (len == 0 || (len > 1 && s[1] != '|'))
    return FALSE;
  switch (s[0])
    {
    case 'B':
    case 'E':
    case 'C':
    case 'S':
    case 'F':
    case 'I':
    case 'N':
    case 'G':
    case 'H':
      break;
    default:
      return FALSE;
    }
  m->tag = s[0];
  if (len == 1)
    {
      /* a bare `E` (old Android, Flutter) */
      *malformed = m->tag != 'E';
      return TRUE;
    }
  s += 2;
  next_field (&s, end, &f, &flen);
  ftrace_trim (&f, &flen);
  if (!ftrace_parse_int (f, flen, &m->pid) || m->pid < 0)
    {
      m->pid = TRACE_ID_UNKNOWN;
      /* `E|` (btrace 2) carries no pid; every other tag needs one */
      if (!(m->tag == 'E' && flen == 0))
        {
          *malformed = TRUE;
          return TRUE;
        }
    }
  if (!parse_marker_body (m, s, end))
    *malformed = TRUE;
  return TRUE;
}

static void
emit_clock_sync (FtraceParser *p,
                 TraceBatch *batch,
                 FtraceLine *line,
                 const char *s,
                 gsize len)
{
  TraceEvent *ev;
  gint64 v;

  ftrace_trim (&s, &len);
  ftrace_resolve_line (p, batch, line, TRACE_ID_UNKNOWN);
  if (FTRACE_HAS_PREFIX (s, len, "parent_ts=") && ftrace_parse_seconds (s + 10, len - 10, &v))
    {
      ev = ftrace_emit (p, batch, TRACE_EVENT_CLOCK_MARKER, line);
      ev->u.clock.marker = TRACE_CLOCK_MARKER_PARENT_TS;
      ev->u.clock.domain = TRACE_CLOCK_MONOTONIC;
      ev->u.clock.other_ts = v;
    }
  else if (FTRACE_HAS_PREFIX (s, len, "realtime_ts=") && ftrace_parse_int (s + 12, len - 12, &v) &&
           v >= G_MININT64 / 1000000 && v <= G_MAXINT64 / 1000000) /* ms that fit in ns */
    {
      ev = ftrace_emit (p, batch, TRACE_EVENT_CLOCK_MARKER, line);
      ev->u.clock.marker = TRACE_CLOCK_MARKER_REALTIME_TS;
      ev->u.clock.domain = TRACE_CLOCK_REALTIME;
      ev->u.clock.other_ts = v * 1000000;
    }
  else if (FTRACE_HAS_PREFIX (s, len, "name=") && len > 5)
    {
      ev = ftrace_emit (p, batch, TRACE_EVENT_CLOCK_MARKER, line);
      ev->u.clock.marker = TRACE_CLOCK_MARKER_SYNC_ID;
      ev->u.clock.domain = TRACE_CLOCK_UNKNOWN;
      ev->u.clock.sync_id = ftrace_intern (p, s + 5, len - 5);
    }
  else
    ftrace_parser_add_problem (p, FTRACE_PROBLEM_MALFORMED_MARKER);
}

/* RheaTrace writes `B|pid|monotonic_time: 232073.280777` right after it
 * starts: the CLOCK_MONOTONIC time at this line's BOOTTIME timestamp. */
static gboolean
emit_rhea_clock_pair (FtraceParser *p,
                      TraceBatch *batch,
                      FtraceLine *line,
                      const FtraceMarker *m)
{
  const char *v = m->name + 15;
  gsize vlen = m->name_len - 15;
  gint64 mono;
  TraceEvent *ev;

  if (m->tag != 'B' || !FTRACE_HAS_PREFIX (m->name, m->name_len, "monotonic_time:"))
    return FALSE;
  ftrace_trim (&v, &vlen);
  if (!ftrace_parse_seconds (v, vlen, &mono))
    return FALSE;
  ev = ftrace_emit (p, batch, TRACE_EVENT_CLOCK_MARKER, line);
  ev->u.clock.marker = TRACE_CLOCK_MARKER_PAIR;
  ev->u.clock.domain = TRACE_CLOCK_MONOTONIC;
  ev->u.clock.other_ts = mono;
  return TRUE;
}

static TraceEventKind
marker_kind (char tag)
{
  switch (tag)
    {
    case 'B':
      return TRACE_EVENT_SLICE_BEGIN;
    case 'E':
      return TRACE_EVENT_SLICE_END;
    case 'C':
      return TRACE_EVENT_COUNTER;
    case 'S':
    case 'G':
      return TRACE_EVENT_ASYNC_BEGIN;
    case 'F':
    case 'H':
      return TRACE_EVENT_ASYNC_END;
    default:
      return TRACE_EVENT_INSTANT;
    }
}

static void
emit_marker (FtraceParser *p,
             TraceBatch *batch,
             FtraceLine *line,
             const FtraceMarker *m)
{
  TraceEventKind kind = marker_kind (m->tag);
  TraceEvent *ev;
  gint64 line_pid = line->pid;
  /* an `E` ends the innermost slice whatever name follows it, as
   * trace_processor reads it: a named end would close only its name */
  guint32 name = m->tag == 'E' ? 0 : ftrace_intern (p, m->name, m->name_len);
  guint32 track = m->track_len ? ftrace_intern (p, m->track, m->track_len) : 0;
  guint32 category = m->category_len ? ftrace_intern (p, m->category, m->category_len) : 0;

  if (m->pid != TRACE_ID_UNKNOWN)
    line->pid = m->pid;
  ev = ftrace_emit (p, batch, kind, line);
  line->pid = line_pid;
  ev->name = name;
  ev->category = category;
  switch (m->tag)
    {
    case 'C':
      ev->u.counter.value = m->value;
      if (m->value_is_int)
        ev->flags |= TRACE_EVENT_FLAG_COUNTER_INT;
      break;
    case 'S':
    case 'F':
      ev->flags |= TRACE_EVENT_FLAG_ASYNC_LEGACY;
      ev->u.async.id = m->cookie;
      break;
    case 'G':
    case 'H':
      ev->u.async.id = m->cookie;
      ev->u.async.track = track;
      break;
    case 'N':
      ev->flags |= TRACE_EVENT_FLAG_SCOPE_PROCESS;
      ev->u.slice.track = track;
      break;
    default:
      break;
    }
}

/* One tracing_mark_write (or `0:`, `print:`, RheaTrace) payload. */
void
ftrace_parse_marker (FtraceParser *p,
                     TraceBatch *batch,
                     FtraceLine *line,
                     const char *payload,
                     gsize len,
                     gboolean rhea)
{
  FtraceMarker m;
  gboolean malformed;

  ftrace_trim (&payload, &len);
  if (!parse_marker_fields (payload, len, &m, &malformed))
    {
      if (FTRACE_HAS_PREFIX (payload, len, "trace_event_clock_sync:"))
        {
          emit_clock_sync (p, batch, line, payload + 23, len - 23);
          return;
        }
      ftrace_resolve_line (p, batch, line, TRACE_ID_UNKNOWN);
      ftrace_parser_add_problem (p, FTRACE_PROBLEM_UNKNOWN_MARKER);
      return;
    }
  /* counters may be written for another process: their pid teaches
   * nothing about the writing thread */
  ftrace_resolve_line (p, batch, line, malformed || m.tag == 'C' ? TRACE_ID_UNKNOWN : m.pid);
  if (malformed)
    {
      ftrace_parser_add_problem (p, FTRACE_PROBLEM_MALFORMED_MARKER);
      return;
    }
  if (rhea && emit_rhea_clock_pair (p, batch, line, &m))
    return;
  emit_marker (p, batch, line, &m);
}

/* An atrace marker in a print event of a reader that keeps what is no
 * marker (ftrace_parser_add_print() with FTRACE_THREADS_GIVEN): text
 * that is no marker, or whose fields do not parse, is left to the caller,
 * clock syncs too. @line's pid comes from its tgid, else from what the
 * parser knows of the thread, else from the marker's pid, which it then
 * remembers (the begin/end stacks are per process).
 * Returns: whether @buf was a marker and its events were added */
gboolean
ftrace_parse_print_marker (FtraceParser *p,
                           TraceBatch *batch,
                           FtraceLine *line,
                           const char *buf,
                           gsize len)
{
  FtraceMarker m;
  gboolean malformed;

  ftrace_trim (&buf, &len);
  if (!parse_marker_fields (buf, len, &m, &malformed) || malformed)
    return FALSE;
  ftrace_resolve_line (p, batch, line, m.tag == 'C' ? TRACE_ID_UNKNOWN : m.pid);
  emit_marker (p, batch, line, &m);
  return TRUE;
}
