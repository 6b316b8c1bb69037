/* tracepipe - json plugin tests: the scanner's fast paths against the
 * library functions they replace on the hot path
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * chrome_decimal_to_double() parses short numbers itself instead of
 * calling g_ascii_strtod(), and chrome_scan_string() finds a string's end,
 * its escapes and whether it is plain ASCII in one SWAR pass instead of
 * memchr calls and g_utf8_validate(); chrome_text_equal() stands for
 * memcmp on intern-cache hits.  They must give exactly what the
 * replaced code gave, on every input: these tests compare them with that
 * code (kept here) over large generated sets.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "json-reader-private.h"
#include "json-test-util.h"

/* What chrome_decimal_to_double() did before its fast path. */
static gboolean
reference_to_double (const char *text,
                     double *out)
{
  char *stop;

  if (text[0] == '\0')
    return FALSE;
  if (!(g_ascii_isdigit (text[0]) || (text[0] == '-' && g_ascii_isdigit (text[1]))))
    return FALSE;
  *out = g_ascii_strtod (text, &stop);
  return *stop == '\0';
}

/* Same acceptance, and the very same double (bit for bit: -0.0 is not
 * 0.0, NaN payloads count). */
static void
check_double (const char *text)
{
  double want = 0, got = 0;
  gboolean want_ok = reference_to_double (text, &want);
  gboolean got_ok = chrome_decimal_to_double (text, text + strlen (text), &got);

  if (want_ok != got_ok || (want_ok && memcmp (&want, &got, sizeof want) != 0))
    g_error ("\"%s\": strtod %s %.17g, chrome_decimal_to_double %s %.17g", text,
             want_ok ? "reads" : "refuses", want, got_ok ? "reads" : "refuses", got);
}

static void
append_digits (GString *s,
               GRand *rand,
               int n)
{
  for (int i = 0; i < n; i++)
    g_string_append_c (s, '0' + g_rand_int_range (rand, 0, 10));
}

/* A number in the JSON grammar, with digit counts around the fast path's
 * limits (19 digits, 2^53, 10^22). */
static void
random_json_number (GString *s,
                    GRand *rand)
{
  static const int int_digits[] = { 1, 1, 2, 3, 6, 9, 12, 15, 16, 17, 18, 19, 20, 22, 25, 40 };

  g_string_truncate (s, 0);
  if (g_rand_boolean (rand))
    g_string_append_c (s, '-');
  append_digits (s, rand, int_digits[g_rand_int_range (rand, 0, G_N_ELEMENTS (int_digits))]);
  if (g_rand_int_range (rand, 0, 3) > 0)
    {
      g_string_append_c (s, '.');
      append_digits (s, rand, g_rand_int_range (rand, 1, 24));
    }
  if (g_rand_int_range (rand, 0, 3) == 0)
    {
      static const char *const signs[] = { "e", "E", "e+", "e-", "E-" };

      g_string_append (s, signs[g_rand_int_range (rand, 0, G_N_ELEMENTS (signs))]);
      g_string_append_printf (s, "%d", g_rand_int_range (rand, 0, g_rand_boolean (rand) ? 30 : 400));
    }
}

/* Any text the scanner may hand over as a number token: its characters
 * in any order. */
static void
random_token (GString *s,
              GRand *rand)
{
  static const char alphabet[] = "0123456789012345678901234567890123456789+-.eE";
  int len = g_rand_int_range (rand, 1, 14);

  g_string_truncate (s, 0);
  for (int i = 0; i < len; i++)
    g_string_append_c (s, alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)]);
}

