/* The CSV column table: the header made of the columns' names, each field where its column is,
 * in the column's format; and a field given to the wrong column stops the program (--misnamed,
 * run by common.csv_misnamed, which expects the message and exit 1). */
/* mkstemp, fdopen: POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "host/csv.h"
#include "host/test_util.h"

#include <stdio.h>
#include <string.h>

static const csv_column COLUMNS[] = {
    {"variant", CSV_TEXT, 0}, {"n", CSV_INT, 0}, {"median_ms", CSV_REAL, 4}};

int main(int argc, char** argv) {
    if (argc == 2 && !strcmp(argv[1], "--misnamed")) {
        csv_table t;
        csv_table_open(&t, "/dev/null", NULL, "test_csv --misnamed", COLUMNS, 3);
        csv_text(&t, "variant", "a");
        csv_real(&t, "median_ms", 1.0); /* column 2 is n: stops here */
        return 0;
    }
    if (test_no_arguments(argc, argv)) return EXIT_USAGE;
    char path[] = "/tmp/test_csv_XXXXXX";
    FILE* tmp = fdopen(mkstemp(path), "w");
    EXPECT(tmp != NULL, "a temporary file");
    if (!tmp) return test_finish("csv");
    fclose(tmp);
    csv_table t;
    csv_table_open(&t, path, NULL, "test_csv", COLUMNS, 3);
    csv_text(&t, "variant", "plain");
    csv_int(&t, "n", -3);
    csv_real(&t, "median_ms", 0.123456);
    csv_end_row(&t);
    csv_text(&t, "variant", "swizzled");
    csv_int(&t, "n", 1LL << 40);
    csv_real(&t, "median_ms", 2.0);
    csv_end_row(&t);
    csv_table_close(&t);

    FILE* f = fopen(path, "r");
    char line[256], body[1024] = "";
    int meta = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            ++meta;
        else
            strncat(body, line, sizeof body - strlen(body) - 1);
    }
    if (f) fclose(f);
    remove(path);
    EXPECT(meta >= 3, "metadata lines first (%d)", meta);
    EXPECT(!strcmp(body, "variant,n,median_ms\nplain,-3,0.1235\nswizzled,1099511627776,2.0000\n"),
           "the header and rows, got:\n%s", body);
    return test_finish("csv");
}
