/* tracepipe - JSON text as strict parsers read it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * json-glib's generator (1.6) escapes every control character inside a
 * string but U+001F, which it writes as a raw byte; a strict parser
 * (trace_processor, Python's json) then refuses the whole document. Every
 * place that writes JSON through the generator hands its text here.
 */
#include "config.h"

#include <string.h>

#include "trace/trace.h"

/* A raw byte below 0x20 that is not whitespace between tokens: it can
 * only stand inside a string, where JSON requires it escaped. */
static inline gboolean
is_raw_control (guchar c)
{
  return c < 0x20 && c != '\n' && c != '\r' && c != '\t';
}

/**
 * trace_json_text_escape_controls:
 * @text: (transfer full): JSON text from json-glib's generator
 *   (json_generator_to_data(), json_to_string())
 *
 * Writes each raw control byte of @text as `\u00XX`. JSON allows none
 * inside a string, and the generator always escapes tab, newline and
 * carriage return there, so a raw control byte other than those three
 * (the whitespace of pretty output) is inside a string and escaping it is
 * exact: the text means what the generator meant, and strict parsers
 * read it. json-glib 1.6 leaves U+001F raw, which makes trace_processor
 * refuse a whole trace ("error while parsing metadata").
 *
 * Returns: (transfer full): @text itself when it has no such byte (the
 *   usual case, without a copy), else a new string and @text is freed
 */
char *
trace_json_text_escape_controls (char *text)
{
  static const char hex[] = "0123456789abcdef";
  const char *p;
  GString *out;

  if (text == NULL)
    return NULL;
  for (p = text; *p != '\0' && !is_raw_control (*p); p++)
    ;
  if (*p == '\0')
    return text;
  out = g_string_sized_new (strlen (text) + 16);
  g_string_append_len (out, text, p - text);
  for (; *p != '\0'; p++)
    {
      guchar c = *p;

      if (!is_raw_control (c))
        {
          g_string_append_c (out, c);
          continue;
        }
      g_string_append (out, "\\u00");
      g_string_append_c (out, hex[c >> 4]);
      g_string_append_c (out, hex[c & 15]);
    }
  g_free (text);
  return g_string_free (out, FALSE);
}
