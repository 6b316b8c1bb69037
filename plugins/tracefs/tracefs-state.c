/* tracepipe - tracefs-src: what a capture changes in its buffer, and undoing it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "tracefs-private.h"

struct _CaptureState
{
  struct tracefs_instance *instance; /* NULL: the top-level buffer */
  char *where;                       /* the buffer's folder, for messages */
  char *clock;                       /* to record with */
  guint64 buffer_size_kb;
  int n_cpus;

  /* what was there before; restored when the flag says it was changed */
  gboolean saved;
  long long tracing_on;
  char *old_clock;
  guint64 *old_size_kb; /* per cpu */
  GPtrArray *enabled;   /* `system:event` lines of set_event we added */
  gboolean changed_on, changed_clock, changed_size;
};

static char *
read_file (CaptureState *state,
           const char *file)
{
  char *text = tracefs_instance_file_read (state->instance, file, NULL);

  /* libtracefs allocates with malloc: copy into GLib's allocator */
  char *copy = g_strdup (text ? text : "");

  free (text);
  return copy;
}

static gboolean
write_file (CaptureState *state,
            const char *file,
            const char *value,
            GError **error)
{
  if (tracefs_instance_file_write (state->instance, file, value) < 0)
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_WRITE, "%s/%s: cannot write `%s`", state->where,
                   file, value);
      return FALSE;
    }
  return TRUE;
}

/* `[local] global boot`: is @clock one of them, and which is selected */
static gboolean
clock_is_offered (const char *clocks,
                  const char *clock)
{
  g_auto (GStrv) names = g_strsplit_set (clocks, " \n", -1);

  for (guint i = 0; names[i]; i++)
    {
      char *name = g_strdelimit (names[i], "[]", ' ');

      if (strcmp (g_strstrip (name), clock) == 0)
        return TRUE;
    }
  return FALSE;
}

static gboolean
open_instance (CaptureState *state,
               const char *tracing_dir,
               const CaptureSettings *settings,
               GError **error)
{
  g_autofree char *dir = NULL;

  if (settings->instance == NULL || *settings->instance == '\0')
    {
      state->where = g_strdup (tracing_dir);
      return TRUE;
    }
  dir = g_build_filename (tracing_dir, "instances", settings->instance, NULL);
  if (strchr (settings->instance, '/') || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_NOT_FOUND,
                   "instance=%s: no such tracing instance (%s; make it with mkdir)", settings->instance, dir);
      return FALSE;
    }
  state->instance = tracefs_instance_alloc (tracing_dir, settings->instance);
  state->where = g_steal_pointer (&dir);
  if (state->instance == NULL)
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_OPEN_READ, "instance=%s: cannot open %s",
                   settings->instance, state->where);
      return FALSE;
    }
  return TRUE;
}

/**
 * capture_state_new:
 * @tracing_dir: where tracefs is
 * @settings: the buffer and what to set in it
 * @error: names the instance that is missing or the clock not offered
 *
 * Returns: (transfer full) (nullable): the capture's hold on its buffer;
 *   nothing is changed yet
 */
CaptureState *
capture_state_new (const char *tracing_dir,
                   const CaptureSettings *settings,
                   GError **error)
{
  g_autoptr (CaptureState) state = g_new0 (CaptureState, 1);
  g_autofree char *clocks = NULL;

  state->n_cpus = (int) MAX (1, sysconf (_SC_NPROCESSORS_CONF));
  state->buffer_size_kb = settings->buffer_size_kb;
  state->enabled = g_ptr_array_new_with_free_func (g_free);
  if (!open_instance (state, tracing_dir, settings, error))
    return NULL;
  clocks = read_file (state, "trace_clock");
  if (settings->clock && *settings->clock && !clock_is_offered (clocks, settings->clock))
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                   "clock=%s: this kernel's trace clocks are: %s", settings->clock, g_strstrip (clocks));
      return NULL;
    }
  state->clock = g_strdup (settings->clock);
  return g_steal_pointer (&state);
}

/**
 * capture_state_check_idle:
 * @state: the capture's buffer
 * @error: says who seems to be capturing
 *
 * The top-level buffer has tracing on from boot with nothing enabled,
 * where only markers are recorded: that is idle. It is in use (someone
 * else is capturing) when tracing is on and an event is enabled or a
 * tracer other than `nop` is set.
 *
 * Returns: whether nobody else is capturing into the buffer
 */
