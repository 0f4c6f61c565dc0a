/*
 * libcodec.so: a self-contained codec kernel, built for every triple with the
 * same SONAME. The x86_64 and aarch64 builds are fine; the i386 and armv7
 * builds are 32-bit (ELFCLASS32) images, which an app or extension must not
 * ship.
 */

/* Run-length decodes `n` (count, byte) pairs from `in` into `out`; returns the
 * number of bytes written, at most `cap`. */
int codec_rle_decode(const unsigned char *in, int n, unsigned char *out, int cap) {
    int written = 0;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < in[2 * i] && written < cap; k++)
            out[written++] = in[2 * i + 1];
    }
    return written;
}