static void
test_double_edges (void)
{
  /* clang-format off */
  static const char *const cases[] = {
    "0", "-0", "0.0", "-0.0", "-0e5", "0e-400", "00", "007", "-007.50", "1", "-1",
    "0.1", "0.2", "0.3", "1.5e-7", "2.5", "1e22", "1e23", "-1e22", "1e-22", "1e-23",
    "9007199254740992", "9007199254740993", "9007199254740991.5", "18014398509481984",
    "1234567890123456789", "12345678901234567890", "0.1234567890123456789",
    "123456789012345678901234567890", "3.141592653589793238462643383279",
    "1.7976931348623157e308", "1.7976931348623159e308", "1e308", "1e309", "-1e400",
    "4.9406564584124654e-324", "2.2250738585072014e-308", "1e-400", "5e-324",
    "4503599627370496.5", "4503599627370497.5", "352512914.666", "1e0", "1E+2",
    "1e-0", "123.456e2", "123.456e-2", "0.000001", "100000000000000000000000",
    /* not JSON: strtod decides (and the old code refused or read them) */
    "", "-", "+1", ".5", "-.5", "1.", "1.e5", "1e", "1e+", "1e-", "--1", "1-2",
    "1..2", "1e5e5", "1+", "-e5", "e5", "1.5.5", "0.e1", "1E", "1ee5",
  };
  /* clang-format on */

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_double (cases[i]);
}

static void
test_double_random (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (19);
  g_autoptr (GString) s = g_string_new (NULL);

  for (int i = 0; i < 400000; i++)
    {
      random_json_number (s, rand);
      check_double (s->str);
      random_token (s, rand);
      check_double (s->str);
    }
  /* every double that has a short form: what writers produce */
  for (int i = 0; i < 100000; i++)
    {
      double d = g_rand_double_range (rand, -1e6, 1e6);

      g_string_printf (s, "%.*g", g_rand_int_range (rand, 1, 18), d);
      check_double (s->str);
    }
}

/* The number text read a digit at a time, as decimal_split() does 8 at
 * a time where it can. */

/* Whether mant * 10 + digit still fits in 64 bits. */
static inline gboolean
ref_fits_digit (guint64 mant,
                char digit)
{
  return mant < G_MAXUINT64 / 10 ||
         (mant == G_MAXUINT64 / 10 && (guint64) (digit - '0') <= G_MAXUINT64 % 10);
}

/* Parses a JSON number into mantissa and decimal exponent. */
static gboolean
ref_split (const char *p,
           const char *end,
           gboolean *neg,
           guint64 *mant,
           int *exp10)
{
  gboolean any = FALSE;

  *neg = FALSE;
  *mant = 0;
  *exp10 = 0;
  if (p < end && *p == '-')
    {
      *neg = TRUE;
      p++;
    }
  for (; p < end && g_ascii_isdigit (*p); p++, any = TRUE)
    {
      if (ref_fits_digit (*mant, *p))
        *mant = *mant * 10 + (*p - '0');
      else
        (*exp10)++;
    }
  if (!any)
    return FALSE;
  if (p < end && *p == '.')
    {
      if (++p == end || !g_ascii_isdigit (*p))
        return FALSE;
      for (; p < end && g_ascii_isdigit (*p); p++)
        {
          if (ref_fits_digit (*mant, *p))
            {
              *mant = *mant * 10 + (*p - '0');
              (*exp10)--;
            }
        }
    }
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean eneg = FALSE;
      int e = 0;

      p++;
      if (p < end && (*p == '+' || *p == '-'))
        eneg = *p++ == '-';
      if (p == end || !g_ascii_isdigit (*p))
        return FALSE;
      for (; p < end && g_ascii_isdigit (*p); p++)
        e = MIN (e * 10 + (*p - '0'), 100000);
      *exp10 += eneg ? -e : e;
    }
  return p == end;
}

/* mant * 10^exp10, rounded half away from zero or truncated, worked on
 * the decimal digits as text, as by hand, where decimal_scale() divides:
 * the point moves, the digits after it are dropped (rounding up when the
 * first of them is 5 or more: what is dropped is then half or more) and
 * g_ascii_strtoull() reads the rest, saying when it is over 64 bits. */