gboolean
capture_state_check_idle (CaptureState *state,
                          GError **error)
{
  g_autofree char *events = read_file (state, "set_event");
  g_autofree char *tracer = read_file (state, "current_tracer");
  g_autofree char *first = NULL;
  long long on = 0;
  char *nl;

  if (tracefs_instance_file_read_number (state->instance, "tracing_on", &on) < 0 || on == 0)
    return TRUE;
  g_strstrip (tracer);
  g_strstrip (events);
  if (*events == '\0' && (*tracer == '\0' || strcmp (tracer, "nop") == 0))
    return TRUE;
  nl = strchr (events, '\n');
  first = nl ? g_strdup_printf ("%.*s, …", (int) (nl - events), events) : g_strdup (events);
  g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_OPEN_WRITE,
               "%s is in use: tracing is on with %s%s enabled (someone else is capturing); stop that capture, or "
               "capture into another buffer with instance=NAME",
               state->where, *first ? first : "the tracer ", *first ? "" : tracer);
  return FALSE;
}

/* The size each cpu has; a buffer not yet expanded (`7 (expanded: 1408)`)
 * gets the expanded size, the one it has once used. */
static guint64
read_cpu_size_kb (CaptureState *state,
                  int cpu)
{
  g_autofree char *file = g_strdup_printf ("per_cpu/cpu%d/buffer_size_kb", cpu);
  g_autofree char *text = read_file (state, file);
  const char *expanded = strstr (text, "expanded:");

  return g_ascii_strtoull (expanded ? expanded + strlen ("expanded:") : text, NULL, 10);
}

static void
save (CaptureState *state)
{
  char *clock = tracefs_get_clock (state->instance);

  tracefs_instance_file_read_number (state->instance, "tracing_on", &state->tracing_on);
  state->old_clock = g_strdup (clock);
  free (clock);
  state->old_size_kb = g_new0 (guint64, state->n_cpus);
  for (int cpu = 0; cpu < state->n_cpus; cpu++)
    state->old_size_kb[cpu] = read_cpu_size_kb (state, cpu);
  state->saved = TRUE;
}

/* The lines set_event gained: the events the capture enabled. */
static void
note_enabled (CaptureState *state,
              const char *before)
{
  g_autoptr (GHashTable) old = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto (GStrv) before_lines = g_strsplit (before, "\n", -1);
  g_autofree char *after = read_file (state, "set_event");
  g_auto (GStrv) after_lines = g_strsplit (after, "\n", -1);

  for (guint i = 0; before_lines[i]; i++)
    g_hash_table_add (old, before_lines[i]);
  for (guint i = 0; after_lines[i]; i++)
    if (*after_lines[i] && !g_hash_table_contains (old, after_lines[i]))
      g_ptr_array_add (state->enabled, g_strdup (after_lines[i]));
}

static gboolean
enable_events (CaptureState *state,
               GPtrArray *events,
               GError **error)
{
  g_autofree char *before = read_file (state, "set_event");
  gboolean ok = TRUE;

  for (guint i = 0; i < events->len && ok; i++)
    {
      CaptureEvent *ev = events->pdata[i];

      /* ftrace's own events (print: the markers) have no enable file:
       * they are recorded whenever tracing is on */
      if (strcmp (ev->system, "ftrace") == 0)
        continue;
      if (tracefs_event_enable (state->instance, ev->system, ev->event) < 0)
        {
          g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_WRITE, "events=: cannot enable %s%s%s in %s",
                       ev->system, ev->event ? "/" : "", ev->event ? ev->event : "", state->where);
          ok = FALSE;
        }
    }
  note_enabled (state, before);
  return ok;
}

/**
 * capture_state_apply:
 * @state: the capture's buffer
 * @events: (element-type CaptureEvent): the events to enable
 * @error: what could not be set
 *
 * Saves the buffer's state, then stops tracing in it, sets the clock and
 * the size, enables @events and empties the buffer: what was recorded
 * before is not the capture's. On failure, what was changed is undone.
 *
 * Returns: whether the buffer is ready for capture_state_start()
 */
gboolean
capture_state_apply (CaptureState *state,
                     GPtrArray *events,
                     GError **error)
{
  g_autoptr (GError) ignored = NULL;
  char kb[32];

  save (state);
  state->changed_on = TRUE;
  if (!write_file (state, "tracing_on", "0", error))
    goto failed;
  if (state->clock && *state->clock && g_strcmp0 (state->clock, state->old_clock) != 0)
    {
      state->changed_clock = TRUE;
      if (!write_file (state, "trace_clock", state->clock, error))
        goto failed;
    }
  if (state->buffer_size_kb > 0)
    {
      state->changed_size = TRUE;
      g_snprintf (kb, sizeof kb, "%" G_GUINT64_FORMAT, state->buffer_size_kb);
      if (!write_file (state, "buffer_size_kb", kb, error))
        goto failed;
    }
  if (!enable_events (state, events, error))
    goto failed;
  if (tracefs_instance_file_clear (state->instance, "trace") < 0)
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_WRITE, "%s/trace: cannot empty the buffer",
                   state->where);
      goto failed;
    }
  return TRUE;
