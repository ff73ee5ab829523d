extension BlocBase {
  /// Reports an error found outside a handler (a failed side effect, a validation done by a
  /// caller) to ``onError(_:)`` and the observers, as the bloc's own errors are. The state does
  /// not change and the bloc keeps working.
  ///
  /// ```swift
  /// do { try await upload(bloc.state) } catch { bloc.addError(error) }
  /// ```
  public func addError(_ error: any Error) {
    reportError(error)
  }
}
