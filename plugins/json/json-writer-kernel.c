/* tracepipe - json plugin: kernel records as systemTraceEvents text
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Scheduling, task and cpu records have no Chrome event form; viewers
 * (perfetto, catapult) read them from the "systemTraceEvents" string as
 * ftrace text.  The ftrace text engine formats each record as one line
 * (ftrace_text_write_record()); here is what is JSON's: which records go
 * there, the lines collected in a ChromeSpill (memory, then an unlinked
 * temporary file) and copied, escaped, into the output by the suffix.
 * atrace marker records (tracing_mark_write, print, 0) are never written:
 * their content already is in the JSON events, and a viewer would show it
 * twice. The exception are atrace counters read from text, which are
 * written as their line instead of a JSON event
 * (chrome_writer_kernel_counter()).
 */
#include "config.h"

#include <string.h>

#include "json-writer-private.h"

static guint32 intern (ChromeWriter *w, const char *s);

/* Vendor kernel trace points in atrace's form, which trace_processor
 * reads from a Perfetto trace as atrace points (ftrace_parser.cc,
 * Parse*TracingMarkWrite): where each keeps the slice or counter name and
 * the phase (B, E, I or C); @begin_key: a begin flag read when the type is
 * 0; @zero_type_ends: a type of 0 is an end (Samsung's); @tgid_of_counters:
 * the pid field is the process of counters only, of other phases 0
 * (DPU's). The order is that of ChromeWriter's irq.k_atrace. */
static const struct
{
  const char *event, *name_key, *type_key, *begin_key;
  gboolean zero_type_ends, tgid_of_counters;
} kernel_atrace_forms[CHROME_KERNEL_ATRACE_FORMS] = {
  { "g2d_tracing_mark_write", "name", "type", NULL, FALSE, FALSE },
  { "dpu_tracing_mark_write", "name", "type", NULL, FALSE, TRUE },
  { "mali_tracing_mark_write", "name", "type", NULL, FALSE, FALSE },
  { "lwis_tracing_mark_write", "func_name", "type", NULL, FALSE, FALSE },
  { "sde_tracing_mark_write", "trace_name", "trace_type", "trace_begin", FALSE, FALSE },
  { "samsung_tracing_mark_write", "trace_name", "trace_type", NULL, TRUE, FALSE },
};

/* The engine that formats the lines and remembers the comms, made with
 * the first thread name or kernel record. */
static FtraceTextWriter *
text_writer (ChromeWriter *w)
{
  if (w->text == NULL)
    w->text = ftrace_text_writer_new (w->pool);
  return w->text;
}

void
chrome_writer_note_thread_name (ChromeWriter *w,
                                gint64 tid,
                                guint32 name)
{
  ftrace_text_writer_note_thread_name (text_writer (w), tid, name);
}

static gboolean
ensure_kernel_text (ChromeWriter *w,
                    GError **error)
{
  static const char header[] = "# tracer: nop\n";

  if (w->kernel != NULL)
    return TRUE;
  w->kernel = chrome_spill_new (w->opts.system_trace_memory);
  w->line = g_string_sized_new (256);
  w->payload = g_string_sized_new (64);
  for (guint i = 0; i < CHROME_KERNEL_ATRACE_FORMS; i++)
    w->irq.k_atrace[i] = intern (w, kernel_atrace_forms[i].event);
  return chrome_spill_write (w->kernel, header, sizeof header - 1, error);
}

static gint64
int_arg (ChromeWriter *w,
         TraceBatch *batch,
         const TraceEvent *ev,
         const char *key,
         gboolean *found)
{
  const TraceArg *arg = key ? trace_batch_find_arg (batch, ev, intern (w, key)) : NULL;

  *found = arg != NULL && (arg->type == TRACE_ARG_INT || arg->type == TRACE_ARG_UINT);
  return *found ? arg->v.i : 0;
}

/* The atrace payload of a vendor trace point (`C|237|g2d_frame_hw#15|0`)
 * into @payload. Returns: whether @ev is one (FALSE also for a phase
 * trace_processor rejects, which then stays a generic line) */
