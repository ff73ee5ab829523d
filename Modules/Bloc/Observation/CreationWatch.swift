/// Shows a test harness every bloc created in the current task as it is created, before any
/// event can reach it, so a recorder installed there misses nothing.
@_spi(Testing) public enum CreationWatch {
  /// Called with each bloc or cubit created while it is bound (see `TaskLocal.withValue`).
  @TaskLocal public static var onCreate: (@Sendable (AnyObject) -> Void)?
}
