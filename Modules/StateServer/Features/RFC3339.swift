/// Times as the protocol writes them: RFC 3339, UTC, with milliseconds
/// (`2026-12-01T19:20:01.123Z`), computed without Foundation.
enum RFC3339 {
  /// `milliseconds` since 1970-01-01T00:00:00Z.
  static func format(milliseconds: Int64) -> String {
    let (seconds, millis) = milliseconds.quotientAndRemainder(dividingBy: 1000)
    let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
    // Before 1970 the remainders are negative: borrow a day (a second) to make them positive.
    var day = days
    var second = secondOfDay
    var milli = millis
    if milli < 0 {
      milli += 1000
      second -= 1
    }
    if second < 0 {
      second += 86_400
      day -= 1
    }
    let (year, month, dayOfMonth) = civil(fromDays: day)
    var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(dayOfMonth, 2)
    text += "T" + pad(second / 3600, 2) + ":" + pad(second % 3600 / 60, 2) + ":"
    text += pad(second % 60, 2) + "." + pad(milli, 3) + "Z"
    return text
  }

  /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
  /// `civil_from_days`).
  static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width
      ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}