static gboolean
kernel_atrace_payload (ChromeWriter *w,
                       TraceBatch *batch,
                       const TraceEvent *ev,
                       GString *payload)
{
  guint i;
  gboolean has_type, has_begin, has_pid;
  gint64 type, tgid;
  const TraceArg *name;
  char phase;

  for (i = 0; i < CHROME_KERNEL_ATRACE_FORMS && ev->name != w->irq.k_atrace[i]; i++)
    ;
  if (i == CHROME_KERNEL_ATRACE_FORMS)
    return FALSE;
  type = int_arg (w, batch, ev, kernel_atrace_forms[i].type_key, &has_type);
  phase = (char) type;
  if (type == 0 && kernel_atrace_forms[i].begin_key)
    phase = int_arg (w, batch, ev, kernel_atrace_forms[i].begin_key, &has_begin) ? 'B' : 'E';
  else if (type == 0 && has_type && kernel_atrace_forms[i].zero_type_ends)
    phase = 'E';
  if (phase != 'B' && phase != 'E' && phase != 'I' && phase != 'C')
    return FALSE;
  tgid = int_arg (w, batch, ev, "pid", &has_pid);
  if (kernel_atrace_forms[i].tgid_of_counters && phase != 'C')
    tgid = 0;
  name = trace_batch_find_arg (batch, ev, intern (w, kernel_atrace_forms[i].name_key));
  g_string_printf (payload, "%c|%" G_GINT64_FORMAT, phase, tgid);
  if (phase != 'E')
    {
      g_string_append_c (payload, '|');
      if (name && trace_batch_get_arg_string (batch, name))
        g_string_append (payload, trace_batch_get_arg_string (batch, name));
    }
  if (phase == 'C')
    g_string_append_printf (payload, "|%" G_GINT64_FORMAT, int_arg (w, batch, ev, "value", &has_pid));
  return TRUE;
}

/**
 * chrome_writer_kernel_event:
 *
 * Adds one kernel record to the systemTraceEvents text.
 */
gboolean
chrome_writer_kernel_event (ChromeWriter *w,
                            TraceBatch *batch,
                            const TraceEvent *ev,
                            GError **error)
{
  FtraceTextWriter *text = text_writer (w);

  ftrace_text_writer_learn_comms (text, ev);
  if (w->opts.form == CHROME_FORM_ARRAY || ev->ts < 0)
    {
      w->stats.dropped_kernel++;
      return TRUE;
    }
  if (ev->kind == TRACE_EVENT_SCHED_SWITCH && ev->u.sched_switch.prev_tid == TRACE_ID_UNKNOWN)
    {
      w->stats.dropped_switches_without_prev++;
      return TRUE;
    }
  if (ev->kind == TRACE_EVENT_FTRACE && ftrace_text_is_marker (ftrace_text_record_name (text, ev)))
    {
      w->stats.dropped_markers++;
      return TRUE;
    }
  if (!ensure_kernel_text (w, error))
    return FALSE;
  if (w->opts.perfetto_kernel_events && ev->kind == TRACE_EVENT_FTRACE &&
      kernel_atrace_payload (w, batch, ev, w->payload))
    ftrace_text_write_marker (text, w->line, ev, w->payload->str, w->payload->len);
  else
    ftrace_text_write_record (text, w->line, batch, ev);
  w->stats.kernel_lines++;
  return chrome_spill_write (w->kernel, w->line->str, w->line->len, error);
}

/**
 * chrome_writer_kernel_counter:
 * @written: (out): whether @ev went into the kernel text
 *
 * An atrace counter read from a text line (it has a cpu) goes back as
 * that line, `tracing_mark_write: C|pid|name|value[|category]`:
 * trace_processor names the track of a JSON `C` event "NAME KEY" but of
 * an atrace counter "NAME", and it rejects a decimal atrace value from
 * our output as it did from the original. Others are JSON `C` events.
 */
