/* tracepipe - json plugin: the state json-sink keeps for the Perfetto
 * packets it writes as Chrome events (json-writer-graphics.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "graphics_packets.pb-c.h"
#include "json-writer-private.h"
#include "sys_stats_packet.pb-c.h"

G_BEGIN_DECLS

struct _ChromeGraphics
{
  guint32 k_field, k_bytes;
  GHashTable *counters;          /* counter id → GpuCounter */
  GHashTable *frames;            /* cookie (gint64*) → OpenFrame */
  GHashTable *expected_surfaces; /* "pid token" of expected surface frames */
  GHashTable *linked_displays;   /* display tokens (gint64*) a flow began for, until
                                  * their actual display frame */
};

/* json-writer-gpu.c */
void chrome_graphics_gpu_counter_free (gpointer counter);
void chrome_graphics_gpu_counter_event (ChromeWriter *w, const Tracepipe__Json__GpuCounterEvent *e, gint64 ts);
/* json-writer-sysstats.c */
void chrome_writer_sys_stats (ChromeWriter *w, const Tracepipe__Json__SysStatsPacket *s, gint64 ts);
/* json-writer-frames.c */
void chrome_graphics_frame_timeline_event (ChromeWriter *w, const Tracepipe__Json__FrameTimelineEvent *e, gint64 ts);

G_END_DECLS
