/// Writes the decimal digits of `value` ending just before `end` (at most 20 bytes: the caller
/// has that much room before it); returns where they start.
///
/// The package's one decimal writer: JSON's integers (`JSONWriter`), a journal record's numbers
/// and a reply's id and sequence number are all written by it. Backwards, as the digits come
/// (no pass to count them first), two a step: a division by 100 (a multiplication, compiled)
/// and two bytes of a table.
///
/// ```swift
/// withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
///   let end = buffer.baseAddress! + 20
///   let start = decimalDigits(1234, before: end)  // "1234", end - start == 4
/// }
/// ```
package func decimalDigits(
  _ value: UInt64, before end: UnsafeMutablePointer<UInt8>
) -> UnsafeMutablePointer<UInt8> {
  let pairs = digitPairs.utf8Start
  var start = end
  var rest = value
  while rest >= 100 {
    let pair = Int(truncatingIfNeeded: rest % 100) &* 2
    rest /= 100
    start -= 2
    start[0] = pairs[pair]
    start[1] = pairs[pair &+ 1]
  }
  if rest >= 10 {
    let pair = Int(truncatingIfNeeded: rest) &* 2
    start -= 2
    start[0] = pairs[pair]
    start[1] = pairs[pair &+ 1]
  } else {
    start -= 1
    start[0] = 0x30 &+ UInt8(truncatingIfNeeded: rest)
  }
  return start
}

/// The same for a signed value: its magnitude's digits after `-` when it is negative (at most
/// 20 bytes).
package func decimalDigits(
  _ value: Int64, before end: UnsafeMutablePointer<UInt8>
) -> UnsafeMutablePointer<UInt8> {
  var start = decimalDigits(value.magnitude, before: end)
  if value < 0 {
    start -= 1
    start[0] = 0x2D
  }
  return start
}

/// The two digits of 00 to 99, in order (a literal: no lazily made global to check first).
private var digitPairs: StaticString {
  """
  00010203040506070809101112131415161718192021222324252627282930313233343536373839\
  40414243444546474849505152535455565758596061626364656667686970717273747576777879\
  8081828384858687888990919293949596979899
  """
}
