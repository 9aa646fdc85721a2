import Foundation

/// What a test that promises "nothing in clear" looks for: the bytes of a
/// marker in every file under some folders, read whole, recursively.
public enum FileScan {
    /// Paths of the files under `roots` (a folder, or a file itself) whose bytes contain `text`.
    public static func filesHolding(_ text: String, under roots: [String]) -> [String] {
        let needle = Data(text.utf8)
        var found: [String] = []
        func check(_ path: String) {
            if let data = FileManager.default.contents(atPath: path), data.range(of: needle) != nil { found.append(path) }
        }
        for root in roots {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else { continue }
            guard isDirectory.boolValue, let walker = FileManager.default.enumerator(atPath: root) else {
                check(root)
                continue
            }
            for case let name as String in walker { check(root + "/" + name) }
        }
        return found
    }
}
