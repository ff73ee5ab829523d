/// Number literals: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
extension JSONCursor {
  @inline(never)
  mutating func parseNumber() throws(JSONError) -> JSON {
    let start = position
    if bytes[position] == .minus { position += 1 }
    guard let first = peek, isDigit(first) else {
      throw unexpected(expected: "a digit after '-'")
    }
    position += 1
    if first == .digit0 {
      if let next = peek, isDigit(next) {
        throw JSONError(.syntax, "leading zeros are not allowed in numbers", at: start)
      }
    } else {
      skipDigits()
    }
    var isInteger = true
    if peek == .dot {
      isInteger = false
      position += 1
      guard let digit = peek, isDigit(digit) else {
        throw unexpected(expected: "a digit after the decimal point")
      }
      skipDigits()
    }
    if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
      isInteger = false
      position += 1
      if peek == .plus || peek == .minus { position += 1 }
      guard let digit = peek, isDigit(digit) else {
        throw unexpected(expected: "a digit in the exponent")
      }
      skipDigits()
    }
    if isInteger, let value = exactInteger(start..<position) { return .integer(value) }
    if let value = fastDouble(start..<position) { return .number(value) }
    let text = String(
      decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      // Quote only the start: a message must never echo a huge input back.
      let shown = text.count > 40 ? "\(text.prefix(40))… (\(text.utf8.count) characters)" : text
      throw JSONError(.syntax, "number \(shown) is out of range", at: start)
    }
    return .number(value)
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte &- .digit0 < 10 }

  private mutating func skipDigits() {
    while position < end && isDigit(bytes[position]) { position += 1 }
  }

  /// The `Int64` spelled by an integer literal, or nil if it overflows or is
  /// `-0` (which becomes `.number(-0.0)` to keep its sign).
  private func exactInteger(_ range: Range<Int>) -> Int64? {
    var index = range.lowerBound
    let negative = bytes[index] == .minus
    if negative { index += 1 }
    // Accumulate negatively so that Int64.min fits.
    var value: Int64 = 0
    while index < range.upperBound {
      let digit = Int64(bytes[index] - .digit0)
      let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (next, overflow2) = times10.subtractingReportingOverflow(digit)
      if overflow1 || overflow2 { return nil }
      value = next
      index += 1
    }
    if negative { return value == 0 ? nil : value }
    return value == .min ? nil : -value
  }

  /// Clinger's fast path: when the decimal significand fits in 53 bits and the
  /// power of ten is at most 22, one IEEE multiply or divide of two exact
  /// values is correctly rounded. Nil when the slow path is needed.
  private func fastDouble(_ range: Range<Int>) -> Double? {
    var index = range.lowerBound
    let negative = bytes[index] == .minus
    if negative { index += 1 }
    var significand: UInt64 = 0
    var digits = 0
    var exponent = 0
    var inFraction = false
    while index < range.upperBound {
      let byte = bytes[index]
      if byte == .dot {
        inFraction = true
      } else if isDigit(byte) {
        if significand != 0 || byte != .digit0 { digits += 1 }
        if digits > 15 { return nil }
        significand = significand * 10 + UInt64(byte - .digit0)
        if inFraction { exponent -= 1 }
      } else {
        break  // 'e' or 'E'
      }
      index += 1
    }
    if index < range.upperBound {
      index += 1
      var exponentSign = 1
      if bytes[index] == .minus || bytes[index] == .plus {
        if bytes[index] == .minus { exponentSign = -1 }
        index += 1
      }
      var written = 0
      while index < range.upperBound {
        written = written * 10 + Int(bytes[index] - .digit0)
        if written > 400 { return nil }
        index += 1
      }
      exponent += exponentSign * written
    }
    guard exponent >= -22 && exponent <= 22 else {
      return significand == 0 ? (negative ? -0.0 : 0.0) : nil
    }
    var value = Double(significand)
    if exponent < 0 {
      value /= powersOfTen[-exponent]
    } else {
      value *= powersOfTen[exponent]
    }
    return negative ? -value : value
  }
}

/// 10^0 … 10^22, all exactly representable as `Double`.
private let powersOfTen: [Double] = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]