gboolean
chrome_writer_kernel_counter (ChromeWriter *w,
                              const TraceEvent *ev,
                              gboolean *written,
                              GError **error)
{
  FtraceTextWriter *text = text_writer (w);

  *written = FALSE;
  if (w->opts.form == CHROME_FORM_ARRAY || !ftrace_text_can_write_counter (text, ev))
    return TRUE;
  if (!ensure_kernel_text (w, error))
    return FALSE;
  ftrace_text_write_counter (text, w->line, ev);
  w->stats.kernel_lines++;
  *written = TRUE;
  return chrome_spill_write (w->kernel, w->line->str, w->line->len, error);
}

/* softirq vectors as trace_processor names their slices
 * (src/trace_processor/types/softirq_action.h) */
static const char *const softirq_actions[] = { "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK",
                                               "BLOCK_IOPOLL", "TASKLET", "SCHED", "HRTIMER", "RCU" };

static guint32
intern (ChromeWriter *w,
        const char *s)
{
  return trace_string_pool_intern (w->pool, s);
}

/* The slice name of an irq_handler_entry (`IRQ (timer)`) or a
 * softirq_entry (its action); 0 for a vector trace_processor has no
 * name for, which it makes no slice of. */
static guint32
irq_slice_name (ChromeWriter *w,
                TraceBatch *batch,
                const TraceEvent *ev,
                gboolean soft)
{
  const TraceArg *arg;
  g_autofree char *name = NULL;

  if (soft)
    {
      arg = trace_batch_find_arg (batch, ev, w->irq.k_vec);
      if (arg == NULL || (arg->type != TRACE_ARG_INT && arg->type != TRACE_ARG_UINT) || arg->v.u >= G_N_ELEMENTS (softirq_actions))
        return 0;
      return intern (w, softirq_actions[arg->v.u]);
    }
  arg = trace_batch_find_arg (batch, ev, w->str_name);
  name = g_strdup_printf ("IRQ (%s)", arg && trace_batch_get_arg_string (batch, arg) ? trace_batch_get_arg_string (batch, arg) : "");
  return intern (w, name);
}

/* A GPU's frequency: trace_processor makes a counter track `gpufreq` per
 * GPU of the typed event, nothing of its text line. It goes as a JSON
 * counter of no process, `gpufreq` with the key `gpu<N>` (a JSON counter
 * track is named by event and key: one track per GPU). */
static gboolean
gpu_frequency_counter (ChromeWriter *w,
                       TraceBatch *batch,
                       const TraceEvent *ev,
                       TraceEvent *counter)
{
  gboolean has_gpu, has_state;
  gint64 gpu = int_arg (w, batch, ev, "gpu_id", &has_gpu);
  gint64 state = int_arg (w, batch, ev, "state", &has_state);
  g_autofree char *name = g_strdup_printf ("gpufreq gpu%" G_GINT64_FORMAT, gpu);

  memset (counter, 0, sizeof *counter);
  counter->kind = has_state ? TRACE_EVENT_COUNTER : TRACE_EVENT_NONE;
  counter->ts = ev->ts;
  counter->pid = counter->tid = TRACE_ID_UNKNOWN;
  counter->cpu = -1;
  counter->name = intern (w, name);
  counter->flags = TRACE_EVENT_FLAG_COUNTER_INT;
  counter->u.counter.value = (double) state;
  return TRUE;
}

/* A wakeup source: trace_processor makes a slice `Wakelock(NAME)` on a
 * track of the name from its first activation to the deactivation that
 * releases the last one (activations nest), nothing of the text lines.
 * It goes as a nestable async slice of no process, id the name's hash. */
