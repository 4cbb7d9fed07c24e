/* bench/report.c - prints measured rows as a JMH-like table or as JSON:
 * kernel, implementation, size, ops/ms, MB/s (byte kernels), ns/op, and for
 * crisp rows the speed ratio to the fastest peer on the same case (for the
 * crisp provider's EVP row, to the default provider's), with the OpenSSL
 * and the crisp.so the EVP rows ran. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../tools/close_stdout.h"
#include "bench.h"
#include "peer_library.h"

static int first_json_row;

void bench_size_label(char *out, size_t capacity, const bench_case *c) {
  char size[32];
  if (c->is_bignum) {
    snprintf(out, capacity, "%zu bit", c->size);
    return;
  }
  if (c->size >= 1048576 && c->size % 1048576 == 0)
    snprintf(size, sizeof size, "%zu MiB", c->size / 1048576);
  else if (c->size >= 1024 && c->size % 1024 == 0)
    snprintf(size, sizeof size, "%zu KiB", c->size / 1024);
  else
    snprintf(size, sizeof size, "%zu B", c->size);
  if (c->messages > 1)
    snprintf(out, capacity, "%zux%s", c->messages, size);
  else
    snprintf(out, capacity, "%s", size);
}

/* JSON strings here are names we chose or CPU brands: escape quotes and
 * backslashes, drop control characters. */
static void json_string(const char *s) {
  putchar('"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') putchar('\\');
    if ((unsigned char)*s >= 0x20) putchar(*s);
  }
  putchar('"');
}

void bench_report_begin(const bench_settings *settings) {
  if (settings->json) {
    printf("{\"cpu\": ");
    json_string(crisp_cpu_brand());
    printf(", \"level\": ");
    json_string(crisp_level());
    if (bench_provider_openssl_version()) {
      printf(", \"openssl\": ");
      json_string(bench_provider_openssl_version());
      printf(", \"crisp_provider_folder\": ");
      json_string(bench_provider_folder());
    }
    for (size_t i = 0; i < bench_peer_library_count(); i++) {
      const peer_library *library = bench_peer_library_at(i);
      printf("%s{\"name\": ", i ? ", " : ", \"peer_libraries\": [");
      json_string(library->name);
      printf(", \"version\": ");
      json_string(library->full_version);
      printf(", \"path\": ");
      json_string(library->path);
      printf("}%s", i + 1 == bench_peer_library_count() ? "]" : "");
    }
    printf(", \"results\": [");
    first_json_row = 1;
    return;
  }
  printf("crisp bench on %s, level %s (%s); best %.1f ms batch of %g ms per row\n", crisp_cpu_brand(),
         crisp_level(), crisp_dispatch_reason(), settings->batch_ms, settings->row_ms);
  if (bench_provider_openssl_version())
    printf("EVP rows: %s with crisp.so from %s against %s, %s; vs peer: their speed ratio\n",
           BENCH_SOURCE_CRISP_PROVIDER, bench_provider_folder(), BENCH_SOURCE_DEFAULT_PROVIDER,
           bench_provider_openssl_version());
  for (size_t i = 0; i < bench_peer_library_count(); i++) {
    const peer_library *library = bench_peer_library_at(i);
    printf("peer %s: %s from %s\n", library->name, library->full_version, library->path);
  }
  printf("%-12s %-38s %12s %14s %12s %14s %8s\n", "kernel", "implementation", "size", "ops/ms", "MB/s",
         "ns/op", "vs peer");
}

static void row_label(char *out, size_t capacity, const bench_row *row) {
  if (!strcmp(row->routine->source, "crisp"))
    snprintf(out, capacity, "crisp %s", row->impl);
  else
    snprintf(out, capacity, "%s %s", row->routine->source, row->routine->name);
}

static void table_row(const bench_case *c, const bench_row *row, const char *size) {
  char label[96], throughput[32] = "-", ratio[16] = "";
  row_label(label, sizeof label, row);
  if (!c->is_bignum) snprintf(throughput, sizeof throughput, "%.1f", c->bytes_per_op * 1e3 / row->ns_per_op);
  if (row->vs_best_peer > 0) snprintf(ratio, sizeof ratio, "%.2fx", row->vs_best_peer);
  if (row->vs_default_provider > 0) snprintf(ratio, sizeof ratio, "%.2fx", row->vs_default_provider);
  printf("%-12s %-38s %12s %14.2f %12s %14.1f %8s\n", c->kernel, label, size, 1e6 / row->ns_per_op,
         throughput, row->ns_per_op, ratio);
}

static void json_row(const bench_case *c, const bench_row *row) {
  printf("%s\n  {\"kernel\": ", first_json_row ? "" : ",");
  first_json_row = 0;
  json_string(c->kernel);
  printf(", \"source\": ");
  json_string(row->routine->source);
  printf(", \"implementation\": ");
  json_string(strcmp(row->routine->source, "crisp") ? row->routine->name : row->impl);
  printf(", \"size\": %zu, \"unit\": \"%s\", \"messages\": %zu", c->size, c->is_bignum ? "bits" : "bytes",
         c->messages);
  printf(", \"ns_per_op\": %.3f, \"ops_per_ms\": %.3f", row->ns_per_op, 1e6 / row->ns_per_op);
  if (!c->is_bignum) printf(", \"mb_per_s\": %.3f", c->bytes_per_op * 1e3 / row->ns_per_op);
  if (row->vs_best_peer > 0) printf(", \"vs_best_peer\": %.4f", row->vs_best_peer);
  if (row->vs_default_provider > 0) printf(", \"vs_default_provider\": %.4f", row->vs_default_provider);
  printf("}");
}

void bench_report_case(const bench_case *c, const bench_row *rows, size_t count,
                       const bench_settings *settings) {
  char size[48];
  bench_size_label(size, sizeof size, c);
  for (size_t r = 0; r < count; r++) {
    if (isnan(rows[r].ns_per_op)) continue;
    if (settings->json)
      json_row(c, &rows[r]);
    else
      table_row(c, &rows[r], size);
  }
  cli_flush_stdout();
}

void bench_report_end(const bench_settings *settings) {
  if (settings->json) printf("\n]}\n");
}
