/* tracepipe - ftrace/atrace/RheaTrace text: the line parser
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "ftrace-text-private.h"

/* The kernel's largest pid_max: more distinct tids than this cannot be
 * real, so the table stops growing there (bounded memory on garbage). */
#define FTRACE_MAX_THREADS (1u << 22)

/* ---------------------------------------------------------------- tables */

static void
thread_table_init (FtraceThreadTable *t,
                   guint capacity)
{
  t->slots = g_new (FtraceThread, capacity);
  t->used = g_new0 (guint8, capacity);
  t->mask = capacity - 1;
  t->n_used = 0;
}

static void
thread_table_clear (FtraceThreadTable *t)
{
  g_free (t->slots);
  g_free (t->used);
}

static inline guint
tid_hash (gint64 tid)
{
  return (guint) (((guint64) tid * 0x9e3779b97f4a7c15ull) >> 32);
}

static void
thread_table_grow (FtraceThreadTable *t)
{
  FtraceThreadTable bigger;

  thread_table_init (&bigger, (t->mask + 1) * 2);
  for (guint i = 0; i <= t->mask; i++)
    {
      guint j;

      if (!t->used[i])
        continue;
      for (j = tid_hash (t->slots[i].tid) & bigger.mask; bigger.used[j]; j = (j + 1) & bigger.mask)
        ;
      bigger.used[j] = 1;
      bigger.slots[j] = t->slots[i];
      bigger.n_used++;
    }
  thread_table_clear (t);
  *t = bigger;
}

/* Returns the entry of @tid, inserting an unknown one; NULL when full. */
static FtraceThread *
thread_table_get (FtraceThreadTable *t,
                  gint64 tid,
                  gboolean *full)
{
  guint i;

  for (i = tid_hash (tid) & t->mask; t->used[i]; i = (i + 1) & t->mask)
    if (t->slots[i].tid == tid)
      return &t->slots[i];
  if (t->n_used >= FTRACE_MAX_THREADS)
    {
      *full = TRUE;
      return NULL;
    }
  if ((t->n_used + 1) * 4 > (t->mask + 1) * 3)
    {
      thread_table_grow (t);
      for (i = tid_hash (tid) & t->mask; t->used[i]; i = (i + 1) & t->mask)
        ;
    }
  t->used[i] = 1;
  t->n_used++;
  t->slots[i] = (FtraceThread){ .tid = tid, .pid = TRACE_ID_UNKNOWN };
  return &t->slots[i];
}

FtraceThread *
ftrace_thread_get (FtraceParser *p,
                   gint64 tid)
{
  gboolean full = FALSE;
  FtraceThread *th = thread_table_get (&p->threads, tid, &full);

  if (full)
    ftrace_parser_add_problem (p, FTRACE_PROBLEM_TOO_MANY_THREADS);
  return th;
}

/* ------------------------------------------------------------ interning */

static guint32
intern_slow (FtraceParser *p,
             const char *s,
             gsize len,
             FtraceInternSlot *slot,
             guint64 hash)
{
  g_autofree char *fixed = NULL;
  gboolean modified = FALSE;
  guint32 id;

  if (len > FTRACE_MAX_NAME_LENGTH)
    {
      len = FTRACE_MAX_NAME_LENGTH;
      /* do not cut a UTF-8 sequence in two */
      while (len > 0 && ((guchar) s[len] & 0xC0) == 0x80)
        len--;
      ftrace_parser_add_problem (p, FTRACE_PROBLEM_NAME_TRUNCATED);
      modified = TRUE;
    }
  if (!g_utf8_validate_len (s, len, NULL))
    {
      fixed = g_utf8_make_valid (s, len);
      s = fixed;
      len = strlen (fixed);
      ftrace_parser_add_problem (p, FTRACE_PROBLEM_INVALID_UTF8);
      modified = TRUE;
    }
  id = trace_string_pool_intern_len (p->pool, s, len);
  if (!modified)
    {
      slot->hash = hash;
      slot->str = trace_string_pool_get (p->pool, id);
      slot->len = len;
      slot->id = id;
    }
  return id;
}