static gboolean
wakelock_slice (ChromeWriter *w,
                TraceBatch *batch,
                const TraceEvent *ev,
                gboolean activate,
                TraceEvent *slice)
{
  const TraceArg *arg = trace_batch_find_arg (batch, ev, w->str_name);
  const char *name = arg ? trace_batch_get_arg_string (batch, arg) : NULL;
  g_autofree char *title = NULL;
  guint32 key;
  guint count;

  memset (slice, 0, sizeof *slice);
  slice->kind = TRACE_EVENT_NONE;
  if (name == NULL)
    return TRUE;
  key = intern (w, name);
  count = GPOINTER_TO_UINT (g_hash_table_lookup (w->wakelocks, GUINT_TO_POINTER (key)));
  g_hash_table_insert (w->wakelocks, GUINT_TO_POINTER (key),
                       GUINT_TO_POINTER (activate ? count + 1 : count > 0 ? count - 1
                                                                          : 0));
  if (activate ? count != 0 : count != 1)
    return TRUE;
  title = g_strdup_printf ("Wakelock(%s)", name);
  slice->kind = activate ? TRACE_EVENT_ASYNC_BEGIN : TRACE_EVENT_ASYNC_END;
  slice->ts = ev->ts;
  slice->pid = slice->tid = TRACE_ID_UNKNOWN;
  slice->cpu = -1;
  slice->flags = TRACE_EVENT_FLAG_ID_GLOBAL;
  slice->name = intern (w, title);
  slice->category = w->irq.k_wakesource;
  slice->u.async.id = g_str_hash (name);
  return TRUE;
}

static void
global_async (ChromeWriter *w,
              TraceEventKind kind,
              const TraceEvent *ev,
              guint32 name,
              guint32 category,
              TraceEvent *slice)
{
  memset (slice, 0, sizeof *slice);
  slice->kind = kind;
  slice->ts = ev->ts;
  slice->pid = slice->tid = TRACE_ID_UNKNOWN;
  slice->cpu = -1;
  slice->flags = TRACE_EVENT_FLAG_ID_GLOBAL;
  slice->name = name;
  slice->category = category;
  slice->u.async.id = g_str_hash (trace_string_pool_get (w->pool, name));
}

/* A suspend/resume step: trace_processor makes a slice `ACTION(VAL)`
 * (VAL 0 for timekeeping_freeze, whose value is a cpu) from its start to
 * its end, on a track of that name, nothing of the text lines; and ends
 * a suspend_enter left open by a failed suspend_prepare (thaw_processes
 * ending inside freeze_processes inside suspend_enter). Nestable async
 * slices of no process, id the name's hash; the second end of that case
 * in @w->irq.pending. */
static gboolean
suspend_resume_slice (ChromeWriter *w,
                      TraceBatch *batch,
                      const TraceEvent *ev,
                      TraceEvent *slice)
{
  const TraceArg *arg = trace_batch_find_arg (batch, ev, w->irq.k_action);
  const char *action = arg ? trace_batch_get_arg_string (batch, arg) : NULL;
  gboolean has_val, has_start;
  gint64 val = int_arg (w, batch, ev, "val", &has_val);
  gboolean start = int_arg (w, batch, ev, "start", &has_start) != 0;
  g_autofree char *title = NULL;
  guint32 name;

  if (action == NULL)
    action = "";
  title = g_strdup_printf ("%s(%d)", action, strcmp (action, "timekeeping_freeze") == 0 ? 0 : (gint32) val);
  name = intern (w, title);
  global_async (w, start ? TRACE_EVENT_ASYNC_BEGIN : TRACE_EVENT_ASYNC_END, ev, name, w->irq.k_suspend, slice);
  if (start && strcmp (action, "suspend_enter") == 0)
    {
      w->irq.suspend_state = 1;
      w->irq.suspend_enter = name;
    }
  else if (start && strcmp (action, "freeze_processes") == 0 && w->irq.suspend_state == 1)
    w->irq.suspend_state = 2;
  else if (!start && strcmp (action, "suspend_enter") == 0)
    w->irq.suspend_state = 0;
  else if (!start && strcmp (action, "thaw_processes") == 0 && w->irq.suspend_state == 2)
    {
      global_async (w, TRACE_EVENT_ASYNC_END, ev, w->irq.suspend_enter, w->irq.k_suspend, &w->irq.pending);
      w->irq.suspend_state = 0;
    }
  return TRUE;
}

