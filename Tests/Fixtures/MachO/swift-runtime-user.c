// A framework that uses the Swift runtime, as a Swift framework's binary
// does: it links @rpath/libswiftCore.dylib and @rpath/libswiftFoundation.dylib
// (text stubs beside this file), which dyld finds through its LC_RPATH
// entry /usr/lib/swift.
extern void *swift_retain(void *object);
extern char $s10Foundation4DataVN; // Foundation.Data's type metadata

void *swifty_keep(void *object) {
    return object == &$s10Foundation4DataVN ? object : swift_retain(object);
}
