/*
 * libfastpath.so: an x86_64-only kernel (think hand-written SSE), built only
 * for x86_64-linux-gnu, so the aarch64 slice that a required-architectures
 * policy of {aarch64, x86_64} asks for is missing.
 */

/* Sums `n` bytes; stands in for a vectorised checksum. */
unsigned fastpath_checksum(const unsigned char *p, int n) {
    unsigned sum = 0;
    for (int i = 0; i < n; i++)
        sum += p[i];
    return sum;
}
