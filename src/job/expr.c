/* expr.c - fio's arithmetic in option values: the reserved keywords
 * ($pagesize, $mb_memory, $ncpus) and the integer expressions fio
 * evaluates (with bc after a keyword, or its own parser for a value in
 * parentheses), by recursive descent over 128-bit integers. */
#include "job/expr.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "job/values.h"

#define EXPR_TEXT_MAX 256
/* far beyond any option's range, far below 128-bit overflow */
#define EXPR_MAGNITUDE_MAX ((__int128)1 << 100)

struct expr {
	const char *text;     /* the whole expression, for messages */
	const char *p;        /* the next character to read */
	expr_number_fn number;
	void *ctx;
	int depth;
};

static int expr_fail(struct expr *e, const char *why)
{
	return err_set("bad expression '%s': %s", e->text, why);
}

static void skip_blanks(struct expr *e)
{
	while (*e->p == ' ' || *e->p == '\t')
		e->p++;
}

static bool is_operator(char c)
{
	return c && strchr("+-*/%^()", c) != NULL;
}

static int check_magnitude(struct expr *e, __int128 v)
{
	if (v > EXPR_MAGNITUDE_MAX || v < -EXPR_MAGNITUDE_MAX)
		return expr_fail(e, "a value is out of range");
	return 0;
}

static int parse_sum(struct expr *e, __int128 *out);

/* A number with its unit, up to the next operator or blank. */
static int parse_number(struct expr *e, __int128 *out)
{
	char token[64];
	size_t n = 0;
	uint64_t value;

	while (e->p[n] && !is_operator(e->p[n]) && e->p[n] != ' ' && e->p[n] != '\t')
		n++;
	if (n == 0)
		return expr_fail(e, *e->p ? "a number is missing" : "it ends too early");
	if (n >= sizeof(token))
		return expr_fail(e, "a number is too long");
	memcpy(token, e->p, n);
	token[n] = '\0';
	if (e->number(token, e->ctx, &value))
		return err_prefix("bad expression '%s'", e->text);
	e->p += n;
	*out = value;
	return 0;
}

/* Multiplies *out by the value of "1UNIT" (1k = 1024, 1ms = 1000000 ns). */
static int apply_unit(struct expr *e, __int128 *out)
{
	char token[16] = "1";
	size_t n = 0;
	uint64_t unit;

	while (e->p[n] && !is_operator(e->p[n]) && e->p[n] != ' ' && e->p[n] != '\t')
		n++;
	if (n >= sizeof(token) - 1)
		return expr_fail(e, "a unit is too long");
	memcpy(token + 1, e->p, n);
	token[n + 1] = '\0';
	if (e->number(token, e->ctx, &unit))
		return err_prefix("bad expression '%s'", e->text);
	e->p += n;
	*out *= unit;
	return check_magnitude(e, *out);
}

static int parse_primary(struct expr *e, __int128 *out)
{
	skip_blanks(e);
	if (*e->p != '(')
		return parse_number(e, out);
	if (++e->depth > 32)
		return expr_fail(e, "parentheses nested too deep");
	e->p++;
	if (parse_sum(e, out))
		return -1;
	skip_blanks(e);
	if (*e->p != ')')
		return expr_fail(e, "a ')' is missing");
	e->p++;
	e->depth--;
	/* a unit after the parentheses applies to them: (10/2)k */
	if ((*e->p >= 'a' && *e->p <= 'z') || (*e->p >= 'A' && *e->p <= 'Z'))
		return apply_unit(e, out);
	return 0;
}

static int parse_unary(struct expr *e, __int128 *out);

/* a ^ b, right to left; b at least 0 */
static int parse_power(struct expr *e, __int128 *out)
{
	__int128 base, exponent, result = 1;

	if (parse_primary(e, &base))
		return -1;
	skip_blanks(e);
	if (*e->p != '^') {
		*out = base;
		return 0;
	}
	e->p++;
	if (parse_unary(e, &exponent))
		return -1;
	if (exponent < 0)
		return expr_fail(e, "a negative exponent");
	if (base == -1) {
		*out = exponent % 2 ? -1 : 1;
		return 0;
	}
	for (__int128 i = 0; i < exponent; i++) {
		result *= base;
		if (check_magnitude(e, result))
			return -1;
		if (result == 0 || result == 1)
			break;
	}
	*out = result;
	return 0;
}

