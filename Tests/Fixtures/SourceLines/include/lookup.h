// Inline helpers in a header, for a second file and directory in the line table.
extern void record(const char *what, int count);

static inline __attribute__((always_inline)) void tally(const char *what, int count) {
    if (count > 0)
        record(what, count);
}
