/* tracepipe - Perfetto: the names of TracePacket kinds
 *
 * perfetto-src carries packets of kinds its .proto subset does not
 * declare as records (perfetto-reader-opaque.c) and counts them by kind
 * in `--stats`. A count keyed by a field number says little to a user;
 * these are the names Perfetto's trace_packet.proto gives the fields of
 * TracePacket's `data` (numbers and names only, which is what the
 * keys need). A kind not listed is named by its number.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-common.h"

static const struct
{
  guint32 field;
  const char *name;
} packet_kinds[] = {
  { 1, "ftrace_events" },
  { 2, "process_tree" },
  { 4, "inode_file_map" },
  { 5, "chrome_events" },
  { 6, "clock_snapshot" },
  { 7, "sys_stats" },
  { 9, "process_stats" },
  { 11, "track_event" },
  { 33, "trace_config" },
  { 34, "ftrace_stats" },
  { 35, "trace_stats" },
  { 36, "synchronization_marker" },
  { 37, "profile_packet" },
  { 38, "battery" },
  { 39, "android_log" },
  { 40, "power_rails" },
  { 43, "process_descriptor" },
  { 44, "thread_descriptor" },
  { 45, "system_info" },
  { 46, "trigger" },
  { 47, "packages_list" },
  { 48, "chrome_benchmark_metadata" },
  { 49, "perfetto_metatrace" },
  { 50, "compressed_packets" },
  { 51, "chrome_metadata" },
  { 52, "gpu_counter_event" },
  { 53, "gpu_render_stage_event" },
  { 54, "streaming_profile_packet" },
  { 55, "profiled_frame_symbols" },
  { 56, "heap_graph" },
  { 57, "graphics_frame_event" },
  { 60, "track_descriptor" },
  { 61, "module_symbols" },
  { 62, "vulkan_memory_event" },
  { 63, "gpu_log" },
  { 64, "deobfuscation_mapping" },
  { 65, "vulkan_api_event" },
  { 66, "perf_sample" },
  { 67, "cpu_info" },
  { 68, "smaps_packet" },
  { 69, "service_event" },
  { 70, "initial_display_state" },
  { 71, "gpu_mem_total_event" },
  { 72, "extension_descriptor" },
  { 73, "memory_tracker_snapshot" },
  { 74, "streaming_allocation" },
  { 75, "streaming_free" },
  { 76, "frame_timeline_event" },
  { 77, "android_energy_estimation_breakdown" },
  { 78, "ui_state" },
  { 80, "android_camera_frame_event" },
  { 81, "android_camera_session_stats" },
  { 82, "translation_table" },
  { 83, "android_game_intervention_list" },
  { 84, "statsd_atom" },
  { 86, "android_system_property" },
  { 88, "network_packet" },
  { 89, "trace_uuid" },
  { 90, "track_event_range_of_interest" },
  { 91, "entity_state_residency" },
  { 95, "etw_events" },
  { 133, "zstd_compressed_packets" },
};

/**
 * perfetto_packet_kind_name:
 * @field: a field number of TracePacket's `data`
 * @buf: room for a name made of the number
 * @size: its size
 *
 * Returns: (transfer none): the kind's name in Perfetto's schema
 *   (`battery`), or `field_N` in @buf for one this table does not know
 */
const char *
perfetto_packet_kind_name (guint32 field,
                           char *buf,
                           gsize size)
{
  for (guint i = 0; i < G_N_ELEMENTS (packet_kinds); i++)
    if (packet_kinds[i].field == field)
      return packet_kinds[i].name;
  g_snprintf (buf, size, "field_%u", field);
  return buf;
}

/**
 * perfetto_packet_kind_carries_unread:
 * @field: a field number of TracePacket's `data`
 *
 * Returns: whether a record of this kind, though the subset declares it,
 *   carries what the reader does not read of such a packet:
 *   `system_info` whole, `sys_stats` the members other than the totals
 *   (perfetto-reader-opaque.c)
 */
gboolean
perfetto_packet_kind_carries_unread (guint32 field)
{
  return field == PERFETTO__PROTOS__TRACE_PACKET__DATA_SYSTEM_INFO ||
         field == PERFETTO__PROTOS__TRACE_PACKET__DATA_SYS_STATS;
}