failed:
  capture_state_restore (state, &ignored);
  return FALSE;
}

/**
 * capture_state_start:
 * @state: the capture's buffer, applied
 * @error: why tracing could not be turned on
 *
 * Returns: whether the buffer records
 */
gboolean
capture_state_start (CaptureState *state,
                     GError **error)
{
  return write_file (state, "tracing_on", "1", error);
}

/**
 * capture_state_stop_recording:
 * @state: the capture's buffer
 *
 * Turns tracing off, so that the readers' last pass reads to an end.
 */
void
capture_state_stop_recording (CaptureState *state)
{
  if (state->saved)
    tracefs_instance_file_write (state->instance, "tracing_on", "0");
}

static void
restore_sizes (CaptureState *state,
               GError **error)
{
  for (int cpu = 0; cpu < state->n_cpus; cpu++)
    {
      g_autofree char *file = g_strdup_printf ("per_cpu/cpu%d/buffer_size_kb", cpu);
      g_autofree char *kb = g_strdup_printf ("%" G_GUINT64_FORMAT, state->old_size_kb[cpu]);

      if (state->old_size_kb[cpu] > 0 && read_cpu_size_kb (state, cpu) != state->old_size_kb[cpu])
        write_file (state, file, kb, error && *error ? NULL : error);
    }
}

/**
 * capture_state_restore:
 * @state: the capture's buffer
 * @error: the first thing that could not be restored
 *
 * Puts back what capture_state_apply() changed: the events it enabled
 * are disabled, the clock, the size and tracing_on are what they were.
 * Each is restored once; calling it again does nothing.
 *
 * Returns: whether everything was restored
 */
gboolean
capture_state_restore (CaptureState *state,
                       GError **error)
{
  g_autoptr (GError) first = NULL;

  if (!state->saved)
    return TRUE;
  tracefs_instance_file_write (state->instance, "tracing_on", "0");
  for (guint i = 0; i < state->enabled->len; i++)
    {
      g_autofree char *line = g_strconcat ("!", (char *) state->enabled->pdata[i], NULL);

      if (tracefs_instance_file_append (state->instance, "set_event", line) < 0 && first == NULL)
        g_set_error (&first, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_WRITE, "%s/set_event: cannot disable %s",
                     state->where, (char *) state->enabled->pdata[i]);
    }
  g_ptr_array_set_size (state->enabled, 0);
  if (state->changed_clock && state->old_clock)
    write_file (state, "trace_clock", state->old_clock, first ? NULL : &first);
  if (state->changed_size)
    restore_sizes (state, &first);
  if (state->changed_on)
    write_file (state, "tracing_on", state->tracing_on ? "1" : "0", first ? NULL : &first);
  state->changed_on = state->changed_clock = state->changed_size = FALSE;
  state->saved = FALSE;
  if (first)
    {
      g_propagate_error (error, g_steal_pointer (&first));
      return FALSE;
    }
  return TRUE;
}

void
capture_state_free (CaptureState *state)
{
  if (state == NULL)
    return;
  tracefs_instance_free (state->instance);
  g_free (state->where);
  g_free (state->clock);
  g_free (state->old_clock);
  g_free (state->old_size_kb);
  g_ptr_array_unref (state->enabled);
  g_free (state);
}

struct tracefs_instance *
capture_state_get_instance (CaptureState *state)
{
  return state->instance;
}

/**
 * capture_state_get_where:
 * @state: the capture's buffer
 *
 * Returns: the buffer's folder in tracefs
 */
const char *
capture_state_get_where (CaptureState *state)
{
  return state->where;
}

/**
 * capture_state_get_clock:
 * @state: the capture's buffer, applied
 *
 * Returns: the clock the buffer records with
 */
const char *
capture_state_get_clock (CaptureState *state)
{
  return state->clock && *state->clock ? state->clock : state->old_clock;
}

guint64
capture_state_get_buffer_size_kb (CaptureState *state)
{
  return state->buffer_size_kb > 0 || state->old_size_kb == NULL ? state->buffer_size_kb : state->old_size_kb[0];
}
