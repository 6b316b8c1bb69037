/* tracepipe - the htrace plugin
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "htrace-private.h"

/* The header's magic is certain. */
static guint
htrace_type_find (const guint8 *data,
                  gsize size,
                  gpointer user_data)
{
  return htrace_is_htrace (data, size) ? 100 : 0;
}

static gboolean
plugin_init (TracePlugin *plugin,
             GError **error)
{
  trace_type_find_register (plugin, "htrace", "htrace-src", htrace_type_find, NULL);
  return TRACE_ELEMENT_REGISTER (htrace_src, plugin);
}

TRACE_PLUGIN_DEFINE (htrace, "OpenHarmony htrace (hiprofiler) captures", plugin_init, PACKAGE_VERSION, "LGPL-2.1-or-later", "tracepipe")
