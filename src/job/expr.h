/* expr.h - private to src/job/: fio's arithmetic in option values.
 * fio replaces the reserved keywords $pagesize, $mb_memory and $ncpus in a
 * value and, when one was replaced and the value holds an operator, hands
 * it to bc (integer arithmetic): size=5*1024*1024*$mb_memory/8. A numeric
 * value that starts with '(' is an arithmetic expression
 * (size=(4k*3), runtime=(1+1)). Both are evaluated here, without bc. */
#ifndef DRIVEBENCH_EXPR_H
#define DRIVEBENCH_EXPR_H

#include <stddef.h>
#include <stdint.h>

/* Parses one number of an expression ("4k", "30s", "12"); 0 or -1 with
 * err_msg. ctx is what expr_eval was given. */
typedef int (*expr_number_fn)(const char *text, void *ctx, uint64_t *out);

/* Evaluates text: numbers (read by number), + - * / % ^, unary minus and
 * parentheses, with the usual precedence (^ binds tightest and to the
 * right). Integer arithmetic; division truncates, as bc's does. The
 * result must be 0..2^64-1. Returns 0, or -1 with err_msg naming the
 * expression ("bad expression '(1+)': ..."). */
int expr_eval(const char *text, expr_number_fn number, void *ctx, uint64_t *out);

/* Copies value into out[len] with $pagesize, $mb_memory and $ncpus
 * replaced by this machine's figures (fio's: the page size, the
 * megabytes of memory, the CPUs configured) and, when one was replaced
 * and the value holds + - * or /, the whole value evaluated as integer
 * arithmetic (what fio asks bc for). Returns 1 when out differs from
 * value, 0 when value had no keyword (out is a copy), -1 with err_msg. */
int expr_keywords(const char *value, char *out, size_t len);

/* The keyword figures themselves, for tests. */
uint64_t expr_pagesize(void);
uint64_t expr_mb_memory(void);
uint64_t expr_ncpus(void);

#endif
