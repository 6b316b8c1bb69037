/* tracepipe - Perfetto writer: protobuf wire format, field by field
 *
 * The primitives of the streaming writer (perfetto-writer-wire.c), inline
 * where the hot packets are written: the packets themselves, and the
 * debug annotations of an event's args (perfetto-writer-args.c). Each
 * writes a field in protobuf-c's own encoding (int32 negatives as
 * ten-byte varints; a length-delimited field opened with a one-byte
 * length slot, the body moved on close if its length needs more).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <string.h>

#include "perfetto-wire.h"

#define W_VARINT PROTOBUF_C_WIRE_TYPE_VARINT
#define W_64BIT PROTOBUF_C_WIRE_TYPE_64BIT
#define W_LEN PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED

/* A tag and a varint: 5 + 10 bytes at most. */
#define WIRE_SCALAR_MAX 15

static inline void
wire_reserve (PerfettoWireBuf *b,
              gsize n)
{
  if (G_UNLIKELY (b->len + n > b->cap))
    {
      b->cap = MAX (b->len + n, b->cap * 2);
      b->data = g_realloc (b->data, b->cap);
    }
}

static inline guint
varint_size (guint64 v)
{
  guint n = 1;

  while (v >= 0x80)
    {
      v >>= 7;
      n++;
    }
  return n;
}

/* Room reserved by the caller. */
static inline void
put_varint_raw (PerfettoWireBuf *b,
                guint64 v)
{
  guint8 *p = b->data + b->len;

  while (v >= 0x80)
    {
      *p++ = (guint8) (v | 0x80);
      v >>= 7;
    }
  *p++ = (guint8) v;
  b->len = p - b->data;
}

static inline void
put_tag_raw (PerfettoWireBuf *b,
             guint32 field,
             guint wire_type)
{
  put_varint_raw (b, ((guint64) field << 3) | wire_type);
}

static inline void
put_varint (PerfettoWireBuf *b,
            guint32 field,
            guint64 v)
{
  wire_reserve (b, WIRE_SCALAR_MAX);
  put_tag_raw (b, field, W_VARINT);
  put_varint_raw (b, v);
}

/* int32 and enums: a negative value is sign-extended to ten bytes. */
static inline void
put_int32 (PerfettoWireBuf *b,
           guint32 field,
           gint32 v)
{
  put_varint (b, field, (guint64) (gint64) v);
}

static inline void
put_fixed64 (PerfettoWireBuf *b,
             guint32 field,
             guint64 v)
{
  wire_reserve (b, WIRE_SCALAR_MAX);
  put_tag_raw (b, field, W_64BIT);
  v = GUINT64_TO_LE (v);
  memcpy (b->data + b->len, &v, 8);
  b->len += 8;
}

static inline void
put_double (PerfettoWireBuf *b,
            guint32 field,
            double d)
{
  guint64 v;

  memcpy (&v, &d, 8);
  put_fixed64 (b, field, v);
}

/* A present string (protobuf-c cannot pack a NULL repeated one). */
static inline void
put_string (PerfettoWireBuf *b,
            guint32 field,
            const char *s)
{
  gsize n = s ? strlen (s) : 0;

  wire_reserve (b, WIRE_SCALAR_MAX + n);
  put_tag_raw (b, field, W_LEN);
  put_varint_raw (b, n);
  if (n)
    memcpy (b->data + b->len, s, n);
  b->len += n;
}

/* Bytes already in wire format. */
static inline void
put_bytes (PerfettoWireBuf *b,
           const guint8 *data,
           gsize n)
{
  wire_reserve (b, n);
  memcpy (b->data + b->len, data, n);
  b->len += n;
}

/* Returns: where the one-byte length slot of a length-delimited field is */
static inline gsize
wire_open (PerfettoWireBuf *b,
           guint32 field)
{
  wire_reserve (b, WIRE_SCALAR_MAX);
  put_tag_raw (b, field, W_LEN);
  return b->len++;
}

static inline void
wire_close (PerfettoWireBuf *b,
            gsize slot)
{
  gsize body = b->len - slot - 1;
  guint n = varint_size (body);
  gsize end = b->len;

  if (G_UNLIKELY (n > 1))
    {
      wire_reserve (b, n - 1);
      memmove (b->data + slot + n, b->data + slot + 1, body);
      end += n - 1;
    }
  b->len = slot;
  put_varint_raw (b, body);
  b->len = end;
}