static gboolean
ref_scale (guint64 mant,
           int exp10,
           gboolean truncate,
           guint64 *out)
{
  char digits[24], whole[24] = "0";
  gboolean round_up = FALSE;
  gsize n;
  guint64 v;

  n = g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, mant);
  if (mant != 0 && exp10 >= 0)
    {
      if (n + exp10 > 20)
        return FALSE; /* 21 digits or more: over 64 bits */
      memcpy (whole, digits, n);
      memset (whole + n, '0', exp10);
      whole[n + exp10] = '\0';
    }
  else if (mant != 0)
    {
      gsize k = (gsize) - (gint64) exp10;

      if (k < n)
        {
          memcpy (whole, digits, n - k);
          whole[n - k] = '\0';
        }
      round_up = k <= n && digits[n - k] >= '5';
    }
  errno = 0;
  v = g_ascii_strtoull (whole, NULL, 10);
  if (errno == ERANGE)
    return FALSE;
  /* at most 19 digits were kept: one more does not overflow */
  *out = v + (round_up && !truncate);
  return TRUE;
}

static gboolean
ref_to_int64 (const char *p,
              const char *end,
              int scale,
              gboolean truncate,
              gint64 *out)
{
  gboolean neg;
  guint64 mant, mag;
  int exp10;

  if (!ref_split (p, end, &neg, &mant, &exp10) ||
      !ref_scale (mant, exp10 + scale, truncate, &mag))
    return FALSE;
  if (mag > (guint64) G_MAXINT64 + (neg ? 1 : 0))
    return FALSE;
  *out = neg ? (gint64) (0 - mag) : (gint64) mag;
  return TRUE;
}

static gboolean
ref_to_uint64 (const char *p,
               const char *end,
               guint64 *out)
{
  gboolean neg;
  guint64 mant, mag;
  int exp10;

  if (!ref_split (p, end, &neg, &mant, &exp10) ||
      !ref_scale (mant, exp10, TRUE, &mag))
    return FALSE;
  *out = neg ? 0 - mag : mag;
  return TRUE;
}

static void
check_decimal (const char *text)
{
  const char *end = text + strlen (text);
  gint64 want = 0, got = 0;
  guint64 uwant = 0, ugot = 0;
  gboolean ok;

  ok = ref_to_int64 (text, end, 3, FALSE, &want);
  g_assert_cmpint (chrome_decimal_to_scaled (text, end, 3, &got), ==, ok);
  if (ok)
    g_assert_cmpint (got, ==, want);
  ok = ref_to_int64 (text, end, 0, TRUE, &want);
  g_assert_cmpint (chrome_decimal_to_int64 (text, end, &got), ==, ok);
  if (ok)
    g_assert_cmpint (got, ==, want);
  ok = ref_to_uint64 (text, end, &uwant);
  g_assert_cmpint (chrome_decimal_to_uint64 (text, end, &ugot), ==, ok);
  if (ok)
    g_assert_cmpuint (ugot, ==, uwant);
}

/* Where scaling overflows or rounds: the edges of 64 bits, of the
 * signed range, and halves. */
