/* tracepipe - Perfetto reader: packets of kinds the model does not know
 *
 * A Perfetto trace holds many kinds of packets tracepipe's event model
 * has no place for: battery and power-rail counters, Android logs, GPU
 * counters, frame timelines, system properties… Dropping them would make
 * `perfetto-src ! perfetto-sink` lose what trace_processor shows of the
 * original. Instead each goes on as a %TRACE_EVENT_RECORD at the packet's
 * time: its name says the kind (`perfetto_packet_38`), its args carry
 * the TracePacket field number and the payload as it was (base64, the
 * length prefix included), and perfetto-sink writes the payload back
 * under the same field (perfetto-writer-opaque.c). Other sinks write
 * it as a generic record. Counted by kind in `--stats`.
 *
 * Not carried, counted as skipped by kind: a packet that needs its
 * sequence's interned data (the interned data is not carried with it,
 * so trace_processor could not resolve it), zstd-compressed packets
 * (their inner packets belong to sequences the sink rewrites), and
 * payloads over PERFETTO_MAX_OPAQUE_PACKET.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-reader-private.h"

#define ZSTD_COMPRESSED_PACKETS 133u

/* Distinct kinds counted one by one; the rest share one count (a trace
 * can only name so many kinds, but a damaged one can name millions). */
#define MAX_COUNTED_KINDS 256u

static PerfettoPacketKindCount *
kind_count (PerfettoReader *r,
            guint32 field)
{
  PerfettoPacketKindCount *c = g_hash_table_lookup (r->packet_kinds, GUINT_TO_POINTER (field));

  if (c != NULL)
    return c;
  if (g_hash_table_size (r->packet_kinds) >= MAX_COUNTED_KINDS)
    field = 0;
  if ((c = g_hash_table_lookup (r->packet_kinds, GUINT_TO_POINTER (field))) == NULL)
    {
      c = g_new0 (PerfettoPacketKindCount, 1);
      g_hash_table_insert (r->packet_kinds, GUINT_TO_POINTER (field), c);
    }
  return c;
}

/* The record of a packet: its TracePacket field @field and its payload
 * @data (the length prefix included), at @ts. */
static void
emit_record (PerfettoReader *r,
             guint32 field,
             const guint8 *data,
             gsize len,
             gint64 ts)
{
  g_autofree char *name = g_strdup_printf (PERFETTO_OPAQUE_PACKET_PREFIX "%u", field);
  g_autofree char *raw = g_base64_encode (data, len);
  TraceEvent *ev = perfetto_reader_emit (r, TRACE_EVENT_RECORD, ts);

  ev->name = perfetto_reader_intern (r, name);
  trace_batch_add_arg (r->batch, ev, r->k_opaque_field, TRACE_ARG_UINT)->v.u = field;
  trace_batch_add_arg (r->batch, ev, r->k_opaque_bytes, TRACE_ARG_STRING)->v.s = perfetto_reader_intern (r, raw);
}

/* Returns: the packet's payload, the first length-delimited field the
 * subset does not declare (every length-delimited field of a packet's
 * header is declared, so it is the packet's data), or %NULL */
static const ProtobufCMessageUnknownField *
find_payload (const PerfettoPacket *pkt)
{
  for (guint i = 0; i < pkt->base.n_unknown_fields; i++)
    if (pkt->base.unknown_fields[i].wire_type == PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED)
      return &pkt->base.unknown_fields[i];
  return NULL;
}

static const char *
skip_reason (const PerfettoPacket *pkt,
             const ProtobufCMessageUnknownField *payload)
{
  if (payload->tag == ZSTD_COMPRESSED_PACKETS)
    return "zstd-compressed packets (not read, not carried)";
  if (pkt->has_sequence_flags && (pkt->sequence_flags & PERFETTO_SEQ_NEEDS))
    return "packet of an unknown kind that needs its sequence's interned data (not carried)";
  if (payload->len > PERFETTO_MAX_OPAQUE_PACKET)
    return "packet of an unknown kind over the size carried";
  return NULL;
}

/**
 * perfetto_reader_unknown_packet:
 * @r: a #PerfettoReader
 * @pkt: a packet whose data is none the subset declares
 * @ts: its time, in the stream's clock
 *
 * Carries @pkt's payload on as a record, or counts it as skipped.
 */
void
perfetto_reader_unknown_packet (PerfettoReader *r,
                                const PerfettoPacket *pkt,
                                gint64 ts)
{
  const ProtobufCMessageUnknownField *payload = find_payload (pkt);
  const char *reason;

  if (payload == NULL)
    {
      perfetto_reader_skip (r, &r->stats.unknown_packets, 1, "packet of a kind the reader does not know");
      return;
    }
  if ((reason = skip_reason (pkt, payload)) != NULL)
    {
      kind_count (r, payload->tag)->skipped++;
      perfetto_reader_skip (r, &r->stats.unknown_packets, 1, reason);
      return;
    }
  kind_count (r, payload->tag)->carried++;
  perfetto_reader_skip (r, &r->stats.opaque_packets, 1, "packet of a kind the schema does not declare (carried as opaque bytes)");
  emit_record (r, payload->tag, payload->data, payload->len, ts);
}

