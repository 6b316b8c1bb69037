/* tracepipe - json plugin: a time in µs as trace_processor reads it
 *
 * trace_processor is the judge of what a JSON trace says, and it reads
 * a time that is not a plain integer through doubles (v58.2,
 * util/json_parser.h StringToDouble, then json_trace_tokenizer.cc
 * CoerceToTs): the integer digits and the fraction digits each as an
 * int64, the fraction divided in double, an exponent applied with pow(),
 * then llround(µs * 1000). That is 1 ns away from the exact decimal value
 * for a half nanosecond (`"dur": 2.6335` is 2633 ns to it) and for
 * fractions past the precision of a double (a `ts` of 4e14 ns with six
 * fraction digits). Reading times as it does keeps those nanoseconds, and
 * with them the nesting of slices that touch there, the same in our
 * output as in the original.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "json-common.h"
#include "json-number-inline.h"

/* Digits of an int64 that never overflow, as in trace_processor's loops:
 * past them its result is not defined, and the exact value is kept. */
#define TP_MAX_DIGITS 18

/* Counts every digit, but adds only the first TP_MAX_DIGITS to @value:
 * a longer run is read exactly by the caller, never through @value. */
static const char *
read_int64_digits (const char *p,
                   const char *end,
                   gint64 *value,
                   guint64 *scale,
                   int *n)
{
  for (*n = 0; p < end && chrome_is_digit (*p); p++, (*n)++)
    if (*n < TP_MAX_DIGITS)
      {
        *value = *value * 10 + (*p - '0');
        *scale *= 10;
      }
  return p;
}

/* trace_processor's double for a JSON number with a fraction or an
 * exponent. Returns: FALSE for a plain integer, text that is no such
 * number, and digits past TP_MAX_DIGITS */
static gboolean
tp_string_to_double (const char *p,
                     const char *end,
                     double *out)
{
  gboolean neg = p < end && *p == '-', exp_neg = FALSE, plain = TRUE;
  gint64 int_part = 0, frac = 0, exponent = 0;
  guint64 divisor = 1, unused = 1;
  int n_int, n_frac = 0, n_exp = 1;
  double d;

  p = read_int64_digits (p + neg, end, &int_part, &unused, &n_int);
  if (p < end && *p == '.')
    {
      p = read_int64_digits (p + 1, end, &frac, &divisor, &n_frac);
      plain = FALSE;
      if (n_frac == 0)
        return FALSE;
    }
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      p++;
      if (p < end && (*p == '+' || *p == '-'))
        exp_neg = *p++ == '-';
      p = read_int64_digits (p, end, &exponent, &unused, &n_exp);
      plain = FALSE;
    }
  if (plain || p != end || n_int == 0 || n_int > TP_MAX_DIGITS || n_frac > TP_MAX_DIGITS || n_exp == 0 ||
      n_exp > 4)
    return FALSE;
  d = (double) int_part + (n_frac > 0 ? (double) frac / (double) divisor : 0.0);
  if (exp_neg)
    d /= pow (10, (double) exponent);
  else if (exponent > 0)
    d *= pow (10, (double) exponent);
  if (!isfinite (d))
    return FALSE;
  *out = neg ? -d : d;
  return TRUE;
}

/**
 * chrome_time_to_ns:
 * @p: the number text (a JSON number, or a numeric string's content)
 * @end: its end
 * @out: (out): the time in ns
 *
 * A time in µs as trace_processor reads it: a plain integer times 1000,
 * a whole double times 1000, any other double llround(µs * 1000). Text
 * whose integer, fraction or exponent digits pass what trace_processor's
 * int64 arithmetic holds is read exactly (chrome_decimal_to_scaled()).
 *
 * Returns: FALSE when the text is no number or the time passes 64 bits
 */
gboolean
chrome_time_to_ns (const char *p,
                   const char *end,
                   gint64 *out)
{
  double d;

  if (!tp_string_to_double (p, end, &d))
    return chrome_decimal_to_scaled (p, end, 3, out);
  if (d == trunc (d))
    {
      if (fabs (d) >= 9e15)
        return FALSE;
      *out = (gint64) d * 1000;
      return TRUE;
    }
  if (fabs (d * 1000.0) >= 9e18)
    return FALSE;
  *out = llround (d * 1000.0);
  return TRUE;
}