static void
test_decimal_edges (void)
{
  static const char *const cases[] = {
    "18446744073709551615",
    "18446744073709551616",
    "1844674407370955161e1",
    "1844674407370955162e1",
    "1.8446744073709551615e19",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "9223372036854775.807",
    "9223372036854775.8075",
    "-9223372036854775.8085",
    "0.5",
    "-0.5",
    "0.4999",
    "0.0005",
    "-0.0004999",
    "1e19",
    "1e20",
    "0e999",
    "1e-999",
    "12345.6785",
    "99999999999999999999e-2",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    check_decimal (cases[i]);
}

/* Timestamps, ids and tokens of any shape (digit runs around 8 and 16,
 * a stray character inside a run of digits, as a numeric string may
 * have) against the reference. */
static void
test_decimal_random (void)
{
  static const char strays[] = ".eE+-:;<=>?/ x0";
  g_autoptr (GRand) rand = g_rand_new_with_seed (19);
  g_autoptr (GString) s = g_string_new (NULL);

  for (int i = 0; i < 300000; i++)
    {
      random_json_number (s, rand);
      check_decimal (s->str);
      random_token (s, rand);
      check_decimal (s->str);
      random_json_number (s, rand);
      s->str[g_rand_int_range (rand, 0, s->len)] = strays[g_rand_int_range (rand, 0, sizeof strays - 1)];
      check_decimal (s->str);
    }
}

/* Integers, read 8 digits at a time where they can: against strtoll and
 * strtoull (out of range: refused by chrome_decimal_to_int64). */
static void
test_integer_random (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (19);
  g_autoptr (GString) s = g_string_new (NULL);

  for (int i = 0; i < 300000; i++)
    {
      gint64 got, want;
      guint64 ugot, uwant;
      gboolean neg = g_rand_boolean (rand);
      char *stop;

      g_string_assign (s, neg ? "-" : "");
      append_digits (s, rand, g_rand_int_range (rand, 1, 23));
      errno = 0;
      want = g_ascii_strtoll (s->str, &stop, 10);
      if (errno == ERANGE)
        g_assert_false (chrome_decimal_to_int64 (s->str, s->str + s->len, &got));
      else
        {
          g_assert_true (chrome_decimal_to_int64 (s->str, s->str + s->len, &got));
          g_assert_cmpint (got, ==, want);
        }
      if (neg)
        continue;
      errno = 0;
      uwant = g_ascii_strtoull (s->str, &stop, 10);
      if (errno == ERANGE)
        g_assert_false (chrome_decimal_to_uint64 (s->str, s->str + s->len, &ugot));
      else
        {
          g_assert_true (chrome_decimal_to_uint64 (s->str, s->str + s->len, &ugot));
          g_assert_cmpuint (ugot, ==, uwant);
        }
    }
}

/* µs with up to 3 decimals → ns, against the same digits read as an
 * integer of ns. */
static void
test_timestamp_random (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (19);
  g_autoptr (GString) us = g_string_new (NULL);
  g_autoptr (GString) ns = g_string_new (NULL);

  for (int i = 0; i < 300000; i++)
    {
      int n_int = g_rand_int_range (rand, 1, 16), n_frac = g_rand_int_range (rand, 0, 4);
      gint64 got;
      gsize dot;

      g_string_assign (us, g_rand_boolean (rand) ? "-" : "");
      append_digits (us, rand, n_int);
      dot = us->len;
      append_digits (us, rand, n_frac);
      g_string_assign (ns, us->str);
      for (int k = n_frac; k < 3; k++)
        g_string_append_c (ns, '0');
      if (n_frac > 0)
        g_string_insert_c (us, dot, '.');
      g_assert_true (chrome_decimal_to_scaled (us->str, us->str + us->len, 3, &got));
      g_assert_cmpint (got, ==, g_ascii_strtoll (ns->str, NULL, 10));
    }
}

/* ------------------------------------------------------------------ */
/* Event numbers read while their event is scanned                     */

static const struct
{
  const char *key;
  ChromeFieldNumber n;
  int scale;
} event_numbers[] = {
  { "ts", CHROME_NUMBER_TS, 3 },
  { "dur", CHROME_NUMBER_DUR, 3 },
  { "pid", CHROME_NUMBER_PID, 0 },
  { "tid", CHROME_NUMBER_TID, 0 },
  { "tts", CHROME_NUMBER_TTS, 3 },
  { "tdur", CHROME_NUMBER_TDUR, 3 },
};

static ChromeValue *
event_number_slot (ChromeEventFields *f,
                   ChromeFieldNumber n)
{
  ChromeValue *slots[] = { &f->ts, &f->dur, &f->pid, &f->tid, &f->tts, &f->tdur };

  return slots[n];
}

/* What the reader did before the field scan read numbers: scan the text
 * as a value (in @buf, which the caller frees), convert it when it is
 * used. */
static gboolean
number_before (const char *text,
               int scale,
               char **buf_out,
               ChromeValue *v,
               gint64 *out)
{
  char *buf = *buf_out = g_strconcat (text, "}", NULL);
  ChromeScanner s;

  chrome_scanner_init (&s, buf, buf + strlen (buf));
  if (chrome_scan_value (&s, v, 1) != CHROME_SCAN_OK || v->type != CHROME_VALUE_NUMBER)
    return FALSE;
  return scale ? chrome_time_to_ns (v->start, v->end, out) : chrome_decimal_to_int64 (v->start, v->end, out);
}

static gboolean
text_is_value (const char *text)
{
  g_autofree char *buf = g_strconcat (text, "}", NULL);
  ChromeScanner s;
  ChromeValue v;

  chrome_scanner_init (&s, buf, buf + strlen (buf));
  return chrome_scan_value (&s, &v, 1) == CHROME_SCAN_OK;
}

/* Scans `{"ph":"X",KEY:TEXT,...}` (@text is the value of every number
 * member) and checks each number against number_before(): same slot,
 * and a value read by the scan is the one converting the slot gives. */
static guint
check_event_numbers (const char *text,
                     const char *space)
{
  g_autoptr (GString) ev = g_string_new ("{\"ph\":\"X\"");
  ChromeEventFields f;
  ChromeScanner s;
  guint n_read = 0;

  for (gsize i = 0; i < G_N_ELEMENTS (event_numbers); i++)
    g_string_append_printf (ev, ",\"%s\":%s%s%s", event_numbers[i].key, space, text, space);
  g_string_append_c (ev, '}');
  chrome_scanner_init (&s, ev->str, ev->str + ev->len);
  if (!text_is_value (text))
    {
      /* not a value (".5", "+1"): the event is an error, as it was */
      g_assert_cmpint (chrome_event_scan_fields (&s, 1, &f), ==, CHROME_SCAN_ERROR);
      return 0;
    }
  g_assert_cmpint (chrome_event_scan_fields (&s, 1, &f), ==, CHROME_SCAN_OK);
  g_assert_true (s.p == ev->str + ev->len);
  for (gsize i = 0; i < G_N_ELEMENTS (event_numbers); i++)
    {
      ChromeFieldNumber n = event_numbers[i].n;
      ChromeValue *slot = event_number_slot (&f, n), want_v;
      gint64 got = 0, want = 0;
      g_autofree char *buf = NULL;
      gboolean want_ok = number_before (text, event_numbers[i].scale, &buf, &want_v, &want);

      g_assert_cmpint (slot->type, ==, want_v.type);
      g_assert_cmpint (slot->end - slot->start, ==, want_v.end - want_v.start);
      g_assert_true (memcmp (slot->start, want_v.start, slot->end - slot->start) == 0);
      if (chrome_fields_number (&f, n, &got))
        {
          if (!want_ok)
            g_error ("%s %s: read as %" G_GINT64_FORMAT ", which the converter refuses", event_numbers[i].key, text, got);
          g_assert_cmpint (got, ==, want);
          n_read++;
        }
    }
  return n_read;
}

/* The usual forms are read by the scan; every form it reads is read as
 * the converters read it; the rest are left to them. */
static void
test_event_numbers (void)
{
  /* clang-format off */
  static const char *const plain[] = {
    "0", "7", "612", "14318", "352187923", "352187923.041", "352187923.5", "1.25", "007",
    "123456789012345", "999999999999999", "12345678.123",
  };
  static const char *const others[] = {
    "-1", "-352187923.041", "1.2345", "1e3", "1E+2", "1.", ".5", "1..2", "--1", "1-2",
    "1234567890123456789", "12345678901234567890", "\"612\"", "\"0x2a\"", "true", "null",
    "[1]", "{\"a\":1}", "123456789012345678", "0.0001",
  };
  /* clang-format on */
  static const char *const cut[] = {
    "{\"ts\":123",
    "{\"ts\":123.",
    "{\"ts\":123.4",
    "{\"ts\":12345678",
    "{\"pid\":1,\"tid\":22",
  };
  g_autoptr (GRand) rand = g_rand_new_with_seed (26);
  g_autoptr (GString) s = g_string_new (NULL);
  ChromeEventFields f;
  ChromeScanner sc;
  gint64 v = 0;
  const char *twice;
  guint n_times = 0;

  for (gsize i = 0; i < G_N_ELEMENTS (event_numbers); i++)
    n_times += event_numbers[i].scale > 0;
  for (gsize i = 0; i < G_N_ELEMENTS (plain); i++)
    {
      /* a pid or tid with a fraction is left to the converter */
      guint want = strchr (plain[i], '.') ? n_times : G_N_ELEMENTS (event_numbers);

      g_assert_cmpuint (check_event_numbers (plain[i], ""), ==, want);
      g_assert_cmpuint (check_event_numbers (plain[i], " "), ==, want);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (others); i++)
    {
      check_event_numbers (others[i], "");
      check_event_numbers (others[i], "\n");
    }
  for (int i = 0; i < 200000; i++)
    {
      if (i % 2)
        random_json_number (s, rand);
      else
        random_token (s, rand);
      check_event_numbers (s->str, "");
    }

  /* a repeated member: its last value counts, read or not */
  twice = "{\"ts\":5,\"pid\":3,\"ts\":\"x\",\"pid\":-4}";
  chrome_scanner_init (&sc, twice, twice + strlen (twice));
  g_assert_cmpint (chrome_event_scan_fields (&sc, 1, &f), ==, CHROME_SCAN_OK);
  g_assert_false (chrome_fields_number (&f, CHROME_NUMBER_TS, &v));
  g_assert_false (chrome_fields_number (&f, CHROME_NUMBER_PID, &v));
  g_assert_cmpint (f.ts.type, ==, CHROME_VALUE_STRING);
  twice = "{\"ts\":\"x\",\"ts\":5}";
  chrome_scanner_init (&sc, twice, twice + strlen (twice));
  g_assert_cmpint (chrome_event_scan_fields (&sc, 1, &f), ==, CHROME_SCAN_OK);
  g_assert_true (chrome_fields_number (&f, CHROME_NUMBER_TS, &v));
  g_assert_cmpint (v, ==, 5000);

  /* a number the buffer cuts is incomplete, never read short, and
   * nothing past the buffer is looked at (heap copies of the exact size,
   * for AddressSanitizer) */
  for (gsize i = 0; i < G_N_ELEMENTS (cut); i++)
    {
      gsize len = strlen (cut[i]);
      g_autofree char *exact = g_memdup2 (cut[i], len);

      chrome_scanner_init (&sc, exact, exact + len);
      g_assert_cmpint (chrome_event_scan_fields (&sc, 1, &f), ==, CHROME_SCAN_INCOMPLETE);
    }
}

/* What an arg's number reads as before its plain-integer path: the
 * converters, as add_number_arg() calls them. FALSE: the text is no
 * number the reader takes (the event is malformed). */
static gboolean
reference_number_arg (const char *text,
                      TraceArg *out)
{
  const char *end = text + strlen (text);

  if (chrome_decimal_is_integer (text, end))
    {
      if (chrome_decimal_to_int64 (text, end, &out->v.i))
        return (out->type = TRACE_ARG_INT), TRUE;
      if (*text != '-' && chrome_decimal_to_uint64 (text, end, &out->v.u))
        return (out->type = TRACE_ARG_UINT), TRUE;
    }
  out->type = TRACE_ARG_DOUBLE;
  return chrome_decimal_to_double (text, end, &out->v.d);
}

/* Each text of @texts as the value of two args of its own event (one
 * before a comma, one before whitespace) reads as the reference reads
 * it; an event whose text is no number the reader takes is skipped, and
 * the events after it are read.  One document for all of them, so the
 * reader's buffers are set up once, not once per text. */
static void
check_number_args (const char *const *texts,
                   guint n_texts)
{
  g_autoptr (GString) json = g_string_new ("[");
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GError) error = NULL;
  ChromeReader *reader = NULL;
  TraceBatch *batch;
  guint next = 0;

  /* the event's ts is its text's index, so a skipped event shows */
  for (guint i = 0; i < n_texts; i++)
    g_string_append_printf (json, "%s{\"ph\":\"i\",\"ts\":%u,\"args\":{\"k\":%s,\"z\":%s }}", i ? "," : "", i,
                            texts[i], texts[i]);
  g_string_append_c (json, ']');
  batch = test_read_data (json->str, json->len, "t.json", pool, &reader, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n_texts; i++)
    {
      TraceArg want = { 0 };
      const TraceEvent *ev;

      if (!reference_number_arg (texts[i], &want) || !text_is_value (texts[i]))
        continue; /* skipped as malformed: checked by the index below */
      g_assert_cmpuint (next, <, batch->n_events);
      ev = &batch->events[next++];
      if (ev->ts != (gint64) i * 1000)
        g_error ("\"%s\": its event is missing (the next one read is text %" G_GINT64_FORMAT ")", texts[i], ev->ts / 1000);
      g_assert_cmpuint (ev->n_args, ==, 2);
      for (guint k = 0; k < 2; k++)
        {
          const TraceArg *got = &trace_batch_get_args (batch, ev)[k];

          if (got->type != want.type || memcmp (&got->v, &want.v, sizeof want.v) != 0)
            g_error ("\"%s\": arg %u is type %d 0x%" G_GINT64_MODIFIER "x, want type %d 0x%" G_GINT64_MODIFIER "x",
                     texts[i], k, got->type, got->v.u, want.type, want.v.u);
        }
    }
  g_assert_cmpuint (next, ==, batch->n_events);
  trace_batch_unref (batch);
  chrome_reader_free (reader);
}

