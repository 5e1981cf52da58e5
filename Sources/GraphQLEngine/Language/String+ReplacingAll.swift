extension String {
    /// Every occurrence of `target` replaced, scanning left to right (no Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        let text = Array(utf8)
        let pattern = Array(target.utf8)
        guard !pattern.isEmpty, text.count >= pattern.count else { return self }
        var output: [UInt8] = []
        var index = 0
        var changed = false
        while index < text.count {
            if index + pattern.count <= text.count && text[index] == pattern[0]
                && text[index..<(index + pattern.count)].elementsEqual(pattern)
            {
                output.append(contentsOf: replacement.utf8)
                index += pattern.count
                changed = true
            } else {
                output.append(text[index])
                index += 1
            }
        }
        return changed ? String(decoding: output, as: UTF8.self) : self
    }
}
