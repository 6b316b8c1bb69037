/* tracepipe - arkts: the plugin (arkts-src and its format detector)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "arkts-private.h"

/* The first key of the first object: V8 documents and DevTools messages
 * start with keys a Chrome trace never starts with. `typeId` opens the
 * legacy CPU profile node's v8-profiler exports (`typeId`, `uid`,
 * `title`, then the `head` call tree). */
static gboolean
first_key_is (const guint8 *data,
              gsize size,
              const char *const *keys)
{
  const char *p = (const char *) data, *end = p + size;

  while (p < end && (g_ascii_isspace (*p) || *p == '['))
    p++;
  if (p >= end || *p != '{')
    return FALSE;
  for (p++; p < end && g_ascii_isspace (*p); p++)
    ;
  for (guint i = 0; keys[i]; i++)
    {
      gsize n = strlen (keys[i]);
      if ((gsize) (end - p) > n + 2 && p[0] == '"' && memcmp (p + 1, keys[i], n) == 0 && p[n + 1] == '"')
        return TRUE;
    }
  return FALSE;
}

static guint
arkts_type_find (const guint8 *data,
                 gsize size,
                 gpointer user_data)
{
  static const char *const doc_keys[] = { "nodes", "head", "snapshot", "startTime", "samples", "typeId", NULL };
  static const char *const msg_keys[] = { "id", "method", NULL };

  if (trace_type_find_chrome_json (data, size) & TRACE_CHROME_JSON_TRACE_EVENTS)
    return 0;
  if (first_key_is (data, size, doc_keys))
    return 90;
  if (first_key_is (data, size, msg_keys) &&
      (trace_type_find_contains (data, size, "HeapProfiler.") || trace_type_find_contains (data, size, "\"result\"")))
    return 90;
  return 0;
}

static gboolean
plugin_init (TracePlugin *plugin,
             GError **error)
{
  trace_type_find_register (plugin, "arkts", "arkts-src", arkts_type_find, NULL);
  return TRACE_ELEMENT_REGISTER (arkts_src, plugin);
}

TRACE_PLUGIN_DEFINE (arkts, "OpenHarmony ArkTS and V8 heap and CPU profiles", plugin_init, PACKAGE_VERSION, "LGPL-2.1-or-later", "tracepipe")
