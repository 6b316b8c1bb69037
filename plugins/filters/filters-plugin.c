/* tracepipe - the filters plugin
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "filters-private.h"

static gboolean
plugin_init (TracePlugin *plugin,
             GError **error)
{
  return TRACE_ELEMENT_REGISTER (filter, plugin) && TRACE_ELEMENT_REGISTER (main_thread_filter, plugin);
}

TRACE_PLUGIN_DEFINE (filters, "Keep or drop events by thread, process, name, kind and time", plugin_init, PACKAGE_VERSION, "LGPL-2.1-or-later", "tracepipe")