/* Interns a name, cut to FTRACE_MAX_NAME_LENGTH and made valid UTF-8. */
guint32
ftrace_intern (FtraceParser *p,
               const char *s,
               gsize len)
{
  guint64 h;
  FtraceInternSlot *slot;

  if (len == 0)
    return 0;
  h = ftrace_hash_bytes (s, len);
  slot = &p->intern[h & (FTRACE_INTERN_CACHE_SIZE - 1)];
  if (slot->hash == h && slot->len == len && memcmp (slot->str, s, len) == 0)
    return slot->id;
  return intern_slow (p, s, len, slot, h);
}

/* -------------------------------------------------------------- threads */

TraceEvent *
ftrace_emit (FtraceParser *p,
             TraceBatch *batch,
             TraceEventKind kind,
             const FtraceLine *line)
{
  TraceEvent *ev = trace_batch_append (batch, kind, line->ts);

  ev->pid = line->pid;
  ev->tid = line->tid;
  ev->cpu = line->cpu;
  p->stats.events++;
  return ev;
}

static void
emit_thread_name (FtraceParser *p,
                  TraceBatch *batch,
                  gint64 ts,
                  const FtraceThread *th)
{
  TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_THREAD_NAME, ts);

  ev->pid = th->pid;
  ev->tid = th->tid;
  ev->name = th->name;
  p->stats.events++;
}

/* Records what a line or dump says of thread @tid and announces a
 * THREAD_NAME when its (pid, name) changed and a name is known. A @pid of
 * TRACE_ID_UNKNOWN or a NULL @name teaches nothing; @overwrite_name FALSE
 * only fills a name not known yet (sched_switch comms). The idle task
 * (tid 0) has one name per CPU (swapper/N) and is never named. */
void
ftrace_learn_thread (FtraceParser *p,
                     TraceBatch *batch,
                     gint64 ts,
                     gint64 tid,
                     gint64 pid,
                     const char *name,
                     gsize name_len,
                     gboolean overwrite_name)
{
  FtraceThread *th;
  gboolean changed = FALSE;

  if (tid <= 0)
    return;
  th = ftrace_thread_get (p, tid);
  if (th == NULL)
    return;
  if (pid != TRACE_ID_UNKNOWN && th->pid != pid)
    {
      th->pid = pid;
      changed = TRUE;
    }
  if (name != NULL && name_len > 0 && (overwrite_name || th->name == 0) &&
      !(th->name_len == name_len && memcmp (th->name_str, name, name_len) == 0))
    {
      guint32 id = ftrace_intern (p, name, name_len);

      if (id != th->name)
        {
          th->name = id;
          th->name_str = trace_string_pool_get (p->pool, id);
          /* a cut or repaired name never compares equal to the raw bytes;
           * remember the raw length so the same bytes do not re-intern */
          th->name_len = (guint32) strlen (th->name_str) == name_len ? (guint32) name_len : 0;
          changed = TRUE;
        }
    }
  if (changed && th->name != 0)
    emit_thread_name (p, batch, ts, th);
}

void
ftrace_learn_process (FtraceParser *p,
                      TraceBatch *batch,
                      gint64 pid,
                      const char *name,
                      gsize name_len)
{
  gboolean full = FALSE;
  FtraceThread *proc;
  guint32 id;
  TraceEvent *ev;

  if (pid <= 0 || name_len == 0)
    return;
  proc = thread_table_get (&p->processes, pid, &full);
  if (proc == NULL)
    return;
  id = ftrace_intern (p, name, name_len);
  if (id == proc->name)
    return;
  proc->name = id;
  ev = trace_batch_append (batch, TRACE_EVENT_PROCESS_NAME, p->last_ts);
  ev->pid = pid;
  ev->name = id;
  p->stats.events++;
}

