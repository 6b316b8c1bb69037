/* tracepipe - the tracefs plugin: live capture from the kernel's tracefs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "tracefs-private.h"

static gboolean
plugin_init (TracePlugin *plugin,
             GError **error)
{
  return TRACE_ELEMENT_REGISTER (tracefs_src, plugin);
}

TRACE_PLUGIN_DEFINE (tracefs, "Live capture from the Linux kernel's tracefs (libtracefs, libtraceevent)", plugin_init, PACKAGE_VERSION, "LGPL-2.1-or-later", "tracepipe")
