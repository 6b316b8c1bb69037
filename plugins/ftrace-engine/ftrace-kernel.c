/* tracepipe - ftrace parser: kernel events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The scheduler and cpu events the event model has kinds for become typed
 * records; every other event becomes a TRACE_EVENT_FTRACE record named
 * after the event, its key=value fields as args.
 */
#include "ftrace-fields-inline.h"

static const FtraceField *
find_field_len (const FtraceField *fields,
                guint n,
                const char *key,
                gsize klen,
                guint64 *consumed)
{
  for (guint i = 0; i < n; i++)
    if (fields[i].key_len == klen && fields[i].key[0] == key[0] && memcmp (fields[i].key, key, klen) == 0)
      {
        *consumed |= G_GUINT64_CONSTANT (1) << i;
        return &fields[i];
      }
  return NULL;
}

#define find_field(fields, n, key, consumed) find_field_len ((fields), (n), key, sizeof (key) - 1, (consumed))

const FtraceKey ftrace_sched_switch_keys[7] = {
  FTRACE_KEY ("prev_comm"),
  FTRACE_KEY ("prev_pid"),
  FTRACE_KEY ("prev_prio"),
  FTRACE_KEY ("prev_state"),
  FTRACE_KEY ("==> next_comm"),
  FTRACE_KEY ("next_pid"),
  FTRACE_KEY ("next_prio"),
};

/* Splits @line's payload into @fields and finds @keys there (*@found:
 * each one's field or NULL, *@used: the fields found), the first
 * @n_usual keys in one pass when they are the payload, in order, as the
 * kernel writes it (inline: the keys are the caller's constants).
 * Returns the number of fields. */
static G_ALWAYS_INLINE inline guint
find_fields (const FtraceLine *line,
             const FtraceKey *keys,
             guint n_keys,
             guint n_usual,
             FtraceField *fields,
             const FtraceField **found,
             guint64 *used,
             const char **positional,
             gsize *positional_len)
{
  guint n;

  *used = 0;
  if (ftrace_split_usual (line->payload, line->payload_len, keys, n_usual, fields))
    {
      for (guint i = 0; i < n_keys; i++)
        found[i] = i < n_usual ? &fields[i] : NULL;
      *used = (G_GUINT64_CONSTANT (1) << n_usual) - 1;
      *positional = NULL;
      *positional_len = 0;
      return n_usual;
    }
  n = ftrace_split_fields (line->payload, line->payload_len, fields, FTRACE_MAX_FIELDS, positional, positional_len);
  for (guint i = 0; i < n_keys; i++)
    {
      gsize skip = keys[i].text[0] == '=' ? FTRACE_ARROW_LEN : 0;

      found[i] = find_field_len (fields, n, keys[i].text + skip, keys[i].len - skip, used);
    }
  return n;
}

static gboolean
field_int (const FtraceField *f,
           gint64 *out)
{
  return f != NULL && ftrace_parse_int_prefix (f->value, f->value_len, out);
}

static gint32
field_int32_or (const FtraceField *f,
                gint32 fallback)
{
  gint64 v;

  return field_int (f, &v) ? (gint32) v : fallback;
}

/* A field's value as a name the parser interns; none when absent. */
static FtraceName
field_name (const FtraceField *f)
{
  return f ? (FtraceName){ f->value, f->value_len, 0 } : (FtraceName){ NULL, 0, 0 };
}

/* ------------------------------------------------------------ raw events */

/* A value as text: decimal integers as INT, 0x... as UINT, anything
 * else as STRING. */
