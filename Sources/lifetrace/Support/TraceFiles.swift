import Foundation
import LifetraceFormat
import SystemPackage

/// The trace files a command's arguments name, one at a time: files as given, directories walked in name order
/// for `*.lifetrace` files, and, with `--files-from`, one path per line of a file (`-`: standard input). Paths
/// are found as they are needed, so memory does not grow with their number.
struct TraceFiles {
    private var arguments: [String]
    private var listed: LineStream?
    private var walking: [String] = []
    private var directory: String?

    /// The paths of `arguments`, then those listed in `listFile`, if any.
    init(_ arguments: [String], listFile: String? = nil) throws(TraceError) {
        self.arguments = arguments.reversed()
        if let listFile {
            let descriptor: FileDescriptor = try listFile == "-" ? .standardInput : .open(forReading: listFile)
            listed = LineStream(descriptor: descriptor)
        }
    }

    /// The next trace file; `nil` when there is none.
    mutating func next() throws -> String? {
        while true {
            if let path = walking.popLast() { return path }
            if let path = arguments.popLast() {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                    return path  // a file, or a path the reader will say it cannot open
                }
                walking = Self.traces(under: path).reversed()
                continue
            }
            guard listed != nil else { return nil }
            var line: String?
            while line == nil, try listed!.next({ bytes in
                let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                if !text.isEmpty { line = text }
            }) {}
            guard let line else {
                listed = nil
                return nil
            }
            arguments.append(line)
        }
    }

    /// The `*.lifetrace` files under `directory`, at any depth, in path order.
    private static func traces(under directory: String) -> [String] {
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        var paths: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".lifetrace") { paths.append(base + "/" + relative) }
        }
        return paths.sorted()
    }
}
