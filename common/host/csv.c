#include "host/csv.h"

#include "host/check.h"

#include <string.h>
#include <time.h>

FILE* csv_open(const char* path, const course_device* dev, const char* command_line,
               const char* header) {
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
