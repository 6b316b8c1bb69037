/* tracepipe - tracefs-src: the formats of the events captured
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libtracefs's tracefs_local_events_system() also reads /proc/kallsyms,
 * which only printing kernel addresses as symbols needs: 0.5 s at each
 * start (14 s under AddressSanitizer). The capture parses the formats of
 * its systems and the saved comms only.
 */
#include "config.h"

#include "tracefs-private.h"

static gboolean
parse_file (struct tep_handle *tep,
            const char *path,
            const char *system)
{
  g_autofree char *text = NULL;
  gsize size = 0;

  if (!g_file_get_contents (path, &text, &size, NULL))
    return FALSE;
  if (system == NULL)
    return tep_parse_header_page (tep, text, size, sizeof (long)) == 0;
  return tep_parse_event (tep, text, size, system) == TEP_ERRNO__SUCCESS;
}

/**
 * capture_load_formats:
 * @tracing_dir: where tracefs is
 * @systems: the event systems whose formats to read
 * @error: why the ring buffer's own format could not be read
 *
 * An event whose format libtraceevent cannot parse is left out: its
 * records are then counted by the kernel engine as of an unknown event.
 *
 * Returns: (transfer full) (nullable): the formats, free with tep_free()
 */
struct tep_handle *
capture_load_formats (const char *tracing_dir,
                      char **systems,
                      GError **error)
{
  g_autofree char *header = g_build_filename (tracing_dir, "events", "header_page", NULL);
  struct tep_handle *tep = tep_alloc ();

  /* the kernel's long is this process's: tracefs is read on the machine
   * that records (what libtracefs assumes too) */
  if (tep != NULL)
    tep_set_long_size (tep, sizeof (long));
  if (tep == NULL || !parse_file (tep, header, NULL))
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_READ, "%s: cannot read the ring buffer's format",
                   header);
      g_clear_pointer (&tep, tep_free);
      return NULL;
    }
  for (guint s = 0; systems[s]; s++)
    {
      char **events = tracefs_system_events (tracing_dir, systems[s]);

      for (guint e = 0; events && events[e]; e++)
        {
          g_autofree char *path = g_build_filename (tracing_dir, "events", systems[s], events[e], "format", NULL);

          if (!parse_file (tep, path, systems[s]))
            g_debug ("%s: not parsed", path);
        }
      tracefs_list_free (events);
    }
  tracefs_load_cmdlines (tracing_dir, tep);
  return tep;
}
