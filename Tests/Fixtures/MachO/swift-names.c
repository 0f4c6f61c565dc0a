/* A Swift framework's global array of names, as swiftc lays it out
   (see swift-compatibility-shim.c for why it is C): SwiftKit.names holds
   "UIApplication" and "sharedApplication", which no code loads. */
const char *const sk_names[] __asm__("_$s8SwiftKit5namesSaySSGvp") = { "UIApplication", "sharedApplication" };