/* Args' plain integers are read as they are scanned; every number reads
 * as the converters read it. */
static void
test_arg_numbers (void)
{
  /* clang-format off */
  static const char *const cases[] = {
    "0", "7", "007", "5004", "123456789012345678", "1234567890123456789",
    "9223372036854775807", "9223372036854775808", "18446744073709551615",
    "18446744073709551616", "-1", "-9223372036854775808", "1.5", "1.", "1e3",
    "1E+2", "-0", "0.0", "1-2", "--1", "1..2",
  };
  /* clang-format on */
  g_autoptr (GRand) rand = g_rand_new_with_seed (27);
  g_autoptr (GString) s = g_string_new (NULL);
  g_autoptr (GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);

  /* one by one too: a malformed text alone in its document */
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    check_number_args (&cases[i], 1);
  check_number_args (cases, G_N_ELEMENTS (cases));
  for (int i = 0; i < 20000; i++)
    {
      if (i % 2)
        random_json_number (s, rand);
      else
        random_token (s, rand);
      g_ptr_array_add (texts, g_strdup (s->str));
    }
  check_number_args ((const char *const *) texts->pdata, texts->len);
}

/* ------------------------------------------------------------------ */
/* Strings                                                             */

/* What find_string_end() did before the SWAR pass: memchr for the quote,
 * backslashes counted back from it. */
