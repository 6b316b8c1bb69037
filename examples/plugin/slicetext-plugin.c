/* examples/plugin: the plugin's entry point
 *
 * A plugin is a loadable module that exports one symbol,
 * `trace_plugin_desc`, which TRACE_PLUGIN_DEFINE writes. The registry
 * checks its ABI version, then calls plugin_init to register the
 * element factories and the format detectors.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "slicetext.h"

/* A slicetext file announces itself on its first line. */
static guint
slicetext_type_find (const guint8 *data,
                     gsize size,
                     gpointer user_data)
{
  static const char magic[] = "# slicetext";

  if (size >= sizeof magic - 1 && memcmp (data, magic, sizeof magic - 1) == 0)
    return 100;
  return 0;
}

static gboolean
plugin_init (TracePlugin *plugin,
             GError **error)
{
  /* auto-src asks every detector about a file's first bytes and makes
   * the element of the most likely format. */
  trace_type_find_register (plugin, "slicetext", "slicetext-src", slicetext_type_find, NULL);
  return TRACE_ELEMENT_REGISTER (slicetext_src, plugin) &&
         TRACE_ELEMENT_REGISTER (min_duration, plugin);
}

TRACE_PLUGIN_DEFINE (slicetext, "The slicetext format: an example of an out-of-tree plugin", plugin_init, "1.0", "LGPL-2.1-or-later", "tracepipe examples")
