/// The load commands of one image that are read once: the first command of
/// each kind, as dyld takes it (`LC_SYMTAB`, `LC_DYLD_INFO` or
/// `LC_DYLD_INFO_ONLY`, `LC_DYLD_CHAINED_FIXUPS`, `LC_DYLD_EXPORTS_TRIE`,
/// `LC_FUNCTION_STARTS`, `LC_MAIN`). Later commands of a kind are ignored.
struct LoadCommandIndex {
    /// `LC_SYMTAB`.
    private(set) var symtab: LoadCommand?
    /// `LC_DYLD_INFO` or `LC_DYLD_INFO_ONLY`, whichever comes first.
    private(set) var dyldInfo: LoadCommand?
    /// `LC_DYLD_CHAINED_FIXUPS`.
    private(set) var chainedFixups: LoadCommand?
    /// `LC_DYLD_EXPORTS_TRIE`.
    private(set) var exportsTrie: LoadCommand?
    /// `LC_FUNCTION_STARTS`.
    private(set) var functionStarts: LoadCommand?
    /// `LC_MAIN`.
    private(set) var main: LoadCommand?

    /// Indexes `commands`, in load-command order.
    init(_ commands: [LoadCommand]) {
        for command in commands {
            switch command.command {
            case LoadCommandType.symtab: symtab = symtab ?? command
            case LoadCommandType.dyldInfo, LoadCommandType.dyldInfoOnly: dyldInfo = dyldInfo ?? command
            case LoadCommandType.dyldChainedFixups: chainedFixups = chainedFixups ?? command
            case LoadCommandType.dyldExportsTrie: exportsTrie = exportsTrie ?? command
            case LoadCommandType.functionStarts: functionStarts = functionStarts ?? command
            case LoadCommandType.main: main = main ?? command
            default: break
            }
        }
    }
}
