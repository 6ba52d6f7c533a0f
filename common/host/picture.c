#include "host/picture.h"

#include "host/check.h"
#include "host/cli.h"
#include "host/plot.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

course_cell course_cell_at(double x, double y, int colour, const char* fmt, ...) {
    course_cell c = {.x = x, .y = y, .w = 1, .h = 1, .colour = colour};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c.label, sizeof c.label, fmt, ap);
    va_end(ap);
    return c;
}

/* The cells as CSV rows; a label is quoted (gnuplot and a spreadsheet read "a,b" as one field). */
static void write_cells(FILE* f, const course_cell* cells, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        const course_cell* c = &cells[i];
        fprintf(f, "%g,%g,%g,%g,%d,\"%s\"\n", c->x, c->y, c->w, c->h, c->colour, c->label);
    }
}

int course_picture_join(int so_far, int rc) {
    if (so_far != EXIT_OK && so_far != EXIT_SKIPPED) return so_far;
    if (rc != EXIT_OK && rc != EXIT_SKIPPED) return rc;
    return so_far == EXIT_SKIPPED ? so_far : rc;
}

int course_picture_draw(const char* dir, const course_picture* pic, const course_cell* cells,
                        size_t n) {
    char path[COURSE_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s.csv", dir, pic->name);
    FILE* csv = fopen(path, "w");
    if (!csv) {
        fprintf(stderr, "%s: cannot write %s\n", pic->name, path);
        return EXIT_CHECK_FAILED;
    }
    fprintf(csv, "# picture: %s\n# key: %s\nx,y,w,h,colour,label\n", pic->title, pic->key);
    write_cells(csv, cells, n);
    if (fclose(csv)) {
        fprintf(stderr, "%s: cannot write %s\n", pic->name, path);
        return EXIT_CHECK_FAILED;
    }
    printf("wrote %s\n", path);

    course_plot p;
    int rc = course_plot_begin(&p, pic->name, "--picture");
    if (rc != EXIT_OK) return rc;
    write_cells(p.data, cells, n);
    snprintf(path, sizeof path, "%s/%s.png", dir, pic->name);
    FILE* gp = course_plot_script(&p, path, pic->width, pic->height);
    if (gp) {
        /* 32 hues, neighbours far apart on the wheel (11 is coprime with 32), light enough for a
         * black label; -1 is white. */
        fprintf(gp,
                "set datafile separator ','\n"
                "hue(c) = c < 0 ? 0xffffff : hsv2rgb((int(c) * 11 %% 32) / 32.0, 0.38, 1.0)\n"
                "set xrange [0:%d]\nset x2range [0:%d]\nset yrange [%d:0]\n"
                "set size ratio -1\nunset key\nset title ",
                pic->columns, pic->columns, pic->rows);
        course_plot_string(gp, pic->title);
        fprintf(gp, ".\"\\n\".");
        course_plot_string(gp, pic->key);
        fprintf(gp, "\nset xlabel ");
        course_plot_string(gp, pic->xlabel);
        fprintf(gp, "\nset ylabel ");
        course_plot_string(gp, pic->ylabel);
        fprintf(gp, "\n");
        if (pic->xtics)
            fprintf(gp, "set xtics 0,%d out nomirror\nset x2tics 0,%d out\n", pic->xtics,
                    pic->xtics);
        else
            fprintf(gp, "unset xtics\n");
        if (pic->ytics)
            fprintf(gp, "set ytics 0,%d out\n", pic->ytics);
        else
            fprintf(gp, "unset ytics\n");
        fprintf(gp, "plot DATA using ($1+$3/2):($2+$4/2):($3/2):($4/2):(hue($5)) "
                    "with boxxyerror fs solid 1.0 border lc rgb '#808080' lc rgb variable, "
                    "'' using ($1+$3/2):($2+$4/2):($3/2):($4/2) with boxxyerror fs empty "
                    "lc rgb '#808080', "
                    "'' using ($1+$3/2):($2+$4/2):6 with labels font ',8'\n");
    }
    rc = course_plot_end(&p);
    if (rc == EXIT_OK) printf("wrote %s\n", path);
    return rc;
}
