// Swift calls for the Mach-O source lines' tests (MachOSourceLinesTests),
// compiled with -parse-stdlib for arm64 iOS (no SDK): calls to two C
// functions the image imports, one through a helper the optimizer inlines
// at -O, one a tail call.
@_silgen_name("relay_send")
func send(_ value: Builtin.Int64)

@_silgen_name("relay_flush")
func flush()

@inline(__always)
func forward(_ value: Builtin.Int64) {
    send(value)
}

public func relay(_ first: Builtin.Int64, _ second: Builtin.Int64) {
    forward(first)
    send(second)
    flush()
}
