/// One unit's abbreviation table (`.debug_abbrev`): for each abbreviation
/// code an entry's tag, whether it has children, and its attributes with
/// their forms.
struct DWARFAbbreviations: Sendable {
    /// One abbreviation: how the entries that name its code are encoded.
    struct Abbreviation: Sendable {
        /// `DW_TAG_*`.
        let tag: UInt64
        /// `DW_CHILDREN_yes`: the entries after it, up to a null entry, are
        /// its children.
        let hasChildren: Bool
        /// Its attributes, in the order the entry's values follow.
        let attributes: [Attribute]
    }

    /// An attribute of an abbreviation.
    struct Attribute: Sendable {
        /// `DW_AT_*`.
        let name: UInt64
        /// `DW_FORM_*`.
        let form: UInt64
        /// The value of a `DW_FORM_implicit_const` attribute, held in the
        /// abbreviation rather than the entry.
        let implicitConstant: Int64
    }

    /// The abbreviations by code; codes are usually 1, 2, … in order, so
    /// those are held by position, others (rare) by code.
    private var sequential: [Abbreviation] = []
    private var byCode: [UInt64: Abbreviation] = [:]

    /// The abbreviation with `code`, or `nil` when the table has none.
    subscript(code: UInt64) -> Abbreviation? {
        if code >= 1 && code <= UInt64(sequential.count) { return sequential[Int(code - 1)] }
        return byCode[code]
    }

    /// Reads the table at `offset` in `.debug_abbrev`, up to its
    /// terminating 0 code.
    ///
    /// - Throws: ``DWARFError`` when the table runs past the section's end.
    init(at offset: UInt64, in sections: DWARFSections) throws(DWARFError) {
        var cursor = try DWARFCursor(.abbrev, in: sections, at: offset)
        while true {
            let code = try cursor.uleb()
            guard code != 0 else { return }
            let tag = try cursor.uleb()
            let hasChildren = try cursor.u8() != 0
            var attributes: [Attribute] = []
            while true {
                let name = try cursor.uleb()
                let form = try cursor.uleb()
                if name == 0 && form == 0 { break }
                let implicitConstant = form == DWARFForm.implicitConst ? try cursor.sleb() : 0
                attributes.append(Attribute(name: name, form: form, implicitConstant: implicitConstant))
            }
            let abbreviation = Abbreviation(tag: tag, hasChildren: hasChildren, attributes: attributes)
            if code == UInt64(sequential.count) + 1 && byCode.isEmpty {
                sequential.append(abbreviation)
            } else if self[code] == nil {  // a repeated code: the first one holds
                byCode[code] = abbreviation
            }
        }
    }
}