/* The pid of the line's thread: the TGID column when it has one, else
 * what earlier lines, dumps or markers taught (@hint_pid: the pid of a
 * B/E/I/S/F/N/G/H marker written by this thread). Also learns the
 * thread's name from the task column, never from `<...>`, `<idle>` or a
 * LISA `<1234>`. */
static void
resolve_thread (FtraceParser *p,
                TraceBatch *batch,
                FtraceLine *line,
                gint64 hint_pid)
{
  FtraceThread *th;
  gboolean real_name;
  gint64 pid;

  if (line->tid <= 0)
    {
      /* the idle task, or a RheaTrace line whose thread is not known */
      line->pid = line->tid == 0 ? 0 : line->tgid != TRACE_ID_UNKNOWN ? line->tgid
                                                                      : hint_pid;
      return;
    }
  th = ftrace_thread_get (p, line->tid);
  if (th == NULL)
    {
      line->pid = line->tgid != TRACE_ID_UNKNOWN ? line->tgid : hint_pid;
      return;
    }
  real_name = line->task_len > 0 && !(line->task[0] == '<' && line->task[line->task_len - 1] == '>');
  pid = line->tgid;
  if (pid == TRACE_ID_UNKNOWN && th->pid == TRACE_ID_UNKNOWN)
    pid = hint_pid;
  /* fast path: nothing new on this line */
  if ((pid == TRACE_ID_UNKNOWN || pid == th->pid) &&
      (!real_name || (th->name_len == line->task_len && memcmp (th->name_str, line->task, line->task_len) == 0)))
    {
      line->pid = th->pid;
      return;
    }
  ftrace_learn_thread (p, batch, line->ts, line->tid, pid,
                       real_name ? line->task : NULL, line->task_len, TRUE);
  th = ftrace_thread_get (p, line->tid);
  line->pid = th ? th->pid : pid;
}

void
ftrace_resolve_line (FtraceParser *p,
                     TraceBatch *batch,
                     FtraceLine *line,
                     gint64 hint_pid)
{
  resolve_thread (p, batch, line, hint_pid);
}

gboolean
ftrace_parser_lookup_thread (FtraceParser *p,
                             gint64 tid,
                             gint64 *pid,
                             guint32 *name)
{
  FtraceThreadTable *t;

  g_return_val_if_fail (p != NULL, FALSE);

  t = &p->threads;
  for (guint i = tid_hash (tid) & t->mask; t->used[i]; i = (i + 1) & t->mask)
    if (t->slots[i].tid == tid)
      {
        if (pid)
          *pid = t->slots[i].pid;
        if (name)
          *name = t->slots[i].name;
        return TRUE;
      }
  return FALSE;
}

/* Calls @func for every thread seen so far, with its pid
 * (TRACE_ID_UNKNOWN if not known) and name id (0 if not known): what an
 * element publishes of the stream's threads. */
void
ftrace_parser_foreach_thread (FtraceParser *p,
                              FtraceThreadFunc func,
                              gpointer user_data)
{
  FtraceThreadTable *t;

  g_return_if_fail (p != NULL);

  t = &p->threads;
  for (guint i = 0; i <= t->mask; i++)
    if (t->used[i])
      func (t->slots[i].tid, t->slots[i].pid, t->slots[i].name, user_data);
}

/* --------------------------------------------------------- line prefix */

/* `(  643)`, `( 3)`, `(-----)`: the TGID column ending at @close. */
static gboolean
parse_tgid (const char *start,
            const char *close,
            const char **open_out,
            gint64 *tgid)
{
  const char *open = close - 1;
  const char *in;
  gsize in_len;

  while (open >= start && close - open < 16 && *open != '(')
    open--;
  if (open < start || *open != '(')
    return FALSE;
  in = open + 1;
  in_len = close - in;
  ftrace_trim (&in, &in_len);
  if (in_len > 0 && in[0] == '-')
    {
      for (gsize i = 0; i < in_len; i++)
        if (in[i] != '-')
          return FALSE;
      *tgid = TRACE_ID_UNKNOWN;
    }
  else if (!ftrace_parse_int (in, in_len, tgid) || *tgid < 0)
    return FALSE;
  *open_out = open;
  return TRUE;
}

