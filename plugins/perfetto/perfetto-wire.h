/* tracepipe - the Perfetto wire writer: TrackEvent and ftrace bundle
 * packets straight to protobuf wire format (perfetto-writer-wire.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "perfetto-common.h"

G_BEGIN_DECLS

/* A growable output buffer of the wire writer (perfetto-writer-wire.c). */
typedef struct
{
  guint8 *data;
  gsize len;
  gsize cap;
} PerfettoWireBuf;

gboolean perfetto_wire_append_record (PerfettoWireBuf *b,
                                      const PerfettoPacket *pkt,
                                      const PerfettoWireBuf *annotations);
gboolean perfetto_wire_check_schema (GError **error);

G_END_DECLS