/* A function_graph call: trace_processor makes a slice named by the
 * function from entry to exit on a funcgraph track of the thread (of the
 * cpu for the idle task, tid 0, whose instances run on several cpus at
 * once), nothing of the text lines. It goes as a slice of the thread; of
 * the idle task, of a pseudo thread per cpu (CHROME_FUNCGRAPH_IDLE_PID). */
static gboolean
funcgraph_slice (ChromeWriter *w,
                 TraceBatch *batch,
                 const TraceEvent *ev,
                 gboolean entry,
                 TraceEvent *slice)
{
  const TraceArg *arg = trace_batch_find_arg (batch, ev, w->irq.k_func);
  const char *func = arg ? trace_batch_get_arg_string (batch, arg) : NULL;

  *slice = *ev;
  memset (&slice->u, 0, sizeof slice->u);
  slice->kind = entry ? TRACE_EVENT_SLICE_BEGIN : TRACE_EVENT_SLICE_END;
  slice->flags = 0;
  slice->category = 0;
  slice->name = intern (w, func ? func : "");
  if (ev->tid == 0 || ev->tid == TRACE_ID_UNKNOWN)
    {
      slice->pid = CHROME_FUNCGRAPH_IDLE_PID;
      slice->tid = CHROME_FUNCGRAPH_IDLE_PID + 1 + ev->cpu;
    }
  return TRUE;
}

/**
 * chrome_writer_kernel_as_event:
 * @slice: (out caller-allocates): the event to write for @ev
 *
 * Kernel events of a Perfetto trace of which trace_processor makes
 * slices or counters from the typed event but nothing from its ftrace
 * text line go as JSON events: a `gpu_frequency` as a counter
 * (gpu_frequency_counter()), a wakeup source or a suspend/resume step
 * as an async slice (wakelock_slice(), suspend_resume_slice()), a
 * function_graph call as a slice (funcgraph_slice()), an interrupt as a
 * slice. trace_processor
 * makes slices of the typed irq_handler_entry/exit and softirq_entry/exit
 * (`IRQ (timer)` on a per-cpu track `Irq Cpu N`, the softirq's action on
 * `SoftIrq Cpu N`), but of their ftrace text lines none. JSON has no cpu
 * track: the slices go on a thread per cpu and kind of an unnamed pseudo
 * process, ids no Linux task has (CHROME_IRQ_PID). A stream of another
 * format keeps its interrupt lines, as trace_processor made no slices of
 * them there either.
 *
 * Returns: whether @ev is such an event (then @slice is set, or its
 *   kind is %TRACE_EVENT_NONE for a softirq vector without a name or a
 *   gpu_frequency without a state)
 */
