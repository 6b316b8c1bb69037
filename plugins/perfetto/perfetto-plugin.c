/* tracepipe - the perfetto plugin
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "perfetto-private.h"

/* A Perfetto trace is a run of `Trace.packet` records: field 1, wire type
 * 2 (byte 0x0a), a varint length, then a TracePacket whose first byte is
 * itself a plausible field tag. Text never starts that way. */
static guint
perfetto_type_find (const guint8 *data,
                    gsize size,
                    gpointer user_data)
{
  guint64 len = 0;
  gsize i = 1;
  guint shift = 0;
  guint score;

  if (size < 3 || data[0] != 0x0a)
    return 0;
  while (i < size && i < 11 && (data[i] & 0x80))
    len |= (guint64) (data[i++] & 0x7f) << shift, shift += 7;
  if (i >= size)
    return 0;
  len |= (guint64) data[i++] << shift;
  /* The packet's first field: a small field number, a known wire type. */
  if (len > 0 && i < size && (data[i] & 0x07) <= 5 && (data[i] >> 3) > 0)
    score = 70;
  else
    score = 10;
  g_debug ("perfetto: the input starts with a Trace.packet record of %" G_GUINT64_FORMAT " bytes: score %u", len,
           score);
  return score;
}

static gboolean
plugin_init (TracePlugin *plugin,
             GError **error)
{
  trace_type_find_register (plugin, "perfetto", "perfetto-src", perfetto_type_find, NULL);
  return TRACE_ELEMENT_REGISTER (perfetto_sink, plugin) && TRACE_ELEMENT_REGISTER (perfetto_src, plugin);
}

TRACE_PLUGIN_DEFINE (perfetto, "Perfetto protobuf traces (TrackEvent, ftrace bundles)", plugin_init, PACKAGE_VERSION, "LGPL-2.1-or-later", "tracepipe")