/**
 * perfetto_reader_system_info:
 * @r: a #PerfettoReader
 * @info: a packet's SystemInfo
 * @ts: its time
 *
 * Takes the kernel version @info names for the prev_state of the sched
 * switches that follow (trace_processor applies the last one to all of
 * them: one that comes after switches were read is counted), and carries
 * the packet on as a record, all its fields as they were (protobuf-c
 * keeps the ones the subset does not declare).
 */
void
perfetto_reader_system_info (PerfettoReader *r,
                             const Perfetto__Protos__SystemInfo *info,
                             gint64 ts)
{
  guint32 version = perfetto_system_info_version (info);
  g_autofree guint8 *buf = NULL;
  gsize len;

  if (r->states_read && version != r->kernel_version)
    perfetto_reader_skip (r, &r->stats.late_system_info, 1,
                          "system_info naming another kernel after sched switches were read (those read as before)");
  r->kernel_version = version;
  buf = perfetto_pack_length_delimited (&info->base, &len);
  kind_count (r, PERFETTO__PROTOS__TRACE_PACKET__DATA_SYSTEM_INFO)->carried++;
  perfetto_reader_skip (r, &r->stats.opaque_packets, 1, "packet of a kind the schema does not declare (carried as opaque bytes)");
  emit_record (r, PERFETTO__PROTOS__TRACE_PACKET__DATA_SYSTEM_INFO, buf, len, ts);
}

/**
 * perfetto_reader_carry_unread_members:
 * @r: a #PerfettoReader
 * @kind: the TracePacket field of @payload
 * @payload: a packet's payload the reader reads in part
 * @ts: the packet's time
 *
 * Carries the members of @payload the subset does not declare (protobuf-c
 * keeps them as unknown fields) on as a record of @kind, a payload of
 * their own: perfetto-sink writes it back as a second packet of that kind,
 * from which trace_processor reads what it read of them in the original.
 * Only for kinds whose members need no interned data (sys_stats).
 */
void
perfetto_reader_carry_unread_members (PerfettoReader *r,
                                      guint32 kind,
                                      const ProtobufCMessage *payload,
                                      gint64 ts)
{
  const ProtobufCMessageDescriptor *desc = payload->descriptor;
  g_autofree ProtobufCMessage *rest = g_malloc0 (desc->sizeof_message);
  g_autofree guint8 *buf = NULL;
  gsize len;

  if (payload->n_unknown_fields == 0)
    return;
  desc->message_init (rest);
  rest->n_unknown_fields = payload->n_unknown_fields;
  rest->unknown_fields = payload->unknown_fields;
  buf = perfetto_pack_length_delimited (rest, &len);
  kind_count (r, kind)->carried++;
  perfetto_reader_skip (r, &r->stats.opaque_packets, 1, "packet of a kind the schema does not declare (carried as opaque bytes)");
  emit_record (r, kind, buf, len, ts);
}

/**
 * perfetto_reader_unread_fields:
 * @r: a #PerfettoReader
 * @kind: the TracePacket field of the packet they are in
 * @n: how many fields
 *
 * Counts fields of a message the reader reads that its subset does not
 * declare (a TrackEvent's log message, an ftrace event's newer fields):
 * not carried, since they may refer to interned data the output would
 * not have (docs/perfetto.md).
 */
void
perfetto_reader_unread_fields (PerfettoReader *r,
                               guint32 kind,
                               guint n)
{
  kind_count (r, kind)->unread_fields += n;
  perfetto_reader_skip (r, &r->stats.unread_fields, n, "field the schema does not declare, in a packet that is read");
}

/* Counts the payload's own unknown fields (not those of its members). */
void
perfetto_reader_count_unread_payload (PerfettoReader *r,
                                      const PerfettoPacket *pkt)
{
  guint32 field;
  const ProtobufCMessage *payload = perfetto_oneof_get (&pkt->base, &field);

  /* system_info goes on whole, with the fields it does not read, and the
   * members of sys_stats it does not read on their own */
  if (payload != NULL && payload->n_unknown_fields > 0 && !perfetto_packet_kind_carries_unread (field))
    perfetto_reader_unread_fields (r, field, payload->n_unknown_fields);
}

/**
 * perfetto_reader_foreach_packet_kind:
 * @r: a #PerfettoReader
 * @func: called with each kind's field number (0: the kinds past the
 *   ones counted one by one) and counts
 * @user_data: for @func
 */
void
perfetto_reader_foreach_packet_kind (PerfettoReader *r,
                                     PerfettoPacketKindFunc func,
                                     gpointer user_data)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, r->packet_kinds);
  while (g_hash_table_iter_next (&iter, &key, &value))
    func (GPOINTER_TO_UINT (key), value, user_data);
}