/* From the `[cpu]` at @lb backwards: `task-tid [(tgid)] `. */
static gboolean
parse_task_tid (const char *start,
                const char *lb,
                FtraceLine *l)
{
  const char *b = lb - 1, *tid_end;

  while (b >= start && ftrace_is_space (*b))
    b--;
  if (b < start)
    return FALSE;
  l->tgid = TRACE_ID_UNKNOWN;
  if (*b == ')')
    {
      const char *open;

      if (!parse_tgid (start, b, &open, &l->tgid))
        return FALSE;
      b = open - 1;
      while (b >= start && ftrace_is_space (*b))
        b--;
      if (b < start)
        return FALSE;
    }
  tid_end = b + 1;
  {
    gint64 tid = 0, mul = 1;

    while (b >= start && ftrace_is_digit (*b) && tid_end - b <= 10)
      {
        tid += (*b-- - '0') * mul;
        mul *= 10;
      }
    if (b + 1 == tid_end || b < start || *b != '-')
      return FALSE;
    l->tid = tid;
  }
  l->task = start;
  l->task_len = b - start;
  while (l->task_len > 0 && ftrace_is_space (l->task[l->task_len - 1]))
    l->task_len--;
  return TRUE;
}

static inline gboolean
is_flag_letter (char c)
{
  return g_ascii_isalpha (c) || c == '.';
}

