/* tracepipe fuzzing - trace_parse_launch()
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include <trace/trace.h>

#include "fuzz-targets.h"

/* The description parser with every plugin of the build loaded (their
 * properties, enums, flags and request pads): a pipeline or an error,
 * never both, never neither. Nothing is run. */
void
fuzz_launch (const guint8 *data,
             gsize size)
{
  static gsize initialised = 0;
  g_autofree char *description = g_strndup ((const char *) data, size);
  g_autoptr (GError) error = NULL;
  TraceElement *pipeline;

  if (g_once_init_enter (&initialised))
    {
      trace_init (NULL, NULL);
      g_once_init_leave (&initialised, 1);
    }
  pipeline = trace_parse_launch (description, &error);
  if ((pipeline == NULL) == (error == NULL))
    abort ();
  if (error && (error->message == NULL || !g_utf8_validate (error->message, -1, NULL)))
    {
      /* an error text must be printable even for garbage input */
      if (g_utf8_validate (description, -1, NULL))
        abort ();
    }
  g_clear_object (&pipeline);
}
