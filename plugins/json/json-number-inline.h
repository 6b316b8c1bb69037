/* tracepipe - json plugin: digits, read where numbers are scanned
 *
 * json-number.c converts number text; the field scan (json-scan.c) reads
 * the plain numbers of every event while it meets them. Both read digits
 * the same way, from here.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <string.h>

#include <glib.h>

static inline gboolean
chrome_is_digit (char c)
{
  return (guchar) (c - '0') < 10;
}

/* Eight digits at once (little-endian words): timestamps have 10 to 16
 * digits.  Returns FALSE, with nothing read, unless all 8 bytes at @p
 * are digits. */
static inline gboolean
chrome_read_8_digits (const char *p,
                      guint64 *value)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  guint64 w;

  memcpy (&w, p, 8);
  if (((w & G_GUINT64_CONSTANT (0xF0F0F0F0F0F0F0F0)) |
       (((w + G_GUINT64_CONSTANT (0x0606060606060606)) & G_GUINT64_CONSTANT (0xF0F0F0F0F0F0F0F0)) >> 4)) !=
      G_GUINT64_CONSTANT (0x3333333333333333))
    return FALSE;
  w -= G_GUINT64_CONSTANT (0x3030303030303030);
  w = w * 10 + (w >> 8); /* pairs of digits */
  w = ((w & G_GUINT64_CONSTANT (0x000000FF000000FF)) * G_GUINT64_CONSTANT (0x000F424000000064) +
       ((w >> 16) & G_GUINT64_CONSTANT (0x000000FF000000FF)) * G_GUINT64_CONSTANT (0x0000271000000001)) >>
      32;
  *value = (guint32) w;
  return TRUE;
#else
  return FALSE;
#endif
}
