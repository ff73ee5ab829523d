import BlocCore
import StateServer

/// Creates the feature blocs (restoring their stored state) and registers them.
/// Adding a feature is one `registry.register(name, bloc)` line here.
func registerFeatures(in registry: FeatureRegistry, storage: FileStorage, logger: Logger) {
}
