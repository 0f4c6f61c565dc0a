import LinkCheckImage
import LinkCheckInspection
import LinkCheckSourceLines

/// The last stage of a check: the source (file, line, column, inline chain)
/// of each call site the report's findings show, from the debug information
/// of the image that holds the call (``SourceLines``). Each such image is
/// read once, for the addresses its findings name, and only those: never
/// every address, nor images without call sites.
enum CallSiteSources {
    /// `report` with the ``FindingCallSite/source`` of each of its findings'
    /// call sites the debug information covers; an image whose debug
    /// information cannot be read, and each note of a lookup (a dSYM of
    /// another build, object files of a debug map missing, a line table
    /// that cannot be decoded), adds a notice, once however many slices'
    /// lookups give the same note, in the order first given; the call
    /// sites keep their findings without a source. `dsyms` are the
    /// `--dsym` paths.
    static func located(_ report: Report, jobs: Int, dsyms: [String] = []) -> Report {
        var addresses: [String: Set<UInt64>] = [:]
        for finding in report.findings where !finding.callSites.isEmpty {
            addresses[callingImage(of: finding), default: []].formUnion(finding.callSites.map(\.address))
        }
        guard !addresses.isEmpty else { return report }
        let wanted = report.images.map(\.binary).compactMap { image in addresses[image.name].map { (image, $0) } }
        let lookups = parallelMap(wanted, jobs: jobs) { image, addresses in
            Result { () throws(SourceLinesError) in try SourceLines.sources(of: addresses, in: image, dsyms: dsyms) }
        }
        var sources: [String: [UInt64: AddressSource]] = [:]
        var located = report
        // The slices of a fat image look at the same dSYM: a note about the
        // file (a damaged dSYM) is the same text for each, and is given once.
        var noted: Set<String> = []
        for ((image, _), lookup) in zip(wanted, lookups) {
            switch lookup {
            case .success(let found):
                sources[image.name] = found.sources
                located.notices += found.notes.filter { noted.insert($0).inserted }
            case .failure(let error): located.notices.append("\(error)")
            }
        }
        located.findings = report.findings.map { finding in
            guard let found = sources[callingImage(of: finding)], !found.isEmpty else { return finding }
            var finding = finding
            for index in finding.callSites.indices {
                finding.callSites[index].source = found[finding.callSites[index].address]
            }
            return finding
        }
        return located
    }

    /// The image whose code holds a finding's call sites: its own, or for a
    /// transitive finding the image that uses the API (the last of
    /// ``Finding/chainImages``).
    static func callingImage(of finding: Finding) -> String {
        finding.chainImages.last ?? finding.image
    }
}
