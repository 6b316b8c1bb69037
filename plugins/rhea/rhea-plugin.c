/* tracepipe - the rhea plugin: registers `rhea-repair`
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "rhea-private.h"

static gboolean
plugin_init (TracePlugin *plugin,
             GError **error)
{
  return TRACE_ELEMENT_REGISTER (rhea_repair, plugin);
}

TRACE_PLUGIN_DEFINE (rhea, "RheaTrace (btrace) method-marker repair", plugin_init, PACKAGE_VERSION, "LGPL-2.1-or-later", "tracepipe")
