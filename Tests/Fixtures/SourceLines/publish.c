// An inlined call, for the inline chain of a call site: built with
// -gdwarf-4 -gz -O2 (DWARF 4, compressed sections), announce's call to
// notify is inlined into publish.
extern void notify(const char *message);

static inline __attribute__((always_inline)) void announce(const char *what) {
    notify(what);
}

void publish(const char *item) {
    announce(item);
    notify("published");
}
