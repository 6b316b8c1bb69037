/* tracepipe - tracefs-src: the events= list
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "tracefs-private.h"

void
capture_event_free (CaptureEvent *ev)
{
  if (ev == NULL)
    return;
  g_free (ev->system);
  g_free (ev->event);
  g_free (ev);
}

/* `sched`, `sched:sched_switch` (trace-cmd's spelling), `sched/sched_switch`
 * (the tracefs path), `sched:*`; a bare name may also be an event of some
 * system, found by capture_resolve_events(). */
static CaptureEvent *
parse_item (const char *item)
{
  CaptureEvent *ev = g_new0 (CaptureEvent, 1);
  const char *sep = strpbrk (item, ":/");

  if (sep == NULL)
    {
      ev->system = g_strdup (item);
      return ev;
    }
  ev->system = g_strndup (item, sep - item);
  if (strcmp (sep + 1, "*") != 0 && sep[1] != '\0')
    ev->event = g_strdup (sep + 1);
  return ev;
}

static gboolean
is_plain_name (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isalnum (*s) && *s != '_' && *s != '-' && *s != '.')
      return FALSE;
  return TRUE;
}

/**
 * capture_parse_events:
 * @text: the events= property: items separated by commas
 * @error: names the first item that is no event name
 *
 * Returns: (transfer full) (element-type CaptureEvent) (nullable): the items
 */
GPtrArray *
capture_parse_events (const char *text,
                      GError **error)
{
  g_autoptr (GPtrArray) events = g_ptr_array_new_with_free_func ((GDestroyNotify) capture_event_free);
  g_auto (GStrv) items = g_strsplit (text ? text : "", ",", -1);

  for (guint i = 0; items[i]; i++)
    {
      char *item = g_strstrip (items[i]);
      CaptureEvent *ev;

      if (*item == '\0')
        continue;
      ev = parse_item (item);
      g_ptr_array_add (events, ev);
      if (!is_plain_name (ev->system) || (ev->event && !is_plain_name (ev->event)))
        {
          g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                       "events=: `%s` is not an event (`system`, `system:event` or `system/event`)", item);
          return NULL;
        }
    }
  if (events->len == 0)
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS, "events=: no event named");
      return NULL;
    }
  return g_steal_pointer (&events);
}

/* The system of a bare event name: the one folder of @events_dir that
 * has it. */
static char *
find_event_system (const char *events_dir,
                   const char *name)
{
  g_autoptr (GDir) dir = g_dir_open (events_dir, 0, NULL);
  char *found = NULL;
  const char *system;

  while (dir && (system = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (events_dir, system, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          g_free (found);
          found = g_strdup (system);
        }
    }
  return found;
}

/**
 * capture_resolve_events:
 * @events: (element-type CaptureEvent): from capture_parse_events()
 * @events_dir: the buffer's `events` folder
 * @error: names the first item the kernel does not have
 *
 * Checks every item against the kernel's events; a bare name that is no
 * system but an event of one becomes that event.
 *
 * Returns: whether every item names events of this kernel
 */
gboolean
capture_resolve_events (GPtrArray *events,
                        const char *events_dir,
                        GError **error)
{
  for (guint i = 0; i < events->len; i++)
    {
      CaptureEvent *ev = events->pdata[i];
      g_autofree char *path = g_build_filename (events_dir, ev->system, ev->event, NULL);
      g_autofree char *system = NULL;

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        continue;
      if (ev->event == NULL && (system = find_event_system (events_dir, ev->system)) != NULL)
        {
          ev->event = g_steal_pointer (&ev->system);
          ev->system = g_steal_pointer (&system);
          continue;
        }
      if (ev->event)
        g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                     "events=: this kernel has no event %s/%s (%s)", ev->system, ev->event, events_dir);
      else
        g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS,
                     "events=: this kernel has no event or event system %s (%s)", ev->system, events_dir);
      return FALSE;
    }
  return TRUE;
}

/**
 * capture_events_want:
 * @events: (element-type CaptureEvent): resolved items
 * @system: a record's system
 * @event: its name
 *
 * Returns: whether the list asks for that event
 */
gboolean
capture_events_want (GPtrArray *events,
                     const char *system,
                     const char *event)
{
  for (guint i = 0; i < events->len; i++)
    {
      CaptureEvent *ev = events->pdata[i];

      if (g_strcmp0 (ev->system, system) == 0 && (ev->event == NULL || g_strcmp0 (ev->event, event) == 0))
        return TRUE;
    }
  return FALSE;
}

/**
 * capture_events_systems:
 * @events: (element-type CaptureEvent): resolved items
 *
 * Returns: (transfer full): the systems named, each once, and `ftrace`
 *   (markers are recorded whatever is enabled)
 */
char **
capture_events_systems (GPtrArray *events)
{
  g_autoptr (GStrvBuilder) b = g_strv_builder_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  g_hash_table_add (seen, (gpointer) "ftrace");
  g_strv_builder_add (b, "ftrace");
  for (guint i = 0; i < events->len; i++)
    {
      CaptureEvent *ev = events->pdata[i];

      if (g_hash_table_add (seen, ev->system))
        g_strv_builder_add (b, ev->system);
    }
  return g_strv_builder_end (b);
}
