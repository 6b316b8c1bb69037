/* A plugin that claims another ABI: the registry must refuse it and say why. */
#include <trace/trace.h>

static gboolean
plugin_init (TracePlugin *plugin,
             GError **error)
{
  g_error ("a plugin of the wrong ABI must never be initialised");
  return FALSE;
}

TRACE_PLUGIN_EXPORT const TracePluginDesc trace_plugin_desc = {
  999, "testbadabi", "Built for a future ABI", plugin_init, "1.0", "LGPL-2.1-or-later", "tests", { NULL }
};