static int parse_unary(struct expr *e, __int128 *out)
{
	skip_blanks(e);
	if (*e->p == '-' || *e->p == '+') {
		bool negate = *e->p == '-';

		e->p++;
		if (parse_unary(e, out))
			return -1;
		if (negate)
			*out = -*out;
		return 0;
	}
	return parse_power(e, out);
}

static int parse_product(struct expr *e, __int128 *out)
{
	__int128 left, right;

	if (parse_unary(e, &left))
		return -1;
	for (;;) {
		char op;

		skip_blanks(e);
		op = *e->p;
		if (op != '*' && op != '/' && op != '%')
			break;
		e->p++;
		if (parse_unary(e, &right))
			return -1;
		if (op == '*')
			left *= right;
		else if (right == 0)
			return expr_fail(e, "division by zero");
		else if (op == '/')
			left /= right;
		else
			left %= right;
		if (check_magnitude(e, left))
			return -1;
	}
	*out = left;
	return 0;
}

static int parse_sum(struct expr *e, __int128 *out)
{
	__int128 left, right;

	if (parse_product(e, &left))
		return -1;
	for (;;) {
		char op;

		skip_blanks(e);
		op = *e->p;
		if (op != '+' && op != '-')
			break;
		e->p++;
		if (parse_product(e, &right))
			return -1;
		left = op == '+' ? left + right : left - right;
		if (check_magnitude(e, left))
			return -1;
	}
	*out = left;
	return 0;
}

int expr_eval(const char *text, expr_number_fn number, void *ctx, uint64_t *out)
{
	struct expr e = { .text = text, .p = text, .number = number, .ctx = ctx };
	__int128 v;

	if (strlen(text) > EXPR_TEXT_MAX)
		return err_set("bad expression '%.32s...': longer than %d characters",
			       text, EXPR_TEXT_MAX);
	if (parse_sum(&e, &v))
		return -1;
	skip_blanks(&e);
	if (*e.p)
		return expr_fail(&e, *e.p == ')' ? "a '(' is missing" : "junk after it");
	if (v < 0)
		return expr_fail(&e, "it is negative");
	if (v > (__int128)UINT64_MAX)
		return expr_fail(&e, "it is above 2^64-1");
	*out = (uint64_t)v;
	return 0;
}

uint64_t expr_pagesize(void)
{
	long page = sysconf(_SC_PAGESIZE);

	return page > 0 ? (uint64_t)page : 4096;
}

uint64_t expr_mb_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);

	return pages > 0 ? (uint64_t)pages * expr_pagesize() / (1024 * 1024) : 0;
}

uint64_t expr_ncpus(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);   /* fio's cpus_configured() */

	return cpus >= 1 ? (uint64_t)cpus : 1;
}

/* bc's numbers: plain integers, no units */
static int plain_number(const char *text, void *ctx, uint64_t *out)
{
	(void)ctx;
	if (parse_u64_plain(text, out))
		return err_set("'%s' is not a whole number", text);
	return 0;
}

int expr_keywords(const char *value, char *out, size_t len)
{
	static const char *const words[] = { "$pagesize", "$mb_memory", "$ncpus" };
	char figures[3][24];
	size_t used = 0;
	bool replaced = false;
	uint64_t result;

	snprintf(figures[0], sizeof(figures[0]), "%llu", (unsigned long long)expr_pagesize());
	snprintf(figures[1], sizeof(figures[1]), "%llu", (unsigned long long)expr_mb_memory());
	snprintf(figures[2], sizeof(figures[2]), "%llu", (unsigned long long)expr_ncpus());
	for (const char *s = value; *s;) {
		const char *piece = s;
		size_t n = 1;

		for (int w = 0; w < 3; w++)
			if (!strncmp(s, words[w], strlen(words[w]))) {
				piece = figures[w];
				n = strlen(piece);
				s += strlen(words[w]) - 1;
				replaced = true;
				break;
			}
		s++;
		if (used + n >= len)
			return err_set("value '%.32s...' too long", value);
		memcpy(out + used, piece, n);
		used += n;
	}
	out[used] = '\0';
	if (!replaced)
		return 0;
	/* fio hands a value with a keyword and an operator to bc */
	if (strpbrk(out, "+-*/") && !strchr(out, '\'')) {
		if (expr_eval(out, plain_number, NULL, &result))
			return -1;
		snprintf(out, len, "%llu", (unsigned long long)result);
	}
	return 1;
}
