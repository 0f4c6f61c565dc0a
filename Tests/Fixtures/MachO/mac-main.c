// The executable of the macOS app fixture and of its extension
// (MachOFixture.macApp): a main that calls into Kit.framework.

const char *kit_selector(void);

int main(void) { return kit_selector()[0] == 's' ? 0 : 1; }
