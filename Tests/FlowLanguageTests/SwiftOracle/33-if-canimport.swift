// #if canImport(Foundation) and a module that does not exist.
#if canImport(Foundation)
import Foundation
print("has Foundation")
#endif
#if canImport(NoSuchModuleAnywhere)
print("impossible")
#else
print("no such module")
#endif
