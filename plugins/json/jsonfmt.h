/* tracepipe - json plugin: exact number formatting and string escaping
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void json_fmt_string (GString *out, const char *s, gsize len);
void json_fmt_string_body (GString *out, const char *s, gsize len);
void json_fmt_int (GString *out, gint64 v);
void json_fmt_uint (GString *out, guint64 v);
void json_fmt_us (GString *out, gint64 ns);
void json_fmt_double (GString *out, double v);
void json_fmt_hex_id (GString *out, guint64 id);

G_END_DECLS