static inline gboolean
is_flag_digit (char c)
{
  return ftrace_is_digit (c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '.';
}

/* The irq-flags column: 4 or 5 characters, possibly glued to the
 * timestamp (`....316.196720`). A glued fifth character that is a decimal
 * digit is taken as the timestamp's: the layout is ambiguous there. */
static const char *
skip_flags (const char *r,
            const char *end)
{
  gsize n = 4;

  if (end - r < 5 || !is_flag_letter (r[0]) || !is_flag_letter (r[1]) ||
      !is_flag_letter (r[2]) || !is_flag_digit (r[3]))
    return NULL;
  if (r[4] == '.' || (r[4] >= 'a' && r[4] <= 'f') || (r[4] >= 'A' && r[4] <= 'F'))
    n = 5;
  else if (ftrace_is_digit (r[4]) && end - r > 5 && ftrace_is_space (r[5]))
    n = 5;
  return r + n;
}

/* `sec[.frac]:` in one pass; returns what follows the `:`, NULL if the
 * text is no timestamp. Without a decimal point the value is a raw
 * counter (trace_clock=counter or x86-tsc) and kept as it is. */
static const char *
parse_timestamp (const char *r,
                 const char *end,
                 FtraceLine *l)
{
  static const gint64 scale[10] = { 1000000000, 100000000, 10000000, 1000000, 100000,
                                    10000, 1000, 100, 10, 1 };
  const char *start = r;
  gint64 sec = 0, frac = 0;
  guint nfrac = 0;

  while (r < end && ftrace_is_digit (*r))
    {
      if (r - start > 17)
        return NULL;
      sec = sec * 10 + (*r++ - '0');
    }
  if (r == start || r == end)
    return NULL;
  l->ts_is_counter = *r != '.';
  if (*r == '.')
    {
      if (sec > G_MAXINT64 / 1000000000 - 1)
        return NULL;
      for (r++; r < end && ftrace_is_digit (*r); r++, nfrac++)
        if (nfrac < 9)
          frac = frac * 10 + (*r - '0');
      l->ts = sec * 1000000000 + frac * scale[MIN (nfrac, 9)];
    }
  else
    l->ts = sec;
  if (r == end || *r != ':')
    return NULL;
  return r + 1;
}

/* After `]`: [flags] ts: event: payload */
static gboolean
parse_after_cpu (const char *r,
                 const char *end,
                 FtraceLine *l)
{
  const char *ev, *colon;

  while (r < end && ftrace_is_space (*r))
    r++;
  if (r < end && !ftrace_is_digit (*r))
    {
      r = skip_flags (r, end);
      if (r == NULL)
        return FALSE;
      while (r < end && ftrace_is_space (*r))
        r++;
    }
  r = parse_timestamp (r, end, l);
  if (r == NULL)
    return FALSE;
  while (r < end && ftrace_is_space (*r))
    r++;
  /* the event name: no spaces, up to `:` */
  ev = r;
  while (r < end && *r != ':' && !ftrace_is_space (*r))
    r++;
  if (r == end || *r != ':' || r == ev)
    return FALSE;
  colon = r;
  l->event = ev;
  l->event_len = colon - ev;
  l->payload = colon + 1;
  l->payload_len = end - l->payload;
  ftrace_trim (&l->payload, &l->payload_len);
  return TRUE;
}

/* Finds the `-tid [(tgid)] [cpu]` anchor: the first `[digits]` that is
 * preceded by `-digits` (and an optional TGID column). Anchoring on the
 * CPU column is what lets task names contain spaces, dashes and digits. */
static gboolean
parse_prefix (const char *s,
              gsize len,
              FtraceLine *l)
{
  const char *end = s + len, *p = s, *search;

  /* the caller skipped the leading spaces */
  search = p;
  for (;;)
    {
      const char *lb = memchr (search, '[', end - search);
      const char *q;
      gint cpu = 0;

      if (lb == NULL)
        return FALSE;
      search = lb + 1;
      q = lb + 1;
      while (q < end && ftrace_is_digit (*q) && cpu < 100000)
        cpu = cpu * 10 + (*q++ - '0');
      if (q == lb + 1 || q >= end || *q != ']')
        continue;
      if (!parse_task_tid (p, lb, l))
        continue;
      l->cpu = cpu;
      return parse_after_cpu (q + 1, end, l);
    }
}

/* ------------------------------------------------------------ dispatch */

static gboolean
is_marker_event (const FtraceLine *l)
{
  return FTRACE_EQUAL (l->event, l->event_len, "tracing_mark_write") ||
         FTRACE_EQUAL (l->event, l->event_len, "0") ||
         FTRACE_EQUAL (l->event, l->event_len, "print");
}

static void
handle_event_line (FtraceParser *p,
                   TraceBatch *batch,
                   FtraceLine *line)
{
  if (G_UNLIKELY (!(p->seen & FTRACE_SEEN_FTRACE_EVENT)) && line->ts_is_counter && !p->clock_fixed)
    p->clock = TRACE_CLOCK_COUNTER;
  p->stats.trace_lines++;
  p->seen |= FTRACE_SEEN_FTRACE_EVENT;
  p->last_ts = line->ts;
  if (is_marker_event (line))
    {
      const char *payload = line->payload;
      gsize len = line->payload_len;

      if (line->event[0] == 'p')
        ftrace_skip_caller (&payload, &len);
      ftrace_parse_marker (p, batch, line, payload, len, FALSE);
      return;
    }
  resolve_thread (p, batch, line, TRACE_ID_UNKNOWN);
  ftrace_parse_kernel_event (p, batch, line);
}

static TraceClockDomain
clock_from_name (const char *s,
                 gsize len)
{
  if (FTRACE_EQUAL (s, len, "LINUX_CLOCK_MONOTONIC") || FTRACE_EQUAL (s, len, "mono"))
    return TRACE_CLOCK_MONOTONIC;
  if (FTRACE_EQUAL (s, len, "mono_raw"))
    return TRACE_CLOCK_MONOTONIC_RAW;
  if (FTRACE_EQUAL (s, len, "boot") || FTRACE_EQUAL (s, len, "LINUX_CLOCK_BOOTTIME"))
    return TRACE_CLOCK_BOOTTIME;
  if (FTRACE_EQUAL (s, len, "local") || FTRACE_EQUAL (s, len, "global") || FTRACE_EQUAL (s, len, "perf"))
    return TRACE_CLOCK_FTRACE_LOCAL;
  if (FTRACE_EQUAL (s, len, "counter") || FTRACE_EQUAL (s, len, "x86-tsc"))
    return TRACE_CLOCK_COUNTER;
  if (FTRACE_EQUAL (s, len, "LINUX_CLOCK_REALTIME") || FTRACE_EQUAL (s, len, "realtime"))
    return TRACE_CLOCK_REALTIME;
  return TRACE_CLOCK_UNKNOWN;
}

/**
 * ftrace_clock_from_name:
 * @name: a trace_clock name as ftrace and trace-cmd write it (`boot`,
 *   `mono`, `local`, `x86-tsc`, ...)
 * @len: its length
 *
 * Returns: the clock domain its timestamps are on, as the text parser
 *   reads a clock named in text
 */
TraceClockDomain
ftrace_clock_from_name (const char *name,
                        gsize len)
{
  return clock_from_name (name, len);
}

static void
handle_comment (FtraceParser *p,
                const char *s,
                gsize len)
{
  p->stats.metadata_lines++;
  if (FTRACE_HAS_PREFIX (s, len, "#####"))
    {
      /* `##### CPU 2 buffer started ####`: that CPU's ring buffer wrapped,
       * its earlier slices may have lost their begins */
      if (memmem (s, len, "buffer started", 14) != NULL)
        ftrace_parser_add_problem (p, FTRACE_PROBLEM_BUFFER_WRAPPED);
      return;
    }
  s++, len--;
  ftrace_trim (&s, &len);
  if (FTRACE_HAS_PREFIX (s, len, "tracer:") || FTRACE_EQUAL (s, len, "TRACE:"))
    {
      p->seen |= FTRACE_SEEN_HEADER;
      p->section = FTRACE_SECTION_TEXT;
    }
  else if (FTRACE_HAS_PREFIX (s, len, "clock_type="))
    {
      TraceClockDomain d = clock_from_name (s + 11, len - 11);

      if (d != TRACE_CLOCK_UNKNOWN)
        {
          p->clock = d;
          p->clock_fixed = TRUE;
        }
    }
}

/* @location (kept, not copied: the reader's) names the input in debug
 * messages. */
void
ftrace_parser_set_location (FtraceParser *p,
                            const char *location)
{
  p->location = location;
}

void
ftrace_parser_add_problem (FtraceParser *p,
                           FtraceProblem problem)
{
  guint64 n = p->stats.problems[problem]++;

  /* the first of each reason only: per-line logging would cost time */
  if (n == 0)
    g_debug ("%s:%" G_GUINT64_FORMAT ": first of the %s", p->location ? p->location : "(text)", p->line_no,
             ftrace_problem_to_string (problem));
  if (n < FTRACE_STATS_FIRST_LINES)
    p->stats.first_lines[problem][n] = p->line_no;
}

static void
note_unparsable (FtraceParser *p,
                 const char *s,
                 gsize len)
{
  if (p->first_unparsable[0] == '\0')
    {
      gsize n = MIN (len, sizeof p->first_unparsable - 1);
      g_autofree char *valid = NULL;

      /* s[n] is read only when it is inside the line */
      while (n > 0 && n < len && ((guchar) s[n] & 0xC0) == 0x80)
        n--;
      valid = g_utf8_make_valid (s, n);
      g_strlcpy (p->first_unparsable, valid, sizeof p->first_unparsable);
    }
  ftrace_parser_add_problem (p, FTRACE_PROBLEM_UNPARSABLE_LINE);
}

static gboolean
parse_nonevent_line (FtraceParser *p,
                     TraceBatch *batch,
                     const char *s,
                     gsize len)
{
  if (p->section == FTRACE_SECTION_PS)
    {
      if (ftrace_parse_ps_row (p, batch, s, len))
        return TRUE;
      p->section = FTRACE_SECTION_TEXT;
    }
  if (ftrace_is_digit (s[0]) && ftrace_parse_rhea_line (p, batch, s, len))
    return TRUE;
  if (ftrace_parse_metadata_line (p, batch, s, len))
    return TRUE;
  if (p->section == FTRACE_SECTION_CGROUP)
    {
      p->stats.metadata_lines++;
      return TRUE;
    }
  return FALSE;
}

/**
 * ftrace_line_prepare:
 * @line: a line without its newline
 * @out: (out caller-allocates): what the line is, pointing into @line
 *
 * The part of parsing a line that depends on its bytes only: line ends
 * and indentation dropped, and the event prefix (task, tid, tgid, cpu,
 * timestamp, event name, payload) cut out. It reads no parser state, so
 * threads may prepare lines in any order (ftrace-chunks.c); what the
 * line means is then decided in file order by ftrace_parser_parse_prepared().
 */
void
ftrace_line_prepare (const char *line,
                     gsize len,
                     FtracePreparedLine *out)
{
  const char *s = line;

  /* `\r\n`, `\r\r\n` (adb on Windows) and the `\n\` that ends every line
   * of a legacy systrace HTML JavaScript string */
  while (len > 0 && line[len - 1] == '\r')
    len--;
  if (len >= 3 && memcmp (line + len - 3, "\\n\\", 3) == 0)
    len -= 3;
  /* task names are right-aligned to 16 columns: skip spaces 8 at a time */
  while (len >= 8 && memcmp (s, "        ", 8) == 0)
    s += 8, len -= 8;
  while (len > 0 && ftrace_is_space (*s))
    s++, len--;
  out->text = s;
  out->len = len;
  if (len == 0)
    out->kind = FTRACE_PREPARED_BLANK;
  else if (*s == '#')
    out->kind = FTRACE_PREPARED_COMMENT;
  else if (parse_prefix (s, len, &out->event))
    out->kind = FTRACE_PREPARED_EVENT;
  else
    out->kind = FTRACE_PREPARED_OTHER;
}

/* The rest of ftrace_parser_parse_line(): what depends on the lines
 * before (line numbers, sections, threads, open slices, counters). */
void
ftrace_parser_parse_prepared (FtraceParser *p,
                              FtracePreparedLine *prep,
                              TraceBatch *batch)
{
  if (p->line_no_set)
    p->line_no_set = FALSE;
  else
    p->line_no++;
  p->stats.lines++;
  switch (prep->kind)
    {
    case FTRACE_PREPARED_BLANK:
      p->stats.metadata_lines++;
      return;
    case FTRACE_PREPARED_COMMENT:
      handle_comment (p, prep->text, prep->len);
      return;
    case FTRACE_PREPARED_EVENT:
      if (p->section != FTRACE_SECTION_TEXT)
        p->section = FTRACE_SECTION_TEXT;
      handle_event_line (p, batch, &prep->event);
      return;
    case FTRACE_PREPARED_OTHER:
    default:
      if (!parse_nonevent_line (p, batch, prep->text, prep->len))
        note_unparsable (p, prep->text, prep->len);
      return;
    }
}

void
ftrace_parser_parse_line (FtraceParser *p,
                          const char *line,
                          gsize len,
                          TraceBatch *batch)
{
  FtracePreparedLine prep;

  g_return_if_fail (p != NULL);
  g_return_if_fail (batch != NULL);

  ftrace_line_prepare (line, len, &prep);
  ftrace_parser_parse_prepared (p, &prep, batch);
}

/* Counts the next line as read but not parsed, for @problem (a line too
 * long to hold). */
void
ftrace_parser_skip_line (FtraceParser *p,
                         FtraceProblem problem)
{
  g_return_if_fail (p != NULL);

  if (p->line_no_set)
    p->line_no_set = FALSE;
  else
    p->line_no++;
  p->stats.lines++;
  ftrace_parser_add_problem (p, problem);
}

/* Splits @text on newlines and parses each line (json-src's
 * `systemTraceEvents`). A last line without newline is parsed too. */
void
ftrace_parser_parse_text (FtraceParser *p,
                          const char *text,
                          gsize len,
                          TraceBatch *batch)
{
  const char *end = text + len;

  g_return_if_fail (p != NULL);
  g_return_if_fail (batch != NULL);

  while (text < end)
    {
      const char *nl = memchr (text, '\n', end - text);
      const char *le = nl ? nl : end;

      if (le - text > FTRACE_MAX_LINE_LENGTH)
        ftrace_parser_skip_line (p, FTRACE_PROBLEM_LINE_TOO_LONG);
      else
        ftrace_parser_parse_line (p, text, le - text, batch);
      text = nl ? nl + 1 : end;
    }
}

/* ------------------------------------------------------------ lifecycle */

FtraceParser *
ftrace_parser_new (TraceStringPool *pool)
{
  FtraceParser *p = g_new0 (FtraceParser, 1);

  p->pool = trace_string_pool_ref (pool ? pool : trace_string_pool_get_default ());
  thread_table_init (&p->threads, 1024);
  thread_table_init (&p->processes, 256);
  p->clock = TRACE_CLOCK_BOOTTIME;
  p->section = FTRACE_SECTION_TEXT;
  p->rhea_pid = TRACE_ID_UNKNOWN;
  p->key_name = trace_string_pool_intern (p->pool, "name");
  p->key_function = trace_string_pool_intern (p->pool, "function");
  p->key_work = trace_string_pool_intern (p->pool, "work");
  return p;
}

void
ftrace_parser_free (FtraceParser *p)
{
  if (p == NULL)
    return;
  thread_table_clear (&p->threads);
  thread_table_clear (&p->processes);
  g_free (p->rhea_process_name);
  trace_string_pool_unref (p->pool);
  g_free (p);
}

/**
 * ftrace_parser_set_rhea_process:
 * @pid: the app's pid, for RheaTrace main-thread captures that lost their
 *   TRACE_START line; 0 or less for none
 * @process_name: (nullable): the app's process name
 */
void
ftrace_parser_set_rhea_process (FtraceParser *p,
                                gint64 pid,
                                const char *process_name)
{
  g_return_if_fail (p != NULL);

  p->rhea_pid = pid > 0 ? pid : TRACE_ID_UNKNOWN;
  g_free (p->rhea_process_name);
  p->rhea_process_name = g_strdup (process_name);
}

/* The number of the next line given to the parser (for error messages);
 * without it lines are numbered 1, 2, ... in the order they come. */
void
ftrace_parser_set_line_number (FtraceParser *p,
                               guint64 line_number)
{
  g_return_if_fail (p != NULL);

  p->line_no = line_number;
  p->line_no_set = TRUE;
}

/* A new data block (HTML trace-data script) starts: no dump table is open. */
void
ftrace_parser_begin_block (FtraceParser *p)
{
  g_return_if_fail (p != NULL);

  p->section = FTRACE_SECTION_TEXT;
}

void
ftrace_parser_finish (FtraceParser *p,
                      TraceBatch *batch)
{
  g_return_if_fail (p != NULL);

  ftrace_rhea_finish (p, batch);
}

const FtraceStats *
ftrace_parser_get_stats (FtraceParser *p)
{
  g_return_val_if_fail (p != NULL, NULL);

  return &p->stats;
}

FtraceSeen
ftrace_parser_get_seen (FtraceParser *p)
{
  g_return_val_if_fail (p != NULL, 0);

  return p->seen;
}

/* BOOTTIME (what atrace uses since Android P) unless a `# clock_type=`
 * header said otherwise or the timestamps are raw counters. */
TraceClockDomain
ftrace_parser_get_clock_domain (FtraceParser *p)
{
  g_return_val_if_fail (p != NULL, TRACE_CLOCK_UNKNOWN);

  return p->clock;
}

gint64
ftrace_parser_get_rhea_pid (FtraceParser *p)
{
  g_return_val_if_fail (p != NULL, TRACE_ID_UNKNOWN);

  return p->rhea_pid;
}

/* The start of the first line that could not be parsed, or "". */
const char *
ftrace_parser_get_first_unparsable (FtraceParser *p)
{
  g_return_val_if_fail (p != NULL, "");

  return p->first_unparsable;
}
