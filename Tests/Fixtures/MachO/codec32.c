/*
 * A 32-bit-only framework (armv7): what an old framework that was never
 * rebuilt for arm64 looks like (MH_MAGIC, CPU_TYPE_ARM, CPU_SUBTYPE_ARM_V7).
 *
 * lld's 32-bit ARM support is incomplete: it rejects the relocations calls
 * to other images, string literals and Objective-C metadata need ("unhandled
 * relocation type", "VANILLA relocation must be extern"). So this file has
 * leaf functions only, which need no relocation; the image links libSystem
 * and imports only dyld_stub_binder, which lld 14 binds in every image.
 */

/* The codec's version. */
int codec_version(void) {
    return 3;
}

/* Run-length decodes `length` bytes of `input` (pairs of count, byte) into
 * `output`, at most `capacity` bytes; returns the number written. */
int codec_rle_decode(const unsigned char *input, int length, unsigned char *output, int capacity) {
    int written = 0;
    for (int i = 0; i + 1 < length; i += 2) {
        for (int n = 0; n < input[i] && written < capacity; n++) {
            output[written++] = input[i + 1];
        }
    }
    return written;
}
