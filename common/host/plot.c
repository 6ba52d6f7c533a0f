/* POSIX for mkstemp, popen, access and unlink. */
#define _POSIX_C_SOURCE 200809L
#include "host/plot.h"

#include "host/check.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The first executable gnuplot on PATH into out (the one popen's shell will run); 0, or -1 if
 * there is none. */
static int find_gnuplot(char* out, size_t len) {
    const char* path = getenv("PATH");
    while (path && *path) {
        size_t n = strcspn(path, ":");
        int w = snprintf(out, len, "%.*s/gnuplot", (int)n, n ? path : ".");
        if (w > 0 && (size_t)w < len && !access(out, X_OK)) return 0;
        path += n + (path[n] == ':');
    }
    return -1;
}

int course_plot_begin(course_plot* p, const char* tool, const char* flag) {
    memset(p, 0, sizeof *p);
    p->tool = tool;
    fflush(stdout); /* the text comes first, whatever happens to the picture */
    if (find_gnuplot(p->gnuplot, sizeof p->gnuplot)) {
        fprintf(stderr,
                "%s: %s needs gnuplot: install it (sudo apt-get install gnuplot-nox, brew "
                "install gnuplot)\n",
                tool, flag);
        return EXIT_SKIPPED;
    }
    const char* tmp = getenv("TMPDIR");
    int fd = -1;
    if (snprintf(p->data_path, sizeof p->data_path, "%s/%s_plot_XXXXXX", tmp && *tmp ? tmp : "/tmp",
                 tool) < (int)sizeof p->data_path)
        fd = mkstemp(p->data_path);
    if (fd < 0 || !(p->data = fdopen(fd, "w"))) {
        fprintf(stderr, "%s: cannot make a temporary file for gnuplot's data (%s)\n", tool,
                p->data_path);
        if (fd >= 0) close(fd);
        p->data_path[0] = '\0';
        return EXIT_CHECK_FAILED;
    }
    return EXIT_OK;
}

void course_plot_string(FILE* f, const char* s) {
    fputc('\'', f);
    for (; *s; ++s) {
        if (*s == '\'') fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

FILE* course_plot_script(course_plot* p, const char* png, int width, int height) {
    int bad = fclose(p->data) != 0;
    p->data = NULL;
    if (bad || !(p->pipe = popen("gnuplot", "w"))) {
        fprintf(stderr, "%s: cannot run %s\n", p->tool, p->gnuplot);
        return NULL;
    }
    fprintf(p->pipe,
            "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
            "  set terminal pngcairo size %d,%d font ',10' noenhanced\n"
            "} else {\n"
            "  set terminal png size %d,%d noenhanced\n"
            "}\n"
            "set output ",
            width, height, width, height);
    course_plot_string(p->pipe, png);
    fprintf(p->pipe, "\nDATA = ");
    course_plot_string(p->pipe, p->data_path);
    fprintf(p->pipe, "\n");
    return p->pipe;
}

int course_plot_end(course_plot* p) {
    int rc = EXIT_OK;
    if (p->data) fclose(p->data);
    if (!p->pipe || pclose(p->pipe) != 0) rc = EXIT_CHECK_FAILED;
    if (p->pipe && rc) fprintf(stderr, "%s: gnuplot failed: no picture drawn\n", p->tool);
    if (p->data_path[0]) unlink(p->data_path);
    return rc;
}