void
ftrace_add_value_arg (FtraceParser *p,
                      TraceBatch *batch,
                      TraceEvent *ev,
                      guint32 key,
                      const char *v,
                      gsize vlen)
{
  gint64 i;
  guint64 u;

  ftrace_strip_unit (&v, &vlen);
  if (ftrace_parse_int (v, vlen, &i))
    trace_batch_add_arg (batch, ev, key, TRACE_ARG_INT)->v.i = i;
  else if (vlen > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X') && ftrace_parse_hex (v, vlen, &u))
    trace_batch_add_arg (batch, ev, key, TRACE_ARG_UINT)->v.u = u;
  else
    trace_batch_add_arg (batch, ev, key, TRACE_ARG_STRING)->v.s = ftrace_intern (p, v, vlen);
}

/* Adds the fields not in @consumed_mask (ftrace_add_value_arg()). */
void
ftrace_add_fields_as_args (FtraceParser *p,
                           TraceBatch *batch,
                           TraceEvent *ev,
                           const FtraceField *fields,
                           guint n_fields,
                           guint64 consumed_mask)
{
  for (guint i = 0; i < n_fields; i++)
    {
      if (i < 64 && (consumed_mask & (G_GUINT64_CONSTANT (1) << i)))
        continue;
      ftrace_add_value_arg (p, batch, ev, ftrace_intern (p, fields[i].key, fields[i].key_len),
                            fields[i].value, fields[i].value_len);
    }
}

/* Any event as name + args; text before the first key=value is the arg
 * `name` (perfetto's name for clock_set_rate's positional clock name). */
static void
emit_raw (FtraceParser *p,
          TraceBatch *batch,
          FtraceLine *line,
          const char *payload,
          gsize len)
{
  FtraceField fields[FTRACE_MAX_FIELDS];
  const char *pos;
  gsize pos_len;
  guint n = ftrace_split_fields (payload, len, fields, FTRACE_MAX_FIELDS, &pos, &pos_len);
  TraceEvent *ev = ftrace_kernel_generic (p, batch, line, &(FtraceName){ line->event, line->event_len, 0 });

  if (pos_len > 0)
    trace_batch_add_arg (batch, ev, p->key_name, TRACE_ARG_STRING)->v.s = ftrace_intern (p, pos, pos_len);
  ftrace_add_fields_as_args (p, batch, ev, fields, n, 0);
}

static void
emit_incomplete (FtraceParser *p,
                 TraceBatch *batch,
                 FtraceLine *line)
{
  ftrace_parser_add_problem (p, FTRACE_PROBLEM_INCOMPLETE_EVENT);
  emit_raw (p, batch, line, line->payload, line->payload_len);
}

/* ------------------------------------------------------------ sched_switch */

/* Letters in the order the writer writes them ('R', running, is no bit
 * and is written only alone; '|' separates letters). */
const FtraceTaskState ftrace_task_states[FTRACE_N_TASK_STATES] = {
  { 'S', TRACE_TASK_STATE_INTERRUPTIBLE },
  { 'D', TRACE_TASK_STATE_UNINTERRUPTIBLE },
  { 'T', TRACE_TASK_STATE_STOPPED },
  { 't', TRACE_TASK_STATE_TRACED },
  { 'X', TRACE_TASK_STATE_EXIT_DEAD },
  { 'Z', TRACE_TASK_STATE_EXIT_ZOMBIE },
  { 'x', TRACE_TASK_STATE_DEAD },
  { 'K', TRACE_TASK_STATE_WAKEKILL },
  { 'W', TRACE_TASK_STATE_WAKING },
  { 'P', TRACE_TASK_STATE_PARKED },
  { 'N', TRACE_TASK_STATE_NOLOAD },
  { 'I', 0 },
  { '+', 0 },
};

/* The bits of one task-state letter; -1 when it is none. */
static gint64
task_state_bits (char c)
{
  if (c == 'I')
    return TRACE_TASK_STATE_IDLE;
  if (c == '+')
    return TRACE_TASK_STATE_PREEMPTED;
  for (guint i = 0; i < FTRACE_N_TASK_STATES; i++)
    if (ftrace_task_states[i].letter == c && ftrace_task_states[i].bit)
      return ftrace_task_states[i].bit;
  return -1;
}

/* prev_state as the kernel's task-state bits, in the 4.4 layout that
 * perfetto assumes for traces without a kernel version (and uses itself
 * when it converts systrace letters). Numbers (trace-cmd) stay as printed;
 * -1 when the text is not a state. */
static gint64
parse_prev_state (const char *s,
                  gsize len)
{
  gint64 state = 0;

  ftrace_trim (&s, &len);
  if (len == 0)
    return -1;
  if (ftrace_is_digit (s[0]))
    return ftrace_parse_int (s, len, &state) ? state : -1;
  for (gsize i = 0; i < len; i++)
    {
      gint64 bits;

      if (s[i] == 'R' || s[i] == '|')
        continue;
      if ((bits = task_state_bits (s[i])) < 0)
        return -1;
      state |= bits;
    }
  return state;
}

/**
 * ftrace_task_state_parse:
 * @s: a prev_state as ftrace text prints it (`S`, `R+`, `D|K`, a number)
 * @len: its length
 *
 * Reads task-state letters as the text parser does: binary sources whose
 * format prints prev_state with letters (libtraceevent's print format)
 * map each of the format's bits through it, so that they give the state
 * the kernel's text of the same event gives.
 *
 * Returns: the #TraceTaskState bits, -1 when @s is no state
 */
gint64
ftrace_task_state_parse (const char *s,
                         gsize len)
{
  return parse_prev_state (s, len);
}

/* trace-cmd's short form side: `comm:pid [prio]` (comm may hold ':'). */
static gboolean
parse_short_task (const char *s,
                  gsize len,
                  const char **comm,
                  gsize *comm_len,
                  gint64 *pid,
                  gint64 *prio,
                  const char **rest,
                  gsize *rest_len)
{
  const char *end = s + len;
  const char *lb, *colon, *rb;

  while (s < end && ftrace_is_space (*s))
    s++;
  lb = memchr (s, '[', end - s);
  if (lb == NULL)
    return FALSE;
  colon = lb;
  while (colon > s && colon[-1] != ':')
    colon--;
  if (colon == s)
    return FALSE;
  {
    const char *pe = lb;

    while (pe > colon && ftrace_is_space (pe[-1]))
      pe--;
    if (!ftrace_parse_int (colon, pe - colon, pid))
      return FALSE;
  }
  *comm = s;
  *comm_len = colon - 1 - s;
  rb = memchr (lb, ']', end - lb);
  if (rb == NULL || !ftrace_parse_int (lb + 1, rb - lb - 1, prio))
    return FALSE;
  *rest = rb + 1;
  *rest_len = end - *rest;
  ftrace_trim (rest, rest_len);
  return TRUE;
}

/* trace-cmd: `prev:pid [prio] S ==> next:pid [prio]`. Only the next
 * task's name teaches the thread table. */
static gboolean
parse_switch_short (FtraceParser *p,
                    const char *s,
                    gsize len,
                    FtraceSwitch *sw)
{
  const char *arrow = memmem (s, len, "==>", 3), *rest, *prev, *next;
  gsize rest_len, prev_len, next_len;
  gint64 pid, prio;

  if (arrow == NULL || !parse_short_task (s, arrow - s, &prev, &prev_len, &pid, &prio, &rest, &rest_len))
    return FALSE;
  sw->prev_tid = (gint32) pid;
  sw->prev_prio = (gint32) prio;
  sw->prev_state = parse_prev_state (rest, rest_len);
  if (!parse_short_task (arrow + 3, s + len - arrow - 3, &next, &next_len, &pid, &prio, &rest, &rest_len))
    return FALSE;
  sw->next_tid = (gint32) pid;
  sw->next_prio = (gint32) prio;
  sw->prev_comm = (FtraceName){ NULL, 0, ftrace_intern (p, prev, prev_len) };
  sw->next_comm = (FtraceName){ next, next_len, 0 };
  return TRUE;
}

static void
parse_sched_switch (FtraceParser *p,
                    TraceBatch *batch,
                    FtraceLine *line)
{
  FtraceField f[FTRACE_MAX_FIELDS];
  const FtraceField *found[G_N_ELEMENTS (ftrace_sched_switch_keys)];
  const char *pos;
  gsize pos_len;
  guint64 used;
  guint n = find_fields (line, ftrace_sched_switch_keys, G_N_ELEMENTS (found), G_N_ELEMENTS (found), f, found, &used,
                         &pos, &pos_len);
  const FtraceField *prev_comm = found[0], *prev_pid = found[1], *prev_prio = found[2], *prev_state = found[3];
  const FtraceField *next_comm = found[4], *next_pid = found[5], *next_prio = found[6];
  FtraceKernelEvent e = { TRACE_EVENT_SCHED_SWITCH };
  FtraceSwitch *sw = &e.u.sched_switch;
  gint64 ppid, npid;
  TraceEvent *ev;

  if (n == 0)
    {
      if (parse_switch_short (p, line->payload, line->payload_len, sw))
        ftrace_kernel_event (p, batch, line, TRUE, &e);
      else
        emit_incomplete (p, batch, line);
      return;
    }
  if (!field_int (prev_pid, &ppid) || !field_int (next_pid, &npid))
    {
      emit_incomplete (p, batch, line);
      return;
    }
  sw->prev_comm = field_name (prev_comm);
  sw->prev_tid = ppid;
  sw->prev_prio = field_int32_or (prev_prio, -1);
  sw->prev_state = prev_state ? parse_prev_state (prev_state->value, prev_state->value_len) : -1;
  sw->next_comm = field_name (next_comm);
  sw->next_tid = npid;
  sw->next_prio = field_int32_or (next_prio, -1);
  ev = ftrace_kernel_event (p, batch, line, TRUE, &e);
  if (used != (G_GUINT64_CONSTANT (1) << n) - 1)
    ftrace_add_fields_as_args (p, batch, ev, f, n, used);
}

/* ---------------------------------------------------------- sched_wakeup */

static void
parse_wakeup (FtraceParser *p,
              TraceBatch *batch,
              FtraceLine *line,
              TraceEventKind kind)
{
  /* the kernel's order since 4.x; older ones add success=1 */
  static const FtraceKey keys[] = {
    FTRACE_KEY ("comm"),
    FTRACE_KEY ("pid"),
    FTRACE_KEY ("prio"),
    FTRACE_KEY ("target_cpu"),
    FTRACE_KEY ("success"),
  };
  FtraceField f[FTRACE_MAX_FIELDS];
  const FtraceField *found[G_N_ELEMENTS (keys)];
  const char *pos, *comm = NULL;
  gsize pos_len, comm_len = 0;
  guint64 used;
  guint n = find_fields (line, keys, G_N_ELEMENTS (keys), 4, f, found, &used, &pos, &pos_len);
  const FtraceField *fcomm = found[0], *fpid = found[1], *prio = found[2], *target = found[3], *success = found[4];
  gint64 pid, sprio = -1;
  gint32 target_cpu;
  FtraceKernelEvent e = { kind };
  FtraceWakeup *w = &e.u.wakeup;
  TraceEvent *ev;

  target_cpu = field_int32_or (target, -1);
  if (fcomm)
    comm = fcomm->value, comm_len = fcomm->value_len;
  if (!field_int (fpid, &pid))
    {
      /* trace-cmd: `comm:pid [prio] [success=1] CPU:002` */
      const char *rest, *cpu;
      gsize rest_len;
      gint64 v;

      if (pos == NULL || !parse_short_task (pos, pos_len, &comm, &comm_len, &pid, &sprio, &rest, &rest_len))
        {
          emit_incomplete (p, batch, line);
          return;
        }
      cpu = memmem (line->payload, line->payload_len, "CPU:", 4);
      if (cpu != NULL && ftrace_parse_int_prefix (cpu + 4, line->payload + line->payload_len - cpu - 4, &v))
        target_cpu = (gint32) v;
    }
  w->comm = (FtraceName){ comm, comm_len, 0 };
  w->tid = pid;
  w->prio = prio ? field_int32_or (prio, -1) : (gint32) sprio;
  w->target_cpu = target_cpu;
  w->success = field_int32_or (success, -1);
  ev = ftrace_kernel_event (p, batch, line, TRUE, &e);
  if (n > 0 && used != (G_GUINT64_CONSTANT (1) << n) - 1)
    ftrace_add_fields_as_args (p, batch, ev, f, n, used);
}

/* ------------------------------------------------------- task life cycle */

static void
parse_task (FtraceParser *p,
            TraceBatch *batch,
            FtraceLine *line,
            TraceEventKind kind)
{
  FtraceField f[FTRACE_MAX_FIELDS];
  const char *pos;
  gsize pos_len;
  guint64 used = 0;
  guint n = ftrace_split_fields (line->payload, line->payload_len, f, FTRACE_MAX_FIELDS, &pos, &pos_len);
  const FtraceField *fpid = find_field (f, n, "pid", &used);
  const FtraceField *comm = kind == TRACE_EVENT_TASK_RENAME ? find_field (f, n, "newcomm", &used)
                                                            : find_field (f, n, "comm", &used);
  const FtraceField *old = find_field (f, n, "oldcomm", &used);
  const FtraceField *prio = find_field (f, n, "prio", &used);
  const FtraceField *flags = find_field (f, n, "clone_flags", &used);
  guint64 clone_flags = 0;
  gint64 pid;
  FtraceKernelEvent e = { kind };
  TraceEvent *ev;

  if (!field_int (fpid, &pid))
    {
      emit_incomplete (p, batch, line);
      return;
    }
  if (flags)
    ftrace_parse_hex (flags->value, flags->value_len, &clone_flags);
  e.u.task = (FtraceTask){ .comm = field_name (comm),
                           .old_comm = field_name (old),
                           .tid = pid,
                           .prio = field_int32_or (prio, -1),
                           .clone_flags = clone_flags };
  ev = ftrace_kernel_event (p, batch, line, TRUE, &e);
  if (used != (G_GUINT64_CONSTANT (1) << n) - 1)
    ftrace_add_fields_as_args (p, batch, ev, f, n, used);
}

static void
parse_cpu (FtraceParser *p,
           TraceBatch *batch,
           FtraceLine *line,
           TraceEventKind kind)
{
  FtraceField f[FTRACE_MAX_FIELDS];
  const char *pos;
  gsize pos_len;
  guint64 used = 0;
  guint n = ftrace_split_fields (line->payload, line->payload_len, f, FTRACE_MAX_FIELDS, &pos, &pos_len);
  const FtraceField *state = find_field (f, n, "state", &used);
  const FtraceField *cpu_id = find_field (f, n, "cpu_id", &used);
  FtraceKernelEvent e = { kind };
  gint64 st, cpu;
  TraceEvent *ev;

  if (!field_int (state, &st) || !field_int (cpu_id, &cpu))
    {
      emit_incomplete (p, batch, line);
      return;
    }
  e.u.cpu = (FtraceCpu){ st, (gint32) cpu };
  ev = ftrace_kernel_event (p, batch, line, TRUE, &e);
  if (used != (G_GUINT64_CONSTANT (1) << n) - 1)
    ftrace_add_fields_as_args (p, batch, ev, f, n, used);
}

/* `work struct 00000000e8ba3a1c: function dbs_work_handler` */
static gboolean
parse_workqueue (FtraceParser *p,
                 TraceBatch *batch,
                 FtraceLine *line)
{
  const char *s = line->payload, *end = s + line->payload_len, *ptr, *fn;
  guint64 work;
  TraceEvent *ev;

  if (!FTRACE_HAS_PREFIX (s, line->payload_len, "work struct "))
    return FALSE;
  ptr = s + 12;
  while (ptr < end && ftrace_is_space (*ptr))
    ptr++;
  s = ptr;
  while (s < end && (g_ascii_isxdigit (*s) || (s == ptr + 1 && *s == 'x')))
    s++;
  if (s == ptr || !ftrace_parse_hex (ptr, s - ptr, &work))
    return FALSE;
  fn = memmem (s, end - s, "function ", 9);
  ev = ftrace_kernel_generic (p, batch, line, &(FtraceName){ line->event, line->event_len, 0 });
  trace_batch_add_arg (batch, ev, p->key_work, TRACE_ARG_POINTER)->v.u = work;
  if (fn != NULL)
    {
      const char *name = fn + 9;
      gsize len = end - name;

      ftrace_trim (&name, &len);
      trace_batch_add_arg (batch, ev, p->key_function, TRACE_ARG_STRING)->v.s = ftrace_intern (p, name, len);
    }
  return TRUE;
}

/* ---------------------------------------------------------------- dispatch */

void
ftrace_parse_kernel_event (FtraceParser *p,
                           TraceBatch *batch,
                           FtraceLine *line)
{
  const char *e = line->event;
  gsize n = line->event_len;

  if (n >= 8 && e[0] == 's' && FTRACE_HAS_PREFIX (e, n, "sched_"))
    {
      if (FTRACE_EQUAL (e, n, "sched_switch"))
        return parse_sched_switch (p, batch, line);
      if (FTRACE_EQUAL (e, n, "sched_wakeup"))
        return parse_wakeup (p, batch, line, TRACE_EVENT_SCHED_WAKEUP);
      if (FTRACE_EQUAL (e, n, "sched_waking"))
        return parse_wakeup (p, batch, line, TRACE_EVENT_SCHED_WAKING);
      if (FTRACE_EQUAL (e, n, "sched_wakeup_new"))
        return parse_wakeup (p, batch, line, TRACE_EVENT_SCHED_WAKEUP_NEW);
      if (FTRACE_EQUAL (e, n, "sched_process_exit"))
        return parse_task (p, batch, line, TRACE_EVENT_SCHED_PROCESS_EXIT);
      if (FTRACE_EQUAL (e, n, "sched_process_free"))
        return parse_task (p, batch, line, TRACE_EVENT_SCHED_PROCESS_FREE);
    }
  else if (FTRACE_EQUAL (e, n, "task_newtask"))
    return parse_task (p, batch, line, TRACE_EVENT_TASK_NEWTASK);
  else if (FTRACE_EQUAL (e, n, "task_rename"))
    return parse_task (p, batch, line, TRACE_EVENT_TASK_RENAME);
  else if (FTRACE_EQUAL (e, n, "cpu_frequency"))
    return parse_cpu (p, batch, line, TRACE_EVENT_CPU_FREQUENCY);
  else if (FTRACE_EQUAL (e, n, "cpu_idle"))
    return parse_cpu (p, batch, line, TRACE_EVENT_CPU_IDLE);
  else if (FTRACE_HAS_PREFIX (e, n, "workqueue_execute_") && parse_workqueue (p, batch, line))
    return;
  else if (FTRACE_EQUAL (e, n, "bputs") || FTRACE_EQUAL (e, n, "bprint"))
    {
      /* trace_printk: `0xffff0000080feeb8s: text` -- drop the caller */
      const char *s = line->payload;
      gsize len = line->payload_len;

      ftrace_skip_caller (&s, &len);
      return emit_raw (p, batch, line, s, len);
    }
  emit_raw (p, batch, line, line->payload, line->payload_len);
}
