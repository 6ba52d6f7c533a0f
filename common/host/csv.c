#include "host/csv.h"

#include "host/check.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The file, its metadata lines and its header row. */
static FILE* open_with_metadata(const char* path, const course_device* dev,
                                const char* command_line, const char* header) {
    FILE* f = fopen(path, "w");
    if (!f) die("cannot write %s", path);
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    if (dev) {
        fprintf(f, "# gpu: %s\n", dev->name);
        fprintf(f, "# compute capability: %d.%d\n", dev->cc_major, dev->cc_minor);
        fprintf(f, "# cuda runtime: %d.%d\n", dev->runtime_version / 1000,
                dev->runtime_version % 1000 / 10);
        fprintf(f, "# driver: %s\n", dev->driver);
        fprintf(f, "# sms: %d, max sm clock: %d MHz\n", dev->sm_count, dev->clock_khz / 1000);
    } else
        fprintf(f, "# gpu: none\n");
    fprintf(f, "# date: %s\n", date);
    fprintf(f, "# git commit: %s\n", course_git_commit);
    fprintf(f, "# command: %s\n", command_line);
    fprintf(f, "%s\n", header);
    return f;
}

const char* csv_field(const char* s) {
    if (strpbrk(s, ",\"\n\r"))
        die("'%s' cannot be a CSV field: no commas, quotes or line breaks", s);
    return s;
}

void csv_close(FILE* f, const char* path) {
    int bad = ferror(f);
    if (fclose(f) || bad) die("writing %s failed", path);
}

void csv_table_open(csv_table* t, const char* path, const course_device* dev,
                    const char* command_line, const csv_column* columns, int n_columns) {
    size_t len = 1;
    for (int i = 0; i < n_columns; ++i) len += strlen(columns[i].name) + 1;
    char* header = (char*)malloc(len);
    if (!header) die("out of host memory");
    header[0] = '\0';
    for (int i = 0; i < n_columns; ++i) {
        if (i) strcat(header, ",");
        strcat(header, csv_field(columns[i].name));
    }
    t->f = open_with_metadata(path, dev, command_line, header);
    free(header);
    t->path = path;
    t->columns = columns;
    t->n_columns = n_columns;
    t->next = 0;
}

static const char* const KIND_NAMES[] = {"text", "an integer", "a real number", "a real number"};

/* The column the field fills, checked: its name and kind are the call's, and it exists. */
static const csv_column* next_column(csv_table* t, const char* name, csv_kind kind) {
    if (t->next >= t->n_columns)
        die("%s: a field '%s' past the row's %d columns", t->path, name, t->n_columns);
    const csv_column* c = &t->columns[t->next];
    if (strcmp(c->name, name))
        die("%s: column %d is '%s', not '%s'", t->path, t->next + 1, c->name, name);
    if (c->kind != kind && !(kind == CSV_REAL && c->kind == CSV_SIGNIFICANT))
        die("%s: column '%s' holds %s, not %s", t->path, name, KIND_NAMES[c->kind],
            KIND_NAMES[kind]);
    if (t->next++) fputc(',', t->f);
    return c;
}

void csv_text(csv_table* t, const char* name, const char* value) {
    next_column(t, name, CSV_TEXT);
    fputs(csv_field(value), t->f);
}

void csv_int(csv_table* t, const char* name, long long value) {
    next_column(t, name, CSV_INT);
    fprintf(t->f, "%lld", value);
}

void csv_real(csv_table* t, const char* name, double value) {
    const csv_column* c = next_column(t, name, CSV_REAL);
    fprintf(t->f, c->kind == CSV_SIGNIFICANT ? "%.*g" : "%.*f", c->digits, value);
}

void csv_timing(csv_table* t, const bench_result* r) {
    csv_real(t, "median_ms", r->median_ms);
    csv_real(t, "min_ms", r->min_ms);
    csv_real(t, "max_ms", r->max_ms);
    csv_int(t, "reps", r->reps);
}

void csv_end_row(csv_table* t) {
    if (t->next != t->n_columns)
        die("%s: a row ended after %d of its %d columns (next: '%s')", t->path, t->next,
            t->n_columns, t->columns[t->next].name);
    fputc('\n', t->f);
    t->next = 0;
}

void csv_table_close(csv_table* t) {
    if (t->next) die("%s: the last row is unfinished", t->path);
    csv_close(t->f, t->path);
    t->f = NULL;
}
