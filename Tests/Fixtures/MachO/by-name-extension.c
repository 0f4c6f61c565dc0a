/* An extension's entry point (ByNamePolicyTests): it links its frameworks
   (-framework), each of which reaches +[UIApplication sharedApplication]
   its own way, and runs their code through its principal class. */
int NSExtensionMain(void) { return 0; }
