/* The other member of the static framework: plain C, no imports. */

static unsigned long launches;

/* Counts a launch; returns the count so far. */
unsigned long tracker_count_launch(void) {
    return ++launches;
}