static const char *
reference_string_end (const char *p,
                      const char *end,
                      gboolean *escaped)
{
  const char *start = p;

  for (;;)
    {
      const char *q = memchr (p, '"', end - p);
      const char *b;

      if (q == NULL)
        return NULL;
      b = q;
      while (b > start && b[-1] == '\\')
        b--;
      if (b != q)
        *escaped = TRUE;
      if (((q - b) & 1) == 0)
        {
          if (!*escaped && memchr (start, '\\', q - start) != NULL)
            *escaped = TRUE;
          return q;
        }
      p = q + 1;
    }
}

/* A string body of bytes that matter to the scan: quotes, backslashes,
 * NUL, UTF-8 (valid and not), spread over more than one 8-byte word. */
static gsize
random_body (char *buf,
             gsize cap,
             GRand *rand)
{
  /* clang-format off */
  static const char *const pieces[] = {
    "a", "b", "xyz", "0123456789", "\"", "\\", "\\\"", "\\\\", "\xc3\xa9", "\xe4\xb8\xad",
    "\xff", "\x80", "\x01", "\x1f", "\\u00e9", " ",
  };
  /* clang-format on */
  int n = g_rand_int_range (rand, 0, 12);
  gsize len = 0;

  for (int i = 0; i < n; i++)
    {
      const char *piece = pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))];
      gsize plen = strlen (piece);

      if (g_rand_int_range (rand, 0, 20) == 0 && len < cap)
        buf[len++] = '\0';
      if (len + plen > cap)
        break;
      memcpy (buf + len, piece, plen);
      len += plen;
    }
  return len;
}

