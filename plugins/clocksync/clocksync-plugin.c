/* tracepipe - the clocksync plugin
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "clocksync-private.h"

static gboolean
plugin_init (TracePlugin *plugin,
             GError **error)
{
  return TRACE_ELEMENT_REGISTER (clock_sync, plugin);
}

TRACE_PLUGIN_DEFINE (clocksync, "Puts streams from different clocks on one timeline", plugin_init, PACKAGE_VERSION, "LGPL-2.1-or-later", "tracepipe")
