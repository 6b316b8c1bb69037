/* tracepipe - the tracecmd plugin
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "tracecmd-private.h"

/* trace-cmd's magic is certain. */
static guint
tracecmd_type_find (const guint8 *data,
                    gsize size,
                    gpointer user_data)
{
  return tracecmd_has_magic (data, size) ? 100 : 0;
}

static gboolean
plugin_init (TracePlugin *plugin,
             GError **error)
{
  trace_type_find_register_full (plugin, "trace.dat", "tracecmd-src", TRACECMD_MAGIC_LEN, tracecmd_type_find, NULL);
  return TRACE_ELEMENT_REGISTER (tracecmd_src, plugin);
}

TRACE_PLUGIN_DEFINE (tracecmd, "trace-cmd's trace.dat, through libtracecmd", plugin_init, PACKAGE_VERSION, "LGPL-2.1-or-later", "tracepipe")
