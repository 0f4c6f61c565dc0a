// Calls in several functions, some inlined (at -O2) from this file and
// from a header in another directory (include/lookup.h), for the DWARF
// reader's tests (DWARFSourceLookupTests).
#include "lookup.h"

extern int measure(const char *what);

static int weigh(const char *what) {
    int size = measure(what);
    tally(what, size);
    return size * 2;
}

int total(const char **items, int count) {
    int sum = 0;
    for (int index = 0; index < count; index++)
        sum += weigh(items[index]);
    record("total", sum);
    return sum;
}

void report(const char *item) {
    tally(item, measure(item));
}
