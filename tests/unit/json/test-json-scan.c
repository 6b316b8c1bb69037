/* tracepipe - json plugin tests: numbers, strings, escaping
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "json-reader-private.h"
#include "json-test-util.h"

static gint64
us_to_ns (const char *text)
{
  gint64 ns = G_MININT64;

  g_assert_true (chrome_decimal_to_scaled (text, text + strlen (text), 3, &ns));
  return ns;
}

/* µs → ns with decimal arithmetic: exact where a double is not, and
 * rounded half away from zero like llround() beyond the 3rd decimal. */
static void
test_timestamps (void)
{
  gint64 ns;

  g_assert_cmpint (us_to_ns ("0"), ==, 0);
  g_assert_cmpint (us_to_ns ("1.1"), ==, 1100);
  g_assert_cmpint (us_to_ns ("1234.567"), ==, 1234567);
  g_assert_cmpint (us_to_ns ("4619295550.000"), ==, 4619295550000);
  g_assert_cmpint (us_to_ns ("3.0115"), ==, 3012);
  g_assert_cmpint (us_to_ns ("3.0114999"), ==, 3011);
  g_assert_cmpint (us_to_ns ("-0.0005"), ==, -1);
  g_assert_cmpint (us_to_ns ("-12.5"), ==, -12500);
  g_assert_cmpint (us_to_ns ("1e3"), ==, 1000000);
  g_assert_cmpint (us_to_ns ("1.5E-3"), ==, 2);
  g_assert_cmpint (us_to_ns ("0.000000000000000000000001"), ==, 0);
  /* 17 significant digits, more than a double holds */
  g_assert_cmpint (us_to_ns ("1700000000000000.123"), ==, G_GINT64_CONSTANT (1700000000000000123));
  g_assert_cmpint (us_to_ns ("9223372036854775.807"), ==, G_MAXINT64);
  {
    const char *too_big = "9223372036854775.808";

    g_assert_false (chrome_decimal_to_scaled (too_big, too_big + strlen (too_big), 3, &ns));
  }
  for (const char *const *bad = (const char *const[]){ "", "-", "1.", ".5", "1e", "1x", "0x10", " 1", "+1", NULL };
       *bad; bad++)
    {
      const char *t = *bad;

      g_assert_false (chrome_decimal_to_scaled (t, t + strlen (t), 3, &ns));
    }
}

static void
test_integers (void)
{
  const char *t;
  gint64 i;
  guint64 u;
  double d;

  t = "-42.9";
  g_assert_true (chrome_decimal_to_int64 (t, t + strlen (t), &i));
  g_assert_cmpint (i, ==, -42);
  t = "140229393893120";
  g_assert_true (chrome_decimal_to_int64 (t, t + strlen (t), &i));
  g_assert_cmpint (i, ==, G_GINT64_CONSTANT (140229393893120));
  t = "18446744073709551615";
  g_assert_false (chrome_decimal_to_int64 (t, t + strlen (t), &i));
  g_assert_true (chrome_decimal_to_uint64 (t, t + strlen (t), &u));
  g_assert_cmpuint (u, ==, G_MAXUINT64);
  t = "0.1";
  g_assert_true (chrome_decimal_to_double (t, t + strlen (t), &d));
  g_assert_cmpfloat (d, ==, 0.1);
  g_assert_false (chrome_decimal_is_integer (t, t + strlen (t)));
  t = "inf";
  g_assert_false (chrome_decimal_to_double (t, t + strlen (t), &d));
  t = "0x2a";
  g_assert_true (chrome_hex_to_uint64 (t, t + strlen (t), &u));
  g_assert_cmpuint (u, ==, 42);
  t = "8780d402";
  g_assert_true (chrome_hex_to_uint64 (t, t + strlen (t), &u));
  g_assert_cmpuint (u, ==, 0x8780d402);
  t = "us";
  g_assert_false (chrome_hex_to_uint64 (t, t + strlen (t), &u));
  t = "12345678901234567";
  g_assert_false (chrome_hex_to_uint64 (t, t + strlen (t), &u));
}