static void
check_string (const char *buf,
              gsize len)
{
  g_autoptr (GString) got_scratch = g_string_new (NULL);
  g_autoptr (GString) want_scratch = g_string_new (NULL);
  ChromeScanner s;
  ChromeValue v, old;
  gboolean escaped = FALSE;
  const char *want = reference_string_end (buf + 1, buf + len, &escaped);
  ChromeScanResult res;
  const char *p, *want_p;
  gsize n, want_n;

  chrome_scanner_init (&s, buf, buf + len);
  res = chrome_scan_string (&s, &v);
  if (want == NULL)
    {
      g_assert_cmpint (res, ==, CHROME_SCAN_INCOMPLETE);
      return;
    }
  g_assert_cmpint (res, ==, CHROME_SCAN_OK);
  g_assert_true (v.end == want);
  g_assert_cmpint (v.escaped, ==, escaped);
  /* a clean string is its own text; decoding it the old way agrees */
  old = v;
  old.clean = FALSE;
  want_p = chrome_string_decode (&old, want_scratch, &want_n);
  p = chrome_string_decode (&v, got_scratch, &n);
  g_assert_cmpmem (p, n, want_p, want_n);
  if (v.clean)
    for (p = v.start; p < v.end; p++)
      g_assert_true (*p != '\0' && *p != '\\' && (guchar) *p < 0x80);
}

