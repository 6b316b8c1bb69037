/* tracepipe - the json plugin
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "json-elements.h"

/* A Chrome trace: JSON whose start shows trace events (or only the
 * kernel's text, systemTraceEvents), and not one of the V8 profile
 * documents arkts-src reads. */
static guint
chrome_type_find (const guint8 *data,
                  gsize size,
                  gpointer user_data)
{
  TraceChromeJsonFlags signs =
      TRACE_CHROME_JSON_TRACE_EVENTS | TRACE_CHROME_JSON_SYSTEM_TRACE_EVENTS | TRACE_CHROME_JSON_PH;

  return (trace_type_find_chrome_json (data, size) & signs) ? 80 : 0;
}

static gboolean
plugin_init (TracePlugin *plugin,
             GError **error)
{
  trace_type_find_register (plugin, "chrome-json", "json-src", chrome_type_find, NULL);
  return TRACE_ELEMENT_REGISTER (json_src, plugin) && TRACE_ELEMENT_REGISTER (json_sink, plugin);
}

TRACE_PLUGIN_DEFINE (json, "Chrome's Trace Event Format (JSON)", plugin_init, PACKAGE_VERSION, "LGPL-2.1-or-later", "tracepipe")
