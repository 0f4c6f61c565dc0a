import Foundation

/// Headless Chromium (Debian's `chromium`) for the HTML report's tests, run
/// without a network (`unshare -n`, a new network namespace with only a
/// down loopback) when root may create one.
public enum Browser {
    public static var executable: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// What the page became after its scripts ran, and what the browser
    /// logged (console messages appear as `CONSOLE` lines).
    public struct Page {
        public var dom: String
        public var log: String

        /// The console messages of the page itself: the log's `CONSOLE`
        /// lines but those of the browser's own pages (`source:
        /// chrome://…`, such as "Slow network is detected" on a busy
        /// machine).
        public var consoleMessages: [String] {
            log.split(separator: "\n").map(String.init).filter { $0.contains("CONSOLE") && !$0.contains("source: chrome://") }
        }
    }

    /// Loads `file` in a window of `width` × `height` CSS pixels and returns
    /// the serialized DOM (`--dump-dom`); with `screenshot`, also writes a
    /// PNG of the window's view of the page there.
    public static func load(_ file: URL, screenshot: URL? = nil, width: Int = 1400, height: Int = 2400) throws -> Page {
        guard let chromium = executable else {
            throw CommandFailure(
                command: "chromium", output: CommandOutput(status: 127, standardOutput: "", standardError: "chromium is not installed"))
        }
        let flags = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--enable-logging=stderr", "--v=0", "--window-size=\(width),\(height)", "--hide-scrollbars",
        ]
        let isolated = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        @discardableResult func run(_ arguments: [String]) throws -> CommandOutput {
            isolated ? try Command.run("/usr/bin/unshare", ["-n", chromium] + arguments) : try Command.run(chromium, arguments)
        }
        let output = try run(flags + ["--dump-dom", file.absoluteString])
        if let screenshot {
            try run(flags + ["--screenshot=\(screenshot.path)", file.absoluteString])
        }
        return Page(dom: output.standardOutput, log: output.standardError)
    }

    /// Loads a copy of `page` with `script` run after the page's own (the
    /// page's Content-Security-Policy allows inline scripts), in a window of
    /// `width` × `height`: for measuring the layout, which the script writes
    /// into the DOM (as attributes of `<html>`).
    public static func measure(_ page: URL, script: String, width: Int = 1400, height: Int = 1800) throws -> Page {
        let html = try String(contentsOf: page, encoding: .utf8)
        guard let end = html.range(of: "</body>", options: .backwards) else {
            throw CommandFailure(
                command: "measure", output: CommandOutput(status: 1, standardOutput: "", standardError: "no </body> in \(page.path)"))
        }
        let copy = page.deletingLastPathComponent().appendingPathComponent("measure-" + page.lastPathComponent)
        try (html[..<end.lowerBound] + "<script>" + script + "</script>" + html[end.lowerBound...]).write(
            to: copy, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: copy) }
        return try load(copy, width: width, height: height)
    }

    /// Every match of `pattern`'s capture groups in `text`.
    public static func captures(_ pattern: String, in text: String) throws -> [[String]] {
        let expression = try NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (1..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
        }
    }
}