static void
test_string_random (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (19);
  char buf[160];

  for (int i = 0; i < 200000; i++)
    {
      gsize len;

      /* a leading '"', a body, maybe a closing quote and what follows */
      buf[0] = '"';
      len = 1 + random_body (buf + 1, 100, rand);
      if (g_rand_int_range (rand, 0, 4) > 0)
        buf[len++] = '"';
      len += random_body (buf + len, 40, rand);
      /* every prefix: the end of the buffer may fall anywhere */
      check_string (buf, len);
      check_string (buf, g_rand_int_range (rand, 1, len + 1));
    }
}

/* chrome_text_equal() against memcmp: every length up to a few words,
 * a difference at every position (or none). */
static void
test_text_equal (void)
{
  char a[48], b[48];

  for (gsize len = 0; len <= 40; len++)
    for (gsize at = 0; at <= len; at++)
      for (int offset = 0; offset < 8; offset++)
        {
          memset (a, 'x', sizeof a);
          memset (b, 'x', sizeof b);
          if (at < len)
            b[offset + at] = 'y';
          g_assert_cmpint (chrome_text_equal (a + offset, b + offset, len), ==,
                           memcmp (a + offset, b + offset, len) == 0);
          /* bytes past len never count */
          b[offset + len] = 'z';
          g_assert_cmpint (chrome_text_equal (a + offset, b + offset, len), ==,
                           memcmp (a + offset, b + offset, len) == 0);
        }
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/fastpath/double-edges", test_double_edges);
  g_test_add_func ("/json/fastpath/double-random", test_double_random);
  g_test_add_func ("/json/fastpath/decimal-edges", test_decimal_edges);
  g_test_add_func ("/json/fastpath/decimal-random", test_decimal_random);
  g_test_add_func ("/json/fastpath/integer-random", test_integer_random);
  g_test_add_func ("/json/fastpath/timestamp-random", test_timestamp_random);
  g_test_add_func ("/json/fastpath/event-numbers", test_event_numbers);
  g_test_add_func ("/json/fastpath/arg-numbers", test_arg_numbers);
  g_test_add_func ("/json/fastpath/string-random", test_string_random);
  g_test_add_func ("/json/fastpath/text-equal", test_text_equal);
  return g_test_run ();
}
