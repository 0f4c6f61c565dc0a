// Kit.framework of the macOS app fixture (MachOFixture.macApp): a C
// framework that keeps the selector name sharedApplication as a string.

const char *kit_selector(void) { return "sharedApplication"; }