static char *
decode (const char *json_string)
{
  ChromeScanner s;
  ChromeValue v;
  g_autoptr (GString) scratch = g_string_new (NULL);
  const char *p;
  gsize len;

  chrome_scanner_init (&s, json_string, json_string + strlen (json_string));
  g_assert_cmpint (chrome_scan_string (&s, &v), ==, CHROME_SCAN_OK);
  p = chrome_string_decode (&v, scratch, &len);
  return g_strndup (p, len);
}

static void
test_string_decode (void)
{
  struct
  {
    const char *in, *out;
  } cases[] = {
    { "\"plain\"", "plain" },
    { "\"a\\\"b\\\\c\\/d\"", "a\"b\\c/d" },
    { "\"\\n\\t\\r\\b\\f\"", "\n\t\r\b\f" },
    { "\"\\u00e9\\u4e2d\"", "é中" },
    { "\"\\ud83d\\ude00\"", "😀" },
    { "\"lone \\ud83d here\"", "lone \xEF\xBF\xBD here" },
    { "\"nul \\u0000\"", "nul \xEF\xBF\xBD" },
    { "\"bad \xff\xfe utf8\"", "bad \xEF\xBF\xBD\xEF\xBF\xBD utf8" },
    { "\"cut \xe4\xb8\"", "cut \xEF\xBF\xBD\xEF\xBF\xBD" },
    { "\"\\q\"", "q" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = decode (cases[i].in);

      g_assert_cmpstr (out, ==, cases[i].out);
    }
}

/* Trailing commas are tolerated; the buffer ending early is INCOMPLETE,
 * never an error. */
static void
test_scanner (void)
{
  const char *text = "{\"a\": [1, 2,], \"b\": {\"c\": \"}\",},}";
  ChromeScanner s;
  ChromeValue key, v;
  gboolean first = TRUE;

  chrome_scanner_init (&s, text, text + strlen (text));
  g_assert_cmpint (chrome_scan_enter (&s, '{'), ==, CHROME_SCAN_OK);
  g_assert_cmpint (chrome_scan_member (&s, &first, &key), ==, CHROME_SCAN_OK);
  g_assert_true (chrome_value_is (&key, "a"));
  g_assert_cmpint (chrome_scan_value (&s, &v, 1), ==, CHROME_SCAN_OK);
  g_assert_cmpint (v.type, ==, CHROME_VALUE_ARRAY);
  g_assert_cmpint (chrome_scan_member (&s, &first, &key), ==, CHROME_SCAN_OK);
  g_assert_cmpint (chrome_scan_value (&s, &v, 1), ==, CHROME_SCAN_OK);
  g_assert_cmpint (v.type, ==, CHROME_VALUE_OBJECT);
  g_assert_cmpint (chrome_scan_member (&s, &first, &key), ==, CHROME_SCAN_END);

  for (gsize cut = 0; cut < strlen (text); cut++)
    {
      chrome_scanner_init (&s, text, text + cut);
      g_assert_cmpint (chrome_scan_value (&s, &v, 0), ==, CHROME_SCAN_INCOMPLETE);
    }
  text = "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]";
  chrome_scanner_init (&s, text, text + strlen (text));
  g_assert_cmpint (chrome_scan_value (&s, &v, 0), ==, CHROME_SCAN_TOO_DEEP);
}

/* Scans the members of the object in @text (values skipped whole) into
 * "key=value;" pairs, or the result that stopped the scan. */
static char *
scan_members (const char *text,
              gsize len)
{
  g_autofree char *exact = g_memdup2 (text, len);
  GString *out = g_string_new (NULL);
  gboolean first = TRUE;
  ChromeScanResult res;
  ChromeScanner s;
  ChromeValue key, v;

  chrome_scanner_init (&s, exact, exact + len);
  res = chrome_scan_enter (&s, '{');
  while (res == CHROME_SCAN_OK && (res = chrome_scan_member (&s, &first, &key)) == CHROME_SCAN_OK &&
         (res = chrome_scan_value (&s, &v, 1)) == CHROME_SCAN_OK)
    g_string_append_printf (out, "%.*s=%.*s;", (int) (key.end - key.start), key.start, (int) (v.end - v.start),
                            v.start);
  if (res == CHROME_SCAN_ERROR)
    g_string_append_printf (out, "error at %d: %s", (int) (s.error_at - exact), s.error_msg);
  else if (res != CHROME_SCAN_END)
    g_string_append_printf (out, "result %d", res);
  return g_string_free (out, FALSE);
}

/* Members in the compact form (`{"a":1,"b":2}`, which the member scan
 * takes on a short path) and with whitespace in every gap give the same
 * members; every cut of either is INCOMPLETE, read in a buffer of its
 * exact size (AddressSanitizer catches a look past it); malformed
 * members give the errors they gave. */
static void
test_compact_members (void)
{
  static const char *const members[][2] = {
    { "a", "1" },
    { "ts", "352187923.041" },
    { "name", "\"x\\\"y\"" },
    { "args", "{\"k\":[1,{\"j\":2}]}" },
    { "e", "\"\"" },
    { "t", "true" },
    { "n", "null" },
    { "arr", "[]" },
  };
  static const char *const gaps[] = { " ", "\n", "\t", "\r", "  \n " };
  static const struct
  {
    const char *text, *want;
  } malformed[] = {
    { "{\"a\" 1}", "error at 5: expected ':'" },
    { "{\"a\":1 \"b\":2}", "a=1;error at 7: expected ',' or '}'" },
    { "{\"a\":1,,\"b\":2}", "a=1;error at 7: expected a key string" },
    { "{\"a\":1,}", "a=1;" },
    { "{1:2}", "error at 1: expected a key string" },
    { "{\"a\"::1}", "error at 5: unexpected character" },
    { "{\"a\":1,\"b\"}", "a=1;error at 10: expected ':'" },
    { "{\"a\":}", "error at 5: unexpected character" },
  };
  g_autofree char *incomplete = g_strdup_printf ("result %d", CHROME_SCAN_INCOMPLETE);

  for (gsize n = 1; n <= G_N_ELEMENTS (members); n++)
    for (gsize g = 0; g <= G_N_ELEMENTS (gaps); g++)
      {
        /* g == 0: compact; else whitespace before and after each token */
        const char *ws = g == 0 ? "" : gaps[g - 1];
        g_autoptr (GString) text = g_string_new (NULL);
        g_autoptr (GString) want = g_string_new (NULL);
        g_autofree char *got = NULL;

        g_string_append_printf (text, "%s{", ws);
        for (gsize i = 0; i < n; i++)
          {
            g_string_append_printf (text, "%s%s\"%s\"%s:%s%s%s", i ? "," : "", ws, members[i][0], ws, ws, members[i][1], ws);
            g_string_append_printf (want, "%s=%s;", members[i][0],
                                    members[i][1][0] == '"' ? members[i][1] + 1 : members[i][1]);
            if (members[i][1][0] == '"')
              g_string_truncate (want, want->len - 2), g_string_append (want, ";");
          }
        g_string_append (text, "}");
        got = scan_members (text->str, text->len);
        g_assert_cmpstr (got, ==, want->str);
        for (gsize cut = 0; cut < text->len; cut++)
          {
            g_autofree char *part = scan_members (text->str, cut);

            g_assert_true (g_str_has_suffix (part, incomplete));
          }
      }
  for (gsize i = 0; i < G_N_ELEMENTS (malformed); i++)
    {
      g_autofree char *got = scan_members (malformed[i].text, strlen (malformed[i].text));

      g_assert_cmpstr (got, ==, malformed[i].want);
    }
}

/* The fields of an event as text: each member the reader uses, its
 * value's text and type; the numbers read; the members counted. */
static char *
event_fields_text (const char *text,
                   gsize len,
                   ChromeScanResult *res)
{
  g_autofree char *exact = g_memdup2 (text, len);
  GString *out = g_string_new (NULL);
  ChromeEventFields f;
  ChromeScanner s;
  const ChromeValue *slots[] = { &f.ph, &f.name, &f.cat, &f.ts, &f.dur, &f.pid, &f.tid, &f.id, &f.id2_local,
                                 &f.id2_global, &f.scope, &f.s, &f.bp, &f.bind_id, &f.args, &f.sf, &f.weight,
                                 &f.cpu, &f.tts, &f.tdur };

  chrome_scanner_init (&s, exact, exact + len);
  *res = chrome_event_scan_fields (&s, 1, &f);
  if (*res != CHROME_SCAN_OK)
    return g_string_free (out, FALSE);
  for (gsize i = 0; i < G_N_ELEMENTS (slots); i++)
    g_string_append_printf (out, "%d:%.*s;", slots[i]->type, (int) (slots[i]->end - slots[i]->start),
                            slots[i]->start);
  /* the numbers as the reader takes them: read by the scan, or else
   * converted from the slot's text */
  for (int n = 0; n < CHROME_N_NUMBERS; n++)
    {
      const ChromeValue *v = n == CHROME_NUMBER_TS ? &f.ts : n == CHROME_NUMBER_DUR ? &f.dur
                                                         : n == CHROME_NUMBER_PID   ? &f.pid
                                                                                    : &f.tid;
      gboolean ok;
      gint64 value;

      if (!(ok = chrome_fields_number (&f, n, &value)) && v->type == CHROME_VALUE_NUMBER)
        ok = n <= CHROME_NUMBER_DUR ? chrome_decimal_to_scaled (v->start, v->end, 3, &value)
                                    : chrome_decimal_to_int64 (v->start, v->end, &value);
      if (ok)
        g_string_append_printf (out, "n%d=%" G_GINT64_FORMAT ";", n, value);
    }
  g_string_append_printf (out, "flows %d %d, %u members", f.flow_in, f.flow_out, f.n_members);
  return g_string_free (out, FALSE);
}

/* Every key the event scan knows, keys that look like them, and keys it
 * skips, in the compact form (matched a word at a time) and with
 * whitespace around the colon or the comma (the member scan): the same
 * fields; every cut of them is INCOMPLETE, read in a buffer of its exact
 * size; look-alike keys are not read, a missing comma is an error. */
static void
test_event_members (void)
{
  static const char *const members[] = {
    "\"args\":{\"a\":[1,2]}",
    "\"bp\":\"e\"",
    "\"bind_id\":\"0x1\"",
    "\"cat\":\"c,d\"",
    "\"cpu\":3",
    "\"dur\":12.5",
    "\"id\":\"0x2a\"",
    "\"name\":\"n\\\"q\"",
    "\"ph\":\"X\"",
    "\"pid\":612",
    "\"s\":\"g\"",
    "\"sf\":7",
    "\"scope\":\"sc\"",
    "\"ts\":352187923.041",
    "\"tid\":-1",
    "\"tts\":5",
    "\"tdur\":2",
    "\"weight\":4",
    "\"id2\":{\"local\":\"0x5\"}",
    "\"flow_in\":true",
    "\"flow_out\":true",
    /* look alike, or not read */
    "\"tss\":1",
    "\"p\":2",
    "\"pidx\":3",
    "\"nam\":4",
    "\"names\":5",
    "\"args2\":6",
    "\"t\":7",
    "\"\":8",
    "\"p\\u0068\":\"Y\"",
    "\"tdurx\":9",
    "\"weights\":10",
    "\"ts\":\"s\"",
    "\"pid\":\"app\"",
    "\"ts\":1e3",
  };
  static const char *const look_alike[] = {
    "{\"p\":\"Z\",\"tss\":1,\"pidx\":3}",
    "{\"t\":1,\"nam\":\"n\",\"args2\":{}}",
    "{\"p\\u0068\":\"Y\",\"tdurx\":9,\"\":8}",
  };
  static const char *const no_comma[] = {
    "{\"a\":1 \"ts\":2,\"name\":\"padding\"}",
    "{\"ph\":\"X\"\"ts\":2,\"name\":\"padding\"}",
    "{\"ph\":\"X\" \"pid\":2,\"name\":\"padding\"}",
  };
  for (gsize start = 0; start < G_N_ELEMENTS (members); start++)
    {
      g_autoptr (GString) compact = g_string_new ("{");
      g_autoptr (GString) spaced = g_string_new ("{ ");
      g_autoptr (GString) colon_spaced = g_string_new ("{");
      g_autofree char *want = NULL;
      g_autofree char *got = NULL;
      g_autofree char *got_colon = NULL;
      ChromeScanResult res;

      /* every member first once, and each with the one before it */
      for (gsize i = 0; i < G_N_ELEMENTS (members); i++)
        {
          const char *m = members[(start + i) % G_N_ELEMENTS (members)];
          const char *colon = strstr (m, "\":") + 1;

          g_string_append_printf (compact, "%s%s", i ? "," : "", m);
          g_string_append_printf (spaced, "%s%.*s : %s", i ? " ,\n" : "", (int) (colon - m), m, colon + 1);
          g_string_append_printf (colon_spaced, "%s%.*s%s%s", i ? "," : "", (int) (colon - m), m,
                                  i % 2 ? " :" : ": ", colon + 1);
        }
      g_string_append (compact, "}");
      g_string_append (spaced, " }");
      g_string_append (colon_spaced, "}");
      got_colon = event_fields_text (colon_spaced->str, colon_spaced->len, &res);
      g_assert_cmpint (res, ==, CHROME_SCAN_OK);
      want = event_fields_text (spaced->str, spaced->len, &res);
      g_assert_cmpint (res, ==, CHROME_SCAN_OK);
      got = event_fields_text (compact->str, compact->len, &res);
      g_assert_cmpint (res, ==, CHROME_SCAN_OK);
      g_assert_cmpstr (got, ==, want);
      g_assert_cmpstr (got_colon, ==, want);
      for (gsize cut = 0; cut < compact->len; cut++)
        {
          g_autofree char *part = event_fields_text (compact->str, cut, &res);

          g_assert_cmpint (res, ==, CHROME_SCAN_INCOMPLETE);
        }
    }
  for (gsize i = 0; i < G_N_ELEMENTS (look_alike); i++)
    {
      ChromeEventFields f;
      ChromeScanner s;

      chrome_scanner_init (&s, look_alike[i], look_alike[i] + strlen (look_alike[i]));
      g_assert_cmpint (chrome_event_scan_fields (&s, 1, &f), ==, CHROME_SCAN_OK);
      g_assert_cmpint (f.ph.type + f.ts.type + f.pid.type + f.name.type + f.args.type + f.tdur.type, ==, 0);
      g_assert_cmpuint (f.n_members, ==, 3);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (no_comma); i++)
    {
      ChromeEventFields f;
      ChromeScanner s;

      chrome_scanner_init (&s, no_comma[i], no_comma[i] + strlen (no_comma[i]));
      g_assert_cmpint (chrome_event_scan_fields (&s, 1, &f), ==, CHROME_SCAN_ERROR);
    }
}

static char *
fmt_us (gint64 ns)
{
  GString *s = g_string_new (NULL);

  chrome_fmt_us (s, ns);
  return g_string_free (s, FALSE);
}

static void
test_format_numbers (void)
{
  static const double doubles[] = { 0.1, 1.0 / 3, 1e-300, 123456789.123456789, -2.5e17, 5.0, 0 };
  struct
  {
    gint64 ns;
    const char *text;
  } ts[] = {
    { 1234567, "1234.567" },
    { 1000, "1" },
    { 1500, "1.5" },
    { 1230, "1.23" },
    { 7, "0.007" },
    { -1500, "-1.5" },
    { 0, "0" },
    { G_MININT64, "-9223372036854775.808" },
    { G_MAXINT64, "9223372036854775.807" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ts); i++)
    {
      g_autofree char *text = fmt_us (ts[i].ns);
      gint64 back;

      g_assert_cmpstr (text, ==, ts[i].text);
      g_assert_true (chrome_decimal_to_scaled (text, text + strlen (text), 3, &back));
      g_assert_cmpint (back, ==, ts[i].ns);
    }
  for (guint i = 0; i < G_N_ELEMENTS (doubles); i++)
    {
      g_autoptr (GString) s = g_string_new (NULL);
      double back;

      chrome_fmt_double (s, doubles[i]);
      g_assert_true (chrome_decimal_to_double (s->str, s->str + s->len, &back));
      g_assert_cmpfloat (back, ==, doubles[i]);
      g_assert_false (chrome_decimal_is_integer (s->str, s->str + s->len));
    }
  {
    g_autoptr (GString) s = g_string_new (NULL);

    chrome_fmt_double (s, NAN);
    g_assert_cmpstr (s->str, ==, "null");
    g_string_truncate (s, 0);
    chrome_fmt_double (s, 0.1);
    g_assert_cmpstr (s->str, ==, "0.1");
    g_string_truncate (s, 0);
    chrome_fmt_hex_id (s, G_MAXUINT64);
    g_assert_cmpstr (s->str, ==, "\"0xffffffffffffffff\"");
    g_string_truncate (s, 0);
    chrome_fmt_int (s, G_MININT64);
    g_assert_cmpstr (s->str, ==, "-9223372036854775808");
  }
}

/* Escaped text parses back (json-glib) to the same string, with invalid
 * UTF-8 replaced by U+FFFD. */
static void
test_escape (void)
{
  struct
  {
    const char *in;
    gsize len;
    const char *parsed;
  } cases[] = {
    { "quote \" backslash \\ slash /", 0, "quote \" backslash \\ slash /" },
    { "ctl \x01\x1f\n\t\r\b\f end", 0, "ctl \x01\x1f\n\t\r\b\f end" },
    { "utf8 é 中 😀", 0, "utf8 é 中 😀" },
    { "bad \xff and \xc3", 0, "bad \xEF\xBF\xBD and \xEF\xBF\xBD" },
    { "nul\0inside", 10, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GString) s = g_string_new (NULL);
      gsize len = cases[i].len ? cases[i].len : strlen (cases[i].in);
      g_autoptr (JsonNode) node = NULL;

      chrome_fmt_string (s, cases[i].in, len);
      g_assert_true (g_utf8_validate (s->str, s->len, NULL));
      for (gsize j = 0; j < s->len; j++)
        g_assert_cmpint ((guchar) s->str[j], >=, 0x20);
      node = test_parse_json (s->str, s->len);
      if (cases[i].len == 0)
        g_assert_cmpstr (json_node_get_string (node), ==, cases[i].parsed);
      else
        g_assert_nonnull (strstr (s->str, "nul\\u0000inside"));
    }
}

/* What a container skip gives: the result, and where the scanner or the
 * error stands. */
static char *
skip_outcome (ChromeScanResult (*skip) (ChromeScanner *, const char *, int),
              const char *text,
              gsize len,
              int depth)
{
  ChromeScanner s;
  ChromeScanResult res;

  chrome_scanner_init (&s, text, text + len);
  res = skip (&s, text, depth);
  if (res == CHROME_SCAN_OK)
    return g_strdup_printf ("ok, next at %d", (int) (s.p - text));
  if (res == CHROME_SCAN_TOO_DEEP)
    return g_strdup_printf ("too deep at %d", (int) (s.error_at - text));
  return g_strdup_printf ("result %d", res);
}

/* The 32-byte skip gives what the byte loop gives, on containers made of
 * the bytes that matter to it (brackets, quotes, backslashes) placed at
 * every offset of its blocks, each in a buffer of its exact size
 * (AddressSanitizer catches a load past it); and on a few whose answer
 * is known. */
static void
test_skip_container (void)
{
  static const char alphabet[] = "{}[]\"\"\\\\aa :,";
  static const struct
  {
    const char *text;
    const char *outcome;
  } known[] = {
    { "{\"a\":\"}]\\\"{\",\"b\":[1,{\"c\":\"]\"}]} tail after it", "ok, next at 31" },
    { "[\"\\\\\"]                                   ", "ok, next at 6" },
    { "{\"a\":\"                    \\\"            }\"}  ", "ok, next at 43" },
    { "{\"a\":[1,2,3]                           ", "result 2" },
    { "{\"unclosed string                       \\", "result 2" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      gsize len = strlen (known[i].text);
      g_autofree char *exact = g_memdup2 (known[i].text, len);
      g_autofree char *fast = skip_outcome (chrome_scan_skip_container, exact, len, 1);
      g_autofree char *bytes = skip_outcome (chrome_scan_skip_container_bytes, exact, len, 1);

      g_assert_cmpstr (fast, ==, known[i].outcome);
      g_assert_cmpstr (bytes, ==, known[i].outcome);
    }
  for (guint round = 0; round < 20000; round++)
    {
      gsize len = (gsize) g_test_rand_int_range (1, 160);
      int depth = g_test_rand_int_range (0, 2) ? 1 : CHROME_SCAN_MAX_DEPTH - g_test_rand_int_range (0, 4);
      g_autofree char *text = g_malloc (len);
      g_autofree char *fast = NULL, *bytes = NULL;

      text[0] = g_test_rand_bit () ? '{' : '[';
      for (gsize i = 1; i < len; i++)
        text[i] = alphabet[g_test_rand_int_range (0, sizeof alphabet - 1)];
      fast = skip_outcome (chrome_scan_skip_container, text, len, depth);
      bytes = skip_outcome (chrome_scan_skip_container_bytes, text, len, depth);
      if (g_strcmp0 (fast, bytes) != 0)
        g_test_message ("%.*s", (int) len, text);
      g_assert_cmpstr (fast, ==, bytes);
    }
}

/* chrome_text_equal(), which the intern cache's hits rely on: equal for
 * a copy, unequal for a change of any one byte, at every length around
 * its word-at-a-time forms (up to 32 bytes at once, a loop past them),
 * each text in a buffer of its exact size. */
static void
test_text_equal (void)
{
  static const char letters[] = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz";

  g_assert_true (chrome_text_equal ("x", "y", 0));
  for (gsize len = 1; len <= 48; len++)
    {
      g_autofree char *a = g_memdup2 (letters, len);
      g_autofree char *b = g_memdup2 (letters, len);

      g_assert_true (chrome_text_equal (a, b, len));
      for (gsize at = 0; at < len; at++)
        {
          b[at] ^= 0x20;
          g_assert_false (chrome_text_equal (a, b, len));
          b[at] ^= 0x20;
        }
    }
}

static gint64
time_to_ns (const char *text)
{
  gint64 ns = G_MININT64;

  g_assert_true (chrome_time_to_ns (text, text + strlen (text), &ns));
  return ns;
}

/* A time as trace_processor v58.2 reads it (the values it gives for
 * these texts): a plain integer exactly, anything else through its
 * doubles, so a half nanosecond and ns past a double's precision round
 * as it rounds them. */
static void
test_times_as_trace_processor (void)
{
  gint64 ns;

  g_assert_cmpint (time_to_ns ("12"), ==, 12000);
  g_assert_cmpint (time_to_ns ("-3"), ==, -3000);
  g_assert_cmpint (time_to_ns ("5.000"), ==, 5000);
  g_assert_cmpint (time_to_ns ("1.5"), ==, 1500);
  g_assert_cmpint (time_to_ns ("2.6335"), ==, 2633); /* exact: 2633.5 */
  g_assert_cmpint (time_to_ns ("1.8985"), ==, 1898);
  g_assert_cmpint (time_to_ns ("0.0005"), ==, 1);
  g_assert_cmpint (time_to_ns ("418087735777.148499"), ==, G_GINT64_CONSTANT (418087735777149));
  g_assert_cmpint (time_to_ns ("603998435575.209449883"), ==, G_GINT64_CONSTANT (603998435575210));
  g_assert_cmpint (time_to_ns ("1e3"), ==, 1000000);
  g_assert_cmpint (time_to_ns ("15e-1"), ==, 1500);
  g_assert_cmpint (time_to_ns ("1.5e-1"), ==, 150);
  g_assert_cmpint (time_to_ns ("-0.25"), ==, -250);
  /* digits past an int64's: the exact value */
  g_assert_cmpint (time_to_ns ("1.0000000000000000000001"), ==, 1000);
  g_assert_false (chrome_time_to_ns ("1.", (const char *) "1." + 2, &ns));
  g_assert_false (chrome_time_to_ns ("abc", (const char *) "abc" + 3, &ns));
  g_assert_false (chrome_time_to_ns ("1e400", (const char *) "1e400" + 5, &ns));
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/scan/timestamps", test_timestamps);
  g_test_add_func ("/json/scan/times-as-trace-processor", test_times_as_trace_processor);
  g_test_add_func ("/json/scan/integers", test_integers);
  g_test_add_func ("/json/scan/string-decode", test_string_decode);
  g_test_add_func ("/json/scan/scanner", test_scanner);
  g_test_add_func ("/json/scan/compact-members", test_compact_members);
  g_test_add_func ("/json/scan/event-members", test_event_members);
  g_test_add_func ("/json/scan/skip-container", test_skip_container);
  g_test_add_func ("/json/scan/text-equal", test_text_equal);
  g_test_add_func ("/json/format/numbers", test_format_numbers);
  g_test_add_func ("/json/format/escape", test_escape);
  return g_test_run ();
}
