import Foundation
import LifetraceFormat
import SystemPackage

/// The trace files a command's arguments name, one at a time: files as given, directories walked in name order
/// for `*.lifetrace` files, and, with `--files-from`, one path per line of a file (`-`: standard input). Paths
/// are found as they are needed, so memory does not grow with their number.
///
/// A file found by walking a directory must be a regular file (or a link to one): anything else there — a FIFO
/// named `*.lifetrace` would block its reader forever — comes with the error that stands for it, and is not
/// opened. A path given as an argument is read whatever it is (`<(command)` is a pipe).
struct TraceInputs {
    /// A trace to read: its path, and, for one that is not to be opened, why.
    struct Entry {
        var path: String
        var problem: TraceError?
    }

    private var arguments: [String]
    private var listed: LineStream?
    private var walking: [Entry] = []
    /// The file the command writes, which a directory walked may hold: never read as an input.
    private let output: FileIdentity?

    /// The paths of `arguments`, then those listed in `listFile`, if any (`-`: the standard input of `console`);
    /// `output`, the file the command writes, is left out of the directories walked.
    init(_ arguments: [String], listFile: String? = nil, output: String? = nil, on console: Console)
        throws(TraceError)
    {
        self.arguments = arguments.reversed()
        self.output = output.flatMap(OutputFile.identity)
        if let listFile {
            let descriptor: FileDescriptor = try listFile == "-" ? console.input : .open(forReading: listFile)
            listed = LineStream(descriptor: descriptor)
        }
    }

    /// The next trace file; `nil` when there is none.
    mutating func next() throws -> Entry? {
        while true {
            if let entry = walking.popLast() { return entry }
            if let path = arguments.popLast() {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue
                else {
                    return Entry(path: path)  // a file, or a path the reader will say it cannot open
                }
                walking = traces(under: path).reversed()
                continue
            }
            guard listed != nil else { return nil }
            var line: String?
            while line == nil,
                try listed!.next({ bytes in
                    let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                    if !text.isEmpty { line = text }
                })
            {}
            guard let line else {
                listed = nil
                return nil
            }
            arguments.append(line)
        }
    }

    /// The `*.lifetrace` files under `directory`, at any depth, in path order.
    private func traces(under directory: String) -> [Entry] {
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        var entries: [Entry] = []
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".lifetrace") else { continue }
            let path = base + "/" + relative
            // The walker's own attributes (lstat): a link is followed here, once.
            var attributes = walker.fileAttributes ?? [:]
            if attributes[.type] as? FileAttributeType == .typeSymbolicLink {
                attributes = (try? FileManager.default.attributesOfItem(atPath: OutputFile.followingLinks(path))) ?? [:]
            }
            let type = attributes[.type] as? FileAttributeType
            if let output, let device = (attributes[.systemNumber] as? NSNumber)?.uint64Value,
                let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value,
                FileIdentity(device: device, inode: inode) == output
            {
                continue
            }
            if type == .typeDirectory { continue }  // a directory named *.lifetrace is walked for its own
            var entry = Entry(path: path)
            if let type, type != .typeRegular {
                entry.problem = TraceError(
                    .io, file: path, at: .file,
                    "not a regular file (\(Self.name(of: type))): a file found in a directory is read only if it is one"
                )
            }
            entries.append(entry)
        }
        return entries.sorted { $0.path < $1.path }
    }

    private static func name(of type: FileAttributeType) -> String {
        switch type {
        case .typeCharacterSpecial: "a character device"
        case .typeBlockSpecial: "a block device"
        case .typeSocket: "a socket"
        default: "a FIFO or another special file"
        }
    }
}