gboolean
chrome_writer_kernel_as_event (ChromeWriter *w,
                               TraceBatch *batch,
                               const TraceEvent *ev,
                               TraceEvent *slice)
{
  gboolean soft, begin;

  if (!w->opts.perfetto_kernel_events || ev->kind != TRACE_EVENT_FTRACE || ev->cpu < 0)
    return FALSE;
  if (w->irq.k_irq_entry == 0)
    {
      w->irq.k_gpu_frequency = intern (w, "gpu_frequency");
      w->irq.k_wake_activate = intern (w, "wakeup_source_activate");
      w->irq.k_wake_deactivate = intern (w, "wakeup_source_deactivate");
      w->irq.k_wakesource = intern (w, "wakesource");
      w->irq.k_suspend_resume = intern (w, "suspend_resume");
      w->irq.k_action = intern (w, "action");
      w->irq.k_suspend = intern (w, "suspend");
      w->irq.k_funcgraph_entry = intern (w, "funcgraph_entry");
      w->irq.k_funcgraph_exit = intern (w, "funcgraph_exit");
      w->irq.k_func = intern (w, "func");
      w->irq.k_irq_entry = intern (w, "irq_handler_entry");
      w->irq.k_irq_exit = intern (w, "irq_handler_exit");
      w->irq.k_softirq_entry = intern (w, "softirq_entry");
      w->irq.k_softirq_exit = intern (w, "softirq_exit");
      w->irq.k_vec = intern (w, "vec");
      w->irq.category = intern (w, "irq");
    }
  if (ev->name == w->irq.k_gpu_frequency)
    return gpu_frequency_counter (w, batch, ev, slice);
  if (ev->name == w->irq.k_funcgraph_entry || ev->name == w->irq.k_funcgraph_exit)
    return funcgraph_slice (w, batch, ev, ev->name == w->irq.k_funcgraph_entry, slice);
  if (ev->name == w->irq.k_suspend_resume)
    return suspend_resume_slice (w, batch, ev, slice);
  if (ev->name == w->irq.k_wake_activate || ev->name == w->irq.k_wake_deactivate)
    return wakelock_slice (w, batch, ev, ev->name == w->irq.k_wake_activate, slice);
  soft = ev->name == w->irq.k_softirq_entry || ev->name == w->irq.k_softirq_exit;
  begin = ev->name == w->irq.k_irq_entry || ev->name == w->irq.k_softirq_entry;
  if (!soft && !begin && ev->name != w->irq.k_irq_exit)
    return FALSE;
  *slice = *ev;
  memset (&slice->u, 0, sizeof slice->u);
  slice->kind = begin ? TRACE_EVENT_SLICE_BEGIN : TRACE_EVENT_SLICE_END;
  slice->flags = 0;
  slice->category = w->irq.category;
  slice->name = begin ? irq_slice_name (w, batch, ev, soft) : 0;
  slice->pid = CHROME_IRQ_PID;
  slice->tid = CHROME_IRQ_PID + 1 + 2 * (gint64) ev->cpu + (soft ? 1 : 0);
  if (begin && slice->name == 0)
    slice->kind = TRACE_EVENT_NONE;
  return TRUE;
}

/* The length of @p's prefix that ends on a whole UTF-8 character, so a
 * character split between two reads is escaped whole. */
static gsize
complete_utf8_prefix (const char *p,
                      gsize len)
{
  for (gsize back = 1; back <= 3 && back <= len; back++)
    {
      guchar c = p[len - back];

      if (c < 0x80)
        return len;
      if (c >= 0xC0)
        return (gsize) g_utf8_skip[c] > back ? len - back : len;
    }
  return len;
}

/**
 * chrome_writer_kernel_suffix:
 *
 * Writes `,"systemTraceEvents":"…"` with the collected text.
 */
gboolean
chrome_writer_kernel_suffix (ChromeWriter *w,
                             GError **error)
{
  g_autoptr (GInputStream) in = NULL;
  char chunk[64 * 1024];
  gsize carry = 0;

  if (w->kernel == NULL)
    return TRUE;
  in = chrome_spill_read (w->kernel, error);
  if (in == NULL)
    return FALSE;
  g_string_append (w->buf, ",\n\"systemTraceEvents\":\"");
  for (;;)
    {
      gssize n = g_input_stream_read (in, chunk + carry, sizeof chunk - carry, NULL, error);
      gsize avail, whole;

      if (n < 0)
        return FALSE;
      avail = carry + n;
      whole = n == 0 ? avail : complete_utf8_prefix (chunk, avail);
      chrome_fmt_string_body (w->buf, chunk, whole);
      carry = avail - whole;
      memmove (chunk, chunk + whole, carry);
      if (n == 0)
        break;
      if (w->buf->len >= CHROME_WRITER_FLUSH_SIZE && !chrome_writer_flush (w, error))
        return FALSE;
    }
  g_string_append_c (w->buf, '"');
  return TRUE;
}

void
chrome_writer_kernel_free (ChromeWriter *w)
{
  g_clear_pointer (&w->kernel, chrome_spill_free);
  g_clear_pointer (&w->text, ftrace_text_writer_free);
  if (w->line)
    g_string_free (w->line, TRUE);
  w->line = NULL;
  if (w->payload)
    g_string_free (w->payload, TRUE);
  w->payload = NULL;
}
