/*
 * libtranscode.so: links libfastpath.so (DT_NEEDED). Built for x86_64, where
 * that works, and for aarch64, where the only libfastpath.so among the
 * images is x86_64: a machine mismatch. build.sh links the aarch64 build
 * against a throwaway aarch64 stub of libfastpath that it never ships.
 */

unsigned fastpath_checksum(const unsigned char *p, int n);

/* Checks a buffer before transcoding it; returns 1 if it matches `expected`. */
int transcode_verify(const unsigned char *p, int n, unsigned expected) {
    return fastpath_checksum(p, n) == expected;
}
