import LinkCheckReports
import LinkCheckSourceLines
import Testing

/// Source paths as reports show them (``SourceRoot``): relative to the
/// source root when inside it, `.` and `folder/..` taken out, and a
/// relative path from a build that mapped its folder to `.` taken as
/// relative to the root.
@Suite struct SourceRootTests {
    @Test func pathsAreNormalized() {
        #expect(SourceRoot.normalized("././plug.c") == "plug.c")
        #expect(SourceRoot.normalized("./sub2/../sub1/u.h") == "sub1/u.h")
        #expect(SourceRoot.normalized("/src/app/./sub2/../sub1/u.h") == "/src/app/sub1/u.h")
        #expect(SourceRoot.normalized("../shared/u.h") == "../shared/u.h")
        #expect(SourceRoot.normalized("/../u.h") == "/u.h")
        #expect(SourceRoot.normalized("/src//app/u.h") == "/src/app/u.h")
    }

    @Test func filesAreRelativeToTheRoot() {
        let root = SourceRoot("/src/app")
        #expect(root.relative("/src/app/Sources/loader.c") == "Sources/loader.c")
        #expect(root.relative("/src/app/sub2/../sub1/u.h") == "sub1/u.h")
        #expect(root.relative("/src/other/loader.c") == nil)
        #expect(root.relative("/src/application/loader.c") == nil)
        // -fdebug-prefix-map=/src/app=. made the paths relative.
        #expect(root.relative("././plug.c") == "plug.c")
        #expect(root.relative("../shared/u.h") == nil)
        #expect(SourceRoot.place(SourcePosition(file: "././plug.c", line: 21, column: 40), relativeTo: root) == "plug.c:21:40")
        #expect(SourceRoot.place(SourcePosition(file: "./a/../plug.c", line: 21, column: nil), relativeTo: nil) == "plug.c:21")
    }
}
